"""Game states on the table: from a rules state to a layout, and from a render to the
observation a perfect recogniser would make.

``scene_for(game, state)`` lays a state out as the rulebook's setup and play describe;
``perfect_observation(scene, render)`` turns the render's ground truth into the game's
``Observation`` (items it can see, confidence 1; hidden ones unknown); ``random_state(game,
seed)`` draws a state from a random playout, so renders cover every phase of a game.
See docs/rendering.md, "Game scenes".
"""

from __future__ import annotations

import random
from types import ModuleType
from typing import Any

from tableref.rules import daluigi as _dl_rules
from tableref.rules import dolcevita as _dv_rules
from tableref.rules import ligretto as _lig_rules
from tableref.rules.common import CHANCE

from ..errors import LayoutError
from ..scene import Render
from . import daluigi, dolcevita, ligretto
from .scene import SEEN_SHARE, GameScene, Seen, is_foreign, seen_shares

#: game name -> (rules module, scene module).
_GAMES: dict[str, tuple[ModuleType, ModuleType]] = {
    "daluigi": (_dl_rules, daluigi),
    "dolcevita": (_dv_rules, dolcevita),
    "ligretto": (_lig_rules, ligretto),
}

#: The games that can be rendered as scenes.
GAMES: tuple[str, ...] = tuple(sorted(_GAMES))


def rules_of(game: str) -> ModuleType:
    """The rules engine module of ``game``."""
    return _entry(game)[0]


def _entry(game: str) -> tuple[ModuleType, ModuleType]:
    if game not in _GAMES:
        raise LayoutError(f"unknown game {game!r}: use one of {', '.join(GAMES)}")
    return _GAMES[game]


#: The options of a game's layout that :func:`scene_for` takes (Ligretto's board may lie turned
#: and off the table's middle).
SCENE_OPTIONS: dict[str, frozenset[str]] = {"ligretto": frozenset({"board_turn_deg", "board_shift_mm"})}


def scene_for(game: str, state: Any, **options: Any) -> GameScene:
    """Lay ``state`` of ``game`` out on the table (``options``: those of its layout,
    :data:`SCENE_OPTIONS`).

    Returns
    -------
    GameScene
        The layout (every part with an ident naming its game item) and the regions of places
        that may lie empty.
    """
    module = _entry(game)[1]
    unknown = sorted(set(options) - SCENE_OPTIONS.get(game, frozenset()))
    if unknown:
        raise LayoutError(f"{game} scenes take no option {', '.join(unknown)} "
                          f"(they take: {', '.join(sorted(SCENE_OPTIONS.get(game, ()))) or 'none'})")
    return module.scene(state, **options)


def perfect_observation(scene: GameScene, result: Render) -> Any:
    """The observation a perfect recogniser makes of ``result``, a render of ``scene.layout``:
    every item of ``rules.observe(state)`` that shows, and unknown where a hand or a distractor
    hides more than half of it (or it lies outside the image)."""
    return observation_of(scene, seen_shares(scene, result))


def observation_of(scene: GameScene, seen: Seen) -> Any:
    """The perfect observation of ``scene`` given what of it shows (:func:`seen_shares`)."""
    return _entry(scene.game)[1].observation(scene, seen)


def random_state(game: str, seed: int, players: int | None = None) -> Any:
    """A state from a random legal game of ``game``: the number of players (when not given)
    and the moment of the game are drawn from ``seed``, each moment of the playout alike."""
    rules = rules_of(game)
    rng = random.Random(seed)
    n = players if players is not None else rng.randint(rules.MIN_PLAYERS, rules.MAX_PLAYERS)
    state = rules.new_game(n, None, seed)
    states = [state]
    while not rules.is_over(state):
        if state.to_move == CHANCE:
            move = rules.sample_chance(state, rng)
        else:
            legal = rules.legal_moves(state)
            move = legal[rng.randrange(len(legal))]
        state = rules.apply(state, move)
        states.append(state)
    return states[rng.randrange(len(states))]


__all__ = ["GAMES", "SEEN_SHARE", "GameScene", "Seen", "is_foreign", "observation_of", "perfect_observation", "random_state",
           "rules_of", "scene_for", "seen_shares"]
