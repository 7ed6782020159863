"""The shipped detector on real held-out photos (never trained or tuned on): the issue's bars.

A fixed sample of the held-out half of shared/data/real/dice-photos (every
:data:`SAMPLE_EVERY`-th held-out photo by file name); the whole folder is measured by
``tableref bench --dice`` (docs/dice.md).
"""

from __future__ import annotations

import pytest

from tableref.vision.dice.colour import COLOURS
from tableref.vision.dice.detect import DiceDetector
from tableref.vision.dice.evaluate import evaluate
from tableref.vision.dice.labels import HELD_OUT, read_folder
from tableref.vision.imageio import read_image

#: Every 4th held-out photo: 26 of 103.
SAMPLE_EVERY = 4
#: The issue's acceptance bars.
MIN_RECALL, MIN_PRECISION, MIN_EXACT_COUNT = 0.97, 0.97, 0.90


@pytest.fixture(scope="module")
def sample(shared_data):
    return read_folder(shared_data / "dice-photos", HELD_OUT)[::SAMPLE_EVERY]


@pytest.fixture(scope="module")
def detector():
    return DiceDetector.open()


def test_held_out_sample_meets_the_bars(detector, sample):
    totals = evaluate(detector, sample).totals()
    assert totals.photos >= 20
    assert totals.recall >= MIN_RECALL, totals
    assert totals.precision >= MIN_PRECISION, totals
    assert totals.exact_count_share >= MIN_EXACT_COUNT, totals


def test_every_die_has_a_colour_and_a_box_inside_the_photo(detector, sample):
    photo = max(sample, key=lambda p: len(p.boxes))
    image = read_image(photo.path)
    dice = detector.detect(image)
    assert len(dice) >= 10
    h, w = image.shape[:2]
    for die in dice:
        assert die.colour in COLOURS and 0 <= die.confidence <= 1
        x0, y0, x1, y1 = die.box
        assert 0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h
    assert [d.confidence for d in dice] == sorted((d.confidence for d in dice), reverse=True)
