"""Every legal move of a state (for chance nodes: every possible event)."""

from __future__ import annotations

from itertools import product
from typing import Iterator

from ..common import CHANCE
from .catalogue import ANY_JOKER, BROWN, BROWN_JOKER, COLOURS, FIELDS, SLOTS, SUPPLY_LIMIT, clocks_of
from .moves import Move
from .rulebook import card_of, has_guest, missing_of, need_of, sub, tiles_available
from .state import State
from .tasks import joker_candidates, joker_feasible


def multisets(limit: tuple[int, ...], size: int) -> Iterator[tuple[int, ...]]:
    """Count vectors of ``size`` cubes, each colour at most ``limit``."""
    def rec(i: int, left: int, acc: tuple[int, ...]):
        if i == len(limit) - 1:
            if left <= limit[i]:
                yield acc + (left,)
            return
        for k in range(min(left, limit[i]), -1, -1):
            yield from rec(i + 1, left - k, acc + (k,))
    if size <= sum(limit):
        yield from rec(0, size, ())


def names(counts: tuple[int, ...]) -> tuple[str, ...]:
    return tuple(c for c, n in zip(COLOURS, counts) for _ in range(n))


def push_options(strip: tuple, clocks: int, extra: bool) -> list[tuple[str, ...]]:
    """Push sequences paying ``clocks`` (one per distinct outcome): each step moves one guest onto a
    free field or past "10"; with ``extra`` further push-outs need no clock."""
    cards = tuple(g.card if g is not None else None for g in strip)
    found: dict[tuple, tuple[str, ...]] = {}

    def rec(cur: tuple, seq: tuple[str, ...], paying: int) -> None:
        if len(seq) >= clocks and (len(seq) == clocks or extra):
            found.setdefault(cur, seq)
        if not extra and len(seq) == clocks:
            return
        for slot in range(SLOTS):
            card = cur[slot]
            if card is None:
                continue
            if slot == SLOTS - 1:
                if extra or len(seq) < clocks:
                    rec(cur[:slot] + (None,), seq + (card,), paying)
            elif cur[slot + 1] is None and paying < clocks and (extra or len(seq) < clocks):
                rec(cur[:slot] + (None, card) + cur[slot + 2:], seq + (card,), paying + 1)

    rec(cards, (), 0)
    return list(found.values())


def shop_moves(state: State, player: int) -> list[Move]:
    from .actions import shop_allowed_without_guest
    guests = has_guest(state, player)
    extra = state.options.voluntary_push_out == "extra"
    by_clocks: dict[int, list] = {}
    out = []
    for field in range(FIELDS):
        if sum(state.market[field]) == 0 or not (guests or shop_allowed_without_guest(state, field)):
            continue
        clocks = clocks_of(field)
        if clocks not in by_clocks:
            by_clocks[clocks] = push_options(state.strips[player], clocks, extra)
        out.extend(Move("shop", player, field=field, pushes=seq) for seq in by_clocks[clocks])
    return out


def action_moves(state: State) -> list[Move]:
    p = state.active
    shops = shop_moves(state, p)
    if state.end_triggered:
        return shops or [Move("pass", p)]
    return shops + [Move("welcome", p)]


def _compositions(k: int, caps: list[int]) -> Iterator[tuple[int, ...]]:
    if not caps:
        if k == 0:
            yield ()
        return
    for first in range(min(k, caps[0]), -1, -1):
        if k - first <= sum(caps[1:]):
            for rest in _compositions(k - first, caps[1:]):
                yield (first,) + rest


def serve_moves(state: State, player: int) -> list[Move]:
    """Every way to place all needed dice ('The player decides which food die goes to which guest')."""
    guests = [(g.card, need_of(card_of(state, g.card), g)) for g in state.strips[player] if g is not None]
    supply = state.supply[player]
    per_colour = []
    for c, colour in enumerate(COLOURS):
        caps = [need[c] for _, need in guests]
        k = min(supply[c], sum(caps))
        per_colour.append([(colour, split) for split in _compositions(k, caps)])
    out = []
    for combo in product(*per_colour):
        place = []
        for colour, split in combo:
            for (card, _), n in zip(guests, split):
                place.extend([(card, colour)] * n)
        out.append(Move("serve", player, place=tuple(sorted(place))))
    return out


def joker_moves(state: State, player: int) -> list[Move]:
    supply = state.supply[player]
    out = []
    for slot in joker_candidates(state, player):
        guest = state.strips[player][slot]
        left = missing_of(card_of(state, guest.card), guest) - 1
        pays = list(multisets(supply, ANY_JOKER))
        if supply[BROWN] >= BROWN_JOKER:
            pays.insert(0, tuple(BROWN_JOKER if i == BROWN else 0 for i in range(len(COLOURS))))
        out.extend(Move("joker", player, guest=guest.card, pay=names(pay)) for pay in pays
                   if joker_feasible(sub(supply, pay), left))
    if not any(g is not None and g.jokers for g in state.strips[player]):
        out.append(Move("done", player))
    return out


def arrow_moves(state: State, player: int) -> list[Move]:
    strip = state.strips[player]
    chain = state.options.arrow_target == "chain"
    return [Move("arrow", player, guest=g.card) for s, g in enumerate(strip)
            if g is not None and (chain or s == SLOTS - 1 or strip[s + 1] is None)]


def discard_moves(state: State, player: int) -> list[Move]:
    out = [Move("discard", player, what="cube", colour=c) for c, n in zip(COLOURS, state.supply[player]) if n]
    for g in state.strips[player]:
        if g is not None:
            out.extend(Move("discard", player, what="cube", colour=c, guest=g.card)
                       for c, n in zip(COLOURS, g.cubes) if n)
    if state.tiles[player] > 0:
        out.append(Move("discard", player, what="flower"))
    if state.tiles[player] < 0:
        out.append(Move("discard", player, what="lemon"))
    return out


def return_moves(state: State, player: int) -> list[Move]:
    supply = state.supply[player]
    return [Move("return", player, cubes=names(m)) for m in multisets(supply, sum(supply) - SUPPLY_LIMIT)]


def give_moves(state: State) -> list[Move]:
    a = state.active
    return [Move("give", a, to=q) for q in range(state.players) if state.given[q] < (2 if q == a else 1)]


def chance_moves(state: State) -> list[Move]:
    if state.tasks[0][0] == "draw":
        return [Move("cube", CHANCE, colour=c) for c, n in zip(COLOURS, state.bag) if n]
    from .actions import card_pool
    return [Move("card", CHANCE, card=c) for c in card_pool(state)]


def enumerate_moves(state: State) -> list[Move]:
    if state.over:
        return []
    if state.to_move == CHANCE:
        return chance_moves(state)
    phase = state.phase
    if phase == "action":
        return action_moves(state)
    p = state.to_move
    if phase == "assign":
        return give_moves(state)
    if phase == "serve":
        return serve_moves(state, p)
    if phase == "jokers":
        return joker_moves(state, p)
    if phase == "arrow":
        return arrow_moves(state, p)
    if phase == "discard":
        return discard_moves(state, p)
    if phase == "flower":
        can = state.tiles[p] < 0 or tiles_available(state, flower=True)
        return ([Move("flower", p, take=True)] if can else []) + [Move("flower", p, take=False)]
    if phase == "return":
        return return_moves(state, p)
    raise AssertionError(phase)
