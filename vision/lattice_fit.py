"""Each lattice line fitted to the image's edges, and the corners where they cross.

Around a line the lattice predicts, the smoothed gradient magnitude is searched across the
line at points along it (a ridge lies along every edge and along every thin gap between
cells), and a straight line is fitted to the peaks, without outliers. Each corner is where its
two lines cross, each line fitted only near the corner (a lens bends lines); a homography of
all corners checks the whole and stands in for corners that no edge shows.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .errors import VisionError

#: Sample points per cell along a line, search half-width across the line as a share of a
#: cell, the Gaussian (px) that smooths the gradient magnitude, the least peak height as a
#: multiple of the profile's median, and the residual (px) beyond which a sample is an outlier.
SAMPLES_PER_CELL = 6
SEARCH_SHARE = 0.2
#: The profile across a line reaches this share of a cell to either side (at least), so that
#: its median measures the cells' insides, not the edge itself.
BACKGROUND_SHARE = 0.35
GRADIENT_SIGMA_PX = 1.2
PEAK_OVER_MEDIAN = 1.8
OUTLIER_PX = 1.5
#: Corners are fitted from the samples within this many cells of them (bends in a lens).
LOCAL_CELLS = 1.5
MIN_SAMPLES = 4
#: The smallest board reported (cells per side).
MIN_CELLS = 2
#: The first fit searches SEARCH_SHARE of a cell across each line and accepts a corner within
#: FIRST_ACCEPT_SHARE of a cell of the guess; refining fits search and accept closer.
FIRST_ACCEPT_SHARE = 0.5
#: ...and drops a corner further than this share of a cell from the homography of all corners
#: (a lens bends a chessboard's outer lines by up to about a tenth of a cell).
FIRST_MODEL_SHARE = 0.2
REFINE_SEARCH_SHARE, REFINE_ACCEPT_SHARE = 0.12, 0.15


class LatticeError(VisionError):
    """No board of square cells could be found in an image."""


@dataclass(frozen=True, eq=False)
class Lattice:
    """A board of square cells found in an image.

    Attributes
    ----------
    corners : ndarray (rows + 1, columns + 1, 2) float64
        Image pixels (x, y) of every lattice corner; ``corners[r, c]`` is the top-left
        corner of cell (r, c).
    homography : ndarray (3, 3)
        Maps lattice coordinates (column, row) (corner (r, c) is the point (c, r)) to image
        pixels, fitted to all corners.
    rms_px : float
        RMS distance (px) of the corners from the homography (lens bending, bumps).
    """

    corners: np.ndarray
    homography: np.ndarray
    rms_px: float

    def __post_init__(self) -> None:
        c = self.corners
        if c.ndim != 3 or c.shape[2] != 2 or c.shape[0] < MIN_CELLS + 1 or c.shape[1] < MIN_CELLS + 1:
            raise LatticeError(f"lattice corners must have shape (rows + 1, columns + 1, 2) with at least "
                               f"{MIN_CELLS} cells a side, got {c.shape}")
        if self.homography.shape != (3, 3):
            raise LatticeError(f"lattice homography must be 3x3, got {self.homography.shape}")

    @property
    def rows(self) -> int:
        return self.corners.shape[0] - 1

    @property
    def columns(self) -> int:
        return self.corners.shape[1] - 1

    def cell_quads(self) -> np.ndarray:
        """(rows, columns, 4, 2): each cell's corners top-left, top-right, bottom-right, bottom-left."""
        c = self.corners
        return np.stack([c[:-1, :-1], c[:-1, 1:], c[1:, 1:], c[1:, :-1]], axis=2)

    def cell_size_px(self) -> float:
        """Median side of a cell in the image (px)."""
        c = self.corners
        sides = np.concatenate([np.linalg.norm(np.diff(c, axis=0), axis=2).ravel(),
                                np.linalg.norm(np.diff(c, axis=1), axis=2).ravel()])
        return float(np.median(sides))


