"""Where Dolce Vita's cards can lie: the zones description made into spots in table mm.

A *spot* is the part of the table where one card shows: the visible strip of a shingled
card (a column's card shows its bottom, a number card under a column its top, a fanned card
in front of a player its left part). The classifier reads each spot as a card, ``empty``
(no card begins there), or ``unknown`` (a hand or an object covers it).

The layout is data (``data/dolcevita.zones.json``, overridable by a profile's
``zones.dolcevita``): columns centred on the table's width, slots at a fixed step, number
cards under each column and players' fanned rows whose step shrinks when many cards must
fit in the room they have.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from ...rules.dolcevita.catalogue import COLUMNS, SLOTS
from ..seats import Seat
from .common import ZonesError, card_quad_mm

#: Groups of spots; each group allows its own labels (see :mod:`.dolcevita`).
SLOT, UNDER, GOODS, MONEY = "slot", "under", "goods", "money"


@dataclass(frozen=True)
class Zones:
    """The Dolce Vita layout (see ``data/dolcevita.zones.json`` for each field)."""

    marker_mm: float
    luxury_mm: tuple[float, float]
    number_mm: tuple[float, float]
    column_pitch_mm: float
    slot0_y_mm: float
    slot_step_mm: float
    under_top_mm: float
    under_depth_mm: float
    under_step_mm: float
    under_max: int
    seat_width_mm: float
    hold_step_mm: float
    hold_max: int
    goods_row_mm: float
    money_row_mm: float
    seats: Mapping[str, Mapping[str, Any]]
    seating: Mapping[str, tuple[str, ...]]
    table_mm_choices: tuple[tuple[float, float], ...]

    def __post_init__(self) -> None:
        for name in ("marker_mm", "column_pitch_mm", "slot_step_mm", "under_depth_mm", "under_step_mm",
                     "seat_width_mm", "hold_step_mm"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
                raise ZonesError(f"dolcevita zone field {name!r} must be a positive number of mm, got {value!r}")
        for name in ("luxury_mm", "number_mm"):
            value = getattr(self, name)
            if not isinstance(value, (list, tuple)) or len(value) != 2 or not all(
                    isinstance(v, (int, float)) and v > 0 for v in value):
                raise ZonesError(f"dolcevita zone field {name!r} must be [width, height] in mm, got {value!r}")
            object.__setattr__(self, name, (float(value[0]), float(value[1])))
        for name in ("under_max", "hold_max"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ZonesError(f"dolcevita zone field {name!r} must be a whole number >= 1, got {value!r}")
        try:
            choices = tuple((float(w), float(d)) for w, d in self.table_mm_choices)
        except (TypeError, ValueError):
            raise ZonesError(f"dolcevita zone field 'table_mm_choices' must be a list of [width, depth] mm, "
                             f"got {self.table_mm_choices!r}") from None
        object.__setattr__(self, "table_mm_choices", choices)
        for players, sides in self.seating.items():
            unknown = [s for s in sides if s not in self.seats]
            if unknown:
                raise ZonesError(f"dolcevita zones: seating {players} names unknown seats {unknown}")

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Zones:
        names = cls.__dataclass_fields__
        missing = sorted(set(names) - set(data))
        if missing:
            raise ZonesError(f"dolcevita zones lack field(s) {missing}")
        return cls(**{k: data[k] for k in names})

    # --- the places -------------------------------------------------------------------

    def column_x(self, table_mm: tuple[float, float], column: int) -> float:
        return table_mm[0] / 2 + (column - (COLUMNS - 1) / 2) * self.column_pitch_mm

    def slot_y(self, slot: int) -> float:
        return self.slot0_y_mm + slot * self.slot_step_mm

    def seats_for(self, players: int, table_mm: tuple[float, float]) -> list[Seat]:
        """The seats of ``players`` players, in player order."""
        sides = self.seating.get(str(players))
        if sides is None:
            raise ZonesError(f"dolcevita zones have no seating for {players} players")
        w, d = table_mm
        out = []
        for side in sides:
            s = self.seats[side]
            out.append(Seat(side, s["x"][0] * w + s["x"][1], s["y"][0] * d + s["y"][1], float(s["turn_deg"])))
        return out

    def seats_for_sides(self, sides, table_mm: tuple[float, float]) -> list[Seat]:
        """The seats called ``sides`` (any of the zones' seats)."""
        w, d = table_mm
        return [Seat(side, self.seats[side]["x"][0] * w + self.seats[side]["x"][1],
                     self.seats[side]["y"][0] * d + self.seats[side]["y"][1], float(self.seats[side]["turn_deg"]))
                for side in sides]

    def display_mm(self, table_mm: tuple[float, float]) -> np.ndarray:
        """Corners (4, 2) mm of the display with the number cards under it: every column's
        slots and the deepest fan of number cards below them."""
        half = self.luxury_mm[0] / 2
        x0, x1 = self.column_x(table_mm, 0) - half, self.column_x(table_mm, COLUMNS - 1) + half
        y0 = self.under_top_mm - self.under_depth_mm
        y1 = self.slot_y(SLOTS - 1) + self.luxury_mm[1] / 2
        return np.array([[x0, y1], [x1, y1], [x1, y0], [x0, y0]], np.float64)

    def seat_area_mm(self, seat: Seat) -> np.ndarray:
        """Corners (4, 2) mm of the room a seat's fanned goods and money take."""
        h = self.luxury_mm[1] / 2
        rows = (self.goods_row_mm - h, self.goods_row_mm + h, self.money_row_mm - h, self.money_row_mm + h)
        y0, y1 = min(rows), max(rows)
        half = self.seat_width_mm / 2
        return np.array([seat.place(x, y) for x, y in ((-half, y1), (half, y1), (half, y0), (-half, y0))])

    def seating_fits(self, players: int, table_mm: tuple[float, float]) -> bool:
        """Whether the seats of ``players`` leave the display free on a table this size (a
        seating whose cards would lie on the display is not what the table shows)."""
        display = self.display_mm(table_mm).astype(np.float32)
        for seat in self.seats_for(players, table_mm):
            overlap, _ = cv2.intersectConvexConvex(display, self.seat_area_mm(seat).astype(np.float32))
            if overlap > 0:
                return False
        return True

    @staticmethod
    def fan_step(n: int, room: float, card: float, step: float) -> float:
        """Step between n fanned cards that must fit in ``room`` mm (the twin's rule)."""
        return step if n < 2 else min(step, (room - card) / (n - 1))

    def fixed_count(self, group: str) -> int:
        """The most cards a fan of ``group`` holds at its full step."""
        room, card, step = self._fan(group)
        return 1 + int(math.floor((room - card) / step + 1e-9))

    def _fan(self, group: str) -> tuple[float, float, float]:
        if group == UNDER:
            return self.under_depth_mm, self.number_mm[1], self.under_step_mm
        return self.seat_width_mm, self.luxury_mm[0], self.hold_step_mm

    def slot_quad(self, table_mm: tuple[float, float], column: int, slot: int) -> np.ndarray:
        """The visible bottom strip of the card in ``slot`` of ``column`` (mm, crop order)."""
        w, h = self.luxury_mm
        show = min(self.slot_step_mm / h, 1.0)
        return card_quad_mm((self.column_x(table_mm, column), self.slot_y(slot)), (w, h), 0.0,
                            (0.0, 1.0 - show, 1.0, 1.0))

    def under_quad(self, table_mm: tuple[float, float], column: int, k: int, n: int) -> np.ndarray:
        """The visible top strip of the k-th of ``n`` number cards under ``column`` (k may be n:
        the place just beyond the last card)."""
        w, h = self.number_mm
        step = self.fan_step(n, self.under_depth_mm, h, self.under_step_mm)
        centre = (self.column_x(table_mm, column), self.under_top_mm - h / 2 - k * step)
        return card_quad_mm(centre, (w, h), 0.0, (0.0, 0.0, 1.0, min(step / h, 1.0)))

    def hold_quad(self, seat: Seat, group: str, k: int, n: int) -> np.ndarray:
        """The visible left strip of the k-th of ``n`` fanned cards in a seat's row."""
        w, h = self.luxury_mm
        step = self.fan_step(n, self.seat_width_mm, w, self.hold_step_mm)
        row = self.goods_row_mm if group == GOODS else self.money_row_mm
        local = card_quad_mm((-self.seat_width_mm / 2 + w / 2 + k * step, row), (w, h), 0.0,
                             (0.0, 0.0, min(step / w, 1.0), 1.0))
        quad = np.array([seat.place(x, y) for x, y in local])
        return quad


def in_play_area(quad_mm: np.ndarray, table_mm: tuple[float, float]) -> bool:
    """Whether a spot lies on the play area (a spot off the table is never read)."""
    return bool(np.all((quad_mm >= -1e-6) & (quad_mm <= np.asarray(table_mm) + 1e-6)))
