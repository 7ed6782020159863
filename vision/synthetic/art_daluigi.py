"""Da Luigi's printed parts: marketplace board, ristorante strip, guest cards, tiles.

Every function returns a BGRA texture at ``ppm`` pixels per millimetre; sizes are the
module constants (millimetres). ``*_anchors`` give where things lie on a part, in the
part's local frame (millimetres from its centre, x right, y towards its top edge).
"""

from __future__ import annotations

import numpy as np

from .draw import Painter, blank_texture
from .palette import BOARD_DARK, CARD_BACK, FOOD, GOLD, GREY, INK, PAPER, WHITE, shade
from .symbols import draw_symbol

CUBE_MM = 10.0
GUEST_MM = (57.0, 88.0)
TILE_MM = 24.0
MARKET_MM = (190.0, 270.0)
STRIP_MM = (450.0, 124.0)
#: The cloth bag, drawn as a squat cylinder: (diameter, height) mm and its colour.
BAG_MM = (90.0, 60.0)
BAG_COLOUR = (40, 46, 140)

#: Guest abilities (rulebook: "The Guests' Special Abilities") -> symbol.
ABILITIES = ("die1", "die2", "lemon", "flower", "arrow", "discard", "guest")
WAITING_TIMES = (60, 50, 40, 30, 20, 10)
CARD_RADIUS_MM = 3.0
_DISH_FIELD_MM = 14.0
_DISH_TOP_MM = 24.0
_DISH_PITCH_MM = 15.5
_MARKET_ROW_TOP_MM = 100.0
_MARKET_ROW_PITCH_MM = 42.0
_MARKET_FIELD_MM = (48.0, 38.0)
_MARKET_FIELD_LEFT_MM = 38.0
_STRIP_LEFT_MM = 22.0
_STRIP_SEGMENT_MM = 64.0
_STRIP_HEADER_MM = 28.0
_MARKET_COLOUR = (150, 196, 226)
_STRIP_COLOUR = (120, 170, 214)


def _local(size: tuple[float, float], x: float, y: float) -> tuple[float, float]:
    """Design millimetres (from the top-left, y down) -> local millimetres (from the centre, y up)."""
    return (x - size[0] / 2, size[1] / 2 - y)


def guest_card(params: dict, ppm: float) -> np.ndarray:
    """A guest card: dishes in the left column, points upper left, ability upper right,
    waiting time in the middle; or its back (``start`` cards have a green back)."""
    w, h = GUEST_MM
    img = blank_texture(w, h, ppm)
    p = Painter(img, ppm)
    if params["back"]:
        colour = (60, 110, 40) if params["start"] else CARD_BACK
        p.rect(0, 0, w, h, colour, CARD_RADIUS_MM)
        p.frame(3, 3, w - 3, h - 3, shade(colour, 1.6), 1.0, 2)
        p.text("DL", w / 2, h / 2, 14, shade(colour, 1.8))
        return img
    p.rect(0, 0, w, h, PAPER, CARD_RADIUS_MM)
    p.frame(0.8, 0.8, w - 0.8, h - 0.8, GREY, 0.6, CARD_RADIUS_MM)
    for k, dish in enumerate(params["dishes"]):
        x0, y0 = 3.0, _DISH_TOP_MM + k * _DISH_PITCH_MM
        p.rect(x0, y0, x0 + _DISH_FIELD_MM, y0 + _DISH_FIELD_MM, FOOD[dish], 1.5)
        p.frame(x0, y0, x0 + _DISH_FIELD_MM, y0 + _DISH_FIELD_MM, INK, 0.6, 1.5)
    p.circle(10, 10, 7.5, GOLD)
    p.ring(10, 10, 7.5, INK, 0.6)
    p.text(str(params["points"]), 10, 10, 8, INK)
    p.circle(w - 10, 10, 8, WHITE)
    p.ring(w - 10, 10, 8, INK, 0.6)
    draw_symbol(p, params["ability"], w - 10, 10, 12, INK)
    cx, cy = 37.0, 50.0
    draw_symbol(p, "clock", cx, cy - 14, 9, INK)
    p.text(str(params["wait"]), cx, cy, 11, INK)
    p.rect(20, h - 9, w - 4, h - 4, shade(PAPER, 0.85), 1.0)
    return img


def guest_anchors(params: dict) -> dict[str, tuple[float, float]]:
    """Centres of the dish fields (``dish0`` top ... ``dish3``) in the card's local frame."""
    half = _DISH_FIELD_MM / 2
    return {f"dish{k}": _local(GUEST_MM, 3.0 + half, _DISH_TOP_MM + k * _DISH_PITCH_MM + half)
            for k in range(len(params["dishes"]))}


def tile(params: dict, ppm: float) -> np.ndarray:
    """A round flower/lemon tile showing ``side``."""
    img = blank_texture(TILE_MM, TILE_MM, ppm)
    p = Painter(img, ppm)
    r = TILE_MM / 2
    flower = params["side"] == "flower"
    p.circle(r, r, r, (150, 210, 150) if flower else (200, 170, 120))
    p.ring(r, r, r - 0.8, WHITE, 0.8)
    draw_symbol(p, params["side"], r, r, TILE_MM * 0.72, INK)
    return img


