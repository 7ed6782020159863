"""The table plane from ArUco markers: round trips through synthetic views, rectification, errors."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tableref.calibration.errors import MarkerError, ProfileMismatchError
from tableref.calibration.layout import default_layout
from tableref.calibration.markers import DetectedMarker, detect_markers
from tableref.calibration.rectify import rectify, table_to_rectified
from tableref.calibration.table import calibrate_table, opposite, spans

from .conftest import IMAGE_SIZE, TABLE_MM, camera_pixels, table_grid

RECTIFIED_PX_PER_MM = 2.0
PAD_PX = 20


@pytest.mark.parametrize(("scene", "with_intrinsics", "used", "max_error_mm"), [
    ("plain", False, (0, 1, 2, 3), 0.5),
    ("three_markers", False, (0, 1, 3), 0.5),
    ("distorted", True, (0, 1, 2, 3), 1.0),
])
def test_homography_round_trip_over_the_whole_table(scenes, scene, with_intrinsics, used, max_error_mm):
    s = scenes[scene]
    intrinsics = s.intrinsics if with_intrinsics else None
    calibration = calibrate_table(detect_markers(s.image), s.layout, IMAGE_SIZE, intrinsics)
    assert calibration.markers_used == used
    assert calibration.undistorted is with_intrinsics
    grid = table_grid()
    error = np.linalg.norm(calibration.image_to_table(camera_pixels(s, grid), intrinsics) - grid, axis=1)
    assert error.max() <= max_error_mm
    back = calibration.table_to_image(grid, intrinsics)
    assert np.abs(back - camera_pixels(s, grid)).max() < 1.0


def test_ignoring_the_lens_costs_millimetres(scenes):
    """The distorted view needs its intrinsics: without them the table is off by several mm."""
    s = scenes["distorted"]
    calibration = calibrate_table(detect_markers(s.image), s.layout, IMAGE_SIZE, None, max_corner_error_mm=100)
    grid = table_grid()
    assert np.linalg.norm(calibration.image_to_table(camera_pixels(s, grid)) - grid, axis=1).max() > 3.0


@pytest.mark.parametrize(("scene", "with_intrinsics"), [("plain", False), ("distorted", True)])
def test_rectified_view_puts_the_markers_where_the_layout_says(scenes, scene, with_intrinsics):
    s = scenes[scene]
    intrinsics = s.intrinsics if with_intrinsics else None
    calibration = calibrate_table(detect_markers(s.image), s.layout, IMAGE_SIZE, intrinsics)
    view = rectify(s.image, calibration, RECTIFIED_PX_PER_MM, intrinsics)
    assert view.shape == (round(TABLE_MM[1] * RECTIFIED_PX_PER_MM), round(TABLE_MM[0] * RECTIFIED_PX_PER_MM), 3)
    to_view = table_to_rectified(TABLE_MM, RECTIFIED_PX_PER_MM)
    # the markers touch the view's edges: give them a white quiet zone to be found in
    padded = cv2.copyMakeBorder(view, PAD_PX, PAD_PX, PAD_PX, PAD_PX, cv2.BORDER_CONSTANT, value=(255, 255, 255))
    found = {m.id: m.corners - PAD_PX for m in detect_markers(padded)}
    assert sorted(found) == [0, 1, 2, 3]
    for placement in s.layout.markers:
        expected = (to_view[:2, :2] @ placement.corners_mm.T).T + to_view[:2, 2]
        # ArUco corners sit on the black square's outer edge, half a pixel out from pixel centres
        assert np.abs(found[placement.id] - expected).max() < 1.0


@pytest.mark.parametrize("px_per_mm", [0.7, 2.0])
def test_the_lens_shift_is_interpolated_within_a_twentieth_of_a_pixel(scenes, px_per_mm):
    """The rectified view's lens shift, computed exactly on a coarse grid and interpolated,
    against the shift of every pixel (the image's own remap places pixels to 1/32 px)."""
    from tableref.calibration.rectify import _lens_shift, _pixel_grid, rectified_size

    s = scenes["distorted"]
    calibration = calibrate_table(detect_markers(s.image), s.layout, IMAGE_SIZE, s.intrinsics)
    width, height = rectified_size(calibration.layout.table_mm, px_per_mm)
    rect_to_image = np.linalg.inv(table_to_rectified(calibration.layout.table_mm, px_per_mm) @ calibration.homography)
    undistorted = cv2.perspectiveTransform(_pixel_grid(width, height, 1), rect_to_image).reshape(-1, 2)
    exact = (s.intrinsics.distort_points(undistorted) - undistorted).reshape(height, width, 2)
    assert np.abs(_lens_shift(rect_to_image, width, height, s.intrinsics) - exact).max() < 0.05


def test_rectify_refuses_a_frame_of_another_size(scenes):
    s = scenes["plain"]
    calibration = calibrate_table(detect_markers(s.image), s.layout, IMAGE_SIZE)
    with pytest.raises(ProfileMismatchError, match="1280x720"):
        rectify(s.image[:100], calibration, RECTIFIED_PX_PER_MM)


def _markers(scene, ids):
    return [m for m in detect_markers(scene.image) if m.id in ids]


@pytest.mark.parametrize(("case", "error", "match"), [
    ("two markers", MarkerError, r"only 2 of the 4 table markers found .*missing ids \[2, 3\]"),
    ("wrong table size", MarkerError, "do not match the layout"),
    ("duplicate", MarkerError, r"marker\(s\) \[1\] seen more than once"),
    ("intrinsics for another size", ProfileMismatchError, "calibrate the camera at this resolution"),
])
def test_table_calibration_errors(scenes, case, error, match):
    s = scenes["distorted"]
    markers, layout, intrinsics = detect_markers(s.image), s.layout, s.intrinsics
    size = IMAGE_SIZE
    if case == "two markers":
        markers = _markers(s, (0, 1))
    elif case == "wrong table size":
        layout = default_layout((700.0, 400.0), 50.0)
    elif case == "duplicate":
        markers = markers + [DetectedMarker(1, markers[1].corners + 300)]
    else:
        size = (640, 360)
    with pytest.raises(error, match=match):
        calibrate_table(markers, layout, size, intrinsics)


def test_detect_markers_on_an_empty_image():
    assert detect_markers(np.full((240, 320, 3), 200, np.uint8)) == []


@pytest.mark.parametrize(("name", "error"), [("DICT_4X4_50", None), ("DICT_NOPE", MarkerError), ("CORNER_REFINE_SUBPIX", MarkerError)])
def test_dictionary_names(name, error):
    image = np.zeros((64, 64), np.uint8)
    if error is None:
        assert detect_markers(image, name) == []
    else:
        with pytest.raises(error, match="unknown ArUco dictionary"):
            detect_markers(image, name)


@pytest.mark.parametrize("table_mm, first, second, expected", [
    ((800.0, 600.0), 0, 2, True),
    ((800.0, 600.0), 1, 3, True),
    ((800.0, 600.0), 0, 1, False),
    ((800.0, 600.0), 2, 3, False),
    ((800.0, 600.0), 0, 3, False),
    ((300.0, 1500.0), 1, 3, True),
])
def test_opposite_corners(table_mm, first, second, expected):
    assert opposite(default_layout(table_mm), first, second) is expected


@pytest.mark.parametrize("ids, expected", [
    ((0, 1, 2, 3), (True, True)),
    ((0, 2), (True, True)),
    ((1, 2), (False, True)),   # the right edge: the width is not measured
    ((0, 1), (True, False)),   # the far edge: the depth is not
    ((3,), (False, False)),
])
def test_which_sides_markers_measure(ids, expected):
    assert spans(default_layout((800.0, 600.0)), ids) == expected


@pytest.mark.parametrize("two_markers, ok", [("one", True), ("any", False), ("never", False)])
def test_one_marker_fixes_the_plane_only_where_the_caller_allows_it(scenes, two_markers, ok):
    s = scenes["plain"]
    alone = _markers(s, {2})
    if not ok:
        with pytest.raises(MarkerError, match="only 1 of the 4 table markers found"):
            calibrate_table(alone, s.layout, IMAGE_SIZE, two_markers=two_markers)
        return
    one = calibrate_table(alone, s.layout, IMAGE_SIZE, two_markers=two_markers)
    full = calibrate_table(detect_markers(s.image), s.layout, IMAGE_SIZE)
    assert one.markers_used == (2,)
    # its own square fits exactly; the plane it implies strays further from it
    near = s.layout.placement(2).corners_mm.mean(axis=0)
    px = cv2.perspectiveTransform(near.reshape(1, 1, 2), np.linalg.inv(full.homography)).reshape(1, 1, 2)
    assert np.abs(cv2.perspectiveTransform(px, one.homography).reshape(2) - near).max() < 1.0
