"""Where the camera stands over the table, and where a point above the table shows.

The table's homography maps the table's plane; a cube 10 mm tall stands out of it, and the
camera sees its top displaced from its footprint, away from the point of the table under the
camera, by ``height / (camera height - height)`` of the distance to that point: at the edge of a
table seen from 800 mm, half a cube. Which way depends on where the camera stands, so a crop cut
at the footprint shows a cube's neighbour in one seat's row and not in another's.

A pinhole camera's image of a point ``P`` at height ``h`` is its image of the table point where
the ray from the camera centre ``C`` through ``P`` meets the table:
``C_xy + (P_xy - C_xy) * C_z / (C_z - h)`` (:func:`lift`). ``C`` follows from the homography
and the focal length (:func:`camera_centre_mm`); the focal length from the homography itself,
which a plane seen at a slant constrains (the two columns of the rotation are orthogonal and of
equal length; Zhang 2000), with the principal point at the image centre.

Pure functions over arrays.
"""

from __future__ import annotations

import numpy as np

from ..calibration.lens import NOMINAL_FOCAL_SHARE
from .errors import VisionError

#: Focal lengths outside this share of the image width are not believed (a near-straight-down
#: view hardly constrains the focal length): the lens model's nominal one
#: (:data:`~tableref.calibration.lens.NOMINAL_FOCAL_SHARE` of the width) is used instead.
FOCAL_SHARE_RANGE = (0.3, 3.0)


class ParallaxError(VisionError):
    """A homography from which no camera position follows."""


def focal_from_homography(h_table_to_px: np.ndarray, image_size: tuple[int, int]) -> float | None:
    """The focal length (px) that makes the homography's first two columns, seen through a camera
    with square pixels and its principal point at the image centre, orthogonal and of equal
    length (least squares over both); None when they do not decide it (no slant, or no real
    solution)."""
    w, h = image_size
    shift = np.array([[1.0, 0.0, -w / 2.0], [0.0, 1.0, -h / 2.0], [0.0, 0.0, 1.0]])
    m = shift @ np.asarray(h_table_to_px, np.float64)
    m = m / np.linalg.norm(m)
    a, b = m[:, 0], m[:, 1]
    # with u = 1 / f^2: orthogonal: u (a0 b0 + a1 b1) + a2 b2 = 0; equal length likewise
    rows = np.array([[a[0] * b[0] + a[1] * b[1], a[2] * b[2]],
                     [a[0] ** 2 + a[1] ** 2 - b[0] ** 2 - b[1] ** 2, a[2] ** 2 - b[2] ** 2]])
    k, c = rows[:, 0], rows[:, 1]
    denominator = float(k @ k)
    if denominator <= 0:
        return None
    u = -float(k @ c) / denominator
    return float(1.0 / np.sqrt(u)) if u > 0 else None


def camera_centre_mm(h_table_to_px: np.ndarray, image_size: tuple[int, int],
                     focal_px: float | None = None) -> np.ndarray:
    """The camera centre (3,) in table mm, z the height above the table (> 0), from the
    homography table mm -> undistorted image px. ``focal_px`` defaults to
    :func:`focal_from_homography` where that lies within :data:`FOCAL_SHARE_RANGE` of the width,
    else the nominal one."""
    w, h = image_size
    if focal_px is None:
        focal_px = focal_from_homography(h_table_to_px, image_size)
        lo, hi = (s * w for s in FOCAL_SHARE_RANGE)
        if focal_px is None or not lo <= focal_px <= hi:
            focal_px = NOMINAL_FOCAL_SHARE * w
    if not (np.isfinite(focal_px) and focal_px > 0):
        raise ParallaxError(f"focal length must be a positive number of pixels, got {focal_px!r}")
    k = np.array([[focal_px, 0.0, w / 2.0], [0.0, focal_px, h / 2.0], [0.0, 0.0, 1.0]])
    b = np.linalg.solve(k, np.asarray(h_table_to_px, np.float64))
    norms = np.linalg.norm(b[:, 0]) + np.linalg.norm(b[:, 1])
    if not (np.all(np.isfinite(b)) and norms > 0):
        raise ParallaxError("the homography maps the table to no plane the camera sees")
    scale = 2.0 / norms
    if b[2, 2] * scale < 0:  # the table lies in front of the camera
        scale = -scale
    r1, r2, t = b[:, 0] * scale, b[:, 1] * scale, b[:, 2] * scale
    u, _, vt = np.linalg.svd(np.column_stack([r1, r2, np.cross(r1, r2)]))
    rotation = u @ vt
    centre = -rotation.T @ t
    if not np.all(np.isfinite(centre)) or abs(centre[2]) < 1e-6:
        raise ParallaxError("the homography puts the camera on the table's plane")
    return np.array([centre[0], centre[1], abs(centre[2])])


def lift(points_mm: np.ndarray, height_mm: float, centre_mm: np.ndarray) -> np.ndarray:
    """Table points (..., 2) whose image is that of ``points_mm`` raised by ``height_mm``, for a
    camera centred at ``centre_mm`` (3,; z its height above the table, more than ``height_mm``)."""
    c = np.asarray(centre_mm, np.float64)
    if not c[2] > height_mm:
        raise ParallaxError(f"a camera {c[2]:.0f} mm above the table cannot see {height_mm:g} mm above it")
    p = np.asarray(points_mm, np.float64)
    return c[:2] + (p - c[:2]) * (c[2] / (c[2] - height_mm))
