"""The plane of a lattice of square cells, from the cells themselves.

A view of a table rectified from its markers is only as good as the markers: one marker's own
small square, or two along one edge, leave the far side of the table tilted and scaled wrongly,
and a lattice of square cells on it then shows cells that are neither square nor of their
size. The cells themselves measure the plane far better, being many and spread over the board:
each blob of cell-like pixels is given its lattice position (its column and row), growing out
from the middle of the lattice one ring at a time, and a homography from lattice positions to
the blobs' centres is fitted as it grows, so that perspective never adds up to a wrong step.
That homography, turned round, makes the cells square, of the pitch asked for, upright, the
lattice's middle staying where it was.

Coordinates are image pixels (x right, y down).
"""

from __future__ import annotations

import cv2
import numpy as np

#: A blob is a cell when its turned bounding box is this share of the (roughly known) pitch a
#: side, at most MAX_ASPECT times longer than wide, and it fills at least FILL_MIN of the box.
#: The pitch may be out by half either way (a table located by one marker).
SIDE_SHARE = (0.3, 1.6)
MAX_ASPECT = 1.6
FILL_MIN = 0.75
#: Cells whose side is this share of the blobs' median side or nearer to it.
SIDE_SPREAD = 0.3
#: A blob takes the lattice position nearest to where the fit puts it when it lies within this
#: share of a pitch of it, both ways.
SNAP = 0.25
#: At least this many cells, over at least MIN_LINES columns and rows, measure a plane.
MIN_CELLS, MIN_LINES = 12, 3
#: Each round of growth takes the blobs within this many pitches of the ones placed.
GROW_PITCHES = 2.5
MAX_ROUNDS = 30


def cell_blobs(mask: np.ndarray, pitch_px: float) -> tuple[np.ndarray, np.ndarray]:
    """The square cell-like blobs of ``mask`` (h, w, nonzero = cell-like), of about
    ``pitch_px`` a side within :data:`SIDE_SHARE`: their centres (N, 2) and sides (N,)."""
    lo, hi = SIDE_SHARE[0] * pitch_px, SIDE_SHARE[1] * pitch_px
    _, labels, stats, _ = cv2.connectedComponentsWithStats((mask > 0).astype(np.uint8), connectivity=4)
    box_w, box_h = stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT]
    area = stats[:, cv2.CC_STAT_AREA]
    # a square turned by 45 degrees has a box of its side times sqrt 2
    maybe = (np.minimum(box_w, box_h) >= lo) & (np.maximum(box_w, box_h) <= hi * np.sqrt(2)) & (area >= lo * lo)
    maybe[0] = False  # the background
    centres, sides = [], []
    for i in np.flatnonzero(maybe):
        x, y, w, h = stats[i, :4]
        pts = np.ascontiguousarray(np.argwhere(labels[y:y + h, x:x + w] == i)[:, ::-1] + (x, y), np.float32)
        (cx, cy), (rw, rh), _ = cv2.minAreaRect(pts)
        rw, rh = rw + 1, rh + 1  # pixel centres to pixel edges
        if not (lo <= min(rw, rh) and max(rw, rh) <= hi and max(rw, rh) <= MAX_ASPECT * min(rw, rh)):
            continue
        if area[i] < FILL_MIN * rw * rh:
            continue
        centres.append((cx, cy))
        sides.append(np.sqrt(rw * rh))
    if not centres:
        return np.empty((0, 2)), np.empty(0)
    centres, sides = np.asarray(centres, np.float64), np.asarray(sides, np.float64)
    keep = np.abs(sides / np.median(sides) - 1) <= SIDE_SPREAD
    return centres[keep], sides[keep]


def _neighbour_steps(centres: np.ndarray) -> np.ndarray:
    """(M, 2): the displacements between blobs about as far apart as neighbouring blobs mostly
    are (0.8 to 1.25 times the median distance to the nearest), each pair both ways."""
    if len(centres) < 2:
        return np.empty((0, 2))
    d = centres[None, :, :] - centres[:, None, :]
    dist = np.hypot(d[..., 0], d[..., 1])
    np.fill_diagonal(dist, np.inf)
    nearest = np.median(dist.min(axis=1))
    return d[(dist >= 0.8 * nearest) & (dist <= 1.25 * nearest)]


