"""The queue of what the rules still have to do in a turn, and who moves next.

A task is a tuple whose first item names it.  Deterministic tasks (placing a guest, an
ability's effect, the end of a turn) run at once; the others wait for a chance event
(``draw``, ``start``, ``reveal``, ``guest``) or for a player's decision (``assign``, ``serve``,
``jokers``, ``arrow``, ``discard``, ``flower``, ``return``).
"""

from __future__ import annotations

from .state import evolve as replace

from ..common import CHANCE
from .catalogue import ANY_JOKER, BROWN, BROWN_JOKER, FIELDS, FIELDS_PER_ROW, NO_CUBES, ROWS
from .rulebook import (card_of, gain_lemon, has_guest, missing_of, need_of, over_limit,
                       place_guest, tiles_available)
from .state import State

CHANCE_TASKS = ("draw", "start", "reveal", "guest")
DECISION_TASKS = ("assign", "serve", "jokers", "arrow", "discard", "flower", "return")


def chooser(state: State) -> int:
    """Who decides the task at the head of the queue (or acts, when it is empty)."""
    if state.over or not state.tasks:
        return state.active
    head = state.tasks[0]
    if head[0] in CHANCE_TASKS:
        return CHANCE
    if head[0] == "assign":
        return state.active
    return head[1]


