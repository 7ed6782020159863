"""ArUco markers: dictionary names, and detection (image -> markers with id and 4 corners).

Corners are refined beyond what OpenCV's corner refinement gives on small markers: OpenCV's
contour corners lie half a pixel inside the black square, and its sub-pixel refinement looks
at a window of a few pixels around each corner, which on a marker 20-40 px wide (a far
marker of a table view) still leaves errors of one or two pixels. Each side of the black
square is instead located as a straight edge: the light-to-dark crossing is found with
sub-pixel precision on many short profiles across the side, a line is fitted through them,
and neighbouring sides' lines meet at the corners.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .errors import MarkerError
from .images import to_gray

#: The dictionary of the table markers unless a profile or option says otherwise.
DEFAULT_DICTIONARY = "DICT_4X4_50"

#: Corner refinement window half-size in pixels (OpenCV's default is 5; markers in a table
#: view are 40-150 px wide, so a small window keeps it on the marker's own edge).
_REFINE_WINDOW_PX = 5
#: Stop corner refinement after this many iterations or when a step is below this (px).
_REFINE_MAX_ITER = 50
_REFINE_EPS_PX = 0.01


#: Edge refinement: profiles run this many modules (marker cells) to each side of a side's
#: first estimate (the black border and the white quiet zone are one module wide each); a
#: module is measured across the side, so that on a tilted, sheared far marker the profiles
#: stay within the black border instead of running into the code cells.
_EDGE_REACH_MODULES = 0.7
#: ... at least this far (px), so small markers still reach past the blur of their edges.
_EDGE_REACH_MIN_PX = 1.5
#: Samples along a profile per pixel, profiles per pixel of side, and the share of each side
#: used (its middle: corners round off and neighbouring sides mix there).
_EDGE_SAMPLES_PER_PX = 4
_EDGE_PROFILES_PER_PX = 1.0
_EDGE_SPAN = (0.2, 0.8)
#: A profile is used when its dark and light ends differ by at least this much (grey levels),
#: and a side when at least this many profiles crossed it.
_EDGE_MIN_CONTRAST = 20.0
_EDGE_MIN_POINTS = 4
#: Most an edge-fitted corner may move from the detector's own corner (modules); further
#: means the fit went wrong (a covered side), and the detector's corner is kept. OpenCV's
#: own corner is up to ~2 px (half a module) off on markers ~24 px wide, so the bound is a
#: whole module.
_EDGE_MAX_SHIFT_MODULES = 1.0


def dictionary(name: str) -> cv2.aruco.Dictionary:
    """Return OpenCV's predefined ArUco dictionary called ``name`` (e.g. ``"DICT_4X4_50"``).

    Raises
    ------
    MarkerError
        ``name`` is not one of OpenCV's predefined dictionaries.
    """
    code = getattr(cv2.aruco, name, None) if name.startswith("DICT_") else None
    if not isinstance(code, int):
        known = ", ".join(dictionary_names())
        raise MarkerError(f"unknown ArUco dictionary {name!r}: use one of {known}")
    return cv2.aruco.getPredefinedDictionary(code)


def dictionary_names() -> list[str]:
    """Names of OpenCV's predefined ArUco dictionaries, e.g. ``DICT_4X4_50``."""
    return sorted(n for n in dir(cv2.aruco) if n.startswith("DICT_") and isinstance(getattr(cv2.aruco, n), int))


def dictionary_size(name: str) -> int:
    """Number of markers (valid ids ``0..n-1``) in the dictionary called ``name``."""
    return int(dictionary(name).bytesList.shape[0])


@dataclass(frozen=True, eq=False)
class DetectedMarker:
    """One ArUco marker found in an image.

    Attributes
    ----------
    id : int
        The marker's id in its dictionary.
    corners : ndarray of shape (4, 2), float64, pixels
        Image positions of the marker's outer black square, in ArUco order: the printed
        marker's top-left, top-right, bottom-right, bottom-left corner.
    """

    id: int
    corners: np.ndarray

    def __post_init__(self) -> None:
        corners = np.array(self.corners, dtype=np.float64).reshape(-1, 2) if np.size(self.corners) == 8 else None
        if corners is None:
            raise MarkerError(f"a marker has 4 corners (4x2 numbers), got shape {np.shape(self.corners)}")
        if not np.all(np.isfinite(corners)):
            raise MarkerError(f"marker {self.id} has non-finite corners: {corners.tolist()}")
        corners.setflags(write=False)
        object.__setattr__(self, "corners", corners)
        object.__setattr__(self, "id", int(self.id))


