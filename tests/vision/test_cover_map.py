"""The cover map at run time: its input size, the covered share of a quadrilateral, the shipped model."""

from __future__ import annotations

import numpy as np
import pytest

from tableref.models.card import ModelError
from tableref.vision.classifier import sha256_of
from tableref.vision.cover_map import DEFAULT_CARD, LABELS, CoverMapModel, covered_share, input_size, map_size
from tableref.vision.errors import VisionError


@pytest.mark.parametrize("shape, size", [
    ((720, 1280, 3), (180, 320)),  # 16:9: a quarter of the photograph each way
    ((1080, 1920, 3), (180, 320)),
    ((960, 1280, 3), (240, 320)),  # 4:3
    ((1280, 720, 3), (569, 320)),  # upright
    ((10, 4000, 3), (8, 320)),  # never below the network's three halvings
])
def test_the_input_keeps_the_photographs_aspect(shape, size):
    assert input_size(shape, 320) == size


@pytest.mark.parametrize("hw, size", [((180, 320), (90, 160)), ((181, 321), (91, 161)), ((8, 8), (4, 4))])
def test_the_map_has_a_point_for_every_two_input_pixels(hw, size):
    assert map_size(hw) == size


def square(x0: float, y0: float, side: float) -> np.ndarray:
    return np.array([[x0, y0], [x0 + side, y0], [x0 + side, y0 + side], [x0, y0 + side]], float)


@pytest.mark.parametrize("quad, share", [
    (square(10, 10, 40), 1.0),  # wholly over the covered left half
    (square(130, 60, 40), 0.0),  # wholly over the right half
    (square(80, 20, 40), 0.5),  # astride the edge: half its points each side
])
def test_the_covered_share_of_a_quad_is_the_map_read_inside_it(quad, share):
    cover = np.zeros((50, 100), np.float32)  # a map of a photograph 200 px across: 2 px a point
    cover[:, :50] = 1.0
    assert covered_share(cover, quad[None], 200)[0] == pytest.approx(share, abs=0.02)


def test_no_quads_no_shares():
    assert covered_share(np.zeros((4, 4), np.float32), np.zeros((0, 4, 2)), 8).shape == (0,)


def test_the_shipped_model_matches_its_card():
    model = CoverMapModel.open()
    assert model.card.labels == LABELS and model.card.parameters <= 1_000_000
    assert sha256_of(DEFAULT_CARD.with_name(model.card.file).read_bytes()) == model.card.sha256
    assert model.card.training.val_accuracy > 0.99


def test_a_map_spans_the_photograph_at_half_the_inputs_scale():
    model = CoverMapModel.open()
    image = np.random.default_rng(0).integers(0, 255, (720, 1280, 3), np.uint8)
    cover = model.predict(image)
    assert cover.shape == (90, 160) and cover.dtype == np.float32 and 0 <= cover.min() <= cover.max() <= 1


@pytest.mark.parametrize("bad", [np.zeros((4, 4), np.uint8), np.zeros((4, 4, 3), np.float32), "photo.png"])
def test_bad_input_is_refused_with_a_reason(bad):
    with pytest.raises(VisionError):
        CoverMapModel.open().predict(bad)


def test_a_tensor_of_the_wrong_shape_is_refused():
    with pytest.raises(ModelError, match="at least 8"):
        CoverMapModel.open().run(np.zeros((1, 3, 4, 20), np.float32))
