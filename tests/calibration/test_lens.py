"""The lens estimated from the table markers alone: the division model, its OpenCV form, real views."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tableref.calibration.errors import CalibrationError
from tableref.calibration.layout import default_layout
from tableref.calibration.lens import (NOMINAL_FOCAL_SHARE, LensEstimate, division_intrinsics,
                                       estimate_lens)
from tableref.calibration.markers import DetectedMarker, detect_markers
from tableref.calibration.table import calibrate_table

from .conftest import IMAGE_SIZE, TABLE_CORNERS_PX, TABLE_MM, camera_pixels, render, table_grid

UNIT = NOMINAL_FOCAL_SHARE * IMAGE_SIZE[0]
CENTRE = np.array(IMAGE_SIZE, np.float64) / 2


def _divided(points_px: np.ndarray, division: float) -> np.ndarray:
    """The division model's undistortion of distorted pixels (N, 2)."""
    p = (points_px - CENTRE) / UNIT
    return p / (1 + division * np.sum(p ** 2, axis=1, keepdims=True)) * UNIT + CENTRE


@pytest.mark.parametrize("division", [-0.6, -0.4, -0.1, 0.0, 0.2])
def test_the_opencv_form_undistorts_as_the_division_model_does(division):
    rng = np.random.default_rng(3)
    distorted = rng.uniform((0, 0), IMAGE_SIZE, (200, 2))
    lens = division_intrinsics(division, IMAGE_SIZE)
    undistorted = lens.undistort_points(distorted)
    assert np.abs(undistorted - _divided(distorted, division)).max() < 0.05
    assert np.abs(lens.distort_points(undistorted) - distorted).max() < 0.05


def _markers_through(division: float, noise_px: float, ids=(0, 1, 2, 3), seed: int = 5) -> list[DetectedMarker]:
    """The layout's marker corners seen through the view of the conftest's table and a lens of
    ``division``: the undistorted positions pushed out (or in) by the model."""
    layout = default_layout(TABLE_MM, 50.0)
    table = np.array([[0, 0], [TABLE_MM[0], 0], TABLE_MM, [0, TABLE_MM[1]]], np.float64)
    h = cv2.getPerspectiveTransform(table.astype(np.float32), TABLE_CORNERS_PX.astype(np.float32))
    rng = np.random.default_rng(seed)
    lens = division_intrinsics(division, IMAGE_SIZE)
    found = []
    for i in ids:
        px = cv2.perspectiveTransform(layout.placement(i).corners_mm.reshape(-1, 1, 2), h).reshape(-1, 2)
        found.append(DetectedMarker(i, lens.distort_points(px) + rng.normal(0, noise_px, (4, 2))))
    return found


@pytest.mark.parametrize(("division", "ids"), [
    (-0.5, (0, 1, 2, 3)),
    (-0.25, (0, 1, 2, 3)),
    (-0.25, (0, 1, 3)),
    (-0.25, (1, 3)),
    (-0.25, (0, 1)),
    (-0.05, (0, 2, 3)),
    (0.15, (0, 1, 2, 3)),
])
def test_the_division_is_recovered_from_noisy_corners(division, ids):
    estimate = estimate_lens(_markers_through(division, 0.15, ids), [default_layout(TABLE_MM, 50.0)], IMAGE_SIZE)
    assert estimate is not None
    assert estimate.division == pytest.approx(division, abs=0.05)
    assert estimate.rms_px < 0.3


@pytest.mark.parametrize("ids", [(0,), (2,), (0, 0, 1)])
def test_too_few_markers_estimate_nothing(ids):
    found = _markers_through(-0.3, 0.0, ids)
    assert estimate_lens(found, [default_layout(TABLE_MM, 50.0)], IMAGE_SIZE) is None


def test_markers_of_another_layout_do_not_count():
    found = [DetectedMarker(m.id + 10, m.corners) for m in _markers_through(-0.3, 0.0)]
    assert estimate_lens(found, [default_layout(TABLE_MM, 50.0)], IMAGE_SIZE) is None


@pytest.mark.parametrize(("hidden", "straight_px", "lens_px"), [((), 8.0, 1.0), ((2,), 12.0, 1.0)])
def test_a_rendered_wide_lens_is_undone(hidden, straight_px, lens_px):
    """The conftest's lens (OpenCV's polynomial model, not the division model, and an
    off-centre principal point): the table fitted through the estimate lies within a pixel
    everywhere, where the plain homography misses the play area's far corners by many."""
    scene = render(hidden=hidden, distorted=True)
    markers = detect_markers(scene.image)
    estimate = estimate_lens(markers, [scene.layout], IMAGE_SIZE)
    assert estimate is not None and estimate.gain < 0.1
    grid = table_grid()
    truth = camera_pixels(scene, grid)
    plain = calibrate_table(markers, scene.layout, IMAGE_SIZE, None, max_corner_error_mm=np.inf)
    assert np.abs(plain.table_to_image(grid) - truth).max() > straight_px
    fitted = calibrate_table(markers, scene.layout, IMAGE_SIZE, estimate.intrinsics)
    assert np.abs(fitted.table_to_image(grid, estimate.intrinsics) - truth).max() < lens_px


def test_a_lens_without_distortion_is_left_straight():
    scene = render()
    estimate = estimate_lens(detect_markers(scene.image), [scene.layout], IMAGE_SIZE)
    assert abs(estimate.division) < 0.01
    assert estimate.gain > 0.9


@pytest.mark.parametrize(("division", "rms", "straight"), [(-1.5, 0.1, 1.0), (0.0, -0.1, 1.0), (0.0, 0.1, -1.0)])
def test_an_estimate_checks_itself(division, rms, straight):
    with pytest.raises(CalibrationError):
        LensEstimate(division, division_intrinsics(0.0, IMAGE_SIZE), rms, straight)


def test_of_several_table_sizes_the_one_the_markers_show_is_refined():
    found = _markers_through(-0.3, 0.15)
    right = default_layout(TABLE_MM, 50.0)
    wrong = [default_layout((TABLE_MM[0] + 120, TABLE_MM[1]), 50.0), default_layout((TABLE_MM[0], 330.0), 50.0)]
    alone = estimate_lens(found, [right], IMAGE_SIZE)
    among = estimate_lens(found, [wrong[0], right, wrong[1]], IMAGE_SIZE)
    assert among.division == alone.division and among.rms_px == alone.rms_px
    assert estimate_lens(found, wrong, IMAGE_SIZE).rms_px > 3 * alone.rms_px
