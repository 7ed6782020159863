"""Does the ground truth land on the pixels? Figures over many dataset renders of one game.

Three checks, as the issue states them:

- **cube colours**: the colour around each visible cube's projected centre (3 x 3 pixels, all
  showing the cube, the light's colour cast divided out) is nearest its own colour class;
- **card polygons**: a card's ground-truth polygon against the mask of that card drawn alone
  with the same camera and jitter: intersection over union;
- **marker corners**: the ground-truth corners against ``tableref.calibration.markers.
  detect_markers`` on the same scene (same camera and lens distortion) rendered with
  :data:`~tableref.vision.synthetic.CLEAN` settings, so that the figure measures the ground
  truth, not the detector's own wander under sensor noise and motion blur; the same is
  reported for the dataset photograph itself (max and 95th percentile), for information.
  Markers that anything covers are left out.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from tableref.calibration.markers import detect_markers

from ..camera import Camera
from ..canvas import Canvas
from ..draw import pixel_box, polygon_coverage
from ..layout import Layout
from ..palette import FOOD
from ..scene import CLEAN, Stage, draw_placements, render

#: Flat card-like kinds whose polygons are checked.
CARD_KINDS = frozenset({"dolcevita.luxury", "dolcevita.money", "dolcevita.number", "ligretto.card",
                        "ligretto.joker", "daluigi.guest"})  # tiles are round: their polygon is a square
#: Cards checked per render (drawn alone once each).
CARDS_PER_RENDER = 3
#: Share of corner errors under which the photograph's figure is reported.
PHOTO_QUANTILE = 0.95


@dataclass(frozen=True)
class Figures:
    """What :func:`check_ground_truth` measured over ``renders`` images of ``game``."""

    game: str
    renders: int
    seconds: float
    cubes: int
    cube_colour_match: float | None
    cards: int
    card_iou_min: float | None
    card_iou_mean: float | None
    marker_corners: int
    marker_error_max_px: float | None
    marker_error_mean_px: float | None
    markers_missed: int
    photo_marker_error_max_px: float | None
    photo_marker_error_p95_px: float | None

    def to_json(self) -> dict:
        return {k: (round(v, 4) if isinstance(v, float) else v) for k, v in self.__dict__.items()}


def card_alone_mask(layout: Layout, index: int, seed: int, camera: Camera) -> np.ndarray:
    """Mask (H, W) bool of component ``index`` of ``layout`` drawn alone with ``camera``
    (same jitter as in the full render: it depends on the seed and the part's ident)."""
    part = layout.components[index]
    alone = Layout(layout.table_mm, (part,), layout.marker_mm)
    stage = Stage.build(alone, seed, CLEAN, camera)
    w, h = camera.size
    canvas = Canvas(camera, np.zeros((h, w, 3), np.uint8), np.zeros((h, w), np.int32))
    draw_placements(stage, canvas, stage.placements(alone)[:1])
    return canvas.labels == 1


def polygon_mask(shape: tuple[int, int], polygon_px: np.ndarray) -> np.ndarray:
    """Pixels (H, W) bool at least half inside a polygon (px; pixel centres at whole numbers).

    Each pixel's share inside is computed exactly along sub-rows (:func:`~..draw.polygon_coverage`,
    the rasteriser the printed designs are drawn with), so the mask is not biased outwards as
    OpenCV's inclusive polygon edges are (half a pixel all round, about 5 % of IoU on a
    30-pixel card).
    """
    h, w = shape
    poly = np.asarray(polygon_px, np.float64)
    mask = np.zeros(shape, bool)
    box = pixel_box(poly, (w, h)) if np.all(np.isfinite(poly)) else None
    if box is None:
        return mask
    x0, y0, x1, y1 = box
    mask[y0:y1, x0:x1] = polygon_coverage(poly, box) >= 0.5
    return mask


def iou(a: np.ndarray, b: np.ndarray) -> float:
    union = np.count_nonzero(a | b)
    return float(np.count_nonzero(a & b) / union) if union else 0.0


def cube_colour_hits(image: np.ndarray, labels: np.ndarray, truth) -> tuple[int, int]:
    """(right, total) over the visible cubes of one render (see the module docstring)."""
    names = list(FOOD)
    palette = np.array([FOOD[n] for n in names], np.float64)
    palette /= palette.sum(1, keepdims=True)
    cast = np.array(truth.light["cast_bgr"], np.float64)
    h, w = labels.shape
    right = total = 0
    for o in truth.objects:
        if o.kind != "daluigi.cube" or not np.all(np.isfinite(o.centre_px)):
            continue
        x, y = np.round(o.centre_px).astype(int)
        if not (1 <= x < w - 1 and 1 <= y < h - 1) or np.any(labels[y - 1:y + 2, x - 1:x + 2] != o.label):
            continue
        colour = image[y - 1:y + 2, x - 1:x + 2].reshape(-1, 3).astype(np.float64).mean(0) / cast
        colour /= colour.sum()
        total += 1
        right += names[int(np.argmin(((palette - colour) ** 2).sum(1)))] == o.params["colour"]
    return right, total


def marker_errors(image: np.ndarray, truth) -> tuple[list[float], int]:
    """Corner errors (px) of the fully visible markers, and how many of them were not found."""
    found = {m.id: m.corners for m in detect_markers(image)}
    errors, missed = [], 0
    for m in truth.markers:
        if m.visibility < 1.0:
            continue
        if m.id not in found:
            missed += 1
            continue
        errors.extend(np.linalg.norm(found[m.id] - m.corners_px, axis=1).tolist())
    return errors, missed


def check_ground_truth(game: str, n: int, seed: int = 0) -> Figures:
    """The three ground-truth figures over ``n`` dataset renders of ``game`` (seeds ``seed``..).

    Returns
    -------
    Figures
        Cube colour match (share of visible cubes; None for a game without cubes), card IoU
        min and mean, marker corner error max and mean (px), and the time it took.
    """
    from ..dataset import sample

    start = time.perf_counter()
    right = cubes = missed = 0
    ious: list[float] = []
    errors: list[float] = []
    photo: list[float] = []
    for s in range(seed, seed + n):
        smp = sample(game, s)
        truth, layout = smp.render.truth, smp.scene.layout
        r, t = cube_colour_hits(smp.render.image, smp.render.labels, truth)
        right, cubes = right + r, cubes + t
        cards = [o for o in truth.objects if o.kind in CARD_KINDS and o.index is not None]
        rng = np.random.default_rng(s)
        for k in rng.permutation(len(cards))[:CARDS_PER_RENDER]:
            o = cards[int(k)]
            mask = card_alone_mask(layout, o.index, s, truth.camera)
            ious.append(iou(polygon_mask(mask.shape, o.polygon_px), mask))
        clean = render(layout, s, CLEAN)
        e, m = marker_errors(clean.image, clean.truth)
        errors += e
        missed += m
        e, _ = marker_errors(smp.render.image, truth)
        photo += e
    return Figures(game, n, time.perf_counter() - start, cubes, right / cubes if cubes else None,
                   len(ious), float(min(ious)) if ious else None, _mean(ious),
                   len(errors), _max(errors), _mean(errors), missed, _max(photo), _quantile(photo, PHOTO_QUANTILE))


def _max(values: list[float]) -> float | None:
    return float(max(values)) if values else None


def _mean(values: list[float]) -> float | None:
    return float(np.mean(values)) if values else None


def _quantile(values: list[float], q: float) -> float | None:
    return float(np.quantile(values, q)) if values else None
