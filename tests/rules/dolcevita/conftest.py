"""A builder for hand-made Dolce Vita positions (the rulebook's examples and broken rules)."""

from __future__ import annotations

from collections import Counter

import pytest

from tableref.rules.common import ANYONE
from tableref.rules.dolcevita.catalogue import BOX, COLUMNS, NUMBER_VALUES, SLOTS, deck
from tableref.rules.dolcevita.options import check_options
from tableref.rules.dolcevita.state import DISTRIBUTE, State


def make_state(players: int = 4, bottoms: dict[int, list[str]] | None = None,
               under: dict[int, list[tuple[int, int]]] | None = None,
               goods: dict[int, list[str]] | None = None, money: dict[int, list[int]] | None = None,
               phase: str = DISTRIBUTE, next_column: int = 0, round_number: int = 1,
               to_move: int = ANYONE, options: dict | None = None,
               lengths: dict[int, int] | None = None) -> State:
    """A position whose luxury cards add up to the deck.

    ``bottoms`` gives a column's lowest cards, bottom first; the rest of the deck fills the
    columns up to ``lengths`` (default 9) in deck order; what is left goes to the box.
    ``under`` lists number cards per column; hands hold every other number card.
    """
    opts = check_options(options)
    bottoms, under, goods, money = bottoms or {}, under or {}, goods or {}, money or {}
    lengths = lengths or {}
    pool = Counter(deck(dict(opts)["money_low_cards"]))
    taken = [c for cards in bottoms.values() for c in cards]
    taken += [c for cards in goods.values() for c in cards]
    taken += [f"money:{v}" for values in money.values() for v in values]
    for card in taken:
        assert pool[card] > 0, f"{card} used twice"
        pool[card] -= 1
    rest = sorted(pool.elements(), key=lambda c: (c.startswith("money"), c))
    columns = []
    for c in range(COLUMNS):
        cards = list(bottoms.get(c, []))
        while len(cards) < lengths.get(c, SLOTS):
            cards.append(rest.pop(0))
        columns.append(tuple(cards))
    hands = []
    for p in range(players):
        placed = [v for cards in under.values() for q, v in cards if q == p]
        hands.append(tuple(v for v in NUMBER_VALUES if v not in placed))
    return State(players=players, options=opts, phase=phase, round=round_number, to_move=to_move,
                 next_column=next_column, columns=tuple(columns), box=tuple(sorted(rest)),
                 hands=tuple(hands), under=tuple(tuple(sorted(under.get(c, []))) for c in range(COLUMNS)),
                 goods=tuple(tuple(goods.get(p, [])) for p in range(players)),
                 money=tuple(tuple(sorted(money.get(p, []))) for p in range(players)))


@pytest.fixture
def build():
    """The position builder :func:`make_state`."""
    return make_state


#: The box holds BOX cards once the grid is full.
FULL_BOX = BOX
