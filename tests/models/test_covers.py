"""What the cover models share: a spot labelled by the share of it that shows, and every
covered spot kept with three clear ones for each."""

from __future__ import annotations

import numpy as np
import pytest

from tableref.models.training.covers import CLEAR, CLEAR_PER_COVERED, COVERED, LABELS, kept, share_label
from tableref.vision.recognise.cover import COVER_LABELS


@pytest.mark.parametrize("shown, expected", [
    (1.0, CLEAR), (0.97, CLEAR),           # shown whole
    (0.95, None), (0.9, None),             # the band between: left out
    (0.8999, COVERED), (0.5, COVERED), (0.0, COVERED),
])
def test_a_spot_is_labelled_by_the_share_of_it_that_shows(shown, expected):
    assert share_label(shown) == expected


def test_the_labels_are_the_recognisers():
    assert LABELS == COVER_LABELS


@pytest.mark.parametrize("covered, clear, expected_clear", [
    (2, 100, 2 * CLEAR_PER_COVERED),   # clear spots drawn, three per covered one
    (5, 7, 7),                         # fewer clear spots than that: all of them
    (0, 50, 0),                        # no covered spot: nothing kept
])
def test_every_covered_spot_is_kept_with_three_clear_ones_for_each(covered, clear, expected_clear):
    labels = np.random.default_rng(0).permutation(np.array([1] * covered + [0] * clear))
    keep = kept(labels, np.random.default_rng(5))
    assert list(keep) == sorted(set(keep.tolist()))
    assert int(np.sum(labels[keep] == 1)) == covered and int(np.sum(labels[keep] == 0)) == expected_clear
    assert np.array_equal(keep, kept(labels, np.random.default_rng(5)))  # seeded
