"""Dolce Vita's cards: luxury goods, money, number cards (BGRA textures)."""

from __future__ import annotations

import numpy as np

from .draw import Painter, blank_texture
from .palette import GOODS, GREY, MONEY, PAPER, PLAYER, WHITE, shade
from .symbols import draw_symbol

LUXURY_MM = (44.0, 68.0)
NUMBER_MM = (57.0, 88.0)
GOOD_NAMES = tuple(GOODS)
LUXURY_VALUES = tuple(range(100_000, 800_000, 100_000))
MONEY_VALUES = (100_000, 200_000)
NUMBER_VALUES = tuple(range(1, 7))
CARD_RADIUS_MM = 2.5
_BACK = (110, 50, 30)
#: Pip positions of a die face, in fractions of the pip box (x, y).
_PIPS = {1: [(0.5, 0.5)], 2: [(0.2, 0.2), (0.8, 0.8)], 3: [(0.2, 0.2), (0.5, 0.5), (0.8, 0.8)],
         4: [(0.2, 0.2), (0.8, 0.2), (0.2, 0.8), (0.8, 0.8)],
         5: [(0.2, 0.2), (0.8, 0.2), (0.5, 0.5), (0.2, 0.8), (0.8, 0.8)],
         6: [(0.2, 0.2), (0.8, 0.2), (0.2, 0.5), (0.8, 0.5), (0.2, 0.8), (0.8, 0.8)]}


def _money_text(value: int) -> str:
    return f"{value:,}".replace(",", ".")


def _back(w: float, h: float, ppm: float, colour) -> np.ndarray:
    img = blank_texture(w, h, ppm)
    p = Painter(img, ppm)
    p.rect(0, 0, w, h, colour, CARD_RADIUS_MM)
    p.frame(2.5, 2.5, w - 2.5, h - 2.5, shade(colour, 1.8), 0.8, 2)
    p.text("DV", w / 2, h / 2, min(w, h) * 0.25, shade(colour, 1.9))
    return img


#: The corner index of luxury and money cards: a box (mm, from the card's bottom-left) holding
#: the value's big digit. It lies in the strip a shingled column card shows (its bottom
#: 30 mm) and in the strip a fanned card in front of a player shows (its left 23-30 mm), so
#: every card names its value where the camera can read it, as a playing card's index does.
INDEX_BOX_MM = (2.0, 26.0, 21.0, 2.0)  # x0, height above the bottom edge, x1, margin below
INDEX_DIGIT_MM = 17.0


def _index(p: Painter, digit: str, colour, w: float, h: float) -> None:
    """The big corner index at the bottom left, and a small copy of it at the top left."""
    x0, above, x1, below = INDEX_BOX_MM
    p.rect(x0, h - above, x1, h - below, colour, 2.0)
    p.text(digit, (x0 + x1) / 2, h - (above + below) / 2, INDEX_DIGIT_MM, WHITE, 0.2)


def luxury_card(params: dict, ppm: float) -> np.ndarray:
    """A luxury card: coloured band with the value, the good's symbol, and the corner index
    (the hundred-thousands digit, big, on the good's colour) with a small symbol beside it."""
    w, h = LUXURY_MM
    if params["back"]:
        return _back(w, h, ppm, _BACK)
    img = blank_texture(w, h, ppm)
    p = Painter(img, ppm)
    colour = GOODS[params["good"]]
    p.rect(0, 0, w, h, PAPER, CARD_RADIUS_MM)
    p.rect(0, 0, w, 13, colour, CARD_RADIUS_MM)
    p.rect(0, 8, w, 13, colour)
    p.text(_money_text(params["value"]), w / 2, 6.5, 4.2, WHITE)
    draw_symbol(p, params["good"], w / 2, 28, 20, colour, PAPER)
    _index(p, str(params["value"] // 100_000), colour, w, h)
    draw_symbol(p, params["good"], 32.5, h - 14, 15, colour, PAPER)
    p.frame(0.6, 0.6, w - 0.6, h - 0.6, GREY, 0.5, CARD_RADIUS_MM)
    return img


def money_card(params: dict, ppm: float) -> np.ndarray:
    """A money card: green wash, a coin, the value, and the corner index on money green."""
    w, h = LUXURY_MM
    if params["back"]:
        return _back(w, h, ppm, _BACK)
    img = blank_texture(w, h, ppm)
    p = Painter(img, ppm)
    p.rect(0, 0, w, h, shade(MONEY, 1.9), CARD_RADIUS_MM)
    p.rect(3, 3, w - 3, h - 3, shade(MONEY, 1.6), 2)
    p.text(_money_text(params["value"]), w / 2, 8, 4.2, shade(MONEY, 0.5))
    draw_symbol(p, "coin", w / 2, 28, 20, (40, 170, 214))
    _index(p, str(params["value"] // 100_000), MONEY, w, h)
    draw_symbol(p, "coin", 32.5, h - 14, 15, (40, 170, 214))
    p.frame(0.6, 0.6, w - 0.6, h - 0.6, GREY, 0.5, CARD_RADIUS_MM)
    return img


#: Number cards shingle under a column showing only their top 13-24 mm: the value is
#: printed big in both top corners (white, or dark on a light player colour) within the top 18 mm.
NUMBER_INDEX_MM = 15.0
NUMBER_INDEX_Y_MM = 10.0


#: A player colour at least this bright (0-255 luma) gets dark corner digits, not white ones.
LIGHT_COLOUR = 150.0


def _luminance(bgr) -> float:
    b, g, r = bgr
    return 0.114 * b + 0.587 * g + 0.299 * r


def number_card(params: dict, ppm: float) -> np.ndarray:
    """A number card: the player's colour full bleed, the value big in both top corners,
    a white panel with the big digit, pips."""
    w, h = NUMBER_MM
    colour = PLAYER[params["colour"]]
    if params["back"]:
        return _back(w, h, ppm, shade(colour, 0.6))
    img = blank_texture(w, h, ppm)
    p = Painter(img, ppm)
    value = params["value"]
    p.rect(0, 0, w, h, colour, CARD_RADIUS_MM)
    ink = WHITE if _luminance(colour) < LIGHT_COLOUR else shade(colour, 0.3)
    for cx in (12.0, w - 12.0):
        p.text(str(value), cx, NUMBER_INDEX_Y_MM, NUMBER_INDEX_MM, ink, 0.22)
    p.rect(6, 21, w - 6, 59, WHITE, 4)
    p.text(str(value), w / 2, 40, 25, colour, 0.18)
    box = (10.0, 62.0, w - 10.0, h - 4.0)
    bw, bh = box[2] - box[0], box[3] - box[1]
    for fx, fy in _PIPS[value]:
        p.circle(box[0] + fx * bw, box[1] + fy * bh, 2.6, WHITE)
    return img
