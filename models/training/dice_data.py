"""Training samples of the dice detector: augmented crops of labelled photos and their target maps.

A sample is made from one labelled photo: scaled as :func:`~tableref.vision.dice.prepare.prepare`
scales it, times a random zoom; turned by a multiple of 90 degrees and maybe mirrored (the
photos are top-down); cut to a square crop; recoloured; and normalised by the same
:func:`~tableref.vision.dice.prepare.normalise` used at run time. Its targets are the maps the
network should give (:mod:`tableref.vision.dice.decode`): a Gaussian bump at each die centre,
and offset and log-size at the centre cell.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from ...vision.dice.decode import CHANNELS, HEAT, LOG_SIZE, OFFSET
from ...vision.dice.prepare import STRIDE, normalise, scale_for
from ..card import Preprocessing


@dataclass(frozen=True)
class DiceAugmentation:
    """Random changes of a training crop.

    Attributes
    ----------
    crop : int
        Side of the square crop in network pixels (a multiple of 16).
    die_crop_p : float
        Chance of placing the crop around a randomly chosen die (else anywhere).
    zoom : (float, float)
        Range of the extra scale factor (log-uniform) on top of the run-time scale.
    brightness, contrast : float
        Largest shift of the mean (fraction of 255) and largest relative contrast change.
    channel_gain : float
        Largest relative gain of one colour channel (white balance).
    hue_shift_p : float
        Chance of turning every hue by a random angle (dice of unseen colours).
    gray_p : float
        Chance of dropping colour altogether.
    blur_p, noise_sigma : float
        Chance of a slight Gaussian blur; largest standard deviation of pixel noise (0-255).
    """

    crop: int = 192
    die_crop_p: float = 0.75
    zoom: tuple[float, float] = (0.7, 1.4)
    brightness: float = 0.12
    contrast: float = 0.25
    channel_gain: float = 0.1
    hue_shift_p: float = 0.5
    gray_p: float = 0.1
    blur_p: float = 0.2
    noise_sigma: float = 6.0


#: Gaussian bump of a centre: standard deviation in cells is this share of the box's smaller
#: side in cells, but at least MIN_SIGMA.
SIGMA_SHARE, MIN_SIGMA = 0.15, 0.5
#: Hue range of OpenCV's 8-bit HSV.
HUE_RANGE = 180


def _turn(image: np.ndarray, boxes: np.ndarray, quarter_turns: int, mirror: bool) -> tuple[np.ndarray, np.ndarray]:
    """Rotate counter-clockwise by ``quarter_turns`` * 90 degrees, then maybe mirror left-right."""
    b = boxes.copy()
    for _ in range(quarter_turns % 4):
        w = image.shape[1]
        image = np.rot90(image)
        b = np.stack([b[:, 1], w - b[:, 2], b[:, 3], w - b[:, 0]], axis=1)
    if mirror:
        w = image.shape[1]
        image = image[:, ::-1]
        b = np.stack([w - b[:, 2], b[:, 1], w - b[:, 0], b[:, 3]], axis=1)
    return np.ascontiguousarray(image), b


def _recolour(image: np.ndarray, aug: DiceAugmentation, rng: np.random.Generator) -> np.ndarray:
    if rng.random() < aug.hue_shift_p:
        hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
        hsv[:, :, 0] = ((hsv[:, :, 0].astype(np.int32) + int(rng.integers(HUE_RANGE))) % HUE_RANGE).astype(np.uint8)
        image = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)
    if rng.random() < aug.gray_p:
        image = cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    x = image.astype(np.float32)
    x *= 1.0 + rng.uniform(-aug.channel_gain, aug.channel_gain, 3).astype(np.float32)
    mean = x.mean()
    x = (x - mean) * (1.0 + rng.uniform(-aug.contrast, aug.contrast)) + mean
    x += rng.uniform(-aug.brightness, aug.brightness) * 255.0
    if rng.random() < aug.blur_p:
        x = cv2.GaussianBlur(x, (0, 0), rng.uniform(0.5, 1.2))
    x += rng.normal(0.0, rng.uniform(0.0, aug.noise_sigma), x.shape).astype(np.float32)
    return np.clip(x, 0, 255).astype(np.uint8)


def targets(boxes: np.ndarray, height: int, width: int) -> tuple[np.ndarray, np.ndarray]:
    """Target maps for boxes (N, 4) in network pixels on an input of ``height`` x ``width``.

    Returns
    -------
    maps : ndarray of shape (CHANNELS, height/STRIDE, width/STRIDE), float32
        Channel HEAT holds the Gaussian bumps (1 at each centre cell); the offset and log-size
        channels hold each die's values at its centre cell.
    centres : ndarray of the same spatial shape, float32
        1 at the centre cells (where offset and size are learned), else 0.
    """
    h, w = height // STRIDE, width // STRIDE
    maps = np.zeros((CHANNELS, h, w), np.float32)
    centres = np.zeros((h, w), np.float32)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    for x0, y0, x1, y1 in np.asarray(boxes, np.float32).reshape(-1, 4):
        cx, cy = (x0 + x1) / 2 / STRIDE, (y0 + y1) / 2 / STRIDE
        col, row = int(math.floor(cx)), int(math.floor(cy))
        if not (0 <= col < w and 0 <= row < h):
            continue
        bw, bh = (x1 - x0) / STRIDE, (y1 - y0) / STRIDE
        sigma = max(MIN_SIGMA, SIGMA_SHARE * min(bw, bh))
        bump = np.exp(-((xs - col) ** 2 + (ys - row) ** 2) / (2 * sigma ** 2))
        np.maximum(maps[HEAT], bump, out=maps[HEAT])
        maps[OFFSET, row, col] = (cx - col, cy - row)
        maps[LOG_SIZE, row, col] = (math.log(bw), math.log(bh))
        centres[row, col] = 1.0
    return maps, centres


def make_sample(image: np.ndarray, boxes: np.ndarray, prep: Preprocessing, aug: DiceAugmentation,
                rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One augmented crop of a labelled photo.

    Parameters
    ----------
    image : ndarray of shape (H, W, 3), uint8
        BGR photo.
    boxes : ndarray of shape (N, 4)
        Its dice in photo pixels.

    Returns
    -------
    tensor : ndarray of shape (3, crop, crop), float32
    maps, centres : see :func:`targets`
    """
    zoom = math.exp(rng.uniform(math.log(aug.zoom[0]), math.log(aug.zoom[1])))
    scale = scale_for(image.shape[:2], prep) * zoom
    h, w = image.shape[:2]
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    resized = cv2.resize(image, size, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    b = np.asarray(boxes, np.float32).reshape(-1, 4) * np.float32(scale)
    resized, b = _turn(resized, b, int(rng.integers(4)), bool(rng.integers(2)))
    side = aug.crop
    pad_y, pad_x = max(0, side - resized.shape[0]), max(0, side - resized.shape[1])
    if pad_y or pad_x:
        resized = cv2.copyMakeBorder(resized, 0, pad_y, 0, pad_x, cv2.BORDER_REPLICATE)
    y_max, x_max = resized.shape[0] - side, resized.shape[1] - side
    if len(b) and rng.random() < aug.die_crop_p:
        x0, y0, x1, y1 = b[int(rng.integers(len(b)))]
        y = int(np.clip((y0 + y1) / 2 - rng.uniform(0, side), 0, y_max))
        x = int(np.clip((x0 + x1) / 2 - rng.uniform(0, side), 0, x_max))
    else:
        y, x = int(rng.integers(y_max + 1)), int(rng.integers(x_max + 1))
    patch = _recolour(resized[y:y + side, x:x + side], aug, rng)
    b = b - np.asarray([x, y, x, y], np.float32)
    maps, centres = targets(b, side, side)
    return normalise(patch, prep), maps, centres
