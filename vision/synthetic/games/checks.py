"""Does the ground truth land on the pixels? Figures over many dataset renders of one game.

Three checks, as the issue states them:

- **cube colours**: the colour around the projected centre of each visible cube's top face
  (3 x 3 pixels, all showing the cube) is nearest its own colour class once the render's known
  light is undone there (its additive glare taken off, then its brightness and the colour cast
  left by the white balance divided out). The top face is what a recogniser samples: the 3-D
  centre often lands on a side face near its dark edge lines, and glare desaturates a colour
  (an orange or red under glare reads as brown) unless it is taken off;
- **card polygons**: a card's ground-truth polygon against the mask of that card drawn alone
  with the same camera and jitter: intersection over union;
- **marker corners**: the ground-truth corners against ``tableref.calibration.markers.
  detect_markers`` on the same scene (same camera and lens distortion) rendered with
  :data:`~tableref.vision.synthetic.CLEAN` settings, so that the figure measures the ground
  truth, not the detector's own wander under sensor noise and motion blur; the same is
  reported for the dataset photograph itself (max and 95th percentile), for information.
  Only fully visible markers are compared (nothing covers any of their pixels and all four
  corners lie in the image); how many were left out is reported.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from tableref.calibration.markers import detect_markers

from .. import kinds
from ..camera import Camera
from ..canvas import Canvas
from ..draw import pixel_box, polygon_coverage
from ..layout import Layout
from ..palette import FOOD
from ..photo import Light
from ..scene import CLEAN, RenderSettings, Stage, draw_placements, render

#: Flat card-like kinds whose polygons are checked.
CARD_KINDS = frozenset({"dolcevita.luxury", "dolcevita.money", "dolcevita.number", "ligretto.card",
                        "ligretto.joker", "daluigi.guest"})  # tiles are round: their polygon is a square
#: Cards checked per render (drawn alone once each).
CARDS_PER_RENDER = 3
#: Share of corner errors under which the photograph's figure is reported.
PHOTO_QUANTILE = 0.95
#: Half the side of the square of pixels sampled at a cube's top face (1: 3 x 3 pixels).
CUBE_SAMPLE_HALF_PX = 1


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
    markers_excluded: int
    photo_marker_error_max_px: float | None
    photo_marker_error_p95_px: float | None
    photo_markers_missed: int
    photo_markers_excluded: int

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


def render_light(layout: Layout, seed: int, settings: RenderSettings, camera: Camera) -> Light:
    """The light a render of ``layout`` with ``seed`` and ``settings`` was lit by (drawn again
    from the seed: it depends on nothing else)."""
    return Stage.build(layout, seed, settings, camera).light


def cube_colour_hits(image: np.ndarray, labels: np.ndarray, truth, light: Light) -> tuple[int, int]:
    """(right, total) over the visible cubes of one render (see the module docstring).

    Parameters
    ----------
    image : ndarray (H, W, 3) uint8, BGR: the photograph
    labels : ndarray (H, W) int32: its label image
    truth : Truth: its ground truth (cube poses and the camera)
    light : Light: the light it was rendered with (:func:`render_light`)
    """
    names = list(FOOD)
    palette = np.array([FOOD[n] for n in names], np.float64)
    palette /= palette.sum(1, keepdims=True)
    cast = np.asarray(light.cast, np.float64)
    h, w = labels.shape
    r = CUBE_SAMPLE_HALF_PX
    right = total = 0
    for o in truth.objects:
        if o.kind != "daluigi.cube":
            continue
        x_mm, y_mm, _, z_mm = o.pose
        top = z_mm + kinds.size(o.kind, o.params)[2]
        centre = truth.camera.project(np.array([[x_mm, y_mm, top]]))[0]
        if not np.all(np.isfinite(centre)):
            continue
        x, y = np.round(centre).astype(int)
        window = np.s_[y - r:y + r + 1, x - r:x + r + 1]
        if not (r <= x < w - r and r <= y < h - r) or np.any(labels[window] != o.label):
            continue
        raw = image[window].reshape(-1, 3).astype(np.float64).mean(0)
        colour = (raw - float(light.glare[window].mean())) / (float(light.gain[window].mean()) * cast)
        colour = np.maximum(colour, 0.0)
        colour /= max(float(colour.sum()), 1e-9)
        total += 1
        right += names[int(np.argmin(((palette - colour) ** 2).sum(1)))] == o.params["colour"]
    return right, total


def marker_errors(image: np.ndarray, truth) -> tuple[list[float], int, int]:
    """Corner errors (px) of the fully visible markers (nothing over any of their pixels, all
    four corners in the image), how many of those were not found, and how many markers were
    left out as not fully visible."""
    found = {m.id: m.corners for m in detect_markers(image)}
    w, h = truth.camera.size
    errors, missed, excluded = [], 0, 0
    for m in truth.markers:
        corners = np.asarray(m.corners_px, np.float64)
        inside = np.all(np.isfinite(corners)) and np.all((corners >= 0) & (corners <= [w - 1, h - 1]))
        if m.visibility < 1.0 or not inside:
            excluded += 1
            continue
        if m.id not in found:
            missed += 1
            continue
        errors.extend(np.linalg.norm(found[m.id] - corners, axis=1).tolist())
    return errors, missed, excluded


def check_ground_truth(game: str, n: int, seed: int = 0) -> Figures:
    """The three ground-truth figures over ``n`` dataset renders of ``game`` (seeds ``seed``..).

    Returns
    -------
    Figures
        Cube colour match (share of visible cubes; None for a game without cubes), card IoU
        min and mean, marker corner error max and mean (px) with the markers missed and left
        out (not fully visible), the same for the photograph, and the time it took.
    """
    from ..dataset import DEFAULT_SETTINGS, sample

    start = time.perf_counter()
    right = cubes = missed = excluded = photo_missed = photo_excluded = 0
    ious: list[float] = []
    errors: list[float] = []
    photo: list[float] = []
    for s in range(seed, seed + n):
        smp = sample(game, s)
        truth, layout = smp.render.truth, smp.scene.layout
        light = render_light(layout, s, DEFAULT_SETTINGS, truth.camera)
        r, t = cube_colour_hits(smp.render.image, smp.render.labels, truth, light)
        right, cubes = right + r, cubes + t
        cards = [o for o in truth.objects if o.kind in CARD_KINDS and o.index is not None]
        rng = np.random.default_rng(s)
        for k in rng.permutation(len(cards))[:CARDS_PER_RENDER]:
            o = cards[int(k)]
            mask = card_alone_mask(layout, o.index, s, truth.camera)
            ious.append(iou(polygon_mask(mask.shape, o.polygon_px), mask))
        clean = render(layout, s, CLEAN)
        e, m, x = marker_errors(clean.image, clean.truth)
        errors += e
        missed += m
        excluded += x
        e, m, x = marker_errors(smp.render.image, truth)
        photo += e
        photo_missed += m
        photo_excluded += x
    return Figures(game, n, time.perf_counter() - start, cubes, right / cubes if cubes else None,
                   len(ious), float(min(ious)) if ious else None, _mean(ious),
                   len(errors), _max(errors), _mean(errors), missed, excluded,
                   _max(photo), _quantile(photo, PHOTO_QUANTILE), photo_missed, photo_excluded)


def _max(values: list[float]) -> float | None:
    return float(max(values)) if values else None


def _mean(values: list[float]) -> float | None:
    return float(np.mean(values)) if values else None


def _quantile(values: list[float], q: float) -> float | None:
    return float(np.quantile(values, q)) if values else None
