"""How many cards a column or a fan holds, from each place's reading (no model needed)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tableref.vision.recognise.dolcevita import SpotRead, fan_score

QUAD = np.zeros((4, 2))


def place(top: float, card: float, covered: float = 0.0) -> SpotRead:
    """A place as the recogniser reads it: its surest face ``top`` probable, P(card), P(covered)."""
    return SpotRead(QUAD, "car:100000", top, card, (("car:100000", top),), covered)


def test_fan_score_weighs_each_card_by_its_surest_face_and_the_place_after_by_no_card():
    places = [place(0.9, 0.95), place(0.5, 0.9), place(0.2, 0.1)]
    assert fan_score(places, 2) == pytest.approx((math.log(0.9) + math.log(0.5) + math.log(0.9)) / 3)
    # a fan read at the wrong step reads its faces less surely: the true step scores higher
    assert fan_score([place(0.99, 0.99), place(0.98, 0.99), place(0.01, 0.01)], 2) > fan_score(places, 2)


def test_fan_score_counts_covered_places_and_leaves_missing_ones_out():
    places = [place(0.9, 0.95), place(0.05, 0.1, covered=0.9), None, place(0.2, 0.02)]
    assert fan_score(places, 3) == pytest.approx((math.log(0.9) + math.log(0.05) + math.log(0.98)) / 4)


def test_a_count_that_makes_places_look_covered_loses_to_one_that_reads_them():
    # eight cards read at the full step (six places): the places straddle two cards' strips and
    # two of them look covered; at the closer step of eight, every place reads as a card
    straddled = [place(1.0, 1.0), place(0.4, 0.4, covered=0.6), place(1.0, 1.0), place(1.0, 1.0),
                 place(0.04, 0.04, covered=0.96), place(1.0, 1.0), place(0.0, 0.0)]
    read = [place(0.9, 1.0)] * 8 + [place(0.0, 0.0)]
    assert fan_score(read, 8) > fan_score(straddled, 6)
