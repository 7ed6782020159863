"""Drawing in millimetres on a texture with an alpha channel.

A :class:`Painter` wraps one BGRA image and its resolution (pixels per millimetre). All
positions are *design* millimetres: origin at the texture's top-left corner, x to the right,
y down, so a design reads like the printed card. Filled polygons are rasterised by
:func:`polygon_coverage` (each pixel takes the share of its area inside, so an edge lands
where the millimetres say, whatever the resolution: OpenCV's anti-aliased ``fillPoly``
grows shapes by about 0.7 pixel all round); strokes use OpenCV's sub-pixel ``shift``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

from .palette import with_alpha

#: Fractional bits of the sub-pixel coordinates handed to OpenCV's polygon drawing.
SHIFT_BITS = 4
_ONE = 1 << SHIFT_BITS
#: Sub-rows per pixel row when a polygon's coverage is computed (exact along each sub-row).
COVERAGE_SUBROWS = 8
#: Points per millimetre of arc when a curve becomes a polygon.
_ARC_POINTS_PER_MM = 1.0
#: Hershey font used for all printed digits and words: bold enough to read when small.
FONT = cv2.FONT_HERSHEY_DUPLEX


def blank_texture(width_mm: float, height_mm: float, px_per_mm: float) -> np.ndarray:
    """A fully transparent BGRA texture of the given size.

    Returns
    -------
    ndarray of shape (round(height_mm * px_per_mm), round(width_mm * px_per_mm), 4), uint8
    """
    return np.zeros((max(1, round(height_mm * px_per_mm)), max(1, round(width_mm * px_per_mm)), 4), np.uint8)


class Painter:
    """Draw shapes given in design millimetres onto a BGRA texture (in place)."""

    def __init__(self, image: np.ndarray, px_per_mm: float):
        self.image = image
        self.ppm = float(px_per_mm)

    # -- coordinates -------------------------------------------------------------------------
    def fixed(self, points_mm: np.ndarray) -> np.ndarray:
        """Design millimetres (N, 2) -> OpenCV fixed-point pixel coordinates (N, 2) int32."""
        pts = np.asarray(points_mm, np.float64).reshape(-1, 2)
        return np.round((pts * self.ppm - 0.5) * _ONE).astype(np.int32)

    def px(self, mm: float) -> int:
        """A length in millimetres as a whole number of pixels, at least 1."""
        return max(1, round(mm * self.ppm))

    # -- shapes -------------------------------------------------------------------------------
    def polygon(self, points_mm: np.ndarray, colour, alpha: int = 255) -> None:
        """Fill a polygon given by its corners in design millimetres (even-odd rule), each
        pixel blended by the share of its area inside."""
        h, w = self.image.shape[:2]
        pts = np.asarray(points_mm, np.float64).reshape(-1, 2) * self.ppm - 0.5
        box = pixel_box(pts, (w, h))
        if box is None:
            return
        x0, y0, x1, y1 = box
        cover = polygon_coverage(pts, box)[..., None]
        roi = self.image[y0:y1, x0:x1].astype(np.float32)
        paint = np.array(with_alpha(colour, alpha), np.float32)
        self.image[y0:y1, x0:x1] = (roi + (paint - roi) * cover + 0.5).astype(np.uint8)

    def polyline(self, points_mm: np.ndarray, colour, width_mm: float, closed: bool = True) -> None:
        """Stroke a polyline of the given width (millimetres)."""
        cv2.polylines(self.image, [self.fixed(points_mm)], closed, with_alpha(colour), self.px(width_mm),
                      cv2.LINE_AA, SHIFT_BITS)

    def rect(self, x0: float, y0: float, x1: float, y1: float, colour, radius: float = 0.0) -> None:
        """Fill an axis-aligned rectangle, optionally with rounded corners (radius in mm)."""
        self.polygon(rounded_rect(x0, y0, x1, y1, radius), colour)

    def frame(self, x0: float, y0: float, x1: float, y1: float, colour, width_mm: float,
              radius: float = 0.0) -> None:
        """Stroke an axis-aligned rectangle's outline."""
        self.polyline(rounded_rect(x0, y0, x1, y1, radius), colour, width_mm)

    def circle(self, cx: float, cy: float, r: float, colour) -> None:
        """Fill a disc of radius ``r`` millimetres."""
        self.polygon(ellipse_points(cx, cy, r, r), colour)

    def ring(self, cx: float, cy: float, r: float, colour, width_mm: float) -> None:
        """Stroke a circle of radius ``r`` millimetres."""
        self.polyline(ellipse_points(cx, cy, r, r), colour, width_mm)

    def line(self, x0: float, y0: float, x1: float, y1: float, colour, width_mm: float) -> None:
        """Stroke one straight segment."""
        self.polyline(np.array([[x0, y0], [x1, y1]]), colour, width_mm, closed=False)

    def dashed(self, points_mm: np.ndarray, colour, width_mm: float, dash_mm: float, gap_mm: float) -> None:
        """Stroke a closed polyline as dashes; ``dash_mm`` near zero draws dots."""
        pts = np.asarray(points_mm, np.float64)
        pts = np.vstack([pts, pts[:1]])
        period = dash_mm + gap_mm
        for a, b in zip(pts[:-1], pts[1:]):
            length = float(np.hypot(*(b - a)))
            if length == 0:
                continue
            direction = (b - a) / length
            start = 0.0
            while start < length:
                end = min(length, start + dash_mm)
                p, q = a + direction * start, a + direction * end
                if dash_mm <= width_mm:
                    self.circle(p[0], p[1], width_mm / 2, colour)
                else:
                    self.line(p[0], p[1], q[0], q[1], colour, width_mm)
                start += period

    def text(self, words: str, cx: float, cy: float, height_mm: float, colour, weight: float = 0.14) -> None:
        """Print ``words`` centred on (cx, cy); ``height_mm`` is the height of a capital digit.

        ``weight`` is the stroke width as a fraction of the height.
        """
        height_px = height_mm * self.ppm
        (w1, h1), _ = cv2.getTextSize(words, FONT, 1.0, 1)
        scale = height_px / h1
        thickness = max(1, round(weight * height_px))
        (w, h), _ = cv2.getTextSize(words, FONT, scale, thickness)
        org = (round(cx * self.ppm - w / 2), round(cy * self.ppm + h / 2))
        cv2.putText(self.image, words, org, FONT, scale, with_alpha(colour), thickness, cv2.LINE_AA)


