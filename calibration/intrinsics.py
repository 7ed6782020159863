"""Camera intrinsics: the record, and calibrating it from photos of a pattern."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from . import _fields as f
from .errors import CalibrationError, TooFewViewsError
from .images import to_gray
from .patterns import Pattern

log = logging.getLogger(__name__)

#: Fewer views than this do not pin down focal length, centre and distortion together.
MIN_VIEWS = 3
#: Lengths OpenCV accepts for the distortion vector (k1 k2 p1 p2 [k3 [k4 k5 k6 [s1..s4 [tx ty]]]]).
DIST_LENGTHS = (4, 5, 8, 12, 14)
#: Undistorting a point is iterative; OpenCV's default of 5 iterations leaves pixel-sized
#: errors at the edge of a wide-angle webcam frame. Iterate until a step is below 1e-9
#: (normalised units, far below a pixel) or 100 iterations.
UNDISTORT_CRITERIA = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 100, 1e-9)


@dataclass(frozen=True, eq=False)
class Intrinsics:
    """A camera's intrinsics, in OpenCV's pinhole + distortion model.

    Attributes
    ----------
    camera_matrix : ndarray of shape (3, 3), pixels
        ``[[fx, 0, cx], [0, fy, cy], [0, 0, 1]]``.
    dist_coeffs : ndarray of shape (N,), N in 4, 5, 8, 12, 14
        ``k1 k2 p1 p2 [k3 ...]``.
    image_size : (width, height), pixels
        The image size the intrinsics belong to.
    rms : float or None
        RMS reprojection error of the calibration, pixels (None when entered by hand).
    """

    camera_matrix: np.ndarray
    dist_coeffs: np.ndarray
    image_size: tuple[int, int]
    rms: float | None = None

    def __post_init__(self) -> None:
        k = np.asarray(self.camera_matrix, dtype=np.float64)
        d = np.asarray(self.dist_coeffs, dtype=np.float64).ravel()
        if k.shape != (3, 3):
            raise CalibrationError(f"camera_matrix must be 3x3, got shape {k.shape}")
        if not (k[0, 0] > 0 and k[1, 1] > 0 and np.allclose(k[2], (0, 0, 1))):
            raise CalibrationError(f"camera_matrix must have positive fx, fy and last row 0 0 1, got {k.tolist()}")
        if d.size not in DIST_LENGTHS:
            raise CalibrationError(f"dist_coeffs must hold one of {DIST_LENGTHS} numbers, got {d.size}")
        if len(self.image_size) != 2 or min(self.image_size) < 1:
            raise CalibrationError(f"image_size must be (width, height) > 0, got {self.image_size}")
        object.__setattr__(self, "camera_matrix", f.readonly(k))
        object.__setattr__(self, "dist_coeffs", f.readonly(d))
        object.__setattr__(self, "image_size", (int(self.image_size[0]), int(self.image_size[1])))

    def to_json(self) -> dict[str, Any]:
        return {"camera_matrix": self.camera_matrix.tolist(), "dist_coeffs": self.dist_coeffs.tolist(),
                "image_size": list(self.image_size), "rms": self.rms}

    @classmethod
    def from_json(cls, obj: Any, where: str = "intrinsics") -> Intrinsics:
        """Build from a profile's ``intrinsics`` section; errors name the field."""
        obj = f.section(obj, where)
        k = f.matrix(f.get(obj, "camera_matrix", where), f"{where}.camera_matrix", (3, 3))
        d = f.matrix(f.get(obj, "dist_coeffs", where), f"{where}.dist_coeffs", (-1,))
        if d.size not in DIST_LENGTHS:
            raise f.fail(f"{where}.dist_coeffs", f"a list of {' or '.join(map(str, DIST_LENGTHS))} numbers", obj["dist_coeffs"])
        image_size = f.size(f.get(obj, "image_size", where), f"{where}.image_size")
        rms = obj.get("rms")
        rms = None if rms is None else f.number(rms, f"{where}.rms")
        try:
            return cls(k, d, image_size, rms)
        except CalibrationError as exc:
            raise f.ProfileError(f"field {where!r}: {exc}") from None

    def undistort_points(self, points: np.ndarray) -> np.ndarray:
        """Map distorted pixel positions (N, 2) to undistorted ones (N, 2) with the same camera matrix."""
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        k, d = self.camera_matrix, self.dist_coeffs
        if hasattr(cv2, "undistortPointsIter"):  # OpenCV 4: the criteria overload has its own name
            out = cv2.undistortPointsIter(pts, k, d, None, k, UNDISTORT_CRITERIA)
        else:
            out = cv2.undistortPoints(pts, k, d, R=None, P=k, criteria=UNDISTORT_CRITERIA)
        return out.reshape(-1, 2)

    def distort_points(self, points: np.ndarray) -> np.ndarray:
        """Map undistorted pixel positions (N, 2) to where the camera images them (N, 2)."""
        pts = np.asarray(points, np.float64).reshape(-1, 2)
        k = self.camera_matrix
        normalised = np.column_stack([(pts[:, 0] - k[0, 2]) / k[0, 0], (pts[:, 1] - k[1, 2]) / k[1, 1],
                                      np.ones(len(pts))])
        zero = np.zeros(3)
        out, _ = cv2.projectPoints(normalised, zero, zero, k, self.dist_coeffs)
        return out.reshape(-1, 2)


