"""From the detector's output maps to boxes: peaks of the centre heatmap, their offsets and sizes.

The network gives, at 1/:data:`~.prepare.STRIDE` of its input, :data:`CHANNELS` maps:

* ``0``: centre score logit (a die's centre cell is high),
* ``1, 2``: where in the cell the centre lies (x, y), in cells, in [0, 1),
* ``3, 4``: natural log of the box width and height, in cells.

A peak is a cell whose score is the largest in its :data:`PEAK_WINDOW` neighbourhood and at
least the minimum confidence; overlapping boxes keep the more confident one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from ..errors import VisionError
from .prepare import STRIDE
from .score import iou_matrix

#: Output maps of the detector (see the module docstring).
CHANNELS = 5
HEAT, OFFSET, LOG_SIZE = 0, slice(1, 3), slice(3, 5)
#: Side of the square neighbourhood (cells) in which a centre peak must be the maximum.
PEAK_WINDOW = 3
#: Largest log-size accepted from the network (cells); guards exp() against nonsense.
MAX_LOG_SIZE = math.log(1024 / STRIDE)


@dataclass(frozen=True)
class DecodeSettings:
    """How maps become boxes.

    Attributes
    ----------
    min_confidence : float
        Least centre score (0-1) of a die; tuned on the tune half (docs/dice.md).
    nms_iou : float
        Of two boxes overlapping at least this much (IoU), the less confident one is dropped.
    max_dice : int
        At most this many dice per photo (the most confident).
    """

    min_confidence: float = 0.4
    nms_iou: float = 0.3
    max_dice: int = 200

    def __post_init__(self) -> None:
        for name in ("min_confidence", "nms_iou"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0.0 < value < 1.0:
                raise VisionError(f"dice {name} must be a number in (0, 1), got {value!r}")
        if not isinstance(self.max_dice, int) or isinstance(self.max_dice, bool) or self.max_dice < 1:
            raise VisionError(f"dice max_dice must be an integer >= 1, got {self.max_dice!r}")


def sigmoid(x: np.ndarray) -> np.ndarray:
    """Logistic function, float32."""
    return (1.0 / (1.0 + np.exp(-np.clip(x, -60.0, 60.0)))).astype(np.float32)


def decode(maps: np.ndarray, settings: DecodeSettings = DecodeSettings()) -> tuple[np.ndarray, np.ndarray]:
    """Boxes and confidences from one photo's maps.

    Parameters
    ----------
    maps : ndarray of shape (CHANNELS, h, w), float32
        The network's output for one input.
    settings : DecodeSettings

    Returns
    -------
    boxes : ndarray of shape (N, 4), float32
        ``xmin, ymin, xmax, ymax`` in network input pixels, most confident first.
    confidences : ndarray of shape (N,), float32
        Centre scores in [0, 1].
    """
    if not isinstance(maps, np.ndarray) or maps.ndim != 3 or maps.shape[0] != CHANNELS:
        got = maps.shape if isinstance(maps, np.ndarray) else type(maps).__name__
        raise VisionError(f"detector maps must have shape ({CHANNELS}, h, w), got {got}")
    heat = sigmoid(maps[HEAT])
    kernel = np.ones((PEAK_WINDOW, PEAK_WINDOW), np.uint8)
    peaks = (heat >= cv2.dilate(heat, kernel)) & (heat >= settings.min_confidence)
    ys, xs = np.nonzero(peaks)
    scores = heat[ys, xs]
    order = np.argsort(-scores, kind="stable")
    ys, xs, scores = ys[order], xs[order], scores[order]
    offset = np.clip(maps[OFFSET][:, ys, xs], 0.0, 1.0)
    size = np.exp(np.clip(maps[LOG_SIZE][:, ys, xs], -MAX_LOG_SIZE, MAX_LOG_SIZE))
    cx, cy = (xs + offset[0]) * STRIDE, (ys + offset[1]) * STRIDE
    w, h = size[0] * STRIDE, size[1] * STRIDE
    boxes = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], axis=1).astype(np.float32)
    keep = suppress(boxes, settings.nms_iou)[:settings.max_dice]
    return boxes[keep].reshape(-1, 4), scores[keep].astype(np.float32)


def suppress(boxes: np.ndarray, max_iou: float) -> list[int]:
    """Indices of ``boxes`` (N, 4), sorted most confident first, that overlap no kept box by
    ``max_iou`` or more."""
    iou = iou_matrix(boxes, boxes)
    keep: list[int] = []
    for i in range(len(boxes)):
        if all(iou[i, k] < max_iou for k in keep):
            keep.append(i)
    return keep