def joker_feasible(supply: tuple[int, ...], missing: int) -> bool:
    """Can ``missing`` jokers be paid from ``supply`` (each 2 browns or 4 cubes of any colour)?"""
    pairs = min(missing, supply[BROWN] // BROWN_JOKER)
    return sum(supply) - BROWN_JOKER * pairs >= ANY_JOKER * (missing - pairs)


def joker_candidates(state: State, player: int) -> list[int]:
    """Slots of guests that may receive a joker now: 'These jokers are only assigned to a guest when
    doing so fulfills that guest's order' (option jokers: all together, or each one alone)."""
    strip = state.strips[player]
    supply = state.supply[player]
    started = [s for s, g in enumerate(strip) if g is not None and g.jokers > 0]
    if started:
        return started
    out = []
    for slot, guest in enumerate(strip):
        if guest is None:
            continue
        missing = missing_of(card_of(state, guest.card), guest)
        if state.options.jokers == "each" and missing != 1:
            continue
        if missing >= 1 and joker_feasible(supply, missing):
            out.append(slot)
    return out


def can_place(state: State, player: int) -> bool:
    """Is some cube of the supply wanted by an open order field?"""
    supply = state.supply[player]
    for guest in state.strips[player]:
        if guest is not None:
            need = need_of(card_of(state, guest.card), guest)
            if any(s > 0 and n > 0 for s, n in zip(supply, need)):
                return True
    return False


def can_discard(state: State, player: int) -> bool:
    return bool(sum(state.supply[player]) or state.tiles[player]
                or any(g is not None and sum(g.cubes) for g in state.strips[player]))


def _ability(state: State, player: int, card_id: str, rest: tuple) -> State:
    """'Whenever a guest enters a ristorante, their corresponding special ability is executed
    immediately.'"""
    ability = card_of(state, card_id).ability
    serve_now = ((("serve", player),) if state.options.ability_dice == "immediately" and player != state.active
                 else ())
    if ability == "die":
        todo = (("draw", "supply", player),) + serve_now
    elif ability == "two_dice":
        todo = (("draw", "supply", player),) * 2 + serve_now
    elif ability == "lemon":
        return replace(gain_lemon(state, player), tasks=rest)
    else:  # flower, arrow, discard, guest: a decision or a card draw
        todo = ((ability, player),)
    return replace(state, tasks=todo + rest)


def _end_of_turn(state: State, rest: tuple) -> State:
    """'If, at the end of a turn, all the fields of one row of the marketplace are empty, those fields
    are refilled with food dice drawn face down from the bag. Empty fields in other rows are not
    refilled.'"""
    draws: list[tuple] = []
    for row in range(ROWS):
        fields = range(row * FIELDS_PER_ROW, (row + 1) * FIELDS_PER_ROW)
        if all(sum(state.market[f]) == 0 for f in fields):
            for f in fields:
                draws.extend([("draw", "field", f)] * (row + 1))
    returns: tuple = ()
    if state.options.ten_dice_check == "end_of_turn" and sum(state.bag) == 0 and sum(state.used) == 0:
        returns = tuple(("return", p) for p in over_limit(state))
    return replace(state, tasks=tuple(draws) + returns + (("next",),) + rest)


def _next_turn(state: State, rest: tuple) -> State:
    """'After this turn, every player (including the one who triggered the end) gets exactly one more
    turn'; then play passes clockwise."""
    final = state.final_turns
    if state.end_triggered and final < 0:
        final = state.players
    elif final > 0:
        final -= 1
    return replace(state, tasks=rest, final_turns=final, over=final == 0,
                   active=(state.active + 1) % state.players, turn=state.turn + 1,
                   given=(0,) * state.players, revealed=None)


def _decision_ready(state: State, head: tuple) -> bool:
    kind, player = head[0], head[1] if len(head) > 1 else state.active
    if kind == "assign":
        return True
    if kind == "arrow":
        return has_guest(state, player)
    if kind == "discard":
        return can_discard(state, player)
    if kind == "flower":
        return state.tiles[player] < 0 or tiles_available(state, flower=True)
    if kind == "return":
        return player in over_limit(state)
    if kind == "jokers":
        return bool(joker_candidates(state, player))
    raise AssertionError(kind)


def advance(state: State) -> State:
    """Run deterministic tasks until a chance event or a decision is due; set ``to_move``."""
    while True:
        if state.over or not state.tasks:
            break
        head, rest = state.tasks[0], state.tasks[1:]
        kind = head[0]
        if kind == "draw":
            if sum(state.bag) == 0:
                state = _bag_empty(state, head, rest)
                continue
            break
        if kind in ("start", "reveal", "guest"):
            pool = (state.starts if kind == "start" else state.unseen)
            if not pool:
                state = replace(state, tasks=rest)
                continue
            break
        if kind == "place":
            state = place_guest(state, head[1], head[2])
            state = replace(state, tasks=(("ability", head[1], head[2]),) + rest)
        elif kind == "ability":
            state = _ability(state, head[1], head[2], rest)
        elif kind == "serve":
            if can_place(state, head[1]):
                break
            state = replace(state, tasks=(("jokers", head[1]),) + rest)
        elif kind == "end_turn":
            state = _end_of_turn(state, rest)
        elif kind == "next":
            state = _next_turn(state, rest)
        elif kind in DECISION_TASKS:
            if _decision_ready(state, head):
                break
            state = replace(state, tasks=rest)
        else:
            raise AssertionError(f"unknown task {head!r}")
    who = chooser(state)
    return state if who == state.to_move else replace(state, to_move=who)


def _bag_empty(state: State, head: tuple, rest: tuple) -> State:
    """'When the bag is empty, all food dice collected next to the marketplace are placed back in the
    bag.'  When none are there either: 'every player who has more than 10 food dice in their supply
    must place dice of their choice back in the bag until they have only 10 left'; a draw that still
    finds no die is skipped."""
    if sum(state.used) > 0:
        return replace(state, bag=state.used, used=NO_CUBES)
    if len(head) == 3 and state.options.ten_dice_check == "when_short":
        returns = tuple(("return", p) for p in over_limit(state))
        if returns:
            return replace(state, tasks=returns + (head + ("short",),) + rest)
    return replace(state, tasks=rest)


def setup_tasks(players: int) -> tuple[tuple, ...]:
    """Setup, in the rulebook's order: start cards (and their dice), the marketplace, then serving."""
    tasks: list[tuple] = []
    for p in range(players):
        tasks += [("start", p, 0), ("start", p, 1)]
    for f in range(FIELDS):
        tasks += [("draw", "field", f)] * (f // FIELDS_PER_ROW + 1)
    tasks += [("serve", p) for p in range(players)]
    return tuple(tasks)

