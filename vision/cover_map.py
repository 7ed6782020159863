"""The cover map: which pixels of a photograph show a hand, an arm or an object over the table.

A spot classifier sees a small patch, and a plain sleeve, a phone or the back of a hand over a
row of dice or a market field looks much like the bare place beneath it: the place is then
read as empty, surely, where the rules want it unknown (issue 5: a card partly under a hand is
reported unknown, never guessed). What lies over a place is plainer at the scale of the whole
photograph: an arm runs in from the table's edge, a phone is a rectangle of its own colour. A
small fully convolutional network (``daluigi-cover-map``, trained on the digital twin's renders
against the mask of pixels its hands and objects cover:
:mod:`tableref.models.training.cover_map`) reads the photograph scaled to its card's input
width (320 pixels across, the height by the photograph's aspect: :func:`input_size`) and gives,
on a grid of half that scale, the probability that each point is covered.

:func:`covered_share` turns the map into the covered share of any quadrilateral of the
photograph (a recogniser's spots), sampled on a grid of points inside it. Pure functions over
arrays but for :class:`CoverMapModel`, which binds the ONNX network to its card.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from .. import models
from ..models.card import ModelCard, ModelError, Preprocessing
from .classifier import load_map_session, read_model
from .frame import check_bgr_image

MODEL_NAME = "daluigi-cover-map"
#: The card's labels: each map point's probability is of ``covered`` against ``shown``.
LABELS = ("shown", "covered")
#: The network's input sides are at least this (three stride-2 stages).
MIN_SIDE = 8
#: The map has this many points per input pixel along each side (an odd side rounded up).
MAP_SCALE = 0.5
#: Points sampled along each side of a quadrilateral by :func:`covered_share`.
SAMPLES = 4
#: The shipped model's card.
DEFAULT_CARD = Path(models.__file__).resolve().parent / f"{MODEL_NAME}.card.json"


def input_size(image_shape: tuple[int, ...], width: int) -> tuple[int, int]:
    """(height, width) of the network's input for a photograph of ``image_shape``: ``width``
    across, the height in the photograph's aspect (one scale both ways: a 1280 x 720 photograph
    is read at exactly a quarter of its size; stretched to 176 rows, a multiple of 8, the
    validation renders read fewer scenes exactly right: 233 of 300 against 241)."""
    h, w = image_shape[:2]
    return max(MIN_SIDE, int(round(h * width / w))), max(MIN_SIDE, width)


def map_size(input_hw: tuple[int, int]) -> tuple[int, int]:
    """(h, w) of the map of an input (height, width)."""
    return tuple(int(np.ceil(side * MAP_SCALE)) for side in input_hw)


def to_input(image: np.ndarray, prep: Preprocessing) -> np.ndarray:
    """(1, 3, H, W) float32 network input of a BGR photograph, as the model card's
    preprocessing ``prep`` says (its input width; colour order and normalisation). Training
    uses it too."""
    h, w = input_size(image.shape, prep.input_size[1])
    small = cv2.resize(image, (w, h), interpolation=cv2.INTER_AREA)
    if prep.colour == "rgb":
        small = small[:, :, ::-1]
    x = (small.astype(np.float32) / np.float32(255.0) - np.float32(prep.mean)) / np.float32(prep.std)
    return np.ascontiguousarray(x.transpose(2, 0, 1)[None])


def covered_share(cover: np.ndarray, quads_px: np.ndarray, image_width: int) -> np.ndarray:
    """(N,) the mean covered probability of ``cover`` (a map of a photograph ``image_width``
    pixels across) over each quadrilateral (N, 4, 2) in photograph pixels, corners in order:
    the map read bilinearly at :data:`SAMPLES` x :data:`SAMPLES` points spread evenly inside
    each (points beyond the map take its nearest edge)."""
    quads = np.asarray(quads_px, np.float64).reshape(-1, 4, 2)
    if not len(quads):
        return np.zeros(0)
    g = (np.arange(SAMPLES) + 0.5) / SAMPLES
    u, v = (a.ravel()[None, :, None] for a in np.meshgrid(g, g))
    q = quads * (cover.shape[1] / image_width) - 0.5  # map points' centres lie at +0.5
    points = (q[:, None, 0] * (1 - u) * (1 - v) + q[:, None, 1] * u * (1 - v)
              + q[:, None, 2] * u * v + q[:, None, 3] * (1 - u) * v).astype(np.float32)
    values = cv2.remap(np.ascontiguousarray(cover, np.float32), points[..., 0], points[..., 1], cv2.INTER_LINEAR,
                       borderMode=cv2.BORDER_REPLICATE)
    return values.mean(axis=1).astype(np.float64)


class CoverMapModel:
    """The cover-map network bound to its card.

    Raises
    ------
    ModelError
        When the bytes do not match the card, the labels are not :data:`LABELS`, or the
        network does not have one 4-D input and one map output.
    """

    def __init__(self, card: ModelCard, model_bytes: bytes, source: str = "model", threads: int | None = None):
        self._session, self._input_name = load_map_session(card, model_bytes, LABELS, "cover map", source, threads)
        self.card, self.source = card, source

    @classmethod
    def open(cls, card_path: str | Path | None = None, threads: int | None = None) -> CoverMapModel:
        """The model of the card at ``card_path`` (default: the shipped one)."""
        card, data, model_path = read_model(card_path if card_path is not None else DEFAULT_CARD)
        return cls(card, data, str(model_path), threads)

    def run(self, tensor: np.ndarray) -> np.ndarray:
        """(N, h, w) float32 covered probabilities of network inputs (N, 3, H, W) (sides at
        least :data:`MIN_SIDE`; :func:`to_input`)."""
        if (not isinstance(tensor, np.ndarray) or tensor.ndim != 4 or tensor.shape[1] != 3
                or min(tensor.shape[2:]) < MIN_SIDE):
            got = tensor.shape if isinstance(tensor, np.ndarray) else type(tensor).__name__
            raise ModelError(f"{self.card.name}: input must have shape (N, 3, H, W) with H, W at least {MIN_SIDE}, "
                             f"got {got}")
        logits = self._session.run(None, {self._input_name: np.ascontiguousarray(tensor, np.float32)})[0]
        expected = (tensor.shape[0], 1, *map_size(tensor.shape[2:]))
        if logits.shape != expected:
            raise ModelError(f"{self.source} gave a map of shape {logits.shape}, expected {expected}")
        return (1.0 / (1.0 + np.exp(-logits[:, 0]))).astype(np.float32)

    def predict(self, image: np.ndarray) -> np.ndarray:
        """(h, w) float32: each map point's probability of being covered, for a BGR photograph
        (the map spans the whole photograph, :data:`MAP_SCALE` points per input pixel)."""
        check_bgr_image(image, "photo")
        return self.run(to_input(image, self.card.preprocessing))[0]
