"""IoU, one-to-one greedy matching and totals."""

from __future__ import annotations

import numpy as np
import pytest

from tableref.vision.dice.score import PhotoScore, iou_matrix, match, score_photo, total

BOX = [0, 0, 10, 10]


@pytest.mark.parametrize("a, b, expected", [
    (BOX, BOX, 1.0),
    (BOX, [5, 0, 15, 10], 50 / 150),
    (BOX, [10, 10, 20, 20], 0.0),
    (BOX, [2, 2, 8, 8], 36 / 100),
    ([0, 0, 0, 0], [0, 0, 0, 0], 0.0),
])
def test_iou(a, b, expected):
    assert iou_matrix(np.array([a]), np.array([b]))[0, 0] == pytest.approx(expected)


@pytest.mark.parametrize("detected, labelled, pairs", [
    ([], [BOX], []),
    ([BOX], [], []),
    ([BOX], [BOX], [(0, 0)]),
    # one detection cannot find two dice; the better overlap wins
    ([[1, 0, 11, 10]], [BOX, [2, 0, 12, 10]], [(0, 0)]),
    # two detections of one die: only one counts
    ([[1, 0, 11, 10], BOX], [BOX], [(1, 0)]),
    # below the IoU threshold
    ([[6, 0, 16, 10]], [BOX], []),
    # greedy by IoU: d1 takes g0 (IoU 1), so d0 takes g1
    ([[3, 0, 13, 10], BOX], [BOX, [4, 0, 14, 10]], [(1, 0), (0, 1)]),
])
def test_match(detected, labelled, pairs):
    assert match(np.array(detected).reshape(-1, 4), np.array(labelled).reshape(-1, 4)) == pairs


def test_totals():
    scores = [score_photo(np.array([BOX]), np.array([BOX])),
              score_photo(np.array([BOX, [50, 50, 60, 60]]), np.array([BOX, [20, 20, 30, 30]])),
              score_photo(np.zeros((0, 4)), np.zeros((0, 4)))]
    t = total(scores)
    assert (t.photos, t.labelled, t.detected, t.found, t.counted_right) == (3, 3, 3, 2, 3)
    assert t.recall == pytest.approx(2 / 3) and t.precision == pytest.approx(2 / 3)
    assert t.exact_count_share == 1.0 and t.f1 == pytest.approx(2 / 3)


@pytest.mark.parametrize("found, labelled, detected, error", [
    (1, 1, 1, None),
    (0, 0, 0, None),
    (2, 1, 3, ValueError),
    (-1, 1, 1, ValueError),
])
def test_photo_score_checks_itself(found, labelled, detected, error):
    if error is None:
        assert PhotoScore(found, labelled, detected).count_right == (labelled == detected)
    else:
        with pytest.raises(error, match="found must be"):
            PhotoScore(found, labelled, detected)