def _steps(centres: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The lattice's two steps (2,) each, from the displacements between neighbouring blobs:
    the first nearer the x axis and pointing right, the second pointing down."""
    v = _neighbour_steps(centres)
    if len(v) < 4:
        return None
    flip = (v[:, 1] < 0) | ((v[:, 1] == 0) & (v[:, 0] < 0))
    v = np.where(flip[:, None], -v, v)  # all in one half plane
    angle = np.degrees(np.arctan2(v[:, 1], v[:, 0]))  # 0..180
    hist, edges = np.histogram(angle, bins=36, range=(0, 180))
    first = int(np.argmax(hist))
    far = np.abs(((np.arange(36) - first + 18) % 36) - 18) >= 6  # at least 30 degrees apart
    if not np.any(hist[far]):
        return None
    second = int(np.flatnonzero(far)[np.argmax(hist[far])])
    steps = []
    for b in (first, second):
        centre = (edges[b] + edges[b + 1]) / 2
        off = np.abs(((angle - centre + 90) % 180) - 90)
        steps.append(np.median(v[off <= 10], axis=0))
    a, b = steps
    if abs(a[0]) < abs(b[0]):
        a, b = b, a
    a = a if a[0] > 0 else -a
    b = b if b[1] > 0 else -b
    return a, b


def _fit(uv: np.ndarray, xy: np.ndarray) -> np.ndarray:
    """Lattice positions -> pixels: an affine map while few cells are placed, then a homography."""
    if len(uv) >= 8 and len(np.unique(uv[:, 0])) >= 3 and len(np.unique(uv[:, 1])) >= 3:
        h, _ = cv2.findHomography(uv.astype(np.float64), xy.astype(np.float64), 0)
        if h is not None:
            return h
    a = np.linalg.lstsq(np.column_stack([uv, np.ones(len(uv))]), xy, rcond=None)[0]
    return np.vstack([a.T, [0.0, 0.0, 1.0]])


def _project(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(np.asarray(pts, np.float64).reshape(-1, 1, 2), h).reshape(-1, 2)


def lattice_positions(centres: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Each blob's lattice position, grown from the blob nearest the blobs' middle: (N, 2) int
    positions (column, row), (N,) bool placed, and the 3x3 homography positions -> pixels;
    None where the blobs show no two steps."""
    steps = _steps(centres)
    if steps is None:
        return None
    a, b = steps
    pitch = min(np.hypot(*a), np.hypot(*b))
    seed = int(np.argmin(np.hypot(*(centres - np.median(centres, axis=0)).T)))
    h = np.array([[a[0], b[0], centres[seed, 0]], [a[1], b[1], centres[seed, 1]], [0.0, 0.0, 1.0]])
    placed = np.zeros(len(centres), bool)
    placed[seed] = True
    uv = np.zeros((len(centres), 2), np.int64)
    for _ in range(MAX_ROUNDS):
        if abs(np.linalg.det(h)) < 1e-9:  # the steps or the cells placed all in one line
            return None
        reach = np.hypot(*(centres[:, None, :] - centres[placed][None, :, :]).transpose(2, 0, 1)).min(axis=1)
        pos = _project(np.linalg.inv(h), centres)
        near = np.rint(pos)
        ok = (np.abs(pos - near) <= SNAP).all(axis=1) & (reach <= GROW_PITCHES * pitch)
        taken: dict[tuple[int, int], int] = {}
        for i in np.flatnonzero(ok):  # one blob to a position: the one nearest it
            key = (int(near[i, 0]), int(near[i, 1]))
            j = taken.get(key)
            if j is None or np.abs(pos[i] - near[i]).sum() < np.abs(pos[j] - near[j]).sum():
                taken[key] = i
        now = np.zeros(len(centres), bool)
        now[list(taken.values())] = True
        uv[now] = near[now].astype(np.int64)
        grew = now.sum() > placed.sum()
        placed = now
        if placed.sum() < 3:
            return None
        h = _fit(uv[placed], centres[placed])
        if not grew:
            break
    return uv, placed, h


def plane_correction(mask: np.ndarray, pitch_px: float) -> np.ndarray | None:
    """The 3x3 homography from ``mask``'s pixels to a view in which the lattice of its cells
    (blobs of about ``pitch_px``, see :func:`cell_blobs`) lies upright at ``pitch_px``, its
    middle where it was; None where fewer than :data:`MIN_CELLS` cells over :data:`MIN_LINES`
    columns and rows place."""
    centres, _ = cell_blobs(mask, pitch_px)
    if len(centres) < MIN_CELLS:
        return None
    found = lattice_positions(centres)
    if found is None:
        return None
    uv, placed, h = found
    if (placed.sum() < MIN_CELLS or len(np.unique(uv[placed, 0])) < MIN_LINES
            or len(np.unique(uv[placed, 1])) < MIN_LINES):
        return None
    middle_uv = uv[placed].mean(axis=0)
    middle = _project(h, middle_uv[None])[0]
    to_view = np.array([[pitch_px, 0.0, middle[0] - pitch_px * middle_uv[0]],
                        [0.0, pitch_px, middle[1] - pitch_px * middle_uv[1]], [0.0, 0.0, 1.0]])
    correction = to_view @ np.linalg.inv(h)
    if not np.all(np.isfinite(correction)) or abs(np.linalg.det(correction)) < 1e-9:
        return None
    return correction


#: A turn is measured from at least MIN_CELLS blobs of a cell's size turned any way: the square
#: root of its area within TURNED_SIDE of the pitch, its bounding box at most TURNED_ASPECT
#: times longer than wide, and filling at least TURNED_FILL of it (a square turned by 45
#: degrees fills half its box) ...
TURNED_SIDE = (0.5, 1.1)
TURNED_ASPECT = 1.25
TURNED_FILL = 0.45
#: ... whose steps to their neighbours agree on the lattice's axes at least this well (the
#: length of their four-fold mean direction: 1 when every step runs along an axis).
TURN_AGREEMENT = 0.7


def lattice_turn(mask: np.ndarray, pitch_px: float, components: tuple | None = None) -> float | None:
    """How far the lattice of ``mask``'s cells (blobs of about ``pitch_px`` a side) is turned
    from upright: the angle (degrees, -45 to 45, positive clockwise as the image shows, y
    running down) from the image's axes to the lattice's. The steps between neighbouring cells
    run along the lattice's axes, both ways and both axes: four directions a quarter turn
    apart, whose mean is taken on the circle with the angles fourfold. None where fewer than
    :data:`MIN_CELLS` cells show or their steps do not agree (:data:`TURN_AGREEMENT`).
    ``components``: ``mask``'s 4-connected components as ``cv2.connectedComponentsWithStats``
    gives them, where the caller has them already."""
    if components is None:
        components = cv2.connectedComponentsWithStats((mask > 0).astype(np.uint8), connectivity=4)
    _, _, stats, centroids = components
    w, h = stats[1:, cv2.CC_STAT_WIDTH], stats[1:, cv2.CC_STAT_HEIGHT]
    area = stats[1:, cv2.CC_STAT_AREA].astype(np.float64)
    side = np.sqrt(area)
    cells = ((side >= TURNED_SIDE[0] * pitch_px) & (side <= TURNED_SIDE[1] * pitch_px)
             & (np.maximum(w, h) <= TURNED_ASPECT * np.minimum(w, h)) & (area >= TURNED_FILL * w * h))
    if cells.sum() < MIN_CELLS:
        return None
    v = _neighbour_steps(centroids[1:][cells])
    if len(v) < MIN_CELLS:
        return None
    mean = np.exp(4j * np.arctan2(v[:, 1], v[:, 0])).mean()
    if abs(mean) < TURN_AGREEMENT:
        return None
    return float(np.degrees(np.angle(mean) / 4))
