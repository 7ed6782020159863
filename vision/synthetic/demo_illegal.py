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
- **Da Luigi**: the active player shops against the rules, one of :data:`DALUIGI_KINDS` drawn
  at random: takes a market field without pushing guests for its clocks (``unpaid``), takes
  the dice of a second field as well (``two_fields``), or pays a clock by pushing a guest over
  its right-hand neighbour onto the free field beyond (``jumped``). The dice stay in the supply,
  the guests where they were pushed, and the turn runs on from there as the engine runs it
  (serving, the refill of empty rows), as it continues from the referee's position as seen.
  The rate counts turn actions (``shop``, ``welcome``, ``pass``): a turn is one action.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable

from tableref.rules import ligretto as _lig
from tableref.rules.common import CHANCE
from tableref.rules.daluigi import Move as DaLuigiMove
from tableref.rules.daluigi import apply as daluigi_apply
from tableref.rules.daluigi import legal_moves as daluigi_legal
from tableref.rules.daluigi.actions import pay_time
from tableref.rules.daluigi.catalogue import FIELDS, NO_CUBES, SLOTS, clocks_of
from tableref.rules.daluigi.legal import push_options
from tableref.rules.daluigi.rulebook import add, set_at
from tableref.rules.daluigi.state import evolve
from tableref.rules.daluigi.tasks import advance
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


# --- Da Luigi ----------------------------------------------------------------------------------

#: Da Luigi's kinds of illegal shopping -> the reason code the referee reports for it.
DALUIGI_KINDS: dict[str, str] = {
    "unpaid": "daluigi.unpaid",
    "two_fields": "daluigi.one_field",
    "jumped": "daluigi.field_not_free",
}
#: Da Luigi's turn actions (one per turn; the rate of illegal placements counts these).
DALUIGI_ACTIONS = ("shop", "welcome", "pass")


def _run_on(state):
    """Run the turn on as the engine does: moves that are the only legal one are made, up to the
    next chance event or real choice."""
    state = advance(state)
    while not state.over and state.to_move != CHANCE:
        moves = daluigi_legal(state)
        if len(moves) != 1:
            break
        state = daluigi_apply(state, moves[0])
    return state


def _take(state, player: int, fields) -> Any:
    """``player`` puts the dice of ``fields`` into their supply; serving and the end of the turn follow."""
    market, supply = state.market, state.supply[player]
    for f in fields:
        supply, market = add(supply, market[f]), set_at(market, f, NO_CUBES)
    taken = evolve(state, market=market, supply=set_at(state.supply, player, supply),
                   tasks=(("serve", player), ("end_turn",)))
    return _run_on(taken)


def _seats(state, player: int) -> list[str | None]:
    return [g.card if g is not None else None for g in state.strips[player]]


def _unpaid(state, rng: random.Random) -> tuple[DaLuigiMove, Any] | None:
    """A field with clocks taken, no guest pushed.  Only where every guest of the player stays
    where it lay (none served away), so that no legal purchase shows the same table."""
    p = state.active
    fields = [f for f in range(FIELDS) if clocks_of(f) > 0 and sum(state.market[f])]
    rng.shuffle(fields)
    for f in fields:
        after = _take(state, p, (f,))
        if _seats(after, p) == _seats(state, p):
            return DaLuigiMove("shop", p, field=f, pushes=()), after
    return None


def _two_fields(state, rng: random.Random) -> tuple[DaLuigiMove, Any] | None:
    """A legal purchase (the move names it), and the dice of a second field taken along."""
    shops = [m for m in daluigi_legal(state) if m.type == "shop"]
    if not shops:
        return None
    move = rng.choice(shops)
    others = [f for f in range(FIELDS) if f != move.field and sum(state.market[f])]
    if not others:
        return None
    paid = pay_time(state, move.player, move.pushes, clocks_of(move.field))
    return move, _take(paid, move.player, (move.field, rng.choice(others)))


def _jumped(state, rng: random.Random) -> tuple[DaLuigiMove, Any] | None:
    """One clock paid by pushing a guest over the guest on its right onto the free field beyond, the
    other clocks paid legally.  Only where both guests stay on the strip, passed (so it shows)."""
    p = state.active
    strip = state.strips[p]
    jumps = [s for s in range(SLOTS - 2) if strip[s] is not None and strip[s + 1] is not None and strip[s + 2] is None]
    fields = [f for f in range(FIELDS) if clocks_of(f) > 0 and sum(state.market[f])]
    tries = [(s, f) for s in jumps for f in fields]
    rng.shuffle(tries)
    for s, f in tries:
        jumper, passed = strip[s].card, strip[s + 1].card
        jumped = evolve(state, strips=set_at(state.strips, p, set_at(set_at(strip, s, None), s + 2, strip[s])))
        rest = push_options(jumped.strips[p], clocks_of(f) - 1, False)
        if not rest:
            continue
        pushes = rng.choice(rest)
        after = _take(pay_time(jumped, p, pushes, clocks_of(f) - 1), p, (f,))
        seats = _seats(after, p)
        if jumper in seats and passed in seats and seats.index(jumper) > seats.index(passed):
            return DaLuigiMove("shop", p, field=f, pushes=(jumper,) + pushes), after
    return None


_DALUIGI_MAKERS = {"unpaid": _unpaid, "two_fields": _two_fields, "jumped": _jumped}


def _daluigi(state, rng: random.Random, last: Any) -> Illegal | None:
    """The turn's action made as a purchase that breaks one shopping rule, the rule drawn at random."""
    if state.phase != "action" or state.to_move != state.active:
        return None
    kinds = list(DALUIGI_KINDS)
    rng.shuffle(kinds)
    for kind in kinds:
        made = _DALUIGI_MAKERS[kind](state, rng)
        if made is not None:
            move, after = made
            return Illegal(move, after, DALUIGI_KINDS[kind], kind, move.player)
    return None


#: game -> maker(state, rng, last player move) -> Illegal or None.
MAKERS: dict[str, Callable[[Any, random.Random, Any], Illegal | None]] = {
    "dolcevita": _dolcevita,
    "ligretto": _ligretto,
    "daluigi": _daluigi,
}

#: game -> the move types that put a piece down (the rate of illegal placements counts these).
PLACEMENTS: dict[str, tuple[type, ...]] = {
    "dolcevita": (DolceVitaPlace,),
    "ligretto": (_lig.Place, _lig.PlaceJoker),
    "daluigi": (DaLuigiMove,),
}
#: game -> the ``type`` a move of :data:`PLACEMENTS` must also have, for games with one move record.
PLACEMENT_TYPES: dict[str, tuple[str, ...]] = {
    "daluigi": DALUIGI_ACTIONS,
}


def is_placement(game: str, move: Any) -> bool:
    """Whether ``move`` puts a piece down, or is the turn's action in Da Luigi (for the games
    that have illegal placements: the rate of illegal placements counts these)."""
    if not isinstance(move, PLACEMENTS.get(game, ())):
        return False
    return game not in PLACEMENT_TYPES or move.type in PLACEMENT_TYPES[game]
