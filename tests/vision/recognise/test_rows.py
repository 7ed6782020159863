"""How many things lie in a row of places filled from its first (vision/recognise/rows.py)."""

from __future__ import annotations

import math

import pytest

from tableref.vision.recognise.rows import best_fill, fill_scores


@pytest.mark.parametrize("cards, expected", [
    ([0.99, 0.98, 0.02, 0.01], 2),
    ([0.01, 0.02, 0.01], 0),
    ([0.99, 0.99, 0.99], 3),
    # one place read as free inside a row of cards does not end the row
    ([0.97, 0.3, 0.98, 0.96, 0.02, 0.01], 4),
    # ... and a first place read as free does not empty a fan of cards
    ([0.2, 0.99, 0.99, 0.99, 0.99, 0.01, 0.01], 5),
    # covered places (None) say nothing either way
    ([0.99, None, None, 0.95, 0.03], 4),
    ([None, None, None], 0),
])
def test_best_fill(cards, expected):
    assert best_fill(cards) == expected


def test_fill_scores_leave_out_the_places_that_tell_nothing():
    scores = fill_scores([0.9, None, 0.2])
    assert len(scores) == 4
    assert scores[1] == scores[2] == pytest.approx(math.log(0.9) + math.log(0.8))
    assert scores[0] == pytest.approx(math.log(0.1) + math.log(0.8))
    assert scores[3] == pytest.approx(math.log(0.9) + math.log(0.2))
    assert fill_scores([]) == [0.0]

