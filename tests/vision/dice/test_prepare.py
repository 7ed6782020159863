"""The shared preprocessing: scale, padding and normalisation."""

from __future__ import annotations

import numpy as np
import pytest

from tableref.models.card import Preprocessing
from tableref.vision.dice.prepare import ALIGN, Prepared, prepare
from tableref.vision.errors import ImageError

PREP = Preprocessing(input_size=(320, 320), colour="rgb", mean=(0.5, 0.5, 0.5), std=(0.25, 0.25, 0.25))


@pytest.mark.parametrize("shape, scale, tensor_hw", [
    ((640, 640), 0.5, (320, 320)),
    ((480, 640), 0.5, (240, 320)),
    ((1080, 1920), 1 / 6, (192, 320)),
    ((100, 50), 3.2, (320, 160)),
    ((300, 310), 320 / 310, (320, 320)),
])
def test_scale_and_padding(shape, scale, tensor_hw):
    image = np.random.default_rng(0).integers(0, 256, (*shape, 3), dtype=np.uint8)
    prepared = prepare(image, PREP)
    assert prepared.scale == pytest.approx(scale)
    assert prepared.tensor.shape == (1, 3, *tensor_hw) and prepared.tensor.dtype == np.float32
    assert prepared.image_size == shape and tensor_hw[0] % ALIGN == 0 == tensor_hw[1] % ALIGN


def test_normalisation_and_colour_order():
    image = np.zeros((16, 16, 3), np.uint8)
    image[..., 2] = 255  # red in BGR
    tensor = prepare(image, Preprocessing(input_size=(16, 16), colour="rgb", mean=(0.5,) * 3,
                                          std=(0.25,) * 3)).tensor
    np.testing.assert_allclose(tensor[0, :, 0, 0], [2.0, -2.0, -2.0])


@pytest.mark.parametrize("image, error", [
    (np.zeros((10, 10), np.uint8), "shape"),
    (np.zeros((10, 10, 3), np.float32), "uint8"),
    ("photo.jpg", "numpy array"),
])
def test_bad_photo(image, error):
    with pytest.raises(ImageError, match=error):
        prepare(image, PREP)


@pytest.mark.parametrize("tensor, scale, error", [
    (np.zeros((1, 3, 16, 17), np.float32), 1.0, "multiples"),
    (np.zeros((3, 16, 16), np.float32), 1.0, "shape"),
    (np.zeros((1, 3, 16, 16), np.float32), 0.0, "scale"),
])
def test_prepared_checks_itself(tensor, scale, error):
    with pytest.raises(ImageError, match=error):
        Prepared(tensor, scale, (16, 16))
