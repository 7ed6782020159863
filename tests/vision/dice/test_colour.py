"""Naming a die's body colour, leaving out its pips, on drawn dice."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tableref.vision.dice.colour import COLOURS, name_colour, name_hsv
from tableref.vision.errors import VisionError

#: Light table background (BGR).
TABLE = (225, 228, 230)
WHITE_PIP, BLACK_PIP = (250, 250, 250), (20, 20, 20)


def _die(body_bgr, pip_bgr, angle=0.0, pips=6, side=40, seed=0):
    """A photo (120 x 120) with one drawn die turned by ``angle`` degrees; returns (image, box)."""
    rng = np.random.default_rng(seed)
    image = np.full((120, 120, 3), TABLE, np.uint8)
    centre = (60.0, 60.0)
    corners = cv2.boxPoints((centre, (side, side), angle)).astype(np.int32)
    cv2.fillConvexPoly(image, corners, body_bgr)
    spots = [(-1, -1), (1, 1), (-1, 1), (1, -1), (-1, 0), (1, 0), (0, 0)][:pips]
    turn = np.deg2rad(angle)
    for u, v in spots:
        x = centre[0] + side * 0.28 * (u * np.cos(turn) - v * np.sin(turn))
        y = centre[1] + side * 0.28 * (u * np.sin(turn) + v * np.cos(turn))
        cv2.circle(image, (round(x), round(y)), side // 10, pip_bgr, -1, cv2.LINE_AA)
    noisy = image.astype(np.int16) + rng.integers(-6, 7, image.shape)
    box = cv2.boundingRect(corners)
    return np.clip(noisy, 0, 255).astype(np.uint8), (box[0], box[1], box[0] + box[2], box[1] + box[3])


@pytest.mark.parametrize("body, pip, expected", [
    ((245, 245, 245), BLACK_PIP, "white"),
    ((25, 25, 25), WHITE_PIP, "black"),
    ((128, 128, 128), WHITE_PIP, "grey"),
    ((40, 30, 200), WHITE_PIP, "red"),
    ((20, 130, 240), BLACK_PIP, "orange"),
    ((30, 70, 110), WHITE_PIP, "brown"),
    ((40, 220, 235), BLACK_PIP, "yellow"),
    ((60, 160, 30), WHITE_PIP, "green"),
    ((190, 80, 20), WHITE_PIP, "blue"),
    ((150, 40, 110), WHITE_PIP, "purple"),
    ((180, 120, 250), WHITE_PIP, "pink"),
])
@pytest.mark.parametrize("angle, pips", [(0.0, 6), (45.0, 5), (20.0, 1)])
def test_drawn_die_colour(body, pip, expected, angle, pips):
    image, box = _die(body, pip, angle, pips)
    assert name_colour(image, box) == expected


@pytest.mark.parametrize("hsv, expected", [
    ((0, 0, 20), "black"),
    ((0, 10, 240), "white"),
    ((0, 10, 120), "grey"),
    ((0, 10, 60), "black"),
    ((0, 200, 200), "red"),
    ((175, 200, 200), "red"),
    ((60, 200, 200), "green"),
    ((110, 200, 200), "blue"),
])
def test_name_hsv(hsv, expected):
    assert name_hsv(*hsv) == expected and expected in COLOURS


@pytest.mark.parametrize("image, box, error", [
    (np.zeros((10, 10), np.uint8), (1, 1, 5, 5), "shape"),
    (np.zeros((10, 10, 3), np.uint8), (5, 5, 1, 1), "xmax > xmin"),
    (np.zeros((10, 10, 3), np.uint8), (50, 50, 60, 60), "outside"),
])
def test_bad_input(image, box, error):
    with pytest.raises(VisionError, match=error):
        name_colour(image, box)
