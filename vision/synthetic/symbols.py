"""Procedural pictograms: one large, distinct silhouette per name.

Each symbol fills a square of ``size`` millimetres centred on (cx, cy) in design
millimetres; ``ink`` is the symbol's colour, ``cut`` the colour of details cut into it.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from .draw import Painter, ellipse_points, transform
from .palette import BLACK, FLOWER, LEAF, LEMON, WHITE, shade

SymbolFn = Callable[[Painter, float, float, float, tuple, tuple], None]


def _house(p: Painter, cx, cy, s, ink, cut) -> None:
    p.polygon(transform([[-0.5, -0.02], [0, -0.46], [0.5, -0.02]], cx, cy, s), ink)
    p.polygon(transform([[-0.36, -0.06], [0.36, -0.06], [0.36, 0.42], [-0.36, 0.42]], cx, cy, s), ink)
    p.polygon(transform([[-0.1, 0.12], [0.1, 0.12], [0.1, 0.42], [-0.1, 0.42]], cx, cy, s), cut)
    p.polygon(transform([[0.16, 0.04], [0.3, 0.04], [0.3, 0.16], [0.16, 0.16]], cx, cy, s), cut)


def _car(p: Painter, cx, cy, s, ink, cut) -> None:
    p.polygon(transform([[-0.5, 0.0], [-0.3, -0.04], [-0.16, -0.26], [0.18, -0.26], [0.32, -0.04],
                         [0.5, 0.0], [0.5, 0.2], [-0.5, 0.2]], cx, cy, s), ink)
    p.polygon(transform([[-0.12, -0.2], [0.0, -0.2], [0.0, -0.06], [-0.22, -0.06]], cx, cy, s), cut)
    p.polygon(transform([[0.05, -0.2], [0.15, -0.2], [0.25, -0.06], [0.05, -0.06]], cx, cy, s), cut)
    for wx in (-0.28, 0.28):
        p.circle(cx + wx * s, cy + 0.2 * s, 0.13 * s, BLACK)
        p.circle(cx + wx * s, cy + 0.2 * s, 0.05 * s, cut)


def _boat(p: Painter, cx, cy, s, ink, cut) -> None:
    p.polygon(transform([[-0.5, 0.16], [0.5, 0.16], [0.32, 0.42], [-0.34, 0.42]], cx, cy, s), ink)
    p.line(cx, cy - 0.46 * s, cx, cy + 0.16 * s, ink, 0.05 * s)
    p.polygon(transform([[0.04, -0.44], [0.4, 0.1], [0.04, 0.1]], cx, cy, s), ink)
    p.polygon(transform([[-0.04, -0.3], [-0.04, 0.1], [-0.34, 0.1]], cx, cy, s), ink)


def _horse(p: Painter, cx, cy, s, ink, cut) -> None:
    """A horseshoe: a thick U opening downwards, with nail holes."""
    outer = ellipse_points(cx, cy, 0.44 * s, 0.46 * s, 160, 380)
    inner = ellipse_points(cx, cy, 0.24 * s, 0.27 * s, 160, 380)[::-1]
    p.polygon(np.vstack([outer, inner]), ink)
    for angle in (185, 225, 270, 315, 355):
        a = math.radians(angle)
        p.circle(cx + 0.34 * s * math.cos(a), cy + 0.36 * s * math.sin(a), 0.035 * s, cut)


def _jewellery(p: Painter, cx, cy, s, ink, cut) -> None:
    """A cut gem: crown trapezoid over a pointed pavilion, with facet lines."""
    p.polygon(transform([[-0.26, -0.34], [0.26, -0.34], [0.5, -0.1], [0.0, 0.46], [-0.5, -0.1]], cx, cy, s), ink)
    w = 0.03 * s
    p.line(cx - 0.5 * s, cy - 0.1 * s, cx + 0.5 * s, cy - 0.1 * s, cut, w)
    for a, b in (((-0.26, -0.34), (-0.14, -0.1)), ((0.26, -0.34), (0.14, -0.1)),
                 ((-0.14, -0.1), (0.0, 0.46)), ((0.14, -0.1), (0.0, 0.46)), ((0.0, -0.34), (-0.14, -0.1)),
                 ((0.0, -0.34), (0.14, -0.1))):
        p.line(cx + a[0] * s, cy + a[1] * s, cx + b[0] * s, cy + b[1] * s, cut, w)


def _watch(p: Painter, cx, cy, s, ink, cut) -> None:
    p.rect(cx - 0.16 * s, cy - 0.5 * s, cx + 0.16 * s, cy + 0.5 * s, ink, 0.04 * s)
    p.circle(cx, cy, 0.34 * s, ink)
    p.circle(cx, cy, 0.26 * s, cut)
    p.line(cx, cy, cx, cy - 0.2 * s, ink, 0.05 * s)
    p.line(cx, cy, cx + 0.14 * s, cy + 0.06 * s, ink, 0.05 * s)


def _holiday(p: Painter, cx, cy, s, ink, cut) -> None:
    """A palm tree on an island."""
    p.polygon(ellipse_points(cx, cy + 0.44 * s, 0.46 * s, 0.12 * s, 180, 360), ink)
    trunk = np.array([[0.05, 0.4], [0.08, 0.15], [0.04, -0.1], [-0.04, -0.28]]) * s + [cx, cy]
    p.polyline(trunk, ink, 0.08 * s, closed=False)
    top = (cx - 0.04 * s, cy - 0.28 * s)
    for angle in (200, 235, 305, 340, 270):
        a = math.radians(angle)
        leaf = ellipse_points(0, 0, 0.26 * s, 0.07 * s)
        rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        p.polygon(leaf @ rot.T + [top[0] - 0.24 * s * math.cos(a), top[1] - 0.24 * s * math.sin(a)], ink)


def _cube_icon(p: Painter, cx, cy, s, ink) -> None:
    h = s / 2
    top = [[cx, cy - h], [cx + h * 0.87, cy - h / 2], [cx, cy], [cx - h * 0.87, cy - h / 2]]
    left = [[cx - h * 0.87, cy - h / 2], [cx, cy], [cx, cy + h], [cx - h * 0.87, cy + h / 2]]
    right = [[cx, cy], [cx + h * 0.87, cy - h / 2], [cx + h * 0.87, cy + h / 2], [cx, cy + h]]
    p.polygon(np.array(top), shade(ink, 1.5))
    p.polygon(np.array(left), ink)
    p.polygon(np.array(right), shade(ink, 0.7))


def _die1(p: Painter, cx, cy, s, ink, cut) -> None:
    _cube_icon(p, cx, cy, 0.8 * s, ink)


def _die2(p: Painter, cx, cy, s, ink, cut) -> None:
    _cube_icon(p, cx - 0.24 * s, cy + 0.1 * s, 0.5 * s, ink)
    _cube_icon(p, cx + 0.24 * s, cy - 0.1 * s, 0.5 * s, ink)


def _lemon(p: Painter, cx, cy, s, ink, cut) -> None:
    body = ellipse_points(cx, cy, 0.36 * s, 0.27 * s)
    p.polygon(body, LEMON)
    p.polygon(transform([[-0.34, -0.07], [-0.5, 0.0], [-0.34, 0.07]], cx, cy, s), LEMON)
    p.polygon(transform([[0.34, -0.07], [0.5, 0.0], [0.34, 0.07]], cx, cy, s), LEMON)
    p.polyline(body, ink, 0.04 * s)
    p.polygon(ellipse_points(cx + 0.08 * s, cy - 0.32 * s, 0.14 * s, 0.06 * s), LEAF)


def _flower(p: Painter, cx, cy, s, ink, cut) -> None:
    for k in range(6):
        a = math.radians(60 * k)
        p.circle(cx + 0.26 * s * math.cos(a), cy + 0.26 * s * math.sin(a), 0.2 * s, FLOWER)
    p.circle(cx, cy, 0.16 * s, LEMON)


def _arrow(p: Painter, cx, cy, s, ink, cut) -> None:
    p.polygon(transform([[-0.48, -0.12], [0.08, -0.12], [0.08, -0.34], [0.5, 0.0], [0.08, 0.34],
                         [0.08, 0.12], [-0.48, 0.12]], cx, cy, s), ink)


def _discard(p: Painter, cx, cy, s, ink, cut) -> None:
    p.circle(cx, cy, 0.48 * s, ink)
    p.circle(cx, cy, 0.36 * s, cut)
    d = 0.22 * s
    p.line(cx - d, cy - d, cx + d, cy + d, ink, 0.12 * s)
    p.line(cx - d, cy + d, cx + d, cy - d, ink, 0.12 * s)


def _guest(p: Painter, cx, cy, s, ink, cut) -> None:
    p.circle(cx, cy - 0.22 * s, 0.2 * s, ink)
    p.polygon(ellipse_points(cx, cy + 0.48 * s, 0.4 * s, 0.48 * s, 180, 360), ink)


def _clock(p: Painter, cx, cy, s, ink, cut) -> None:
    p.circle(cx, cy, 0.48 * s, ink)
    p.circle(cx, cy, 0.38 * s, cut)
    p.line(cx, cy, cx, cy - 0.28 * s, ink, 0.08 * s)
    p.line(cx, cy, cx + 0.2 * s, cy, ink, 0.08 * s)


def _star(p: Painter, cx, cy, s, ink, cut) -> None:
    angles = np.radians(np.arange(10) * 36 - 90)
    radii = np.where(np.arange(10) % 2 == 0, 0.5, 0.21) * s
    p.polygon(np.stack([cx + radii * np.cos(angles), cy + radii * np.sin(angles)], 1), ink)


def _coin(p: Painter, cx, cy, s, ink, cut) -> None:
    for k, dy in enumerate((0.24, 0.08, -0.08)):
        p.polygon(ellipse_points(cx, cy + dy * s, 0.44 * s, 0.2 * s), shade(ink, 0.8 + 0.1 * k))
        p.polyline(ellipse_points(cx, cy + dy * s, 0.44 * s, 0.2 * s), shade(ink, 0.5), 0.03 * s)


SYMBOLS: dict[str, SymbolFn] = {
    "house": _house, "car": _car, "boat": _boat, "horse": _horse, "jewellery": _jewellery,
    "watch": _watch, "holiday": _holiday,
    "die1": _die1, "die2": _die2, "lemon": _lemon, "flower": _flower, "arrow": _arrow,
    "discard": _discard, "guest": _guest,
    "clock": _clock, "star": _star, "coin": _coin,
}


def draw_symbol(p: Painter, name: str, cx: float, cy: float, size: float, ink, cut=WHITE) -> None:
    """Draw the symbol ``name`` (a key of :data:`SYMBOLS`) filling a ``size`` mm square."""
    SYMBOLS[name](p, cx, cy, size, ink, cut)