def edge_strength(grey: np.ndarray) -> np.ndarray:
    """Smoothed gradient magnitude (H, W) float32 of a grey image: a ridge along every edge
    and along every thin line (both sides of it blur together)."""
    g = grey.astype(np.float32)
    mag = cv2.magnitude(cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3))
    return cv2.GaussianBlur(mag, (0, 0), GRADIENT_SIGMA_PX)


def line_samples(strength: np.ndarray, a: np.ndarray, b: np.ndarray, cells: float,
                 cell_px: float, search_share: float = SEARCH_SHARE,
                 background_share: float = BACKGROUND_SHARE) -> np.ndarray:
    """Edge points (M, 3): (x, y, t) near the image segment a -> b, t in [0, 1] along it.

    ``cells`` is how many cells the segment spans (it is sampled
    :data:`SAMPLES_PER_CELL` times per cell), ``cell_px`` the local cell size (px); the
    search reaches ``search_share`` of it to either side, the profile whose median a peak
    must stand out from ``background_share``."""
    n = max(2, int(round(cells * SAMPLES_PER_CELL)))
    t = (np.arange(n) + 0.5) / n
    along = b - a
    length = float(np.linalg.norm(along))
    if length < 1e-9:
        return np.empty((0, 3))
    normal = np.array([-along[1], along[0]]) / length
    half = max(2.0, search_share * cell_px)
    wide = max(half, background_share * cell_px)  # the profile's median is taken over this reach
    steps = np.arange(-wide, wide + 0.25, 0.5)
    centres = a[None, :] + t[:, None] * along[None, :]
    grid = centres[:, None, :] + steps[None, :, None] * normal[None, None, :]
    prof = cv2.remap(strength, grid[..., 0].astype(np.float32), grid[..., 1].astype(np.float32),
                     cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0.0)
    inside = np.abs(steps) <= half
    first = int(np.argmax(inside))
    i = first + np.argmax(prof[:, inside], axis=1)
    peak = prof[np.arange(n), i]
    good = (peak > PEAK_OVER_MEDIAN * np.median(prof, axis=1)) & (i > 0) & (i < len(steps) - 1)
    rows = np.nonzero(good)[0]
    left, mid, right = prof[rows, i[rows] - 1], prof[rows, i[rows]], prof[rows, i[rows] + 1]
    denom = left - 2 * mid + right
    frac = np.where(np.abs(denom) > 1e-9, 0.5 * (left - right) / np.where(denom == 0, 1, denom), 0.0)
    offset = steps[i[rows]] + 0.5 * np.clip(frac, -1, 1)
    pts = centres[rows] + offset[:, None] * normal[None, :]
    return np.column_stack([pts, t[rows]])


def fit_line(points: np.ndarray) -> np.ndarray | None:
    """Homogeneous image line (3,) through points (M, >=2), refitted without outliers; None
    when fewer than :data:`MIN_SAMPLES` points agree."""
    pts = points[:, :2]
    keep = np.ones(len(pts), bool)
    line = None
    for slack in (4.0, 2.0, 1.0):
        if keep.sum() < MIN_SAMPLES:
            return None
        centre = pts[keep].mean(axis=0)
        d = pts[keep] - centre
        sxx, syy, sxy = float(d[:, 0] @ d[:, 0]), float(d[:, 1] @ d[:, 1]), float(d[:, 0] @ d[:, 1])
        angle = 0.5 * np.arctan2(2 * sxy, sxx - syy)  # the direction of most spread
        normal = np.array([-np.sin(angle), np.cos(angle)])
        line = np.array([normal[0], normal[1], -normal @ centre])
        keep = np.abs(pts @ normal + line[2]) < slack * OUTLIER_PX
    return line if keep.sum() >= MIN_SAMPLES else None


