"""The table plane: a homography between (undistorted) image pixels and table millimetres."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import cv2
import numpy as np

from . import _fields as f
from .errors import MarkerError, ProfileMismatchError
from .intrinsics import Intrinsics
from .layout import MarkerLayout
from .markers import DetectedMarker

log = logging.getLogger(__name__)

#: At least this many of the layout's markers must be seen (3 markers give 12 corners).
MIN_MARKERS = 3
#: Where a caller allows it, two markers in opposite corners are enough: their 8 corners fix
#: the homography, and the play area lies between them. Two markers count as opposite when
#: their centres lie at least this share of the layout's extent apart in x and in y alike
#: (two markers along one edge leave the table's other side unmeasured, and a hand-sized
#: square 500 mm from the next one tilts the fit by tens of mm across the table; a caller
#: that finds its game's own geometry in the image may still accept them).
OPPOSITE_SHARE = 0.5
#: Which pairs of markers a caller accepts when no third shows ("one": any two, or even one
#: marker alone, whose own square fixes the plane: for a game found by its own geometry).
TWO_MARKERS = ("never", "opposite", "any", "one")
#: A fit whose worst marker corner is further than this from its layout position means the
#: layout does not describe the table (wrong --table or --marker-mm, a marker misplaced).
MAX_CORNER_ERROR_MM = 3.0


@dataclass(frozen=True)
class Reprojection:
    """How well the homography maps the marker corners: RMS and worst corner, in mm and px."""

    rms_mm: float
    max_mm: float
    rms_px: float
    max_px: float

    def to_json(self) -> dict[str, float]:
        return {"rms_mm": self.rms_mm, "max_mm": self.max_mm, "rms_px": self.rms_px, "max_px": self.max_px}


@dataclass(frozen=True, eq=False)
class TableCalibration:
    """The table plane of one camera setup.

    Attributes
    ----------
    homography : ndarray of shape (3, 3)
        Maps image pixels to table mm (homogeneous, ``H[2, 2] == 1``). The pixels are
        undistorted ones (same camera matrix) when ``undistorted``, raw ones otherwise.
    image_size : (width, height), pixels
        The image size the homography belongs to.
    undistorted : bool
        Whether marker corners were undistorted with the profile's intrinsics first.
    layout : MarkerLayout
        The markers and the play area.
    markers_used : tuple of int
        Ids of the markers the fit used.
    reprojection : Reprojection
    """

    homography: np.ndarray
    image_size: tuple[int, int]
    undistorted: bool
    layout: MarkerLayout
    markers_used: tuple[int, ...]
    reprojection: Reprojection

    def __post_init__(self) -> None:
        h = np.asarray(self.homography, dtype=np.float64)
        if h.shape != (3, 3) or abs(np.linalg.det(h)) < np.finfo(float).eps:
            raise MarkerError(f"a table homography is an invertible 3x3 matrix, got {h.tolist()}")
        object.__setattr__(self, "homography", f.readonly(h / h[2, 2]))
        object.__setattr__(self, "image_size", (int(self.image_size[0]), int(self.image_size[1])))
        object.__setattr__(self, "markers_used", tuple(int(i) for i in self.markers_used))

    @cached_property
    def inverse(self) -> np.ndarray:
        """Table mm -> image pixels: the homography's inverse, worked out once (a reading maps
        hundreds of places)."""
        return f.readonly(np.linalg.inv(self.homography))

    def image_to_table(self, points: np.ndarray, intrinsics: Intrinsics | None = None) -> np.ndarray:
        """Map camera pixels (N, 2), as they come from the camera, to table mm (N, 2)."""
        pts = np.asarray(points, np.float64).reshape(-1, 2)
        if self.undistorted:
            pts = _require(intrinsics).undistort_points(pts)
        return cv2.perspectiveTransform(pts.reshape(-1, 1, 2), self.homography).reshape(-1, 2)

    def table_to_image(self, points_mm: np.ndarray, intrinsics: Intrinsics | None = None) -> np.ndarray:
        """Map table mm (N, 2) to camera pixels (N, 2), as the camera images them."""
        pts = np.asarray(points_mm, np.float64).reshape(-1, 1, 2)
        px = cv2.perspectiveTransform(pts, self.inverse).reshape(-1, 2)
        return _require(intrinsics).distort_points(px) if self.undistorted else px

    def to_json(self) -> dict[str, Any]:
        return {"homography": self.homography.tolist(), "image_size": list(self.image_size),
                "undistorted": self.undistorted, "markers_used": list(self.markers_used),
                "reprojection": self.reprojection.to_json(), "layout": self.layout.to_json()}

    @classmethod
    def from_json(cls, obj: Any, where: str = "table") -> TableCalibration:
        """Build from a profile's ``table`` section; errors name the field."""
        obj = f.section(obj, where)
        h = f.matrix(f.get(obj, "homography", where), f"{where}.homography", (3, 3))
        image_size = f.size(f.get(obj, "image_size", where), f"{where}.image_size")
        undistorted = f.get(obj, "undistorted", where)
        if not isinstance(undistorted, bool):
            raise f.fail(f"{where}.undistorted", "true or false", undistorted)
        used = f.get(obj, "markers_used", where)
        if not isinstance(used, list):
            raise f.fail(f"{where}.markers_used", "a list of marker ids", used)
        ids = tuple(f.integer(v, f"{where}.markers_used[{n}]", minimum=0) for n, v in enumerate(used))
        rep = f.section(f.get(obj, "reprojection", where), f"{where}.reprojection")
        at = f"{where}.reprojection"
        reprojection = Reprojection(*(f.number(f.get(rep, k, at), f"{at}.{k}") for k in ("rms_mm", "max_mm", "rms_px", "max_px")))
        layout = MarkerLayout.from_json(f.get(obj, "layout", where), f"{where}.layout")
        try:
            return cls(h, image_size, undistorted, layout, ids, reprojection)
        except MarkerError as exc:
            raise f.ProfileError(f"field {where!r}: {exc}") from None


