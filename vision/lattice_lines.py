"""A lattice's two families of lines and the transform that makes them parallel and upright.

Straight edge segments (OpenCV's line segment detector) are split into the two dominant
directions; each direction's segments meet (in the image, under perspective) in a vanishing
point, found by RANSAC over pairs of segments and refined by least squares. The line through
both vanishing points (the horizon of the board's plane) is sent to infinity: after that the
lattice is an affine image of a square grid, and a linear map turns its two families into
vertical lines (column boundaries) and horizontal lines (row boundaries).

Coordinates: image pixels (x right, y down). Homogeneous arithmetic runs on *normalised*
points (origin at the image centre, unit = half the image diagonal) so that vanishing points
far away or at infinity stay well conditioned.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

#: Segments shorter than this share of the image's shorter side are ignored (texture, noise).
MIN_SEGMENT_SHARE = 0.02
#: Angle histogram: bins per 180 degrees, and the half-width (bins) of its circular smoothing.
ANGLE_BINS, ANGLE_SMOOTH_BINS = 180, 3
#: The two families' main directions differ by at least this (degrees).
MIN_FAMILY_SEPARATION_DEG = 30.0
#: A segment joins a family when its direction lies within this of the family's (degrees);
#: perspective fans a family out, so this is wide; the vanishing point then decides.
FAMILY_SPREAD_DEG = 22.0
#: A segment agrees with a vanishing point when the line from its midpoint to the point
#: passes its ends within this many pixels (and turns from it by at most VP_MAX_TURN_DEG).
VP_INLIER_PX = 1.0
VP_MAX_TURN_DEG = 4.0
#: RANSAC rounds per vanishing point (seeded: the result is deterministic).
VP_ROUNDS = 200
VP_SEED = 8


@dataclass(frozen=True, eq=False)
class Segments:
    """Straight edge segments of an image.

    Attributes
    ----------
    ends : ndarray (N, 2, 2) float64
        Image pixel end points (x, y) of each segment.
    """

    ends: np.ndarray

    def __post_init__(self) -> None:
        if self.ends.ndim != 3 or self.ends.shape[1:] != (2, 2):
            raise ValueError(f"segment ends must have shape (N, 2, 2), got {self.ends.shape}")

    @property
    def lengths(self) -> np.ndarray:
        return np.hypot(self.ends[:, 1, 0] - self.ends[:, 0, 0], self.ends[:, 1, 1] - self.ends[:, 0, 1])

    @property
    def angles(self) -> np.ndarray:
        """Direction of each segment in [0, pi) radians (0: along +x, pi/2: along +y)."""
        d = self.ends[:, 1] - self.ends[:, 0]
        return np.mod(np.arctan2(d[:, 1], d[:, 0]), math.pi)

    def subset(self, keep: np.ndarray) -> "Segments":
        return Segments(self.ends[keep])


@dataclass(frozen=True, eq=False)
class Families:
    """The lattice's two line families in one image.

    Attributes
    ----------
    columns, rows : Segments
        Segments of the column boundaries (the more vertical family) and of the row boundaries.
    to_frame : ndarray (3, 3)
        Homography image px -> *lattice frame*, where column boundaries are vertical lines
        (x constant, x growing to the image's right) and row boundaries horizontal (y constant,
        y growing downwards), up to an unknown scale per axis.
    """

    columns: Segments
    rows: Segments
    to_frame: np.ndarray


def detect_segments(grey: np.ndarray) -> Segments:
    """Straight edge segments of a grey uint8 image (H, W), at least :data:`MIN_SEGMENT_SHARE`
    of the shorter side long."""
    found = cv2.createLineSegmentDetector().detect(grey)[0]
    ends = np.empty((0, 2, 2)) if found is None else found.reshape(-1, 2, 2).astype(np.float64)
    seg = Segments(ends)
    return seg.subset(seg.lengths >= MIN_SEGMENT_SHARE * min(grey.shape[:2]))


def merge_segments(parts: list[Segments]) -> Segments:
    """All segments of several detections in one record."""
    return Segments(np.concatenate([p.ends for p in parts]) if parts else np.empty((0, 2, 2)))


def split_families(segments: Segments, size: tuple[int, int]) -> Families | None:
    """The two dominant line families of ``segments`` in an image of ``size`` (width, height),
    with their rectifying transform; None when there are not two families of lines."""
    if len(segments.ends) < 4:
        return None
    peaks = _direction_peaks(segments)
    if peaks is None:
        return None
    norm = _normaliser(size)
    fams = []
    for peak in peaks:
        near = _angle_gap(segments.angles, peak) < math.radians(FAMILY_SPREAD_DEG)
        fam = segments.subset(near)
        vp = _vanishing_point(fam, norm)
        if vp is None:
            return None
        fams.append((fam.subset(_agrees(fam, vp, norm)), vp))
    # the column family is the one whose lines run closer to the image's vertical
    (a, vpa), (b, vpb) = fams
    if abs(math.sin(peaks[0])) < abs(math.sin(peaks[1])):
        (a, vpa), (b, vpb) = (b, vpb), (a, vpa)
    to_frame = _rectifier(vpa, vpb, norm, size)
    return None if to_frame is None else Families(a, b, to_frame)


def _angle_gap(angles: np.ndarray, ref: float) -> np.ndarray:
    """Unsigned difference of undirected angles (radians, in [0, pi/2])."""
    d = np.mod(angles - ref, math.pi)
    return np.minimum(d, math.pi - d)


def _direction_peaks(segments: Segments) -> tuple[float, float] | None:
    """The two main directions (radians) of a length-weighted, smoothed angle histogram."""
    bins = ((segments.angles / math.pi) * ANGLE_BINS).astype(int) % ANGLE_BINS
    hist = np.bincount(bins, weights=segments.lengths, minlength=ANGLE_BINS)
    k = np.arange(-ANGLE_SMOOTH_BINS, ANGLE_SMOOTH_BINS + 1)
    smooth = sum(np.roll(hist, s) for s in k)
    first = int(np.argmax(smooth))
    gap = np.abs(((np.arange(ANGLE_BINS) - first + ANGLE_BINS // 2) % ANGLE_BINS) - ANGLE_BINS // 2)
    far = np.where(gap * 180.0 / ANGLE_BINS >= MIN_FAMILY_SEPARATION_DEG, smooth, -1.0)
    second = int(np.argmax(far))
    if far[second] <= 0:
        return None
    to_rad = math.pi / ANGLE_BINS
    return ((first + 0.5) * to_rad, (second + 0.5) * to_rad)


def _normaliser(size: tuple[int, int]) -> np.ndarray:
    """3x3 map image px -> normalised coordinates (centre origin, half-diagonal unit)."""
    w, h = size
    s = 2.0 / math.hypot(w, h)
    return np.array([[s, 0, -s * w / 2], [0, s, -s * h / 2], [0, 0, 1.0]])


def _lines(segments: Segments, norm: np.ndarray) -> np.ndarray:
    """Homogeneous lines (N, 3) through each segment, in normalised coordinates, unit normal."""
    p = np.concatenate([segments.ends, np.ones((*segments.ends.shape[:2], 1))], axis=2) @ norm.T
    lines = np.cross(p[:, 0], p[:, 1])
    return lines / np.linalg.norm(lines[:, :2], axis=1, keepdims=True)


def _turn(segments: Segments, vps: np.ndarray, norm: np.ndarray) -> np.ndarray:
    """Angle (radians) between each segment and the line from its midpoint to each of the
    points ``vps`` (3,) or (R, 3): shape (N,) or (R, N)."""
    p = np.concatenate([segments.ends, np.ones((*segments.ends.shape[:2], 1))], axis=2) @ norm.T
    mid = (p[:, 0, :2] + p[:, 1, :2]) / 2
    seg = p[:, 1, :2] - p[:, 0, :2]
    v = np.atleast_2d(vps)
    # the direction towards each point, valid also for points at infinity (third coordinate 0)
    tx = v[:, None, 0] - mid[None, :, 0] * v[:, None, 2]
    ty = v[:, None, 1] - mid[None, :, 1] * v[:, None, 2]
    cross = seg[None, :, 0] * ty - seg[None, :, 1] * tx
    dot = seg[None, :, 0] * tx + seg[None, :, 1] * ty
    turn = np.abs(np.arctan(cross / np.where(np.abs(dot) < 1e-15, 1e-15, dot)))
    return turn if np.ndim(vps) == 2 else turn[0]


def _agrees(segments: Segments, vps: np.ndarray, norm: np.ndarray) -> np.ndarray:
    """Whether each segment runs towards each point (see :data:`VP_INLIER_PX`)."""
    turn = _turn(segments, vps, norm)
    return (np.sin(turn) * segments.lengths / 2 < VP_INLIER_PX) & (turn < math.radians(VP_MAX_TURN_DEG))


def _vanishing_point(segments: Segments, norm: np.ndarray) -> np.ndarray | None:
    """The point (homogeneous, normalised coordinates, unit norm) most segments run towards."""
    n = len(segments.ends)
    if n < 2:
        return None
    lines = _lines(segments, norm)
    rng = np.random.default_rng(VP_SEED)
    pairs = rng.integers(0, n, (VP_ROUNDS, 2))
    pairs = pairs[pairs[:, 0] != pairs[:, 1]]
    cands = np.cross(lines[pairs[:, 0]], lines[pairs[:, 1]])
    cands = cands[np.any(cands != 0, axis=1)]
    if not len(cands):
        return None
    # every segment counts once: a lattice is many short edges, clutter a few long lines
    best = cands[int(np.argmax(np.count_nonzero(_agrees(segments, cands, norm), axis=1)))]
    for _ in range(2):  # least squares over the inliers: the smallest singular vector
        inl = _agrees(segments, best, norm)
        if inl.sum() < 2:
            break
        a = lines[inl] * np.sqrt(segments.lengths[inl, None])
        best = np.linalg.svd(a, full_matrices=False)[2][-1]
    return best / np.linalg.norm(best)


def _rectifier(vp_cols: np.ndarray, vp_rows: np.ndarray, norm: np.ndarray,
               size: tuple[int, int]) -> np.ndarray | None:
    """Homography image px -> lattice frame (see :class:`Families`)."""
    horizon = np.cross(vp_cols, vp_rows)
    if abs(horizon[2]) < 1e-12:
        return None  # the horizon passes through the image centre: no board is seen there
    horizon = horizon / horizon[2]  # the image centre (origin) lies on the positive side
    to_affine = np.array([[1.0, 0, 0], [0, 1.0, 0], horizon])
    d_cols, d_rows = (to_affine @ vp_cols)[:2], (to_affine @ vp_rows)[:2]
    basis = np.column_stack([d_rows, d_cols])  # frame x along the rows' lines, y along the columns'
    if abs(np.linalg.det(basis)) < 1e-12 * np.linalg.norm(d_rows) * np.linalg.norm(d_cols):
        return None
    linear = np.eye(3)
    linear[:2, :2] = np.linalg.inv(basis)
    h = linear @ to_affine @ norm
    # signs: x grows to the image's right and y downwards at the image centre
    w, hgt = size
    c = np.array([[w / 2, hgt / 2], [w / 2 + 1, hgt / 2], [w / 2, hgt / 2 + 1]], np.float64)
    m = cv2.perspectiveTransform(c.reshape(-1, 1, 2), h).reshape(-1, 2)
    flip = np.diag([1.0 if m[1, 0] > m[0, 0] else -1.0, 1.0 if m[2, 1] > m[0, 1] else -1.0, 1.0])
    return flip @ h


def frame_segments(segments: Segments, to_frame: np.ndarray) -> np.ndarray:
    """Segments' end points in the lattice frame (N, 2, 2)."""
    if not len(segments.ends):
        return np.empty((0, 2, 2))
    pts = cv2.perspectiveTransform(segments.ends.reshape(-1, 1, 2), to_frame)
    return pts.reshape(-1, 2, 2)