def pixel_box(points_px: np.ndarray, size: tuple[int, int]) -> tuple[int, int, int, int] | None:
    """Pixels (x0, y0, x1, y1; ends exclusive) of an image ``size`` (width, height) that a
    polygon (N, 2) px, pixel centres at whole numbers, may touch; None when none."""
    w, h = size
    x0 = max(0, int(math.floor(points_px[:, 0].min() + 0.5)))
    y0 = max(0, int(math.floor(points_px[:, 1].min() + 0.5)))
    x1 = min(w, int(math.ceil(points_px[:, 0].max() + 0.5)))
    y1 = min(h, int(math.ceil(points_px[:, 1].max() + 0.5)))
    return (x0, y0, x1, y1) if x1 > x0 and y1 > y0 else None


def polygon_coverage(points_px: np.ndarray, box: tuple[int, int, int, int],
                     subrows: int = COVERAGE_SUBROWS) -> np.ndarray:
    """Share of each pixel's area inside a polygon (even-odd rule).

    Parameters
    ----------
    points_px : ndarray (N, 2), pixels; pixel (i, j) is the square of side 1 centred on x = i, y = j
    box : (x0, y0, x1, y1), the pixels wanted (ends exclusive)
    subrows : int, horizontal lines per pixel row on which the inside is found exactly

    Returns
    -------
    ndarray (y1 - y0, x1 - x0) float32 in 0..1
    """
    x0, y0, x1, y1 = box
    pts = np.asarray(points_px, np.float64).reshape(-1, 2)
    a, b = pts, np.roll(pts, -1, axis=0)
    ys = y0 - 0.5 + (np.arange((y1 - y0) * subrows) + 0.5) / subrows
    lo, hi = np.minimum(a[:, 1], b[:, 1]), np.maximum(a[:, 1], b[:, 1])
    crosses = (ys[:, None] >= lo) & (ys[:, None] < hi)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = (ys[:, None] - a[:, 1]) / (b[:, 1] - a[:, 1])
    xs = np.where(crosses, a[:, 0] + t * (b[:, 0] - a[:, 0]), np.inf)
    xs.sort(axis=1)
    pairs = int(crosses.sum(axis=1).max()) // 2 if len(ys) else 0
    left = np.arange(x0, x1, dtype=np.float64) - 0.5
    cover = np.zeros((len(ys), x1 - x0), np.float64)
    for k in range(pairs):
        start, end = xs[:, 2 * k:2 * k + 1], xs[:, 2 * k + 1:2 * k + 2]
        ok = np.isfinite(end)
        span = np.minimum(np.where(ok, end, 0.0), left + 1.0) - np.maximum(np.where(ok, start, 0.0), left)
        cover += np.clip(span, 0.0, 1.0)
    return cover.reshape(y1 - y0, subrows, x1 - x0).mean(axis=1).astype(np.float32)


def rounded_rect(x0: float, y0: float, x1: float, y1: float, radius: float) -> np.ndarray:
    """Corners of a rectangle with rounded corners, as a polygon (N, 2) in millimetres."""
    if radius <= 0:
        return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64)
    r = min(radius, (x1 - x0) / 2, (y1 - y0) / 2)
    n = max(3, math.ceil(r * math.pi / 2 * _ARC_POINTS_PER_MM) + 2)
    parts = []
    for cx, cy, start in ((x1 - r, y0 + r, -90), (x1 - r, y1 - r, 0), (x0 + r, y1 - r, 90), (x0 + r, y0 + r, 180)):
        t = np.radians(np.linspace(start, start + 90, n))
        parts.append(np.stack([cx + r * np.cos(t), cy + r * np.sin(t)], 1))
    return np.vstack(parts)


def ellipse_points(cx: float, cy: float, rx: float, ry: float, start_deg: float = 0.0,
                   end_deg: float = 360.0) -> np.ndarray:
    """Points along an ellipse (or an arc of it), as a polygon (N, 2) in millimetres."""
    n = max(12, math.ceil(max(rx, ry) * math.radians(end_deg - start_deg) * _ARC_POINTS_PER_MM * 2))
    t = np.radians(np.linspace(start_deg, end_deg, n, endpoint=end_deg - start_deg < 360))
    return np.stack([cx + rx * np.cos(t), cy + ry * np.sin(t)], 1)


def transform(points: Sequence[Sequence[float]], cx: float, cy: float, size: float) -> np.ndarray:
    """Unit-box points (x, y in -0.5..0.5) placed at (cx, cy) scaled to ``size`` millimetres."""
    return np.asarray(points, np.float64) * size + np.array([cx, cy])
