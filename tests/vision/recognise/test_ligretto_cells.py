"""The board's own colours: the hue calibration of the space reader (synthetic patches, no model)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tableref.vision.recognise.ligretto_reading import MIN_COLOUR_SHARE
from tableref.vision.recognise.ligretto_cells import PATCH, calibrate_hues, colours_of, patch_hsv

START = {"red": 179.0, "yellow": 24.0, "green": 67.0, "blue": 104.0}


def patches(hues: list[float], saturation: int = 220, value: int = 200) -> np.ndarray:
    """One plain patch per OpenCV hue (0-180), strongly coloured unless told, as BGR uint8."""
    hsv = np.zeros((len(hues), PATCH, PATCH, 3), np.uint8)
    hsv[..., 0] = np.asarray(hues, np.uint8)[:, None, None]
    hsv[..., 1], hsv[..., 2] = saturation, value
    return cv2.cvtColor(hsv.reshape(-1, PATCH, 3), cv2.COLOR_HSV2BGR).reshape(hsv.shape)


@pytest.mark.parametrize("board, expected", [
    # a board lit as the references: each colour stays where it is
    ({"red": 2, "yellow": 24, "green": 66, "blue": 105}, {"red": 2, "yellow": 24, "green": 66, "blue": 105}),
    # warm light: every hue shifted, and the calibration follows
    ({"red": 6, "yellow": 30, "green": 60, "blue": 98}, {"red": 6, "yellow": 30, "green": 60, "blue": 98}),
])
def test_calibration_follows_the_boards_own_hues(board, expected):
    hsv = patch_hsv(patches([h for h in board.values() for _ in range(10)]))
    hues = calibrate_hues(hsv, START)
    for name, hue in expected.items():
        assert min(abs(hues[name] - hue), 180 - abs(hues[name] - hue)) < 1.5, (name, hues)


def test_a_purple_object_over_spaces_does_not_drag_red_away():
    # 10 spaces of each colour and 25 spaces under a purple cup (hue 150): red stays red
    board = [3] * 10 + [24] * 10 + [66] * 10 + [105] * 10
    hsv = patch_hsv(patches(board + [150] * 25))
    hues = calibrate_hues(hsv, START)
    assert min(hues["red"], 180 - hues["red"]) < 4, hues
    names, _ = colours_of(hsv[:40], hues)
    assert names == ["red"] * 10 + ["yellow"] * 10 + ["green"] * 10 + ["blue"] * 10


@pytest.mark.parametrize("saturation, value, expected", [
    (220, 200, "green"),  # plainly coloured
    (95, 250, "green"),  # under a lamp's glare: bright and paler, still its colour
    (95, 150, "green"),  # as pale but not bright: washed out by a blur, still its colour
    (60, 150, None),  # paler still: too little colour to tell
    (30, 250, None),  # white
    (180, 42, "green"),  # in a shadow: dark, but strongly coloured (validation render 2000828)
    (180, 25, None),  # as dark as the ink of a border or a token's shade: no colour
])
def test_a_space_under_glare_or_blurred_keeps_its_colour(saturation, value, expected):
    hsv = patch_hsv(patches([66], saturation, value))
    names, share = colours_of(hsv, START)
    assert names == [expected] and (share[0] == 1.0) == (expected is not None)


@pytest.mark.parametrize("covered_rows, sleeve_hue, expected", [
    (0, 140, "green"),  # nothing over it
    (4, 140, "green"),  # a sleeve's edge over a sixth of it: its colour still plain
    (16, 140, None),  # two thirds under a purple sleeve (once read blue, the nearest board colour)
    (16, 155, None),  # or a magenta one (once read red)
])
def test_a_sleeve_over_part_of_a_space_is_no_colour_of_the_board(covered_rows, sleeve_hue, expected):
    # a green space with its lower rows under a sleeve; its colour is read where at least
    # MIN_COLOUR_SHARE of the ring agrees (validation renders 2000359 and 2000399)
    hsv = patch_hsv(patches([66]))
    if covered_rows:
        hsv[0, PATCH - covered_rows:, :] = (sleeve_hue, 200, 160)
    names, share = colours_of(hsv, START)
    assert (names[0] if share[0] >= MIN_COLOUR_SHARE else None) == expected
