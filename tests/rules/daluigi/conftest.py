"""Builders of Da Luigi positions for the tests (the shipped, assumed deck's cards by id)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tableref.rules import daluigi
from tableref.rules.daluigi.catalogue import COLOURS, CUBE_COUNTS, FIELDS, SLOTS, cubes_from_names
from tableref.rules.daluigi.state import Guest, State


class Table:
    """Make positions: an empty table, then guests, cubes, tiles placed by hand."""

    @staticmethod
    def empty(players: int = 2, active: int = 0, **options) -> State:
        s = daluigi.new_game(players, options or None, seed=1)
        s = replace(s, market=((0,) * 6,) * FIELDS, supply=((0,) * 6,) * players,
                    strips=((None,) * SLOTS,) * players, unseen=tuple(sorted(s.unseen + _placed(s))),
                    tasks=(), active=active, to_move=active, used=(0,) * 6, served=((),) * players)
        return Table.rebag(s)

    @staticmethod
    def rebag(s: State) -> State:
        """Put every cube not elsewhere into the bag (cube conservation)."""
        held = list(s.market) + list(s.supply) + [s.used]
        held += [g.cubes for strip in s.strips for g in strip if g is not None]
        bag = tuple(CUBE_COUNTS[c] - sum(v[c] for v in held) for c in range(len(COLOURS)))
        assert min(bag) >= 0, bag
        return replace(s, bag=bag)

    @staticmethod
    def guest(s: State, player: int, slot: int, card: str, cubes=()) -> State:
        strip = list(s.strips[player])
        strip[slot] = Guest(card, cubes_from_names(cubes, "test"))
        strips = list(s.strips)
        strips[player] = tuple(strip)
        return Table.rebag(replace(s, strips=tuple(strips), unseen=tuple(c for c in s.unseen if c != card)))

    @staticmethod
    def market(s: State, fields: dict) -> State:
        market = list(s.market)
        for f, cubes in fields.items():
            market[f] = cubes_from_names(cubes, "test")
        return Table.rebag(replace(s, market=tuple(market)))

    @staticmethod
    def full_market(s: State) -> State:
        """Every field filled as at setup (row r with r cubes): yellow, blue, green, red by row."""
        colour = ("yellow", "blue", "green", "red")
        fields = {f: [colour[f // 3]] * (f // 3 + 1) for f in range(FIELDS)}
        return Table.market(s, fields)

    @staticmethod
    def supply(s: State, player: int, cubes) -> State:
        supply = list(s.supply)
        supply[player] = cubes_from_names(cubes, "test")
        return Table.rebag(replace(s, supply=tuple(supply)))

    @staticmethod
    def tiles(s: State, player: int, value: int) -> State:
        tiles = list(s.tiles)
        taken = value - tiles[player]
        tiles[player] = value
        return replace(s, tiles=tuple(tiles), market_lemons=s.market_lemons - abs(taken))

    @staticmethod
    def slots(s: State, player: int) -> list:
        return [g.card if g else None for g in s.strips[player]]


def _placed(s: State) -> tuple[str, ...]:
    return tuple(g.card for strip in s.strips for g in strip if g is not None and not g.card.startswith("S"))


@pytest.fixture
def table() -> type[Table]:
    return Table
