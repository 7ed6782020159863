"""Decoding output maps into boxes, and the training targets that decode back to their boxes."""

from __future__ import annotations

import numpy as np
import pytest

from tableref.models.training.dice_data import targets
from tableref.vision.dice.decode import CHANNELS, HEAT, DecodeSettings, decode, suppress
from tableref.vision.errors import VisionError

#: A logit that the sigmoid turns into ~1 (a sure centre), and one for an empty cell.
SURE, EMPTY = 8.0, -8.0


def _maps_for(boxes, side=128):
    maps, centres = targets(np.asarray(boxes, np.float32), side, side)
    heat = np.where(centres > 0, SURE, EMPTY).astype(np.float32)
    maps[HEAT] = heat
    return maps


@pytest.mark.parametrize("boxes", [
    [],
    [[10, 10, 30, 30]],
    [[10.5, 12.25, 31.0, 33.5], [60, 60, 90, 84]],
    # touching dice
    [[20, 20, 40, 40], [40, 20, 60, 40], [20, 40, 40, 60]],
])
def test_targets_decode_back_to_their_boxes(boxes):
    got, confidences = decode(_maps_for(boxes))
    expected = np.asarray(boxes, np.float32).reshape(-1, 4)
    order = np.lexsort((got[:, 1], got[:, 0]))
    want = np.lexsort((expected[:, 1], expected[:, 0]))
    np.testing.assert_allclose(got[order], expected[want], atol=1e-3)
    assert np.all(confidences > 0.99)


def test_targets_peak_is_one_at_each_centre_only():
    maps, centres = targets(np.array([[8, 8, 24, 24]], np.float32), 64, 64)
    assert maps.shape == (CHANNELS, 16, 16) and centres.sum() == 1
    assert maps[HEAT].max() == 1.0 and maps[HEAT][centres > 0][0] == 1.0
    assert np.sum(maps[HEAT] >= 0.999) == 1


def test_targets_skip_a_centre_outside_the_input():
    maps, centres = targets(np.array([[-30, -30, -10, -10]], np.float32), 64, 64)
    assert centres.sum() == 0 and maps.max() == 0


@pytest.mark.parametrize("min_confidence, expected", [(0.3, 2), (0.6, 1), (0.95, 0)])
def test_min_confidence(min_confidence, expected):
    maps = _maps_for([[10, 10, 30, 30], [60, 60, 80, 80]])
    maps[HEAT][maps[HEAT] == SURE] = [0.0, 2.0]  # sigmoid 0.5 and 0.88
    boxes, confidences = decode(maps, DecodeSettings(min_confidence=min_confidence))
    assert len(boxes) == expected and list(confidences) == sorted(confidences, reverse=True)


def test_overlapping_boxes_keep_the_most_confident():
    boxes = np.array([[0, 0, 10, 10], [1, 0, 11, 10], [20, 20, 30, 30]], np.float32)
    assert suppress(boxes, 0.3) == [0, 2]


@pytest.mark.parametrize("maps, settings, error", [
    (np.zeros((4, 8, 8), np.float32), DecodeSettings(), "shape"),
    ([[0.0]], DecodeSettings(), "shape"),
    (np.zeros((5, 8, 8), np.float32), dict(min_confidence=0.0), "min_confidence"),
    (np.zeros((5, 8, 8), np.float32), dict(nms_iou=1.5), "nms_iou"),
    (np.zeros((5, 8, 8), np.float32), dict(max_dice=0), "max_dice"),
])
def test_bad_input(maps, settings, error):
    with pytest.raises(VisionError, match=error):
        decode(maps, settings if isinstance(settings, DecodeSettings) else DecodeSettings(**settings))
