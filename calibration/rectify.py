"""The top-down table view: any camera frame warped onto table millimetres.

Rectified image geometry, at ``px_per_mm`` = p on a ``W`` x ``H`` mm play area: the image is
``round(W p)`` x ``round(H p)`` pixels, the far edge of the table (y = H) at the top, and
the pixel in column c, row r covers the table square whose centre is
``x = (c + 0.5) / p``, ``y = H - (r + 0.5) / p`` mm (:func:`table_to_rectified`).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from .errors import CalibrationError, ProfileMismatchError
from .intrinsics import Intrinsics
from .table import TableCalibration

#: Largest rectified view this function builds, pixels per side (a guard against typos such
#: as --px-per-mm 100 on a 1 m table).
MAX_SIDE_PX = 8000
#: Undistorted positions further outside the frame than this fraction of its size are not
#: looked up (the distortion model is only valid near the frame).
_FRAME_MARGIN = 0.25
#: The lens's shift of a rectified view is computed exactly on a grid this many pixels apart.
LENS_STEP_PX = 8


def table_to_rectified(table_mm: tuple[float, float], px_per_mm: float) -> np.ndarray:
    """The 3x3 affine map from table mm to rectified-view pixel coordinates (pixel centres integer)."""
    _, height = table_mm
    p = float(px_per_mm)
    return np.array([[p, 0.0, -0.5], [0.0, -p, height * p - 0.5], [0.0, 0.0, 1.0]])


def rectified_size(table_mm: tuple[float, float], px_per_mm: float) -> tuple[int, int]:
    """(width, height) in pixels of the rectified view of a ``W`` x ``H`` mm play area."""
    return (int(round(table_mm[0] * px_per_mm)), int(round(table_mm[1] * px_per_mm)))


def rectify(image: np.ndarray, table: TableCalibration, px_per_mm: float,
            intrinsics: Intrinsics | None = None, interpolation: int = cv2.INTER_LINEAR) -> np.ndarray:
    """Warp a camera frame to the top-down view of the play area.

    Parameters
    ----------
    image : ndarray of shape (H, W, 3) or (H, W), uint8
        The camera frame as it comes from the camera (distorted).
    table : TableCalibration
    px_per_mm : float
        Resolution of the output, pixels per millimetre.
    intrinsics : Intrinsics or None
        Required when the table was calibrated on undistorted corners; the lens distortion
        is then removed in the same single resampling.
    interpolation : int
        OpenCV interpolation flag.

    Returns
    -------
    ndarray of shape (round(H_mm p), round(W_mm p)[, 3]), uint8
        See the module docstring for the pixel <-> mm relation. Outside the frame: black.

    Raises
    ------
    ProfileMismatchError
        The frame's size is not the calibrated one, or intrinsics are needed and missing.
    """
    if not (np.isfinite(px_per_mm) and px_per_mm > 0):
        raise CalibrationError(f"px_per_mm must be a positive number, got {px_per_mm}")
    width, height = rectified_size(table.layout.table_mm, px_per_mm)
    if max(width, height) > MAX_SIDE_PX or min(width, height) < 1:
        raise CalibrationError(f"a rectified view of {width}x{height} px is out of range (1..{MAX_SIDE_PX} per side): "
                               "choose another px_per_mm")
    frame_size = (image.shape[1], image.shape[0])
    if frame_size != tuple(table.image_size):
        raise ProfileMismatchError(f"the frame is {frame_size[0]}x{frame_size[1]} but the table was calibrated on "
                                   f"{table.image_size[0]}x{table.image_size[1]} images")
    # rectified pixel -> (undistorted) camera pixel
    rect_to_image = np.linalg.inv(table_to_rectified(table.layout.table_mm, px_per_mm) @ table.homography)
    if not table.undistorted:
        return cv2.warpPerspective(image, rect_to_image, (width, height), flags=interpolation | cv2.WARP_INVERSE_MAP,
                                   borderMode=cv2.BORDER_CONSTANT)
    if intrinsics is None:
        raise ProfileMismatchError("this table calibration was made on undistorted corners: rectifying needs the "
                                   "profile's intrinsics")
    undistorted = _homography_map(rect_to_image, width, height)
    distorted = undistorted + _lens_shift(rect_to_image, width, height, intrinsics)
    # The distortion polynomial folds points far outside the frame back into it: blank them.
    w, h = frame_size
    corners = cv2.perspectiveTransform(np.array([[[0, 0]], [[width - 1, 0]], [[width - 1, height - 1]],
                                                 [[0, height - 1]]], np.float64), rect_to_image).reshape(-1, 2)
    inside = ((corners >= (-_FRAME_MARGIN * w, -_FRAME_MARGIN * h))
              & (corners <= ((1 + _FRAME_MARGIN) * w, (1 + _FRAME_MARGIN) * h))).all()
    if not inside:  # (the view's corners inside the margin: so is all of it, the map being a homography)
        far = ((undistorted[..., 0] < -_FRAME_MARGIN * w) | (undistorted[..., 0] > (1 + _FRAME_MARGIN) * w)
               | (undistorted[..., 1] < -_FRAME_MARGIN * h) | (undistorted[..., 1] > (1 + _FRAME_MARGIN) * h))
        distorted[far] = -1.0
    return cv2.remap(image, distorted[..., 0], distorted[..., 1], interpolation, borderMode=cv2.BORDER_CONSTANT)


def _homography_map(h: np.ndarray, width: int, height: int) -> np.ndarray:
    """(height, width, 2) float32: where the homography ``h`` takes each pixel of a
    ``width`` x ``height`` grid (computed by rows and columns, without a list of points)."""
    x = np.arange(width, dtype=np.float64)[None, :]
    y = np.arange(height, dtype=np.float64)[:, None]
    w = h[2, 0] * x + h[2, 1] * y + h[2, 2]
    out = np.empty((height, width, 2), np.float32)
    out[..., 0] = (h[0, 0] * x + h[0, 1] * y + h[0, 2]) / w
    out[..., 1] = (h[1, 0] * x + h[1, 1] * y + h[1, 2]) / w
    return out


def _pixel_grid(width: int, height: int, step: int) -> np.ndarray:
    """Pixel positions (N, 1, 2), float64, every ``step`` px from 0 over ``width`` x ``height``
    (one past the last pixel when ``step`` > 1, so the grid covers them all)."""
    end = 1 if step == 1 else step
    cols, rows = np.meshgrid(np.arange(0, width - 1 + end, step, dtype=np.float64),
                             np.arange(0, height - 1 + end, step, dtype=np.float64))
    return np.stack([cols.ravel(), rows.ravel()], axis=1).reshape(-1, 1, 2)


def _lens_shift(rect_to_image: np.ndarray, width: int, height: int, intrinsics: Intrinsics) -> np.ndarray:
    """(height, width, 2): how far the lens moves each rectified pixel's undistorted image
    position. The shift is smooth, so it is computed exactly every :data:`LENS_STEP_PX` px and
    interpolated bilinearly between (distorting every pixel of a large view costs a third of
    a second; the interpolation is within 0.05 px of it, the image's own remap resolves
    1/32 px: tests)."""
    coarse = _pixel_grid(width, height, LENS_STEP_PX)
    rows = int(math.ceil((height - 1) / LENS_STEP_PX)) + 1
    undistorted = cv2.perspectiveTransform(coarse, rect_to_image).reshape(-1, 2)
    shift = (intrinsics.distort_points(undistorted) - undistorted).reshape(rows, -1, 2).astype(np.float32)
    x = np.arange(width, dtype=np.float32) / LENS_STEP_PX
    y = np.arange(height, dtype=np.float32) / LENS_STEP_PX
    map_x, map_y = np.meshgrid(x, y)
    return cv2.remap(shift, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
