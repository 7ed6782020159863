"""Motion blur measured on a table marker and undone (vision/deblur.py): kernels, the measure
on drawn markers of known blur, the Wiener filter, and bad input."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from tableref.vision.deblur import (MIN_LENGTH_PX, WITHIN_MARGIN_KERNELS, BlindMotion, DeblurError, MotionBlur,
                                    blind_motion, deconvolve, deconvolve_within, line_kernel, marker_target,
                                    measure_motion_blur)

MARKER_PX, QUIET_PX = 60, 10  # the marker's black square, its white quiet zone (one module)


def _marker_scene(seed: int, turn_deg: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A grey textured image with ArUco marker 0 (DICT_4X4_50) on white paper, turned by
    ``turn_deg`` about its centre: (image BGR uint8, the marker's inner bits, its corners)."""
    rng = np.random.default_rng(seed)
    texture = cv2.GaussianBlur(rng.normal(120, 40, (240, 320)).astype(np.float32), (0, 0), 3)
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    marker = cv2.aruco.generateImageMarker(dictionary, 0, MARKER_PX).astype(np.float32)
    paper = np.pad(marker, QUIET_PX, constant_values=255.0)
    side = paper.shape[0]
    top_left = np.array([160 - side / 2, 120 - side / 2])
    turn = cv2.getRotationMatrix2D((side / 2 - 0.5, side / 2 - 0.5), turn_deg, 1.0)
    turn[:, 2] += top_left
    placed = cv2.warpAffine(paper, turn, (320, 240), flags=cv2.INTER_LINEAR, borderValue=-1.0)
    inside = cv2.warpAffine(np.ones_like(paper), turn, (320, 240), flags=cv2.INTER_NEAREST, borderValue=0.0) > 0.5
    image = np.where(inside, placed, texture)
    lo, hi = QUIET_PX - 0.5, QUIET_PX + MARKER_PX - 0.5
    square = np.array([[lo, lo], [hi, lo], [hi, hi], [lo, hi]], np.float64)
    corners = square @ turn[:, :2].T + turn[:, 2]
    bits = cv2.aruco.generateImageMarker(dictionary, 0, 6)[1:-1, 1:-1] > 127
    return np.clip(image, 0, 255).astype(np.uint8), bits, corners


def _photograph(image: np.ndarray, length: float, angle: float, defocus: float, seed: int) -> np.ndarray:
    """The scene as a camera takes it: defocus, motion along a line, sensor noise, JPEG."""
    out = image.astype(np.float32)
    if defocus > 0:
        out = cv2.GaussianBlur(out, (0, 0), defocus)
    out = cv2.filter2D(out, -1, line_kernel(length, angle))
    out += np.random.default_rng(seed).normal(0, 2.0, out.shape).astype(np.float32)
    ok, buf = cv2.imencode(".jpg", np.clip(out, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 80])
    return cv2.imdecode(buf, cv2.IMREAD_GRAYSCALE)


def _angle_gap(a: float, b: float) -> float:
    d = abs(a - b) % 180
    return min(d, 180 - d)


@pytest.mark.parametrize("length, angle, size", [(0.0, 0.0, 1), (1.4, 30.0, 1), (2.0, 0.0, 3), (4.2, 90.0, 5),
                                                 (5.5, 45.0, 7), (7.0, 120.0, 7)])
def test_line_kernel_is_a_normalised_line_of_odd_size(length, angle, size):
    kernel = line_kernel(length, angle)
    assert kernel.shape == (size, size) and kernel.dtype == np.float32
    assert math.isclose(float(kernel.sum()), 1.0, rel_tol=1e-5)
    if size > 1:  # the kernel's principal axis (image rows run along +y) is the motion's
        ys, xs = np.mgrid[:size, :size] - (size - 1) / 2
        cxx, cyy, cxy = (float((kernel * a * b).sum()) for a, b in ((xs, xs), (ys, ys), (xs, ys)))
        assert _angle_gap(math.degrees(0.5 * math.atan2(2 * cxy, cxx - cyy)) % 180, angle) <= 20


