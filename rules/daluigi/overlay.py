"""The position as seen: a state with the confident observed items written over it.

Used when no legal sequence explains an observation: the game continues from what lies on
the table ("as far as the game can represent it").  Cubes stay conserved where possible: the
hidden bag absorbs the difference, then the used pile.
"""

from __future__ import annotations

from dataclasses import replace

from .catalogue import COLOURS, CUBE_COUNTS, FIELDS, SLOTS, cubes_from_label
from .observation import UNKNOWN, Observation
from .rulebook import add, sub
from .state import Guest, State


def _confident(observation: Observation, doubt: float) -> dict[str, str]:
    return {it.where: it.label for it in observation.items if it.label != UNKNOWN and it.confidence >= doubt}


def overlay(state: State, observation: Observation, doubt: float) -> State:
    seen = _confident(observation, doubt)
    n = state.players
    market = tuple(cubes_from_label(seen[f"market:{f}"], "market") if f"market:{f}" in seen else state.market[f]
                   for f in range(FIELDS))
    supply = tuple(cubes_from_label(seen[f"supply:{p}"], "supply") if f"supply:{p}" in seen else state.supply[p]
                   for p in range(n))
    old_cards = {g.card: g for strip in state.strips for g in strip if g is not None}
    strips = []
    for p in range(n):
        strip = []
        for s in range(SLOTS):
            here = state.strips[p][s]
            card = seen.get(f"slot:{p}:{s}", here.card if here else "")
            if not card:
                strip.append(None)
                continue
            base = old_cards.get(card)
            order = seen.get(f"order:{p}:{s}")
            cubes = cubes_from_label(order, "order") if order is not None else (base.cubes if base else (0,) * 6)
            strip.append(Guest(card, cubes, base.jokers if base else 0))
        strips.append(tuple(strip))
    on_strips = {g.card for strip in strips for g in strip if g is not None}
    gone = [g for c, g in old_cards.items() if c not in on_strips]
    served = [list(s) for s in state.served]
    discard = [c for c in state.discard if c not in on_strips]
    used = state.used
    for g in gone:
        owner = next(p for p in range(n) for x in state.strips[p] if x is not None and x.card == g.card)
        want = seen.get(f"served:{owner}")
        if want is not None and int(want) > len(served[owner]):
            served[owner].append(g.card)
        else:
            discard.append(g.card)
        used = add(used, g.cubes)
    tiles = list(state.tiles)
    for p in range(n):
        lemons, flowers = seen.get(f"lemons:{p}"), seen.get(f"flowers:{p}")
        if lemons is not None or flowers is not None:
            tiles[p] = int(flowers or max(0, tiles[p])) - int(lemons or max(0, -tiles[p]))
    moved = sum(abs(t) for t in tiles) - sum(abs(t) for t in state.tiles)
    lemons_left = max(0, state.market_lemons - max(0, moved))
    flowers_left = max(0, state.market_flowers - max(0, moved - state.market_lemons))
    if moved < 0:
        lemons_left = state.market_lemons - moved
    visible = market + supply + tuple(g.cubes for strip in strips for g in strip if g is not None)
    total = tuple(sum(v[c] for v in visible) for c in range(len(COLOURS)))
    bag = sub(sub(CUBE_COUNTS, total), used)
    used = tuple(u + min(0, b) for u, b in zip(used, bag))
    bag = tuple(max(0, b) for b in bag)
    used = tuple(max(0, u) for u in used)
    return replace(state, market=market, supply=supply, strips=tuple(strips), bag=bag, used=used,
                   served=tuple(tuple(s) for s in served), discard=tuple(discard), tiles=tuple(tiles),
                   market_lemons=lemons_left, market_flowers=flowers_left,
                   unseen=tuple(c for c in state.unseen if c not in on_strips))