def marketplace(params: dict, ppm: float) -> np.ndarray:
    """The marketplace: guest pile (red tent), discard field (blue), flower and lemon
    fields, then 4 rows of 3 market fields with the clock cost at the left."""
    w, h = MARKET_MM
    img = blank_texture(w, h, ppm)
    p = Painter(img, ppm)
    p.rect(0, 0, w, h, _MARKET_COLOUR, 4)
    p.frame(2, 2, w - 2, h - 2, BOARD_DARK, 1.2, 3)
    p.rect(5, 4, 66, 96, (50, 50, 190), 3)
    p.polygon(np.array([[10, 30], [35.5, 10], [61, 30]]), WHITE)
    p.text("GUESTS", 35.5, 60, 5, WHITE)
    p.rect(70, 4, 131, 96, (170, 100, 40), 3)
    p.text("OUT", 100.5, 50, 6, WHITE)
    for k, side in enumerate(("flower", "lemon")):
        y0 = 4 + k * 47
        p.rect(136, y0, 186, y0 + 45, WHITE, 3)
        p.frame(136, y0, 186, y0 + 45, BOARD_DARK, 0.8, 3)
        draw_symbol(p, side, 161, y0 + 22.5, 26, INK)
    fw, fh = _MARKET_FIELD_MM
    for row in range(4):
        y0 = _MARKET_ROW_TOP_MM + row * _MARKET_ROW_PITCH_MM
        for k in range(row):
            draw_symbol(p, "clock", 9 + (k % 2) * 13, y0 + 9 + (k // 2) * 14, 11, INK, _MARKET_COLOUR)
        if row == 0:
            p.text("0", 16, y0 + fh / 2, 9, INK)
        for col in range(3):
            x0 = _MARKET_FIELD_LEFT_MM + col * (fw + 2)
            p.rect(x0, y0, x0 + fw, y0 + fh, shade(_MARKET_COLOUR, 1.12), 2.5)
            p.frame(x0, y0, x0 + fw, y0 + fh, BOARD_DARK, 0.8, 2.5)
            for k in range(row + 1):
                cx = x0 + fw - 4 - k * 5.5
                p.rect(cx - 2, y0 + 2, cx + 2, y0 + 6, GREY, 0.5)
    return img


def marketplace_anchors(params: dict) -> dict[str, tuple[float, float]]:
    """Centres of the market fields ``field{row}{col}`` (row 1 at the top, col 1 at the left),
    the ``guest_pile``, ``discard``, ``flowers`` and ``lemons`` fields, local frame."""
    fw, fh = _MARKET_FIELD_MM
    out = {"guest_pile": _local(MARKET_MM, 35.5, 50.0), "discard": _local(MARKET_MM, 100.5, 50.0),
           "flowers": _local(MARKET_MM, 161, 26.5), "lemons": _local(MARKET_MM, 161, 73.5)}
    for row in range(4):
        for col in range(3):
            x = _MARKET_FIELD_LEFT_MM + col * (fw + 2) + fw / 2
            y = _MARKET_ROW_TOP_MM + row * _MARKET_ROW_PITCH_MM + fh / 2
            out[f"field{row + 1}{col + 1}"] = _local(MARKET_MM, x, y)
    return out


def strip(params: dict, ppm: float) -> np.ndarray:
    """A ristorante strip: time segments 60 ... 10 with a guest field below each, the
    fulfilled-orders corner at the left and the tile corner at the right."""
    w, h = STRIP_MM
    img = blank_texture(w, h, ppm)
    p = Painter(img, ppm)
    p.rect(0, 0, w, h, _STRIP_COLOUR, 3)
    p.frame(1.5, 1.5, w - 1.5, h - 1.5, BOARD_DARK, 1.0, 3)
    for k, minutes in enumerate(WAITING_TIMES):
        x0 = _STRIP_LEFT_MM + k * _STRIP_SEGMENT_MM
        p.rect(x0 + 1, 2.5, x0 + _STRIP_SEGMENT_MM - 1, _STRIP_HEADER_MM, shade(_STRIP_COLOUR, 0.7), 2)
        p.text(str(minutes), x0 + _STRIP_SEGMENT_MM / 2, 15, 12, WHITE)
        p.frame(x0 + 2, _STRIP_HEADER_MM + 2, x0 + _STRIP_SEGMENT_MM - 2, h - 3, shade(_STRIP_COLOUR, 0.6), 0.8, 3)
    p.text("OK", _STRIP_LEFT_MM / 2, h / 2, 6, INK)
    right = _STRIP_LEFT_MM + 6 * _STRIP_SEGMENT_MM
    draw_symbol(p, "lemon", (right + w) / 2, h / 2 - 14, 28, INK)
    draw_symbol(p, "arrow", (right + w) / 2, h / 2 + 20, 20, INK)
    return img


def strip_anchors(params: dict) -> dict[str, tuple[float, float]]:
    """Centres of the guest fields ``guest60`` ... ``guest10``, local frame."""
    w, h = STRIP_MM
    y = (_STRIP_HEADER_MM + h) / 2
    return {f"guest{m}": _local(STRIP_MM, _STRIP_LEFT_MM + (k + 0.5) * _STRIP_SEGMENT_MM, y)
            for k, m in enumerate(WAITING_TIMES)}