def detect_markers(image: np.ndarray, dictionary_name: str = DEFAULT_DICTIONARY) -> list[DetectedMarker]:
    """Find the ArUco markers of one dictionary in an image, with sub-pixel corners.

    Pure: no file or camera access; the digital twin's ground-truth check calls it too.
    A marker id seen twice is returned twice (the caller decides what that means).

    Parameters
    ----------
    image : ndarray of shape (H, W, 3) BGR or (H, W) grey, uint8
        The camera image (distorted as it comes from the camera).
    dictionary_name : str
        An OpenCV predefined dictionary, e.g. ``"DICT_4X4_50"``.

    Returns
    -------
    list of DetectedMarker
        Sorted by id, corners in image pixels.
    """
    gray = to_gray(image)
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    params.cornerRefinementWinSize = _REFINE_WINDOW_PX
    params.cornerRefinementMaxIterations = _REFINE_MAX_ITER
    params.cornerRefinementMinAccuracy = _REFINE_EPS_PX
    detector = cv2.aruco.ArucoDetector(dictionary(dictionary_name), params)
    corners, ids, _rejected = detector.detectMarkers(gray)
    if ids is None:
        return []
    modules = dictionary(dictionary_name).markerSize + 2 * params.markerBorderBits
    smooth = gray.astype(np.float32)
    found = [DetectedMarker(int(i), _edge_corners(smooth, c.reshape(4, 2).astype(np.float64), modules))
             for i, c in zip(ids.ravel(), corners)]
    return sorted(found, key=lambda m: m.id)


def _edge_corners(gray: np.ndarray, corners: np.ndarray, modules: int) -> np.ndarray:
    """Corners (4, 2) as the meeting points of the black square's four fitted side lines.

    ``gray`` is the image (H, W) float32, ``corners`` the detector's corners (4, 2) px in
    order around the square, ``modules`` the cells along a side (border included). A side
    that cannot be fitted leaves its two corners as the detector gave them.
    """
    lines = [_side_line(gray, corners, k, modules) for k in range(4)]
    out = corners.copy()
    module = float(np.mean(np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1))) / modules
    for k in range(4):
        before, after = lines[(k - 1) % 4], lines[k]
        if before is None or after is None:
            continue
        corner = _meet(before, after)
        if corner is not None and np.linalg.norm(corner - corners[k]) <= _EDGE_MAX_SHIFT_MODULES * module:
            out[k] = corner
    return out


def _side_line(gray: np.ndarray, corners: np.ndarray, k: int, modules: int) -> tuple | None:
    """Line (point, unit direction) through side ``k`` (corner k to k + 1), or None."""
    a, b = corners[k], corners[(k + 1) % 4]
    length = float(np.linalg.norm(b - a))
    if length < 1.0:
        return None
    along = (b - a) / length
    normal = np.array([along[1], -along[0]])
    if np.dot(normal, (a + b) / 2 - corners.mean(axis=0)) < 0:
        normal = -normal  # pointing out of the marker, from the black border to the quiet zone
    # A module's width across this side: the neighbouring sides' extent along the normal (a
    # tilted or sheared marker's border is thinner across a side than a module is long along it).
    across = min(abs(float(np.dot(corners[(k - 1) % 4] - a, normal))),
                 abs(float(np.dot(corners[(k + 2) % 4] - b, normal)))) / modules
    reach = max(_EDGE_REACH_MIN_PX, _EDGE_REACH_MODULES * across)
    offsets = np.linspace(-reach, reach, max(3, int(round(2 * reach * _EDGE_SAMPLES_PER_PX)) + 1))
    count = max(2, int(round(length * (_EDGE_SPAN[1] - _EDGE_SPAN[0]) * _EDGE_PROFILES_PER_PX)))
    steps = np.linspace(*_EDGE_SPAN, count)
    base = a + steps[:, None] * (b - a)
    pts = base[:, None, :] + offsets[None, :, None] * normal
    maps = pts.astype(np.float32)
    profiles = cv2.remap(gray, maps[..., 0], maps[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    edge = _step_points(profiles, base, offsets, normal)
    if len(edge) < _EDGE_MIN_POINTS:
        return None
    pts = edge
    centre = pts.mean(axis=0)
    _, _, vt = np.linalg.svd(pts - centre)
    return centre, vt[0]


def _step_points(profiles: np.ndarray, base: np.ndarray, offsets: np.ndarray, normal: np.ndarray) -> np.ndarray:
    """Where each profile (rows of ``profiles``, sampled at ``offsets`` along ``normal`` from
    its ``base`` point) crosses half-way from dark to light, for the profiles that are one
    clean dark-to-light step of enough contrast: (M, 2) image points."""
    profiles = profiles.astype(np.float64)
    lo, hi = profiles.min(axis=1), profiles.max(axis=1)
    mid = (lo + hi) / 2
    above = profiles >= mid[:, None]
    j = np.argmax(above, axis=1)  # the first sample at or above the middle
    after = np.arange(profiles.shape[1])[None, :] >= j[:, None]
    clean = ~np.any(after & ~above, axis=1)  # nothing dark again after the step
    ok = (hi - lo >= _EDGE_MIN_CONTRAST) & (j > 0) & clean
    rows = np.nonzero(ok)[0]
    if len(rows) == 0:
        return np.empty((0, 2))
    jj = j[rows]
    p0, p1 = profiles[rows, jj - 1], profiles[rows, jj]
    frac = (mid[rows] - p0) / (p1 - p0)
    where = offsets[jj - 1] + frac * (offsets[jj] - offsets[jj - 1])
    return base[rows] + where[:, None] * normal[None, :]


def _meet(first: tuple, second: tuple) -> np.ndarray | None:
    """Where two lines (point, unit direction) meet; None when they are (nearly) parallel."""
    (p, u), (q, v) = first, second
    m = np.column_stack([u, -v])
    if abs(np.linalg.det(m)) < 1e-6:
        return None
    s = np.linalg.solve(m, q - p)
    return p + s[0] * u
