"""The top-down table view: any camera frame warped onto table millimetres.

Rectified image geometry, at ``px_per_mm`` = p on a ``W`` x ``H`` mm play area: the image is
``round(W p)`` x ``round(H p)`` pixels, the far edge of the table (y = H) at the top, and
the pixel in column c, row r covers the table square whose centre is
``x = (c + 0.5) / p``, ``y = H - (r + 0.5) / p`` mm (:func:`table_to_rectified`).
"""

from __future__ import annotations

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
    cols, rows = np.meshgrid(np.arange(width, dtype=np.float64), np.arange(height, dtype=np.float64))
    grid = np.stack([cols.ravel(), rows.ravel()], axis=1).reshape(-1, 1, 2)
    undistorted = cv2.perspectiveTransform(grid, rect_to_image).reshape(-1, 2)
    distorted = intrinsics.distort_points(undistorted)
    # The distortion polynomial folds points far outside the frame back into it: blank them.
    w, h = frame_size
    far = ((undistorted[:, 0] < -_FRAME_MARGIN * w) | (undistorted[:, 0] > (1 + _FRAME_MARGIN) * w)
           | (undistorted[:, 1] < -_FRAME_MARGIN * h) | (undistorted[:, 1] > (1 + _FRAME_MARGIN) * h))
    distorted[far] = -1.0
    distorted = distorted.astype(np.float32).reshape(height, width, 2)
    return cv2.remap(image, distorted[..., 0], distorted[..., 1], interpolation, borderMode=cv2.BORDER_CONSTANT)
