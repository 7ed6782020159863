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


def luxury_card(params: dict, ppm: float) -> np.ndarray:
    """A luxury card: coloured band with the value, the good's symbol, big hundred-thousands digit."""
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
    draw_symbol(p, params["good"], w / 2, 33, 27, colour, PAPER)
    p.circle(w / 2, h - 11, 8, colour)
    p.text(str(params["value"] // 100_000), w / 2, h - 11, 9, WHITE)
    p.frame(0.6, 0.6, w - 0.6, h - 0.6, GREY, 0.5, CARD_RADIUS_MM)
    return img


def money_card(params: dict, ppm: float) -> np.ndarray:
    """A money card: green wash, stacked coins, the value and its big digit."""
    w, h = LUXURY_MM
    if params["back"]:
        return _back(w, h, ppm, _BACK)
    img = blank_texture(w, h, ppm)
    p = Painter(img, ppm)
    p.rect(0, 0, w, h, shade(MONEY, 1.9), CARD_RADIUS_MM)
    p.rect(3, 3, w - 3, h - 3, shade(MONEY, 1.6), 2)
    p.text(_money_text(params["value"]), w / 2, 8, 4.2, shade(MONEY, 0.5))
    draw_symbol(p, "coin", w / 2, 32, 26, (40, 170, 214))
    p.rect(w / 2 - 9, h - 19, w / 2 + 9, h - 3, MONEY, 2)
    p.text(str(params["value"] // 100_000), w / 2, h - 11, 9, WHITE)
    p.frame(0.6, 0.6, w - 0.6, h - 0.6, GREY, 0.5, CARD_RADIUS_MM)
    return img


def number_card(params: dict, ppm: float) -> np.ndarray:
    """A number card: the player's colour full bleed, a white panel with the big digit, pips."""
    w, h = NUMBER_MM
    colour = PLAYER[params["colour"]]
    if params["back"]:
        return _back(w, h, ppm, shade(colour, 0.6))
    img = blank_texture(w, h, ppm)
    p = Painter(img, ppm)
    value = params["value"]
    p.rect(0, 0, w, h, colour, CARD_RADIUS_MM)
    p.rect(6, 6, w - 6, 54, WHITE, 4)
    p.text(str(value), w / 2, 30, 30, colour, 0.18)
    box = (10.0, 59.0, w - 10.0, h - 5.0)
    bw, bh = box[2] - box[0], box[3] - box[1]
    for fx, fy in _PIPS[value]:
        p.circle(box[0] + fx * bw, box[1] + fy * bh, 3.0, WHITE)
    for cx, cy in ((3.2, 3.6), (w - 3.2, 3.6)):
        p.text(str(value), cx, cy, 3.0, WHITE)
    return img