@pytest.mark.parametrize("length, angle", [(-1.0, 0.0), (float("nan"), 0.0), (3.0, float("inf"))])
def test_line_kernel_refuses_bad_input(length, angle):
    with pytest.raises(DeblurError):
        line_kernel(length, angle)


@pytest.mark.parametrize("seed, turn, length, angle, defocus", [
    (1, 0.0, 5.0, 0.0, 0.3),
    (2, 12.0, 5.0, 60.0, 0.6),
    (3, -20.0, 7.0, 135.0, 0.0),
    (4, 35.0, 9.0, 100.0, 0.9),
    (5, 5.0, 3.0, 20.0, 0.2),
])
def test_motion_blur_is_measured_on_a_marker(seed, turn, length, angle, defocus):
    scene, bits, corners = _marker_scene(seed, turn)
    photo = _photograph(scene, length, angle, defocus, seed)
    blur = measure_motion_blur([marker_target(photo, bits, corners)])
    assert blur.moving
    assert blur.length_px == float(int(math.ceil(length)) | 1)
    # the angle to within 15 degrees, or one a kernel this small draws alike
    same = np.allclose(line_kernel(blur.length_px, blur.angle_deg), line_kernel(length, angle), atol=0.02)
    assert _angle_gap(blur.angle_deg, angle) <= 15 or same


@pytest.mark.parametrize("seed, turn, defocus", [(6, 0.0, 0.0), (7, 25.0, 0.8), (8, -10.0, 1.3)])
def test_a_still_camera_is_not_taken_for_a_moving_one(seed, turn, defocus):
    scene, bits, corners = _marker_scene(seed, turn)
    photo = _photograph(scene, 0.0, 0.0, defocus, seed)
    assert not measure_motion_blur([marker_target(photo, bits, corners)]).moving


def test_no_target_near_the_edge_or_in_a_flat_patch():
    scene, bits, corners = _marker_scene(9, 0.0)
    assert marker_target(scene, bits, corners - [150, 0]) is None  # off the image's left edge
    assert marker_target(np.full_like(scene, 128), bits, corners) is None  # nothing there
    with pytest.raises(DeblurError, match="no table marker"):
        measure_motion_blur([])


def test_deconvolution_brings_the_sharp_image_back():
    scene, _, _ = _marker_scene(10, 15.0)
    colour = cv2.cvtColor(scene, cv2.COLOR_GRAY2BGR)
    kernel = line_kernel(7.0, 30.0)
    blurred = cv2.filter2D(colour, -1, kernel, borderType=cv2.BORDER_REFLECT)
    sharp = deconvolve(blurred, kernel, 0.01)
    assert sharp.shape == colour.shape and sharp.dtype == np.uint8
    error = lambda img: float(np.mean((img.astype(np.float32) - colour) ** 2))  # noqa: E731
    assert error(sharp) < 0.25 * error(blurred)
    assert np.array_equal(deconvolve(blurred, line_kernel(1.0, 0.0)), blurred)


@pytest.mark.parametrize("seed, box", [(11, (200, 150, 400, 300)), (12, (0, 0, 120, 90)), (13, (500, 380, 639, 479))])
def test_the_blur_undone_around_points_only(seed, box):
    # a board's part of the photograph: undone there as the whole image's transform undoes it,
    # the rest left as it is (a box at the image's corner is clipped to it)
    scene = cv2.cvtColor(_cards_scene(seed), cv2.COLOR_GRAY2BGR)
    kernel = line_kernel(7.0, 30.0)
    blurred = cv2.filter2D(scene, -1, kernel, borderType=cv2.BORDER_REFLECT)
    x0, y0, x1, y1 = box
    points = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64)
    part, whole = deconvolve_within(blurred, kernel, points), deconvolve(blurred, kernel)
    inside = (slice(y0, y1 + 1), slice(x0, x1 + 1))
    assert np.abs(part[inside].astype(np.int16) - whole[inside]).mean() < 0.25
    error = lambda img: float(np.mean((img[inside].astype(np.float32) - scene[inside]) ** 2))  # noqa: E731
    assert error(part) < error(blurred)
    reach = WITHIN_MARGIN_KERNELS * kernel.shape[0]
    outside = np.ones(scene.shape[:2], bool)
    outside[max(y0 - reach, 0):y1 + reach + 1, max(x0 - reach, 0):x1 + reach + 1] = False
    assert outside.any() and np.array_equal(part[outside], blurred[outside])


