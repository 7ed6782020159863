"""Print-and-play sheets: the same designs the renderer uses, at true size on A4 pages.

Parts are packed on shelves, each with a thin grey cut line; a part larger than the
printable area is turned, or else cut into numbered pieces along its long side.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from . import art_dolcevita as dv
from . import art_ligretto as lg
from .errors import SheetError
from .kinds import GAMES, kind, normalise_params

A4_MM = (210.0, 297.0)
DPI = 300
PX_PER_MM = DPI / 25.4
MARGIN_MM = 8.0
GAP_MM = 3.0
_CUT_GREY = (170, 170, 170)
#: Money cards of Dolce Vita: 17 in all; the split is not published (DESIGN.md): assumed.
MONEY_SPLIT = {100_000: 10, 200_000: 7}


@dataclass(frozen=True)
class Sheet:
    """The pages of one game's print-and-play set (BGR, 2480 x 3508 px each at 300 dpi)."""

    game: str
    pages: tuple[np.ndarray, ...]


def catalogue(game: str) -> list[tuple[str, dict]]:
    """The parts printed for ``game``, as (kind, params) pairs, from the rules' catalogues.

    Da Luigi: the marketplace, four strips, every guest card of the shipped deck (assumed:
    the real deck is not published; see docs/rules.md) and the 35 tiles. Dolce Vita: every
    luxury, money and number card. Ligretto: the sections of the shipped 3-4 player board
    (assumed), each player's 15 cards, 2 jokers and player board. Cubes and tokens are not
    printed.
    """
    from tableref.rules.daluigi.catalogue import load_deck
    from tableref.rules.ligretto.board import PRESETS
    from tableref.rules.ligretto.catalogue import CARD_COLOURS

    from .games.daluigi import guest_params
    from .games.ligretto import section_params

    if game == "daluigi":
        deck = load_deck()
        parts: list[tuple[str, dict]] = [("daluigi.marketplace", {})] + [("daluigi.strip", {})] * 4
        parts += [("daluigi.guest", guest_params(card_id, deck)) for card_id in sorted(deck.cards)]
        parts += [("daluigi.tile", {"side": "flower" if k < 18 else "lemon"}) for k in range(35)]
        return parts
    if game == "dolcevita":
        parts = [("dolcevita.luxury", {"good": g, "value": v}) for g in dv.GOOD_NAMES for v in dv.LUXURY_VALUES]
        parts += [("dolcevita.money", {"value": v}) for v, n in MONEY_SPLIT.items() for _ in range(n)]
        parts += [("dolcevita.number", {"colour": c, "value": v}) for c in dv.PLAYER for v in dv.NUMBER_VALUES]
        return parts
    if game == "ligretto":
        parts = [("ligretto.section", params) for params in section_params(PRESETS["three_four_player"])]
        for border in lg.BORDERS:
            parts += [("ligretto.card", {"colours": list(pair), "border": border}) for pair in CARD_COLOURS]
            parts += [("ligretto.joker", {"border": border})] * 2 + [("ligretto.player_board", {"border": border})]
        return parts
    raise SheetError(f"unknown game {game!r}: use one of {', '.join(GAMES)}")


def _pieces(texture: np.ndarray, max_w: int, max_h: int) -> list[np.ndarray]:
    """The texture, turned if that makes it fit, else cut into pieces along its long side."""
    h, w = texture.shape[:2]
    if w <= max_w and h <= max_h:
        return [texture]
    if h <= max_w and w <= max_h:
        return [np.ascontiguousarray(np.rot90(texture))]
    if w > h:
        texture = np.ascontiguousarray(np.rot90(texture))
        h, w = w, h
    if w > max_w:
        raise SheetError(f"a part of {w / PX_PER_MM:.0f} mm cannot be cut to fit an A4 page")
    n = math.ceil(h / max_h)
    step = math.ceil(h / n)
    return [texture[k * step:(k + 1) * step] for k in range(n)]


def print_sheet(game: str, parts: list[tuple[str, dict]] | None = None) -> Sheet:
    """Lay the parts of ``game`` (or the given ``parts``) out on A4 pages at 300 dpi.

    Raises
    ------
    SheetError
        Unknown game, or a part that cannot be cut to fit a page.
    """
    if game not in GAMES:
        raise SheetError(f"unknown game {game!r}: use one of {', '.join(GAMES)}")
    parts = catalogue(game) if parts is None else parts
    page_w, page_h = round(A4_MM[0] * PX_PER_MM), round(A4_MM[1] * PX_PER_MM)
    margin, gap = round(MARGIN_MM * PX_PER_MM), round(GAP_MM * PX_PER_MM)
    max_w, max_h = page_w - 2 * margin, page_h - 2 * margin
    pages: list[np.ndarray] = []
    page = None
    x = y = shelf = 0
    for name, params in parts:
        spec = kind(name)
        if spec.texture is None:
            raise SheetError(f"{name} is a solid: it cannot be printed")
        tex = spec.texture(dict(normalise_params(name, params)), PX_PER_MM)
        for piece in _pieces(tex, max_w, max_h):
            h, w = piece.shape[:2]
            if page is None or x + w > max_w:
                x, y, shelf = 0, y + shelf + (gap if page is not None else 0), 0
            if page is None or y + h > max_h:
                page = np.full((page_h, page_w, 3), 255, np.uint8)
                pages.append(page)
                x = y = shelf = 0
            _paste(page, piece, margin + x, margin + y)
            x += w + gap
            shelf = max(shelf, h)
    return Sheet(game, tuple(pages))


def _paste(page: np.ndarray, piece: np.ndarray, x: int, y: int) -> None:
    h, w = piece.shape[:2]
    roi = page[y:y + h, x:x + w]
    a = piece[..., 3:4].astype(np.float32) / 255.0
    roi[:] = (roi * (1 - a) + piece[..., :3] * a + 0.5).astype(np.uint8)
    cv2.rectangle(page, (x - 1, y - 1), (x + w, y + h), _CUT_GREY, 1)
