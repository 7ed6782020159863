"""The catalogue of component kinds the renderer knows: size, shape, parameters, drawing.

A kind is ``flat`` (printed board, card or tile: a texture lying on a plane) or a solid
(``cube``, ``cylinder``: drawn in 3-D). Parameters are checked here, so a layout record
that names a kind can be validated before anything is drawn.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import cv2
import numpy as np

from . import art_daluigi as dl
from . import art_dolcevita as dv
from . import art_ligretto as lg
from .draw import Painter, blank_texture
from .errors import LayoutError
from .palette import BLACK, FOOD, WHITE

_REQUIRED = object()


@dataclass(frozen=True)
class Param:
    """One appearance parameter: its name, the values it may take, and its default."""

    name: str
    check: Callable[[Any], bool]
    expected: str
    default: Any = _REQUIRED
    convert: Callable[[Any], Any] = lambda v: v


@dataclass(frozen=True)
class Kind:
    """What the renderer knows about one kind of component.

    Attributes
    ----------
    name : str
        ``game.part``, e.g. ``daluigi.guest``.
    shape : str
        ``flat``, ``cube`` or ``cylinder``.
    params : tuple of Param
    size : callable params -> (width, depth, height) in mm
        Width along the part's x axis, depth along its y axis, and height (thickness).
    texture : callable (params, px_per_mm) -> BGRA texture, for flat kinds
    colour : callable params -> BGR, for solids
    anchors : callable params -> {name: (x, y)} in the part's local frame (mm), optional
    """

    name: str
    shape: str
    params: tuple[Param, ...]
    size: Callable[[Mapping], tuple[float, float, float]]
    texture: Callable[[dict, float], np.ndarray] | None = None
    colour: Callable[[Mapping], tuple[int, int, int]] | None = None
    anchors: Callable[[dict], dict[str, tuple[float, float]]] | None = field(default=None)


def _one_of(values) -> Callable[[Any], bool]:
    return lambda v: v in values


def _is_bool(v) -> bool:
    return isinstance(v, bool)


def _dishes_ok(v) -> bool:
    return isinstance(v, (tuple, list)) and 1 <= len(v) <= 4 and all(d in FOOD for d in v)


def _cells_ok(v) -> bool:
    if not isinstance(v, (tuple, list)) or not v or not all(isinstance(r, str) and r for r in v):
        return False
    return len({len(r) for r in v}) == 1 and all(c in lg.CELL_LETTERS or c == "." for r in v for c in r)


def _starts_ok(v) -> bool:
    return isinstance(v, (tuple, list)) and all(
        isinstance(s, (tuple, list)) and len(s) == 2 and all(isinstance(i, int) for i in s) for s in v)


def _pair_ok(v) -> bool:
    return isinstance(v, (tuple, list)) and len(v) == 2 and all(c in lg.COLOURS for c in v)


_BACK = Param("back", _is_bool, "true or false", False)
_BORDER = Param("border", _one_of(lg.BORDERS), f"one of {', '.join(lg.BORDERS)}")
_FLAT_MM = 0.4
_BOARD_MM = 2.0


def _flat(w: float, h: float, thickness: float = _FLAT_MM):
    return lambda params: (w, h, thickness)


def _marker_texture(params: dict, ppm: float) -> np.ndarray:
    """An ArUco marker of DICT_4X4_50 on white paper: 4x4 bits, a black border cell and a
    white quiet zone one cell wide all round (the paper is 8 cells wide)."""
    bits = cv2.aruco.generateImageMarker(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50),
                                         params["id"], MARKER_CELLS)
    cell = params["size_mm"] / MARKER_CELLS
    side = cell * (MARKER_CELLS + 2)
    img = blank_texture(side, side, ppm)
    p = Painter(img, ppm)
    p.rect(0, 0, side, side, WHITE)
    for i in range(MARKER_CELLS):
        for j in range(MARKER_CELLS):
            if bits[i, j] < 128:
                p.rect(cell * (j + 1), cell * (i + 1), cell * (j + 2), cell * (i + 2), BLACK)
    return img


#: Cells along a DICT_4X4_50 marker's side, black border included.
MARKER_CELLS = 6

KINDS: dict[str, Kind] = {k.name: k for k in (
    Kind("daluigi.marketplace", "flat", (), _flat(*dl.MARKET_MM, _BOARD_MM), dl.marketplace,
         anchors=dl.marketplace_anchors),
    Kind("daluigi.strip", "flat", (), _flat(*dl.STRIP_MM, _BOARD_MM), dl.strip, anchors=dl.strip_anchors),
    Kind("daluigi.guest", "flat", (
        Param("dishes", _dishes_ok, f"1 to 4 dishes from {', '.join(FOOD)}", convert=tuple),
        Param("points", _one_of(range(1, 6)), "a whole number 1..5"),
        Param("wait", _one_of(dl.WAITING_TIMES), "one of 60, 50, 40, 30, 20, 10"),
        Param("ability", _one_of(dl.ABILITIES), f"one of {', '.join(dl.ABILITIES)}"),
        Param("start", _is_bool, "true or false", False), _BACK),
        _flat(*dl.GUEST_MM), dl.guest_card, anchors=dl.guest_anchors),
    Kind("daluigi.cube", "cube", (Param("colour", _one_of(FOOD), f"one of {', '.join(FOOD)}"),),
         lambda p: (dl.CUBE_MM, dl.CUBE_MM, dl.CUBE_MM), colour=lambda p: FOOD[p["colour"]]),
    Kind("daluigi.bag", "cylinder", (), lambda p: (dl.BAG_MM[0], dl.BAG_MM[0], dl.BAG_MM[1]),
         colour=lambda p: dl.BAG_COLOUR),
    Kind("daluigi.tile", "flat", (Param("side", _one_of(("flower", "lemon")), "flower or lemon"),),
         _flat(dl.TILE_MM, dl.TILE_MM, _BOARD_MM), dl.tile),
    Kind("dolcevita.luxury", "flat", (
        Param("good", _one_of(dv.GOOD_NAMES), f"one of {', '.join(dv.GOOD_NAMES)}"),
        Param("value", _one_of(dv.LUXURY_VALUES), "100000, 200000, ... 700000"), _BACK),
        _flat(*dv.LUXURY_MM), dv.luxury_card),
    Kind("dolcevita.money", "flat", (Param("value", _one_of(dv.MONEY_VALUES), "100000 or 200000"), _BACK),
         _flat(*dv.LUXURY_MM), dv.money_card),
    Kind("dolcevita.number", "flat", (
        Param("colour", _one_of(tuple(dv.PLAYER)), f"one of {', '.join(dv.PLAYER)}"),
        Param("value", _one_of(dv.NUMBER_VALUES), "a whole number 1..6"), _BACK),
        _flat(*dv.NUMBER_MM), dv.number_card),
    Kind("ligretto.section", "flat", (
        Param("cells", _cells_ok, "rows of equal length made of r, y, g, b and '.'", convert=tuple),
        Param("starts", _starts_ok, "a list of [row, col] pairs", (),
              convert=lambda v: tuple(tuple(s) for s in v))),
        lambda p: (*lg.section_size(p), _BOARD_MM), lg.section, anchors=lg.section_anchors),
    Kind("ligretto.card", "flat", (
        Param("colours", _pair_ok, f"two of {', '.join(lg.COLOURS)}", convert=tuple), _BORDER, _BACK),
        _flat(*lg.CARD_MM), lg.card),
    Kind("ligretto.joker", "flat", (_BORDER,), _flat(*lg.JOKER_MM, _BOARD_MM), lg.joker),
    Kind("ligretto.player_board", "flat", (_BORDER,), _flat(*lg.PLAYER_BOARD_MM, _BOARD_MM), lg.player_board),
    Kind("ligretto.token", "cylinder", (), lambda p: (lg.TOKEN_MM[0], lg.TOKEN_MM[0], lg.TOKEN_MM[1]),
         colour=lambda p: (28, 28, 30)),
    Kind("table.marker", "flat", (
        Param("id", _one_of(range(4)), "0, 1, 2 or 3"),
        Param("size_mm", lambda v: isinstance(v, (int, float)) and v > 0, "a positive size in mm", convert=float)),
        lambda p: ((MARKER_CELLS + 2) / MARKER_CELLS * p["size_mm"],) * 2 + (0.1,), _marker_texture),
)}

GAMES = {"daluigi": "Da Luigi", "dolcevita": "Dolce Vita", "ligretto": "Ligretto: Das Brettspiel"}


def kind(name: str) -> Kind:
    """The :class:`Kind` called ``name``.

    Raises
    ------
    LayoutError
        No such kind.
    """
    try:
        return KINDS[name]
    except KeyError:
        raise LayoutError(f"unknown component kind {name!r}: use one of {', '.join(sorted(KINDS))}") from None


def normalise_params(name: str, params: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    """Check ``params`` against kind ``name``, fill defaults, and return them as sorted pairs.

    Raises
    ------
    LayoutError
        Unknown kind, unknown or missing parameter, or a value out of range; the message
        names the kind, the parameter, what was expected and what was given.
    """
    spec = kind(name)
    known = {p.name: p for p in spec.params}
    extra = sorted(set(params) - set(known))
    if extra:
        raise LayoutError(f"{name}: unknown parameter(s) {', '.join(extra)}; "
                          f"it takes {', '.join(known) or 'no parameters'}")
    out = {}
    for p in spec.params:
        if p.name not in params:
            if p.default is _REQUIRED:
                raise LayoutError(f"{name}: parameter {p.name!r} is missing: expected {p.expected}")
            value = p.default
        else:
            value = params[p.name]
        if isinstance(value, bool) and p.check is not _is_bool:
            raise LayoutError(f"{name}: parameter {p.name!r} must be {p.expected}, got {value!r}")
        if not p.check(value):
            raise LayoutError(f"{name}: parameter {p.name!r} must be {p.expected}, got {value!r}")
        out[p.name] = p.convert(value)
    if name == "ligretto.section":
        _check_starts(out)
    return tuple(sorted(out.items()))


def _check_starts(params: dict) -> None:
    cells = params["cells"]
    for i, j in params["starts"]:
        if not (0 <= i < len(cells) and 0 <= j < len(cells[0])) or cells[i][j] == ".":
            raise LayoutError(f"ligretto.section: start mark {[i, j]} is not on a space of the section")


@lru_cache(maxsize=512)
def texture(name: str, params: tuple[tuple[str, Any], ...], px_per_mm: float) -> np.ndarray:
    """The BGRA texture of a flat component (cached; read-only array).

    Returns
    -------
    ndarray of shape (H, W, 4), uint8, at ``px_per_mm``; row 0 is the part's top edge.
    """
    spec = kind(name)
    if spec.texture is None:
        raise LayoutError(f"{name} is a solid, it has no printed texture")
    img = spec.texture(dict(params), px_per_mm)
    img.setflags(write=False)
    return img


def size(name: str, params: tuple[tuple[str, Any], ...]) -> tuple[float, float, float]:
    """Width, depth and height in millimetres of a component of kind ``name``."""
    return kind(name).size(dict(params))


def anchors(name: str, params: Mapping[str, Any]) -> dict[str, tuple[float, float]]:
    """Named places on a part (fields, spaces) in its local frame: mm from its centre, y up."""
    spec = kind(name)
    normal = dict(normalise_params(name, params))
    return spec.anchors(normal) if spec.anchors else {}