def lattice_grid(rows: int, columns: int) -> np.ndarray:
    """Lattice coordinates (rows + 1, columns + 1, 2) of every corner: (column, row)."""
    return np.stack(np.meshgrid(np.arange(columns + 1), np.arange(rows + 1)), axis=2).astype(np.float64)


def project(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(np.asarray(pts, np.float64).reshape(-1, 1, 2), h).reshape(pts.shape)


def fit_corners(strength: np.ndarray, guess: np.ndarray, refine: bool = False) -> Lattice:
    """Corners fitted to the image's edges around the ``guess`` (rows + 1, columns + 1, 2).

    A first fit (``refine`` False) searches wide around a rough guess; where no edges show a
    corner, the homography of the others stands in. A refining fit searches close to a good
    guess, and keeps the guess (which follows a lens's bending) where no edges show."""
    search, accept = (REFINE_SEARCH_SHARE, REFINE_ACCEPT_SHARE) if refine else (SEARCH_SHARE, FIRST_ACCEPT_SHARE)
    n_rows, n_cols = guess.shape[0] - 1, guess.shape[1] - 1
    grid = lattice_grid(n_rows, n_cols)
    cell_px = float(np.median(np.linalg.norm(np.diff(guess, axis=1), axis=2)))
    # samples along each column line (t runs down its rows) and each row line (t across columns)
    col_pts = [_polyline_samples(strength, guess[:, c], cell_px, search) for c in range(n_cols + 1)]
    row_pts = [_polyline_samples(strength, guess[r, :], cell_px, search) for r in range(n_rows + 1)]
    found = np.full(guess.shape, np.nan)
    for r in range(n_rows + 1):
        for c in range(n_cols + 1):
            a = _local_line(col_pts[c], r / n_rows, LOCAL_CELLS / n_rows)
            b = _local_line(row_pts[r], c / n_cols, LOCAL_CELLS / n_cols)
            if a is not None and b is not None:
                p = np.cross(a, b)
                if abs(p[2]) > 1e-12:
                    found[r, c] = p[:2] / p[2]
    ok = np.all(np.isfinite(found), axis=2) & (np.linalg.norm(found - guess, axis=2) < accept * cell_px)
    if ok.sum() < 4:
        raise LatticeError("no lattice of square cells found: too few cell corners show in the image")
    h, _ = cv2.findHomography(grid[ok], found[ok], cv2.LMEDS)
    if h is None:
        raise LatticeError("no lattice of square cells found: the corners fit no flat grid")
    model = project(h, grid)
    if not refine:  # a rough guess may have led a fit to another edge: trust the flat grid
        ok &= np.linalg.norm(found - model, axis=2) < FIRST_MODEL_SHARE * cell_px
    corners = np.where(ok[..., None], found, guess if refine else model)
    rms = float(np.sqrt(np.mean(np.sum((found[ok] - model[ok]) ** 2, axis=1))))
    return Lattice(corners, h, rms)


def _polyline_samples(strength: np.ndarray, line: np.ndarray, cell_px: float, search: float) -> np.ndarray:
    """Edge samples (M, 3) along a polyline of K corners (K, 2), t = position / (K - 1)."""
    parts = []
    for k, (p, q) in enumerate(zip(line[:-1], line[1:])):
        found = line_samples(strength, p, q, 1, cell_px, search)
        found[:, 2] = (found[:, 2] + k) / (len(line) - 1)
        parts.append(found)
    return np.concatenate(parts)


def _local_line(samples: np.ndarray, t: float, reach: float) -> np.ndarray | None:
    """The line through the samples near position ``t`` along it (within ``reach``), or
    through all of them when too few lie near."""
    near = samples[np.abs(samples[:, 2] - t) <= reach] if len(samples) else samples
    line = fit_line(near) if len(near) >= MIN_SAMPLES else None
    return line if line is not None else (fit_line(samples) if len(samples) >= MIN_SAMPLES else None)
