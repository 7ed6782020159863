"""A lens's radial distortion estimated from the table's markers alone, for a camera never calibrated.

A plane homography maps the table to the image only through a lens without distortion. A
wide webcam lens bends the image (barrel distortion), so markers near the image's edge lie
closer to its centre than the homography of the others puts them: the fit then leaves the
cards far from the markers tens of pixels off. Each marker's four corners tell its own size
and shape where it lies, so two or more markers measure the bending as well.

The bending is modelled by one parameter, the division model of radial distortion
(Fitzgibbon, CVPR 2001)::

    undistorted = distorted / (1 + division * |distorted|^2)

in units of :data:`NOMINAL_FOCAL_SHARE` of the image's width about its centre (barrel
distortion: ``division < 0``). ``division`` is the value whose undistorted marker corners a
homography from the layout explains best (the residual is measured in the image, in
pixels). The estimate is returned as :class:`~.intrinsics.Intrinsics` whose distortion
(OpenCV's rational model, fitted to the division model) does the same, so everything that
takes a calibrated lens takes it. Only the product of focal length and distortion is
measured, not the focal length itself; the plane's homography needs no more.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .errors import CalibrationError
from .intrinsics import Intrinsics
from .layout import MarkerLayout
from .markers import DetectedMarker

#: The radius unit of the model (a share of the image's width; a typical webcam's focal length).
NOMINAL_FOCAL_SHARE = 0.6
#: Fewest layout markers the estimate needs: two give 8 corners, 16 coordinates for the
#: homography's 8 unknowns and the distortion's one (with corners 0.15 px apart from the
#: truth, any two of the four markers recover the division within 0.015: tests).
MIN_LENS_MARKERS = 2
#: Division parameters searched (the image's corners lie at radius 0.96 of the unit for a
#: 16:9 image; at -0.7 the lens shows them at 0.36 of their undistorted radius, the rational
#: form still within 0.15 px of the model; at -1.09 they would fold): a grid of GRID_STEPS,
#: then REFINES finer grids of REFINE_STEPS between the best one's neighbours (steps of 0.05,
#: 0.01, 0.002).
DIVISION_RANGE = (-0.7, 0.4)
GRID_STEPS, REFINE_STEPS, REFINES = 23, 11, 2
#: The rational model's fit to the division model is checked out to this share beyond the
#: image's corner radius (points just outside the image are mapped too).
RADIUS_MARGIN = 1.05


@dataclass(frozen=True)
class LensEstimate:
    """A lens estimated from markers.

    Attributes
    ----------
    division : float
        The division model's parameter (radius unit: :data:`NOMINAL_FOCAL_SHARE` of the width).
    intrinsics : Intrinsics
        A camera matrix of that focal length about the image's centre, with the distortion.
    rms_px : float
        RMS distance (image px) between the marker corners and the layout mapped through the
        homography and the distortion.
    straight_rms_px : float
        The same for the homography alone (no distortion).
    """

    division: float
    intrinsics: Intrinsics
    rms_px: float
    straight_rms_px: float

    def __post_init__(self) -> None:
        if not DIVISION_RANGE[0] <= self.division <= DIVISION_RANGE[1]:
            raise CalibrationError(f"division {self.division} outside {DIVISION_RANGE}")
        if not (self.rms_px >= 0 and self.straight_rms_px >= 0):
            raise CalibrationError(f"residuals must be >= 0, got {self.rms_px}, {self.straight_rms_px}")

    @property
    def gain(self) -> float:
        """The residual with the distortion as a share of the residual without (lower: clearer)."""
        return self.rms_px / self.straight_rms_px if self.straight_rms_px > 0 else 1.0


def estimate_lens(markers: Sequence[DetectedMarker], layouts: Sequence[MarkerLayout],
                  image_size: tuple[int, int]) -> LensEstimate | None:
    """The radial distortion that best explains ``markers`` (raw pixels) as the markers of one
    of ``layouts`` (the table sizes it may have): each is tried on a coarse grid of the
    division, and the one explaining the corners best is refined.

    Returns None when no layout has :data:`MIN_LENS_MARKERS` of its markers seen, each once.
    """
    unit, centre = _unit(image_size)
    lo, hi = DIVISION_RANGE
    grid = np.append(np.linspace(lo, hi, GRID_STEPS), 0.0)  # the last: no distortion
    best = None
    for layout in layouts:
        seen = [m for m in markers if m.id in layout.ids]
        ids = [m.id for m in seen]
        if len(set(ids)) < MIN_LENS_MARKERS or len(set(ids)) != len(ids):
            continue
        image = (np.concatenate([m.corners for m in seen]).astype(np.float64) - centre) / unit
        table = np.concatenate([layout.placement(i).corners_mm for i in ids]).astype(np.float64)
        costs = _residuals(image, table, grid) * unit
        if best is None or costs.min() < best[0].min():
            best = (costs, image, table)
    if best is None:
        return None
    costs, image, table = best
    straight, candidates, step = float(costs[-1]), grid, grid[1] - grid[0]
    k = int(np.argmin(costs))
    division, least = float(candidates[k]), float(costs[k])
    for _ in range(REFINES):
        candidates = np.linspace(max(division - step, lo), min(division + step, hi), REFINE_STEPS)
        step = candidates[1] - candidates[0]
        costs = _residuals(image, table, candidates) * unit
        k = int(np.argmin(costs))
        if costs[k] < least:
            division, least = float(candidates[k]), float(costs[k])
    return LensEstimate(division, division_intrinsics(division, image_size), least, straight)


def division_intrinsics(division: float, image_size: tuple[int, int]) -> Intrinsics:
    """Intrinsics (focal length :data:`NOMINAL_FOCAL_SHARE` of the width, centre in the middle)
    whose distortion, OpenCV's rational model ``k1 k2 p1 p2 k3 k4 k5 k6``, is the division model's."""
    unit, centre = _unit(image_size)
    corner = float(np.hypot(*centre)) / unit * RADIUS_MARGIN
    if division < 0:
        corner = min(corner, 0.95 / math.sqrt(-division))  # the model folds at 1 / sqrt(-division)
    distorted = np.linspace(1e-3, corner, 200)
    undistorted = distorted / (1.0 + division * distorted ** 2)
    x, y = undistorted ** 2, distorted / undistorted
    # y * (1 + k4 x + k5 x^2 + k6 x^3) = 1 + k1 x + k2 x^2 + k3 x^3, linear in the k
    a = np.stack([x, x ** 2, x ** 3, -y * x, -y * x ** 2, -y * x ** 3], axis=1)
    k1, k2, k3, k4, k5, k6 = np.linalg.lstsq(a, y - 1.0, rcond=None)[0]
    matrix = np.array([[unit, 0.0, centre[0]], [0.0, unit, centre[1]], [0.0, 0.0, 1.0]])
    return Intrinsics(matrix, np.array([k1, k2, 0.0, 0.0, k3, k4, k5, k6]), tuple(image_size))


def _unit(image_size: tuple[int, int]) -> tuple[float, np.ndarray]:
    width, height = image_size
    return NOMINAL_FOCAL_SHARE * width, np.array([width / 2.0, height / 2.0])


def _residuals(image: np.ndarray, table: np.ndarray, divisions: np.ndarray) -> np.ndarray:
    """For each of ``divisions`` (G,), the RMS distance (model units) between ``image`` points
    (N, 2) and ``table`` points (N, 2) mapped through the homography that best fits them once
    undistorted, then distorted again; inf where the model folds."""
    d = divisions[:, None, None]
    radial = 1.0 + d * np.sum(image ** 2, axis=1)[None, :, None]
    folded = np.any(radial[..., 0] <= 0, axis=1)
    mapped = _homography_fits(table, image[None] / np.where(radial > 0, radial, 1.0))
    r_u2 = np.sum(mapped ** 2, axis=2, keepdims=True)
    disc = 1.0 - 4.0 * d * r_u2
    folded |= np.any(disc[..., 0] < 0, axis=1) | ~np.all(np.isfinite(mapped), axis=(1, 2))
    # the root of division * r_u * r_d^2 - r_d + r_u = 0 that tends to r_u as r_u -> 0
    back = mapped * (2.0 / (1.0 + np.sqrt(np.maximum(disc, 0.0))))
    rms = np.sqrt(np.mean(np.sum((back - image[None]) ** 2, axis=2), axis=1))
    return np.where(folded, np.inf, rms)


def _homography_fits(source: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """``source`` points (N, 2) mapped by each homography that fits them to one of ``targets``
    (G, N, 2) in the least-squares sense of the normalised direct linear transform (Hartley
    and Zisserman, algorithm 4.2): (G, N, 2), NaN where no homography fits. OpenCV's own fit
    refines it further, at many times the cost; this one runs for dozens of candidates at once."""
    def normalised(points):  # (..., N, 2): centred, mean distance sqrt(2)
        centre = points.mean(axis=-2, keepdims=True)
        spread = np.mean(np.linalg.norm(points - centre, axis=-1), axis=-1)[..., None, None]
        scale = math.sqrt(2.0) / np.maximum(spread, 1e-12)
        return (points - centre) * scale, centre, scale

    src, _, _ = normalised(source)
    dst, centre, scale = normalised(targets)
    g, n = dst.shape[0], src.shape[0]
    a = np.zeros((g, 2 * n, 9))
    a[:, 0::2, 0:2], a[:, 0::2, 2] = src, 1.0
    a[:, 1::2, 3:5], a[:, 1::2, 5] = src, 1.0
    a[:, 0::2, 6:8], a[:, 0::2, 8] = -dst[..., :1] * src, -dst[..., 0]
    a[:, 1::2, 6:8], a[:, 1::2, 8] = -dst[..., 1:] * src, -dst[..., 1]
    h = np.linalg.svd(a)[2][:, -1].reshape(g, 3, 3)
    mapped = np.einsum("nk,gjk->gnj", np.column_stack([src, np.ones(n)]), h)
    w = mapped[..., 2:]
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(np.abs(w) > 1e-12, mapped[..., :2] / w, np.nan)
    return out / scale + centre
