"""Where the camera stands and where a point above the table shows (vision/parallax.py): the
camera centre and focal length recovered from the homography of known pinhole cameras, the
lift matching the camera's own projection of raised points, and bad input."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tableref.vision.parallax import ParallaxError, camera_centre_mm, focal_from_homography, lift

SIZE = (1280, 720)
TABLE = (900.0, 900.0)


def _camera(tilt_deg: float, yaw_deg: float, distance: float, focal: float):
    """A pinhole camera (K, R, t; table frame mm, z up) on the near side of the table, tilted
    ``tilt_deg`` from straight down and aimed at the table's centre."""
    target = np.array([TABLE[0] / 2, TABLE[1] / 2, 0.0])
    tilt, yaw = math.radians(tilt_deg), math.radians(yaw_deg)
    forward = np.array([-math.sin(yaw), math.cos(yaw), 0.0])
    centre = target + distance * (math.cos(tilt) * np.array([0.0, 0.0, 1.0]) - math.sin(tilt) * forward)
    z = target - centre
    z /= np.linalg.norm(z)
    x = np.cross(z, forward if tilt_deg > 0 else np.array([0.0, 1.0, 0.0]))
    x /= np.linalg.norm(x)
    rotation = np.stack([x, np.cross(z, x), z])
    k = np.array([[focal, 0.0, SIZE[0] / 2], [0.0, focal, SIZE[1] / 2], [0.0, 0.0, 1.0]])
    return k, rotation, -rotation @ centre, centre


def _project(k, rotation, t, points_3d: np.ndarray) -> np.ndarray:
    p = (k @ (rotation @ points_3d.T + t[:, None])).T
    return p[:, :2] / p[:, 2:]


def _homography(k, rotation, t) -> np.ndarray:
    return k @ np.column_stack([rotation[:, 0], rotation[:, 1], t])


def _through(h: np.ndarray, points_mm: np.ndarray) -> np.ndarray:
    p = np.column_stack([points_mm, np.ones(len(points_mm))]) @ h.T
    return p[:, :2] / p[:, 2:]


@pytest.mark.parametrize("tilt, yaw, distance, focal", [
    (10.0, 0.0, 1000.0, 700.0),
    (25.0, 20.0, 1200.0, 900.0),
    (35.0, -30.0, 800.0, 600.0),
    (30.0, 90.0, 1600.0, 1100.0),
])
def test_the_camera_and_its_focal_length_follow_from_a_slanted_view(tilt, yaw, distance, focal):
    k, rotation, t, centre = _camera(tilt, yaw, distance, focal)
    h = _homography(k, rotation, t)
    assert focal_from_homography(h, SIZE) == pytest.approx(focal, rel=1e-6)
    assert camera_centre_mm(h, SIZE) == pytest.approx(centre, abs=1e-6)
    assert camera_centre_mm(h * -3.0, SIZE) == pytest.approx(centre, abs=1e-6)  # any scale, either sign


def test_a_straight_down_view_leaves_the_focal_length_open_and_the_nominal_one_is_used():
    k, rotation, t, centre = _camera(0.0, 0.0, 1000.0, 800.0)
    h = _homography(k, rotation, t)
    assert focal_from_homography(h, SIZE) is None
    nominal = camera_centre_mm(h, SIZE)  # 0.6 of the width: 768 px against the true 800
    assert nominal[:2] == pytest.approx(centre[:2], abs=1e-6)
    assert nominal[2] == pytest.approx(centre[2] * 768 / 800, rel=1e-6)
    assert camera_centre_mm(h, SIZE, focal_px=800.0) == pytest.approx(centre, abs=1e-6)


@settings(max_examples=40, deadline=None)
@given(tilt=st.floats(5.0, 40.0), yaw=st.floats(-60.0, 60.0), distance=st.floats(700.0, 1600.0),
       x=st.floats(0.0, 900.0), y=st.floats(0.0, 900.0), height=st.floats(0.0, 30.0))
def test_a_lifted_point_shows_where_the_camera_sees_the_raised_point(tilt, yaw, distance, x, y, height):
    k, rotation, t, _ = _camera(tilt, yaw, distance, 800.0)
    h = _homography(k, rotation, t)
    seen = _project(k, rotation, t, np.array([[x, y, height]]))
    lifted = lift(np.array([[x, y]]), height, camera_centre_mm(h, SIZE))
    assert _through(h, lifted) == pytest.approx(seen, abs=1e-6)


def test_lift_moves_points_away_from_under_the_camera():
    centre = np.array([100.0, -200.0, 1000.0])
    points = np.array([[100.0, -200.0], [600.0, -200.0], [100.0, 800.0]])
    got = lift(points, 10.0, centre)
    assert got[0] == pytest.approx(points[0])
    assert got[1] == pytest.approx([100.0 + 500.0 * 1000.0 / 990.0, -200.0])
    assert got[2] == pytest.approx([100.0, -200.0 + 1000.0 * 1000.0 / 990.0])
    assert lift(points.reshape(3, 1, 2), 10.0, centre).shape == (3, 1, 2)


@pytest.mark.parametrize("height", [1000.0, 1500.0])
def test_a_point_as_high_as_the_camera_cannot_be_seen(height):
    with pytest.raises(ParallaxError, match="cannot see"):
        lift(np.zeros((1, 2)), height, np.array([0.0, 0.0, 1000.0]))


@pytest.mark.parametrize("h", [np.zeros((3, 3)), np.array([[1.0, 0, 0], [0, 1.0, 0], [0, 0, 0]])])
def test_a_homography_without_a_camera_is_refused(h):
    with pytest.raises(ParallaxError):
        camera_centre_mm(h, SIZE, focal_px=800.0)


@pytest.mark.parametrize("focal", [0.0, -5.0, float("nan")])
def test_a_focal_length_must_be_positive(focal):
    k, rotation, t, _ = _camera(20.0, 0.0, 1000.0, 800.0)
    with pytest.raises(ParallaxError, match="focal length"):
        camera_centre_mm(_homography(k, rotation, t), SIZE, focal_px=focal)
