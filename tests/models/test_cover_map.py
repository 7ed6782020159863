"""Training of the cover map: its targets, and a short run that exports a model onnxruntime reads."""

from __future__ import annotations

import numpy as np
import pytest

from tableref.models.card import load_card
from tableref.models.training import TrainingError, cover_map
from tableref.vision.cover_map import LABELS, MODEL_NAME, CoverMapModel


@pytest.mark.parametrize("covered, share", [
    (np.s_[:, :], 1.0),
    (np.s_[:0, :0], 0.0),
    (np.s_[:4, :], 0.5),  # the top half
    (np.s_[:2, :2], 0.0625),  # a quarter of the top-left point's pixels
])
def test_a_map_points_target_is_the_share_of_its_pixels_covered(covered, share):
    mask = np.zeros((8, 16), bool)
    mask[covered] = True
    target = cover_map.target(mask, (1, 2))
    assert target.shape == (1, 2) and target[0, 0] == pytest.approx(share)


@pytest.mark.parametrize("p, t, accuracy, iou", [
    ([0.9, 0.1, 0.2, 0.8], [1.0, 0.0, 0.0, 1.0], 1.0, 1.0),
    ([0.9, 0.9, 0.2, 0.2], [1.0, 0.0, 0.0, 1.0], 0.5, 1 / 3),
    ([0.1, 0.1, 0.1, 0.1], [0.0, 0.0, 0.0, 0.0], 1.0, 1.0),  # nothing covered, none found
])
def test_scores_count_each_side_of_one_half(p, t, accuracy, iou):
    assert cover_map.scores(np.array(p), np.array(t)) == pytest.approx((accuracy, iou))


def test_a_short_run_exports_a_map_that_onnxruntime_reads_as_pytorch_does(cache, tmp_path):
    result = cover_map.train_cover_map(tmp_path, "pytest", renders=8, val_renders=1, epochs=1)
    assert result.max_map_diff < cover_map.MAX_MAP_DIFF
    card = load_card(result.card_path)
    assert card.name == MODEL_NAME and card.labels == LABELS and card.training.command == "pytest"
    assert card.training.val_samples == 90 * 160  # one validation render's map
    cover = CoverMapModel.open(result.card_path).predict(np.zeros((720, 1280, 3), np.uint8))
    assert cover.shape == (90, 160)


def test_too_few_renders_is_refused(tmp_path):
    with pytest.raises(TrainingError, match="at least 8 training renders"):
        cover_map.train_cover_map(tmp_path, "pytest", renders=2)