@pytest.mark.parametrize("points", [np.empty((0, 2)), np.array([[1.0, float("nan")]])])
def test_deconvolve_within_refuses_no_points(points):
    with pytest.raises(DeblurError, match="finite points"):
        deconvolve_within(np.zeros((40, 40, 3), np.uint8), line_kernel(5.0, 0.0), points)


def _cards_scene(seed: int) -> np.ndarray:
    """A grey 480x640 table strewn with light and dark rectangles at random turns (cards,
    their prints)."""
    rng = np.random.default_rng(seed)
    image = cv2.GaussianBlur(rng.normal(110, 25, (480, 640)).astype(np.float32), (0, 0), 2)
    for _ in range(60):
        box = ((float(rng.uniform(0, 640)), float(rng.uniform(0, 480))), tuple(map(float, rng.uniform(8, 60, 2))),
               float(rng.uniform(0, 180)))
        cv2.fillConvexPoly(image, np.round(cv2.boxPoints(box)).astype(np.int32), float(rng.choice([20, 235])))
    return np.clip(image, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("seed, length, angle", [(1, 7.0, 0.0), (2, 7.0, 45.0), (3, 6.0, 90.0), (4, 9.0, 150.0),
                                                 (5, 5.0, 120.0)])
def test_a_blur_is_judged_from_the_whole_image(seed, length, angle):
    """Without a marker to measure on, the cepstrum finds the line's direction, and its size
    is among the first two tried."""
    found = blind_motion(_photograph(_cards_scene(seed), length, angle, 0.8, seed))
    assert _angle_gap(found.angle_deg, angle) <= 12.0
    assert line_kernel(length, angle).shape[0] in found.kernel_sizes[:2]


@pytest.mark.parametrize("image", [np.zeros((20, 400), np.uint8), np.zeros((100, 100, 3), np.uint8),
                                   np.zeros((100, 100), np.float32)])
def test_blind_motion_refuses_bad_input(image):
    with pytest.raises(DeblurError, match="blind_motion needs"):
        blind_motion(image)


@pytest.mark.parametrize("angle, length", [(180.0, 5.0), (-1.0, 5.0), (10.0, 0.0)])
def test_a_blind_motion_validates_itself(angle, length):
    with pytest.raises(DeblurError):
        BlindMotion(angle, length)


@pytest.mark.parametrize("image, kernel, nsr, message", [
    (np.zeros((8, 8, 3), np.float32), np.ones((3, 3)), 0.1, "uint8"),
    (np.zeros((8, 8, 3), np.uint8), np.ones((2, 2)), 0.1, "odd square"),
    (np.zeros((8, 8, 3), np.uint8), np.zeros((3, 3)), 0.1, "positive sum"),
    (np.zeros((8, 8, 3), np.uint8), np.ones((3, 3)), 0.0, "noise-to-signal"),
])
def test_deconvolve_refuses_bad_input(image, kernel, nsr, message):
    with pytest.raises(DeblurError, match=message):
        deconvolve(image, kernel, nsr)


def test_motion_blur_validates_itself():
    assert MotionBlur(MIN_LENGTH_PX, 10.0, 0.0, 0.1).moving
    assert not MotionBlur(MIN_LENGTH_PX, 10.0, 0.0, 0.99).moving
    with pytest.raises(DeblurError, match="length_px"):
        MotionBlur(float("nan"), 0.0, 0.0, 0.5)
