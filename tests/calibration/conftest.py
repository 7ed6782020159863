"""Synthetic camera views of a table with markers, with a known homography and lens."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import pytest

from tableref.calibration.intrinsics import Intrinsics
from tableref.calibration.layout import MarkerLayout, default_layout
from tableref.calibration.markers import dictionary
from tableref.calibration.rectify import table_to_rectified

#: The synthetic setup: a 600 x 400 mm play area, 50 mm markers, a 1280 x 720 camera.
TABLE_MM = (600.0, 400.0)
MARKER_MM = 50.0
IMAGE_SIZE = (1280, 720)
#: Where the play area's corners (0,0), (W,0), (W,H), (0,H) appear in the undistorted image:
#: a camera in front of the table looking down at it, slightly turned.
TABLE_CORNERS_PX = np.array([[230.0, 640.0], [1085.0, 615.0], [935.0, 120.0], [340.0, 140.0]])
#: A webcam-like lens with clear barrel distortion.
CAMERA_MATRIX = np.array([[900.0, 0.0, 650.0], [0.0, 905.0, 355.0], [0.0, 0.0, 1.0]])
DIST_COEFFS = np.array([-0.28, 0.09, 0.0008, -0.0005, -0.01])
_TEXTURE_PX_PER_MM = 4
_SUPERSAMPLE = 2
_TABLE_GREY, _SHADE = 175, 15
_MARGIN_MM = 40.0  # the table goes on beyond the play area


@dataclass(frozen=True)
class Scene:
    """A rendered view and the truth behind it."""

    image: np.ndarray
    layout: MarkerLayout
    image_from_table: np.ndarray        # 3x3: table mm -> undistorted image px
    intrinsics: Intrinsics | None       # the lens the image was rendered through, if any


def _texture(layout: MarkerLayout, hidden: tuple[int, ...]) -> tuple[np.ndarray, float]:
    """Top-down texture of the table (play area plus _MARGIN_MM around it) at _TEXTURE_PX_PER_MM.

    Each visible marker lies on its cut-out paper (a white border of one module). Returns the
    texture and its margin in mm.
    """
    t = _TEXTURE_PX_PER_MM
    width, height = (int((v + 2 * _MARGIN_MM) * t) for v in layout.table_mm)
    rng = np.random.default_rng(7)
    shade = cv2.GaussianBlur(rng.normal(0, 1, (height // 16, width // 16)), (0, 0), 2)
    shade = cv2.resize(shade / (np.abs(shade).max() + 1e-9), (width, height), interpolation=cv2.INTER_CUBIC)
    tex = np.clip(_TABLE_GREY + _SHADE * shade, 0, 255).astype(np.uint8)
    aruco = dictionary(layout.dictionary)
    side = int(layout.marker_mm * t)
    border = side // (aruco.markerSize + 2)
    for m in layout.markers:
        if m.id in hidden:
            continue
        x0, y_top = m.corners_mm[0]  # top-left corner of an upright marker
        col = int(round((x0 + _MARGIN_MM) * t))
        row = int(round((layout.table_mm[1] + _MARGIN_MM - y_top) * t))
        tex[row - border:row + side + border, col - border:col + side + border] = 255
        bits = aruco.generateImageMarker(m.id, aruco.markerSize + 2)
        tex[row:row + side, col:col + side] = cv2.resize(bits, (side, side), interpolation=cv2.INTER_NEAREST)
    return tex


def _undistort(px: np.ndarray) -> np.ndarray:
    """Undistorted positions of distorted pixels (N, 2), iterated to convergence."""
    criteria = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 100, 1e-10)
    pts = px.reshape(-1, 1, 2)
    if hasattr(cv2, "undistortPointsIter"):
        return cv2.undistortPointsIter(pts, CAMERA_MATRIX, DIST_COEFFS, None, CAMERA_MATRIX, criteria).reshape(-1, 2)
    return cv2.undistortPoints(pts, CAMERA_MATRIX, DIST_COEFFS, R=None, P=CAMERA_MATRIX, criteria=criteria).reshape(-1, 2)


def render(hidden: tuple[int, ...] = (), distorted: bool = False, noise: float = 2.0) -> Scene:
    """Render the camera view, supersampled; with ``distorted`` through CAMERA_MATRIX/DIST_COEFFS."""
    layout = default_layout(TABLE_MM, MARKER_MM)
    w, h = IMAGE_SIZE
    table_px = np.array([[0, 0], [TABLE_MM[0], 0], [TABLE_MM[0], TABLE_MM[1]], [0, TABLE_MM[1]]], np.float64)
    image_from_table = cv2.getPerspectiveTransform(table_px.astype(np.float32), TABLE_CORNERS_PX.astype(np.float32))
    ss = _SUPERSAMPLE
    us, vs = np.meshgrid((np.arange(w * ss) + 0.5) / ss - 0.5, (np.arange(h * ss) + 0.5) / ss - 0.5)
    camera_px = np.stack([us.ravel(), vs.ravel()], axis=1)
    intrinsics = Intrinsics(CAMERA_MATRIX, DIST_COEFFS, IMAGE_SIZE) if distorted else None
    if intrinsics is not None:
        camera_px = _undistort(camera_px)
    table_mm = cv2.perspectiveTransform(camera_px.reshape(-1, 1, 2), np.linalg.inv(image_from_table))
    texture_from_table = table_to_rectified((TABLE_MM[0], TABLE_MM[1] + _MARGIN_MM), _TEXTURE_PX_PER_MM)
    texture_from_table[0, 2] += _MARGIN_MM * _TEXTURE_PX_PER_MM
    tex_px = cv2.perspectiveTransform(table_mm, texture_from_table).reshape(h * ss, w * ss, 2)
    big = cv2.remap(_texture(layout, hidden), tex_px[..., 0].astype(np.float32), tex_px[..., 1].astype(np.float32),
                    cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=90)
    small = cv2.resize(big, (w, h), interpolation=cv2.INTER_AREA).astype(np.float64)
    small += np.random.default_rng(11).normal(0, noise, small.shape)
    image = cv2.cvtColor(np.clip(small, 0, 255).astype(np.uint8), cv2.COLOR_GRAY2BGR)
    return Scene(image, layout, image_from_table, intrinsics)


def table_grid(step_mm: float = 20.0) -> np.ndarray:
    """Points (N, 2) in table mm every ``step_mm`` over the whole play area, edges included."""
    xs = np.arange(0.0, TABLE_MM[0] + 1e-9, step_mm)
    ys = np.arange(0.0, TABLE_MM[1] + 1e-9, step_mm)
    return np.stack(np.meshgrid(xs, ys), axis=-1).reshape(-1, 2)


def camera_pixels(scene: Scene, table_mm: np.ndarray) -> np.ndarray:
    """Where the camera of ``scene`` images table points (N, 2): homography, then the lens."""
    px = cv2.perspectiveTransform(table_mm.reshape(-1, 1, 2), scene.image_from_table).reshape(-1, 2)
    return scene.intrinsics.distort_points(px) if scene.intrinsics is not None else px


@pytest.fixture(scope="session")
def scenes() -> dict[str, Scene]:
    """Rendered once per session: plain, one marker hidden, and through a distorting lens."""
    return {"plain": render(), "three_markers": render(hidden=(2,)), "distorted": render(distorted=True)}


@pytest.fixture(scope="session")
def chessboard_dir(shared_data):
    return shared_data / "chessboard-9x6"
