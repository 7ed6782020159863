"""Naming a die's colour from its body, leaving out its pips.

The pixels within a disc about the box centre lie on the die whatever its turn (a square
turned 45 degrees still covers the disc of radius :data:`DISC_SHARE` of its box's side). They
are split in two groups by lightness (two-means in CIELAB); the larger group is the body, the
smaller the pips. The body's median hue, saturation and value give the name.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from ..errors import VisionError
from ..frame import check_bgr_image

#: Every name a die's colour can get.
COLOURS = ("white", "grey", "black", "red", "orange", "brown", "yellow", "green", "blue", "purple", "pink")
#: Radius of the sampled disc as a share of the box's smaller side (1 / (2 sqrt 2) = 0.354
#: keeps it inside a square die turned by any angle).
DISC_SHARE = 0.33
#: Iterations of the two-means split into body and pips.
SPLIT_ITERATIONS = 8
#: Fewest pixels sampled (smaller boxes are upsampled first).
MIN_SIDE_PX = 12


@dataclass(frozen=True)
class ColourRules:
    """Thresholds on OpenCV's 8-bit HSV (H 0-179, S and V 0-255) that name a body colour.

    A body darker than ``black_value`` is black; one less saturated than ``gray_saturation``
    is white (value >= ``white_value``), grey or black (value < ``dark_gray_value``). Otherwise
    the hue decides, by the upper hue bounds in ``hues`` (in order; red wraps around 180); an
    orange hue darker than ``brown_value`` is brown, and a red one paler than
    ``pink_saturation`` and brighter than ``pink_value`` is pink.
    """

    black_value: int = 55
    gray_saturation: int = 60
    white_value: int = 165
    dark_gray_value: int = 80
    hues: tuple[tuple[int, str], ...] = ((8, "red"), (20, "orange"), (34, "yellow"), (85, "green"),
                                         (128, "blue"), (150, "purple"), (168, "pink"), (180, "red"))
    brown_value: int = 140
    pink_saturation: int = 150
    pink_value: int = 170


def _body_hsv(image: np.ndarray, box) -> np.ndarray:
    """Median HSV (3,) of the body pixels of the die in ``box``."""
    h, w = image.shape[:2]
    x0, y0, x1, y1 = (float(v) for v in box)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    radius = max(1.0, DISC_SHARE * min(x1 - x0, y1 - y0))
    left, top = max(0, int(cx - radius)), max(0, int(cy - radius))
    right, bottom = min(w, int(np.ceil(cx + radius)) + 1), min(h, int(np.ceil(cy + radius)) + 1)
    if right <= left or bottom <= top:
        raise VisionError(f"die box {list(box)} lies outside the {w}x{h} photo")
    patch = image[top:bottom, left:right]
    ys, xs = np.mgrid[top:bottom, left:right]
    inside = (xs + 0.5 - cx) ** 2 + (ys + 0.5 - cy) ** 2 <= radius ** 2
    if patch.shape[0] < MIN_SIDE_PX or not inside.any():
        inside = np.ones(patch.shape[:2], bool)
    pixels = patch[inside].reshape(-1, 1, 3)
    lab = cv2.cvtColor(pixels, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32)
    body = _larger_group(lab)
    hsv = cv2.cvtColor(pixels[body], cv2.COLOR_BGR2HSV).reshape(-1, 3)
    return _hsv_median(hsv)


def _larger_group(lab: np.ndarray) -> np.ndarray:
    """Boolean mask of the larger of two lightness-seeded two-means groups of Lab rows (N, 3)."""
    lightness = lab[:, 0]
    centres = np.stack([lab[np.argmin(lightness)], lab[np.argmax(lightness)]])
    group = np.zeros(len(lab), bool)
    for _ in range(SPLIT_ITERATIONS):
        distance = ((lab[:, None, :] - centres[None]) ** 2).sum(axis=2)
        group = distance[:, 1] < distance[:, 0]
        if group.all() or not group.any():
            return np.ones(len(lab), bool)
        centres = np.stack([lab[~group].mean(axis=0), lab[group].mean(axis=0)])
    return group if group.sum() * 2 >= len(lab) else ~group


def _hsv_median(hsv: np.ndarray) -> np.ndarray:
    """Median of HSV rows, the hue taken on the circle (as the hue of the mean direction)."""
    angle = hsv[:, 0].astype(np.float64) * (2 * np.pi / 180)
    weight = hsv[:, 1].astype(np.float64) + 1.0
    hue = np.degrees(np.arctan2((np.sin(angle) * weight).sum(), (np.cos(angle) * weight).sum())) / 2 % 180
    return np.array([hue, np.median(hsv[:, 1]), np.median(hsv[:, 2])])


def name_hsv(hue: float, saturation: float, value: float, rules: ColourRules = ColourRules()) -> str:
    """The colour name of an HSV body colour (OpenCV 8-bit ranges)."""
    if value < rules.black_value:
        return "black"
    if saturation < rules.gray_saturation:
        if value >= rules.white_value:
            return "white"
        return "black" if value < rules.dark_gray_value else "grey"
    for upper, name in rules.hues:
        if hue < upper:
            if name == "orange" and value < rules.brown_value:
                return "brown"
            if name == "red" and saturation < rules.pink_saturation and value > rules.pink_value:
                return "pink"
            return name
    return "red"


def name_colour(image: np.ndarray, box, rules: ColourRules = ColourRules()) -> str:
    """The colour name of the die in ``box`` of a BGR photo.

    Parameters
    ----------
    image : ndarray of shape (H, W, 3), uint8
        BGR photo.
    box : sequence of 4 numbers
        ``xmin, ymin, xmax, ymax`` of the die in photo pixels.
    """
    check_bgr_image(image, "photo")
    if len(box) != 4 or not (box[2] > box[0] and box[3] > box[1]):
        raise VisionError(f"a die box must be xmin, ymin, xmax, ymax with xmax > xmin, ymax > ymin, got {list(box)}")
    hue, saturation, value = _body_hsv(image, box)
    return name_hsv(hue, saturation, value, rules)
