"""Illegal placements the demo mixes into its games, one maker per game.

A maker takes the state before a player's turn, a seeded generator and the last player move,
and returns an :class:`Illegal` (the move, the state with the piece lying where it was put,
the reason code the referee should report and the player) or None when the state offers no
such placement. The piece stays as placed: the referee flags it and the game goes on from
there, as at a real table where the players decide later.

- **Dolce Vita**: a player places a number card out of turn, either right after their own
  placement ("twice") or in another player's turn ("out_of_turn"); the rules continue from it
  with the turn unchanged (``engine.place_card``). Reason ``dolcevita.not_your_turn``.
- **Ligretto**: one of :data:`tableref.rules.ligretto.ILLEGAL_KINDS`, chosen at random, made by
  :func:`tableref.rules.ligretto.illegal_placement` and put down with ``place_anyway``.
- **Da Luigi**: none yet (the demo plays it legally).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable

from tableref.rules import ligretto as _lig
from tableref.rules.dolcevita.catalogue import COLUMNS
from tableref.rules.dolcevita.engine import column_is_open, place_card
from tableref.rules.dolcevita.state import PLACE
from tableref.rules.dolcevita.state import Place as DolceVitaPlace

#: Share of Dolce Vita's illegal placements made by the player who has just placed.
TWICE_SHARE = 0.5


@dataclass(frozen=True)
class Illegal:
    """An illegal placement as it was made: ``move`` by ``player``, ``after`` the state with
    the piece lying where it was put, ``code`` the reason the referee should report, ``kind``
    how it was made (e.g. ``"twice"``, ``"colours_mismatch"``)."""

    move: Any
    after: Any
    code: str
    kind: str
    player: int


def _dolcevita(state, rng: random.Random, last: Any) -> Illegal | None:
    """A number card placed out of turn by a player who still places this round."""
    if state.phase != PLACE:
        return None
    others = [p for p in range(state.players) if p != state.to_move and len(state.hands[p]) > 1]
    columns = [c for c in range(COLUMNS) if column_is_open(state, c)]
    if not others or not columns:
        return None
    previous = last.player if isinstance(last, DolceVitaPlace) else None
    if previous in others and rng.random() < TWICE_SHARE:
        player, kind = previous, "twice"
    else:
        player, kind = rng.choice(others), "out_of_turn"
    value = rng.choice(state.hands[player])
    column = rng.choice(columns)
    after = place_card(state, player, value, column)
    return Illegal(DolceVitaPlace(player, value, column), after, "dolcevita.not_your_turn", kind, player)


def _ligretto(state, rng: random.Random, last: Any) -> Illegal | None:
    """A card or joker that breaks one placement rule, the rule drawn at random."""
    kinds = list(_lig.ILLEGAL_KINDS)
    rng.shuffle(kinds)
    for kind in kinds:
        move = _lig.illegal_placement(state, rng, kind)
        if move is None:
            continue
        after, faults = _lig.place_anyway(state, move)
        return Illegal(move, after, faults[0].code, kind, move.player)
    return None


#: game -> maker(state, rng, last player move) -> Illegal or None.
MAKERS: dict[str, Callable[[Any, random.Random, Any], Illegal | None]] = {
    "dolcevita": _dolcevita,
    "ligretto": _ligretto,
}

#: game -> the move types that put a piece down (the rate of illegal placements counts these).
PLACEMENTS: dict[str, tuple[type, ...]] = {
    "dolcevita": (DolceVitaPlace,),
    "ligretto": (_lig.Place, _lig.PlaceJoker),
}


def is_placement(game: str, move: Any) -> bool:
    """Whether ``move`` puts a piece down (for the games that have illegal placements)."""
    return isinstance(move, PLACEMENTS.get(game, ()))
