"""Where Da Luigi's pieces can lie: the zones description made into spots in table mm.

A *spot* is a small box of the table where one thing shows: one cube's place on a market
field, in a supply row or on a guest's order field; a guest card's points, waiting time or
ability mark; a strip's time-segment header; one tile's place; the left edge of one card of
a shingled pile. The spot classifier reads each one (:mod:`.daluigi_labels`).

The layout is data (``data/daluigi.zones.json``, overridable by a profile's ``zones.daluigi``):
per number of players the play area, the marketplace's centre and the seats; everything a
player owns lies in the seat's frame (:class:`~tableref.vision.seats.Seat`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...rules.daluigi.catalogue import FIELDS, MAX_DISHES, ROWS, SLOTS, row_of
from ..seats import Seat
from .common import ZonesError, card_quad_mm, load_zones

#: Spot groups (each allows its own labels, see :mod:`.daluigi_labels`).
CUBE, DISH, POINTS, WAIT, ABILITY, TILE, EDGE, HEADER = ("cube", "dish", "points", "wait", "ability", "tile",
                                                          "edge", "header")
#: The spots of one guest card, in this order: its dish fields, then its three marks.
CARD_GROUPS = (DISH,) * MAX_DISHES + (POINTS, WAIT, ABILITY)
#: Groups whose spots hold a cube (10 mm tall: the camera sees its middle away from its
#: footprint, :mod:`tableref.vision.parallax`): cut ``cube_lift_mm`` above the table.
LIFTED = frozenset({CUBE, DISH})
#: The most ``cube_lift_mm`` the zones may give (mm).
MAX_LIFT_MM = 50.0


@dataclass(frozen=True)
class Spot:
    """One spot: the observation place it belongs to, its index there, its group, its box."""

    place: str
    index: int
    group: str
    quad_mm: np.ndarray


def _pair(value, name: str) -> tuple[float, float]:
    if (not isinstance(value, (list, tuple)) or len(value) != 2
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)):
        raise ZonesError(f"daluigi zone field {name!r} must be two numbers [x, y] or [width, height] mm, got {value!r}")
    return float(value[0]), float(value[1])


@dataclass(frozen=True)
class Zones:
    """The Da Luigi layout (see ``data/daluigi.zones.json`` for each field)."""

    data: Mapping[str, Any]

    def __post_init__(self) -> None:
        d = self.data
        needed = ("marker_mm", "tables", "market_fields", "field_spots", "cube_box_mm", "guest_mm", "guest_fields",
                  "header_y_mm", "header_box_mm", "dishes", "dish_box_mm", "points", "ability", "wait",
                  "mark_box_mm", "wait_box_mm", "supply", "tiles", "tile_box_mm", "card_row_y_mm", "served",
                  "hand", "revealed_x_mm", "edge_box_mm")
        missing = [k for k in needed if k not in d]
        if missing:
            raise ZonesError(f"daluigi zones lack field(s) {missing}")
        if len(d["market_fields"]) != FIELDS or len(d["guest_fields"]) != SLOTS or len(d["dishes"]) != MAX_DISHES:
            raise ZonesError(f"daluigi zones need {FIELDS} market_fields, {SLOTS} guest_fields and {MAX_DISHES} "
                             f"dishes, got {len(d['market_fields'])}, {len(d['guest_fields'])}, {len(d['dishes'])}")
        by_row = d.get("field_spots_by_row")
        if by_row is not None and (not isinstance(by_row, (list, tuple)) or len(by_row) != ROWS or not all(
                isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= len(d["field_spots"]) for n in by_row)):
            raise ZonesError(f"daluigi zones: field_spots_by_row must give, for each of the {ROWS} market rows, how "
                             f"many of the {len(d['field_spots'])} field_spots to read (1..{len(d['field_spots'])}), "
                             f"got {by_row!r}")
        lift = d.get("cube_lift_mm", 0.0)
        if not isinstance(lift, (int, float)) or isinstance(lift, bool) or not 0 <= lift <= MAX_LIFT_MM:
            raise ZonesError(f"daluigi zones: cube_lift_mm must be a number of mm from 0 to {MAX_LIFT_MM:g} (how high "
                             f"above the table a cube's middle lies), got {lift!r}")
        for name in ("cube_box_mm", "guest_mm", "header_box_mm", "dish_box_mm", "points", "ability", "wait",
                     "mark_box_mm", "wait_box_mm", "tile_box_mm", "edge_box_mm"):
            _pair(d[name], name)
        for players, entry in d["tables"].items():
            seats = entry.get("seats", ()) if isinstance(entry, Mapping) else ()
            if not str(players).isdigit() or len(seats) != int(players):
                raise ZonesError(f"daluigi zones: tables[{players!r}] needs table_mm, market and one seat per player")
            _pair(entry.get("table_mm"), f"tables.{players}.table_mm")
            _pair(entry.get("market"), f"tables.{players}.market")

    @property
    def marker_mm(self) -> float:
        return float(self.data["marker_mm"])

    @property
    def table_mm_choices(self) -> tuple[tuple[float, float], ...]:
        """The distinct play-area sizes, in the order first listed."""
        out: list[tuple[float, float]] = []
        for entry in self.data["tables"].values():
            size = _pair(entry["table_mm"], "table_mm")
            if size not in out:
                out.append(size)
        return tuple(out)

    def player_counts(self, table_mm: tuple[float, float]) -> tuple[int, ...]:
        """Numbers of players laid out on a play area of ``table_mm`` (nearest size)."""
        sizes = {int(n): _pair(e["table_mm"], "table_mm") for n, e in self.data["tables"].items()}
        best = min(sizes.values(), key=lambda s: abs(s[0] - table_mm[0]) + abs(s[1] - table_mm[1]))
        return tuple(sorted(n for n, s in sizes.items() if s == best))

    def market_grid(self) -> tuple[tuple[int, int], ...]:
        """Each market field's (row, column) in the marketplace's grid: the rank of its centre's
        y (from the top, +y) and x among the fields' (to the nearest mm)."""
        centres = [(round(float(x)), round(float(y))) for x, y in self.data["market_fields"]]
        xs, ys = sorted({x for x, _ in centres}), sorted({y for _, y in centres}, reverse=True)
        return tuple((ys.index(y), xs.index(x)) for x, y in centres)

    def seats(self, players: int) -> list[Seat]:
        entry = self.data["tables"].get(str(players))
        if entry is None:
            raise ZonesError(f"daluigi zones have no layout for {players} players")
        return [Seat(str(p), float(x), float(y), float(t)) for p, (x, y, t) in enumerate(entry["seats"])]

    # --- spots ---------------------------------------------------------------------------

    def spots_to_image(self, view, spots: Sequence[Spot]) -> np.ndarray:
        """The spots' quads in image px (N, 4, 2) as ``view`` (a
        :class:`~.common.TableView`) sees them: a cube's place (:data:`LIFTED`) raised
        ``cube_lift_mm`` above the table, where a cube's middle shows; the rest on the table."""
        lift = float(self.data.get("cube_lift_mm", 0.0))
        return view.quads_to_image([s.quad_mm for s in spots], [lift if s.group in LIFTED else 0.0 for s in spots])

    @staticmethod
    def box(seat: Seat, x: float, y: float, size) -> np.ndarray:
        """Corners (4, 2) mm of a box of ``size`` centred on seat-frame (x, y), upright for the seat."""
        return card_quad_mm(seat.place(x, y), _pair(size, "size"), seat.turn_deg)

    def market_spots(self, players: int) -> list[Spot]:
        """The cube places of each market field: the first ``field_spots_by_row[row - 1]`` of
        ``field_spots`` (all of them when the zones do not say). In the twin's layout a row-4
        field's fourth die lies above its row; on fields of rows 1-3 that place's box also
        catches the edge of the row's first die, so it is not read there (a fourth die on a
        filled row-3 field, against the rules, then goes unseen)."""
        mx, my = self.data["tables"][str(players)]["market"]
        table = Seat("market", float(mx), float(my), 0.0)
        spots = self.data["field_spots"]
        by_row = self.data.get("field_spots_by_row") or [len(spots)] * ROWS
        out = []
        for f, (fx, fy) in enumerate(self.data["market_fields"]):
            for k, (dx, dy) in enumerate(spots[:int(by_row[row_of(f) - 1])]):
                out.append(Spot(f"market:{f}", k, CUBE, self.box(table, fx + dx, fy + dy, self.data["cube_box_mm"])))
        return out

    def supply_spots(self, p: int, seat: Seat) -> list[Spot]:
        s = self.data["supply"]
        out = []
        for k in range(int(s["per_row"]) * int(s["rows"])):
            r, c = divmod(k, int(s["per_row"]))
            x, y = s["x0"] + c * s["pitch"], s["y0"] + r * s["row_pitch"]
            out.append(Spot(f"supply:{p}", k, CUBE, self.box(seat, x, y, self.data["cube_box_mm"])))
        return out

    def card_spots(self, place: str, seat: Seat, cx: float, cy: float) -> list[Spot]:
        """The spots of a guest card lying at seat-frame (cx, cy): dish fields, points, wait, ability."""
        d = self.data
        out = [Spot(place, k, DISH, self.box(seat, cx + dx, cy + dy, d["dish_box_mm"]))
               for k, (dx, dy) in enumerate(d["dishes"])]
        for k, (group, size) in enumerate(((POINTS, d["mark_box_mm"]), (WAIT, d["wait_box_mm"]),
                                           (ABILITY, d["mark_box_mm"]))):
            dx, dy = d[group]
            out.append(Spot(place, MAX_DISHES + k, group, self.box(seat, cx + dx, cy + dy, size)))
        return out

    def slot_spots(self, p: int, seat: Seat, s: int) -> list[Spot]:
        fx, fy = self.data["guest_fields"][s]
        return self.card_spots(f"slot:{p}:{s}", seat, fx, fy)

    def header_spots(self, p: int, seat: Seat) -> list[Spot]:
        y = self.data["header_y_mm"]
        return [Spot(f"strip:{p}", s, HEADER, self.box(seat, fx, y, self.data["header_box_mm"]))
                for s, (fx, _) in enumerate(self.data["guest_fields"])]

    def tile_spots(self, p: int, seat: Seat) -> list[Spot]:
        t = self.data["tiles"]
        out = []
        for k in range(int(t["per_column"]) * int(t["columns"])):
            c, r = divmod(k, int(t["per_column"]))
            x = t["x0"] if c == 0 else t["beside_x"] + c * t["pitch"]
            y = (r - (int(t["per_column"]) - 1) / 2) * t["pitch"]
            out.append(Spot(f"tiles:{p}", k, TILE, self.box(seat, x, y, self.data["tile_box_mm"])))
        return out

    @staticmethod
    def fan_step(n: int, room: float, card: float, step: float) -> float:
        """Step between n shingled cards that must fit in ``room`` mm (the twin's rule)."""
        return step if n < 2 else min(step, (room - card) / (n - 1))

    def full_step_count(self, pile: str) -> int:
        """The most cards of ``pile`` (``served`` or ``hand``) that lie at the full step."""
        f = self.data[pile]
        return 1 + int((f["room"] - self.data["guest_mm"][0]) // f["step"])

    def edge_spots(self, pile: str, place: str, seat: Seat, n: int, count: int) -> list[Spot]:
        """Boxes on the left edges of the first ``count`` of ``n`` shingled cards of ``pile``."""
        f = self.data[pile]
        gw = self.data["guest_mm"][0]
        step = self.fan_step(n, f["room"], gw, f["step"])
        y = self.data["card_row_y_mm"]
        return [Spot(place, k, EDGE, self.box(seat, f["x0"] - gw / 2 + k * step, y, self.data["edge_box_mm"]))
                for k in range(count)]

    def revealed_spots(self, seat: Seat) -> list[Spot]:
        return self.card_spots("revealed", seat, self.data["revealed_x_mm"], self.data["card_row_y_mm"])


def load_daluigi_zones(overrides: Mapping[str, Any] | None = None) -> Zones:
    """The Da Luigi zones (``data/daluigi.zones.json``) with a profile's overrides."""
    return Zones(load_zones("daluigi", overrides))


def zones_for(profile) -> Zones:
    """The zones with ``profile``'s ``zones.daluigi`` overrides (the shipped ones without)."""
    overrides = None
    if profile is not None and profile.zones is not None:
        overrides = profile.zones.get("daluigi")
    return load_daluigi_zones(overrides)