@dataclass(frozen=True)
class Rejected:
    """A calibration photo that was not used, and why."""

    file: str
    reason: str


@dataclass(frozen=True, eq=False)
class CameraCalibration:
    """The result of :func:`calibrate_camera`: intrinsics plus which views counted."""

    intrinsics: Intrinsics
    views_used: tuple[str, ...]
    views_rejected: tuple[Rejected, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        """The command's report: rms, camera_matrix, dist_coeffs, image_size, views_used, views_rejected."""
        k = self.intrinsics
        return {"rms": k.rms, "camera_matrix": k.camera_matrix.tolist(), "dist_coeffs": k.dist_coeffs.tolist(),
                "image_size": list(k.image_size), "views_used": list(self.views_used),
                "views_rejected": [{"file": r.file, "reason": r.reason} for r in self.views_rejected]}


def calibrate_views(views: Mapping[str, np.ndarray], pattern: Pattern) -> CameraCalibration:
    """Calibrate a camera from images of a calibration pattern.

    Images whose size differs from the most common size, and images in which the pattern is
    not found, are rejected with a reason. The chessboard recipe is OpenCV's reference one
    (``findChessboardCorners``, ``cornerSubPix`` (5, 5) with eps 0.1 / 30 iterations,
    ``calibrateCamera`` with flags 0).

    Parameters
    ----------
    views : mapping of name -> ndarray (H, W, 3) BGR or (H, W) grey, uint8
        The photos, by file name (the name appears in the report).
    pattern : ChessboardPattern or CharucoPattern

    Raises
    ------
    TooFewViewsError
        Fewer than :data:`MIN_VIEWS` usable views; the message says why each was rejected.
    """
    sizes = {name: (img.shape[1], img.shape[0]) for name, img in views.items()}
    common = Counter(sizes.values()).most_common(1)
    size = common[0][0] if common else (0, 0)
    used: list[str] = []
    rejected: list[Rejected] = []
    object_points: list[np.ndarray] = []
    image_points: list[np.ndarray] = []
    for name, image in views.items():
        if sizes[name] != size:
            rejected.append(Rejected(name, f"image size {_wxh(sizes[name])} differs from {_wxh(size)} of the other views"))
            continue
        points = pattern.find(to_gray(image))
        if points is None:
            rejected.append(Rejected(name, f"no {pattern.describe()} found"))
            continue
        used.append(name)
        object_points.append(points[0])
        image_points.append(points[1])
        log.debug("%s: %d corners", name, len(points[1]))
    if len(used) < MIN_VIEWS:
        reasons = "".join(f"; {r.file}: {r.reason}" for r in rejected)
        raise TooFewViewsError(f"only {len(used)} of {len(views)} images usable for calibration, at least "
                               f"{MIN_VIEWS} needed{reasons}: take more photos of the {pattern.describe()} "
                               "from different angles")
    rms, k, d, _rvecs, _tvecs = cv2.calibrateCamera(object_points, image_points, size, None, None, flags=0)
    return CameraCalibration(Intrinsics(k, d.ravel(), size, float(rms)), tuple(used), tuple(rejected))


def _wxh(size: tuple[int, int]) -> str:
    return f"{size[0]}x{size[1]}"
