"""Ligretto: Das Brettspiel's parts: board sections, two-colour cards, jokers, player boards."""

from __future__ import annotations

import numpy as np

from .draw import Painter, blank_texture, rounded_rect
from .palette import BOARD_DARK, INK, LIGRETTO, WHITE, shade
from .symbols import draw_symbol

CELL_MM = 30.0
#: A card is a hair smaller than the spaces it covers, as a real card is.
CARD_GAP_MM = 1.0
CARD_MM = (2 * CELL_MM - CARD_GAP_MM, CELL_MM - CARD_GAP_MM)
JOKER_MM = (CELL_MM - CARD_GAP_MM, CELL_MM - CARD_GAP_MM)
PLAYER_BOARD_MM = (90.0, 130.0)
TOKEN_MM = (16.0, 10.0)  # diameter, height
SECTION_RIM_MM = 4.0
COLOURS = tuple(LIGRETTO)
BORDERS = ("solid", "double", "dashed", "dotted")
#: Cell letter -> colour name in a section's ``cells`` rows ('.' is no space).
CELL_LETTERS = {"r": "red", "y": "yellow", "g": "green", "b": "blue"}
_RADIUS_MM = 2.0
_BORDER_INSET_MM = 2.0
_BORDER_WIDTH_MM = 1.1
_SECTION_BASE = (200, 210, 214)
_BACK = (120, 60, 20)


def section_size(params: dict) -> tuple[float, float]:
    """Width and height (mm) of a board section with these ``cells`` rows."""
    rows = params["cells"]
    return (len(rows[0]) * CELL_MM + 2 * SECTION_RIM_MM, len(rows) * CELL_MM + 2 * SECTION_RIM_MM)


def section(params: dict, ppm: float) -> np.ndarray:
    """A board section: coloured square spaces on a rim; start marks as white rings."""
    w, h = section_size(params)
    img = blank_texture(w, h, ppm)
    p = Painter(img, ppm)
    r0 = SECTION_RIM_MM
    for i, row in enumerate(params["cells"]):
        for j, letter in enumerate(row):
            if letter != ".":
                x0, y0 = r0 + j * CELL_MM, r0 + i * CELL_MM
                p.rect(x0 - r0, y0 - r0, x0 + CELL_MM + r0, y0 + CELL_MM + r0, _SECTION_BASE, r0)
    for i, row in enumerate(params["cells"]):
        for j, letter in enumerate(row):
            if letter != ".":
                x0, y0 = r0 + j * CELL_MM, r0 + i * CELL_MM
                p.rect(x0 + 0.7, y0 + 0.7, x0 + CELL_MM - 0.7, y0 + CELL_MM - 0.7, LIGRETTO[CELL_LETTERS[letter]], 1.5)
    for i, j in params["starts"]:
        cx, cy = r0 + (j + 0.5) * CELL_MM, r0 + (i + 0.5) * CELL_MM
        p.ring(cx, cy, CELL_MM * 0.3, WHITE, 1.6)
        p.circle(cx, cy, 2.0, WHITE)
    return img


def section_anchors(params: dict) -> dict[str, tuple[float, float]]:
    """Centres of the spaces ``cell{row}{col}`` (row 0 at the top), local frame."""
    w, h = section_size(params)
    return {f"cell{i}{j}": (SECTION_RIM_MM + (j + 0.5) * CELL_MM - w / 2, h / 2 - SECTION_RIM_MM - (i + 0.5) * CELL_MM)
            for i, row in enumerate(params["cells"]) for j, letter in enumerate(row) if letter != "."}


def _border(p: Painter, w: float, h: float, style: str) -> None:
    """The player's border line just inside the card's edge."""
    d = _BORDER_INSET_MM
    outline = rounded_rect(d, d, w - d, h - d, _RADIUS_MM / 2)
    if style == "solid":
        p.polyline(outline, INK, _BORDER_WIDTH_MM * 1.4)
    elif style == "double":
        p.polyline(rounded_rect(d - 0.9, d - 0.9, w - d + 0.9, h - d + 0.9, _RADIUS_MM / 2), INK, 0.6)
        p.polyline(outline, INK, 0.6)
    elif style == "dashed":
        p.dashed(outline, INK, _BORDER_WIDTH_MM, 3.0, 2.0)
    else:
        p.dashed(outline, INK, _BORDER_WIDTH_MM, 0.0, 2.2)


def _back(w: float, h: float, ppm: float, style: str) -> np.ndarray:
    img = blank_texture(w, h, ppm)
    p = Painter(img, ppm)
    p.rect(0, 0, w, h, WHITE, _RADIUS_MM)
    p.rect(3.2, 3.2, w - 3.2, h - 3.2, _BACK, _RADIUS_MM)
    _border(p, w, h, style)
    p.text("L", w / 2, h / 2, min(w, h) * 0.45, WHITE)
    return img


def card(params: dict, ppm: float) -> np.ndarray:
    """A two-colour card, ``colours[0]`` on its left half, framed by the player's border."""
    w, h = CARD_MM
    if params["back"]:
        return _back(w, h, ppm, params["border"])
    img = blank_texture(w, h, ppm)
    p = Painter(img, ppm)
    p.rect(0, 0, w, h, WHITE, _RADIUS_MM)
    inset = _BORDER_INSET_MM + 1.6
    left, right = params["colours"]
    p.rect(inset, inset, w / 2 - 0.6, h - inset, LIGRETTO[left], 1.0)
    p.rect(w / 2 + 0.6, inset, w - inset, h - inset, LIGRETTO[right], 1.0)
    _border(p, w, h, params["border"])
    return img


def joker(params: dict, ppm: float) -> np.ndarray:
    """A joker tile: four colour quadrants and a white star, with the player's border."""
    w, h = JOKER_MM
    img = blank_texture(w, h, ppm)
    p = Painter(img, ppm)
    p.rect(0, 0, w, h, WHITE, _RADIUS_MM)
    inset = _BORDER_INSET_MM + 1.6
    mid_x, mid_y = w / 2, h / 2
    quads = ((inset, inset, mid_x, mid_y), (mid_x, inset, w - inset, mid_y),
             (inset, mid_y, mid_x, h - inset), (mid_x, mid_y, w - inset, h - inset))
    for (x0, y0, x1, y1), name in zip(quads, ("red", "yellow", "blue", "green")):
        p.rect(x0, y0, x1, y1, LIGRETTO[name])
    draw_symbol(p, "star", mid_x, mid_y, w * 0.62, WHITE)
    draw_symbol(p, "star", mid_x, mid_y, w * 0.4, INK)
    _border(p, w, h, params["border"])
    return img


def player_board(params: dict, ppm: float) -> np.ndarray:
    """A player board: the player's border as a thick frame and two card slots."""
    w, h = PLAYER_BOARD_MM
    img = blank_texture(w, h, ppm)
    p = Painter(img, ppm)
    p.rect(0, 0, w, h, shade(_SECTION_BASE, 1.05), 3)
    _border(p, w, h, params["border"])
    p.text("LIGRETTO", w / 2, 14, 7, BOARD_DARK)
    for k in range(2):
        y0 = 30 + k * 45
        x0 = (w - CARD_MM[0]) / 2
        p.rect(x0, y0, x0 + CARD_MM[0], y0 + CARD_MM[1], shade(_SECTION_BASE, 0.85), _RADIUS_MM)
    return img
