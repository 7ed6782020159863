"""Recognisers: image -> Observation for one game, looked up by game name.

A recogniser is any object with the two methods of :class:`Recogniser`. The vision package
provides one per game as it is written; they are listed in :data:`BUILTIN` (game name ->
``"module:factory"``, imported on first use) so the session never imports a game's detectors
before it needs them. :func:`register_recogniser` adds or overrides one at run time (a
plugin given to ``tableref serve --plugin``, a test). Until a game has a recogniser, a session
cannot start that game and :func:`recogniser_for` says so.
"""

from __future__ import annotations

import importlib
import threading
from typing import Any, Callable, Protocol, Sequence, runtime_checkable

import numpy as np

from ..calibration.profile import Profile
from ..input import InputError
from ..rules import GAMES
from ..rules.common import Violation


class NoRecogniser(InputError):
    """No recogniser is available for a game (yet)."""


@runtime_checkable
class Recogniser(Protocol):
    """What the live session needs from a game's recognition.

    ``recognise(image, profile)`` reads one camera frame (BGR uint8, shape (H, W, 3), as it
    comes from the source) with the table's calibration profile (None when there is none)
    and returns the game's ``Observation`` (the type of ``tableref.rules.<game>``); it may
    raise ``tableref.vision.errors.VisionError`` for a frame it cannot read.

    ``annotate(image, observation, flags)`` returns a copy of ``image`` with the recognised
    items outlined and labelled and the pieces named by ``flags`` (rule violations, whose
    ``pieces`` use the game's item names) outlined in red.

    A recogniser that reads better for knowing how many play has a ``players`` attribute; the
    session sets it when a game starts (:func:`tell_players`).
    """

    def recognise(self, image: np.ndarray, profile: Profile | None) -> Any: ...

    def annotate(self, image: np.ndarray, observation: Any, flags: Sequence[Violation]) -> np.ndarray: ...


RecogniserFactory = Callable[[], Recogniser]


def tell_players(recogniser: Recogniser, players: int) -> None:
    """Tell ``recogniser`` the number of players of the game in play, where it has a
    ``players`` attribute (Ligretto's reads only the border styles they play)."""
    if hasattr(recogniser, "players"):
        recogniser.players = players


#: Recognisers shipped with tableref, by game: "module:factory".
BUILTIN: dict[str, str] = {
    "dolcevita": "tableref.vision.recognise.dolcevita_live:live_recogniser",
    "daluigi": "tableref.vision.recognise.daluigi_live:live_recogniser",
    "ligretto": "tableref.vision.recognise.ligretto:recogniser",
}

_registry: dict[str, RecogniserFactory] = {}
_lock = threading.Lock()


def _check_game(game: str) -> str:
    if game not in GAMES:
        raise NoRecogniser(f"unknown game {game!r}; choose one of {', '.join(sorted(GAMES))}")
    return game


def register_recogniser(game: str, factory: RecogniserFactory, *, replace: bool = False) -> None:
    """Make ``factory()`` the recogniser of ``game`` (a name in ``tableref.rules.GAMES``)."""
    _check_game(game)
    if not callable(factory):
        raise NoRecogniser(f"the recogniser factory for {game!r} must be callable, got {type(factory).__name__}")
    with _lock:
        if game in _registry and not replace:
            raise NoRecogniser(f"a recogniser for {game!r} is already registered (pass replace=True to replace it)")
        _registry[game] = factory


def unregister_recogniser(game: str) -> None:
    """Forget a registered recogniser (no error when there is none)."""
    with _lock:
        _registry.pop(game, None)


def recognisable_games() -> tuple[str, ...]:
    """Games that have a recogniser (registered or built in), sorted."""
    with _lock:
        names = set(_registry) | set(BUILTIN)
    return tuple(sorted(names))


def recogniser_for(game: str) -> Recogniser:
    """A new recogniser for ``game``.

    Raises
    ------
    NoRecogniser
        The game is unknown, has no recogniser yet, or its factory failed to build one.
    """
    _check_game(game)
    with _lock:
        factory = _registry.get(game)
    if factory is None:
        target = BUILTIN.get(game)
        if target is None:
            have = recognisable_games()
            raise NoRecogniser(f"tableref cannot recognise {game} from the camera yet (no recogniser for it); "
                               + (f"games it can referee live: {', '.join(have)}" if have else
                                  "no game has a recogniser in this installation")
                               + "; `tableref rules` referees any game from JSON observations")
        module_name, _, attr = target.partition(":")
        factory = getattr(importlib.import_module(module_name), attr)
    recogniser = factory()
    if not isinstance(recogniser, Recogniser):
        raise NoRecogniser(f"the recogniser for {game!r} lacks recognise() or annotate(): got {type(recogniser).__name__}")
    return recogniser
