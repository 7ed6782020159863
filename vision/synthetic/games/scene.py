"""A game state laid out on the table, and what of it a render shows.

A :class:`GameScene` pairs a rules state with the :class:`~tableref.vision.synthetic.Layout`
that shows it; every placed part has an ident naming the game item it stands for
(``dv.slot.3.0``, ``lig.cell.4.7``, ...). After rendering, :func:`seen_shares` says how much of
each part shows: the share of the part that would show without hands and distractors (parts
may cover each other by design, as cards in a shingled column do) that still shows with them.
A perfect recogniser reads a part when at least :data:`SEEN_SHARE` of it shows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from ..errors import LayoutError
from ..layout import Layout
from ..scene import Render

#: A part (or a place on the table) is read when at least this share of it shows; a part more
#: than half covered by a hand or a distractor is "unknown" in the perfect observation.
SEEN_SHARE = 0.5
#: Object kinds that are not game parts: whatever they cover is hidden from the camera.
FOREIGN_KINDS = ("hand", "distractor.")
#: Sub-pixel bits used when rasterising regions.
_SHIFT = 4


@dataclass(frozen=True, eq=False)
class GameScene:
    """One game state on the table.

    Attributes
    ----------
    game : str
        ``dolcevita``, ``ligretto`` or ``daluigi``.
    state : the rules engine's state
    layout : Layout
        The table with every visible part of the state placed as the rulebook describes.
    regions : mapping str -> ndarray (4, 3)
        Places that may be empty (a slot, a board space): name -> corners in the table frame
        (mm, z = the surface they lie on); their emptiness is observed too.
    """

    game: str
    state: Any
    layout: Layout
    regions: Mapping[str, np.ndarray] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.layout, Layout):
            raise LayoutError(f"a game scene needs a Layout, got {type(self.layout).__name__}")


@dataclass(frozen=True, eq=False)
class Seen:
    """How much of each part and region of a game scene one render shows.

    Attributes
    ----------
    parts : dict ident -> float
        Share (0..1) of each part that shows, of what would show without hands and distractors.
    regions : dict name -> float
        Share (0..1) of each region's pixels that are in the image and not covered by a hand
        or distractor.
    """

    parts: dict[str, float]
    regions: dict[str, float]

    def part(self, ident: str, share: float = SEEN_SHARE) -> bool:
        """Whether at least ``share`` of the part ``ident`` shows (unknown idents are not seen)."""
        return self.parts.get(ident, 0.0) >= share

    def region(self, name: str, share: float = SEEN_SHARE) -> bool:
        return self.regions.get(name, 0.0) >= share


def is_foreign(kind: str) -> bool:
    """Whether an object kind is a hand or a distractor rather than a game part."""
    return kind == FOREIGN_KINDS[0] or kind.startswith(FOREIGN_KINDS[1])


def seen_shares(scene: GameScene, result: Render) -> Seen:
    """What of ``scene`` shows in ``result`` (a render of ``scene.layout``).

    A part's share is ``visible / (designed + outside)``: its pixels in the final label image,
    over its pixels in the label image drawn before hands and distractors plus the area of its
    polygon that falls outside the image.
    """
    if result.parts_labels is None:
        raise LayoutError("seen_shares needs a Render made by render() (it carries parts_labels)")
    h, w = result.labels.shape
    top = int(max(result.labels.max(), result.parts_labels.max())) + 1
    shown = np.bincount(result.labels.ravel(), minlength=top)
    designed = np.bincount(result.parts_labels.ravel(), minlength=top)
    parts = {}
    for o in result.truth.objects:
        if not o.ident:
            continue
        outside = _outside_area(o.polygon_px, (w, h))
        total = float(designed[o.label]) + outside
        parts[o.ident] = float(shown[o.label]) / total if total > 0 else 0.0
    foreign = np.zeros(top, bool)
    for o in result.truth.objects:
        if is_foreign(o.kind):
            foreign[o.label] = True
    covered = foreign[result.labels]
    cam = result.truth.camera
    regions = {name: _region_share(covered, cam.project(np.asarray(corners, np.float64)))
               for name, corners in scene.regions.items()}
    return Seen(parts, regions)


def _area(polygon: np.ndarray) -> float:
    x, y = polygon[:, 0], polygon[:, 1]
    return 0.5 * abs(float(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1))))


def _outside_area(polygon_px: np.ndarray, size: tuple[int, int]) -> float:
    """Area (px) of a convex polygon that lies outside the image."""
    poly = np.asarray(polygon_px, np.float64)
    if len(poly) < 3 or not np.all(np.isfinite(poly)):
        return 0.0
    w, h = size
    if np.all((poly >= 0) & (poly <= [w, h])):
        return 0.0
    hull = cv2.convexHull(poly.astype(np.float32))
    frame = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    inside, _ = cv2.intersectConvexConvex(hull, frame)
    return max(0.0, _area(hull.reshape(-1, 2).astype(np.float64)) - float(inside))


def _region_share(covered: np.ndarray, polygon_px: np.ndarray) -> float:
    """Share of a region's area (image pixels) that is in the image and not covered."""
    if not np.all(np.isfinite(polygon_px)):
        return 0.0
    h, w = covered.shape
    full = _area(polygon_px)
    if full <= 0:
        return 0.0
    x0, y0 = np.maximum(np.floor(polygon_px.min(0)).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(polygon_px.max(0)).astype(int) + 1, [w, h])
    if x1 <= x0 or y1 <= y0:
        return 0.0
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    pts = np.round((polygon_px - [x0, y0]) * (1 << _SHIFT)).astype(np.int32)
    cv2.fillPoly(mask, [pts], 1, cv2.LINE_8, _SHIFT)
    inside = mask.astype(bool)
    free = np.count_nonzero(inside & ~covered[y0:y1, x0:x1])
    return float(min(1.0, free / max(full, float(np.count_nonzero(inside)), 1.0)))
