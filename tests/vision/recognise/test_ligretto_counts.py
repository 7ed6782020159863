"""No owner holds more cards of one pair of colours than a deck has: over that bound the cards
of the pair take the likeliest owners within it."""

from __future__ import annotations

import pytest

from tableref.vision.recognise.ligretto import CardReading, SpaceReading
from tableref.vision.recognise.ligretto_counts import DECK, within_decks

QUAD = ((0.0, 0.0),) * 4


def _board(cards: list[tuple[str, str, int, tuple[float, ...]]]):
    """Cards in a column each, (colour, colour, owner, border probabilities) -> (cards, spaces)."""
    readings, spaces = [], {}
    for c, (a, b, owner, borders) in enumerate(cards):
        cells = ((0, c), (1, c))
        readings.append(CardReading(cells, (a, b), owner, 0.9, borders))
        for cell, colour in zip(cells, (a, b)):
            spaces[cell] = SpaceReading(cell, "card", owner, colour, 0.95, None, False, 1.0, QUAD)
    return readings, spaces


SURE_1, UNSURE_1_OR_2, UNSURE_1_2_OR_3 = (0.0, 1.0, 0.0, 0.0), (0.0, 0.7, 0.3, 0.0), (0.0, 0.6, 0.2, 0.2)


def test_the_deck_is_the_catalogues():
    assert DECK[frozenset(("red", "yellow"))] == 3 and DECK[frozenset(("yellow", "green"))] == 2
    assert sum(DECK.values()) == 15


@pytest.mark.parametrize("cards, owners, kept", [
    # two yellow/green cards of one owner: a deck holds two, as read
    ([("yellow", "green", 1, SURE_1), ("green", "yellow", 1, UNSURE_1_OR_2)], [1, 1], 2),
    # three, either way round: the least sure goes to the owner it was read next likeliest
    ([("yellow", "green", 1, SURE_1), ("green", "yellow", 1, UNSURE_1_OR_2), ("yellow", "green", 1, SURE_1)],
     [1, 2, 1], 3),
    # ... unless the owners left are as likely: then its owner is unknown, and it is no card
    ([("yellow", "green", 1, SURE_1), ("green", "yellow", 1, UNSURE_1_2_OR_3), ("yellow", "green", 1, SURE_1)],
     [1, None, 1], 2),
    # red/yellow: three to a deck
    ([("red", "yellow", 1, SURE_1), ("red", "yellow", 1, UNSURE_1_OR_2), ("yellow", "red", 1, SURE_1)],
     [1, 1, 1], 3),
    # other pairs do not count against each other; a colour unknown is left as read
    ([("yellow", "green", 1, SURE_1), ("yellow", "blue", 1, UNSURE_1_OR_2), ("yellow", "green", 1, SURE_1),
      (None, "green", 1, UNSURE_1_OR_2)], [1, 1, 1, 1], 4),
    # a pair no card has (a colour misread): left as read
    ([("red", "red", 1, SURE_1)] * 4, [1, 1, 1, 1], 4),
])
def test_within_decks(cards, owners, kept):
    readings, spaces = _board(cards)
    out_cards, out_spaces = within_decks(readings, spaces, 0.6)
    assert [out_spaces[(0, c)].owner for c in range(len(cards))] == owners
    assert [out_spaces[(1, c)].owner for c in range(len(cards))] == owners
    assert len(out_cards) == kept
    assert [c.owner for c in out_cards] == [o for o in owners if o is not None]
    assert readings == _board(cards)[0]  # the readings given are not changed