def _require(intrinsics: Intrinsics | None) -> Intrinsics:
    if intrinsics is None:
        raise ProfileMismatchError("this table calibration was made on undistorted corners: pass the profile's "
                                   "intrinsics too")
    return intrinsics


def calibrate_table(markers: Sequence[DetectedMarker], layout: MarkerLayout, image_size: tuple[int, int],
                    intrinsics: Intrinsics | None = None,
                    max_corner_error_mm: float = MAX_CORNER_ERROR_MM,
                    two_markers: str = "never") -> TableCalibration:
    """Fit the image -> table homography to the corners of the layout's markers.

    Parameters
    ----------
    markers : sequence of DetectedMarker
        As :func:`~tableref.calibration.markers.detect_markers` returns them (raw pixels).
        Markers whose id is not in the layout are ignored.
    layout : MarkerLayout
    image_size : (width, height), pixels
    intrinsics : Intrinsics or None
        When given, corners are undistorted first, and the homography maps undistorted pixels.
    max_corner_error_mm : float
        Worst allowed distance between a mapped corner and its layout position.
    two_markers : {"never", "opposite", "any", "one"}
        Whether two markers are enough when no third shows: never; two in opposite corners of
        the layout (:func:`opposite`: enough to read a game between them, less sure than
        three, as the corners far from both extrapolate the fit); or any two (their fit leaves
        the table's far side tens of mm off: for a caller that finds its game by its own
        geometry); or "one": any two, or a single marker (its own four corners fix the plane,
        the further the less surely).

    Raises
    ------
    MarkerError
        Fewer than :data:`MIN_MARKERS` layout markers seen (and not an accepted pair), a
        marker seen twice, or a fit that does not match the layout.
    ProfileMismatchError
        The intrinsics belong to another image size.
    """
    if intrinsics is not None and tuple(intrinsics.image_size) != tuple(image_size):
        raise ProfileMismatchError(f"the intrinsics are for {intrinsics.image_size[0]}x{intrinsics.image_size[1]} "
                                   f"images, this image is {image_size[0]}x{image_size[1]}: calibrate the camera "
                                   "at this resolution")
    seen = [m for m in markers if m.id in layout.ids]
    ids = [m.id for m in seen]
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        raise MarkerError(f"marker(s) {twice} seen more than once: remove the duplicate print from the view")
    if two_markers not in TWO_MARKERS:
        raise ValueError(f"two_markers must be one of {TWO_MARKERS}, got {two_markers!r}")
    few_ok = ((len(seen) == 2 and (two_markers in ("any", "one")
                                   or (two_markers == "opposite" and opposite(layout, *ids))))
              or (len(seen) == 1 and two_markers == "one"))
    if len(seen) < MIN_MARKERS and not few_ok:
        missing = [i for i in layout.ids if i not in ids]
        pair = {"never": "", "opposite": " (or 2 in opposite corners)", "any": " (or 2)", "one": " (or 1)"}[two_markers]
        raise MarkerError(f"only {len(seen)} of the {len(layout.ids)} table markers found ({layout.dictionary}, "
                          f"missing ids {missing}), at least {MIN_MARKERS}{pair} needed: check that the markers "
                          "are in view, lit, not covered, and of the right dictionary")
    image_px = np.concatenate([m.corners for m in seen])
    if intrinsics is not None:
        image_px = intrinsics.undistort_points(image_px)
    table_mm = np.concatenate([layout.placement(m.id).corners_mm for m in seen])
    # Corner noise is in the image, so fit table -> image (errors measured in px) and invert.
    table_to_image, _ = cv2.findHomography(table_mm, image_px, 0)
    if table_to_image is None or abs(np.linalg.det(table_to_image)) < np.finfo(float).eps:
        raise MarkerError("the marker corners do not determine a table plane (degenerate layout)")
    homography = np.linalg.inv(table_to_image)
    mm_err = np.linalg.norm(cv2.perspectiveTransform(image_px.reshape(-1, 1, 2), homography).reshape(-1, 2) - table_mm, axis=1)
    px_err = np.linalg.norm(cv2.perspectiveTransform(table_mm.reshape(-1, 1, 2), table_to_image).reshape(-1, 2) - image_px, axis=1)
    reprojection = Reprojection(float(np.sqrt(np.mean(mm_err ** 2))), float(mm_err.max()),
                                float(np.sqrt(np.mean(px_err ** 2))), float(px_err.max()))
    if reprojection.max_mm > max_corner_error_mm:
        raise MarkerError(f"the markers do not match the layout (a corner is {reprojection.max_mm:.1f} mm off, at most "
                          f"{max_corner_error_mm:g} allowed): check --table, --marker-mm, --ids and where the markers lie")
    log.debug("table fit from markers %s: %s", ids, reprojection)
    return TableCalibration(homography, image_size, intrinsics is not None, layout, tuple(sorted(ids)), reprojection)


def opposite(layout: MarkerLayout, first: int, second: int) -> bool:
    """Whether markers ``first`` and ``second`` of ``layout`` lie in opposite corners: their
    centres at least :data:`OPPOSITE_SHARE` of the layout's extent apart in x and in y."""
    return all(spans(layout, (first, second)))


def spans(layout: MarkerLayout, ids) -> tuple[bool, bool]:
    """Whether the markers ``ids`` of ``layout`` measure the table in x and in y: some two of
    their centres at least :data:`OPPOSITE_SHARE` of the layout's extent apart along that axis
    (two markers along the left edge measure y only; the table's width is then unknown)."""
    centres = {i: layout.placement(i).corners_mm.mean(axis=0) for i in layout.ids}
    extent = np.ptp(np.array(list(centres.values())), axis=0)
    mine = np.array([centres[i] for i in ids if i in centres]).reshape(-1, 2)
    apart = np.ptp(mine, axis=0) if len(mine) else np.zeros(2)
    return bool(apart[0] >= OPPOSITE_SHARE * extent[0]), bool(apart[1] >= OPPOSITE_SHARE * extent[1])
