"""Where the players sit around the table, and each player's own frame in front of them.

The camera stands on the near side (DESIGN.md: y runs away from the camera's bottom edge).
Players sit clockwise seen from above, starting on the near side: near, left, far, right;
a fifth player shares the near side. A seat's frame has its origin at the centre of the
player's area, x along the table edge from the player's left to right, y away from the player
towards the middle of the table; parts a player owns face that player.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: Seats in clockwise order seen from above, by number of players.
SEATING = {
    2: ("near", "far"),
    3: ("near", "left", "far"),
    4: ("near", "left", "far", "right"),
    5: ("near_left", "left", "far", "right", "near_right"),
}
#: Turn of a seat's frame against the table frame (degrees counter-clockwise seen from above).
SIDE_TURN = {"near": 0.0, "near_left": 0.0, "near_right": 0.0, "left": -90.0, "far": 180.0, "right": 90.0}


@dataclass(frozen=True)
class Seat:
    """One player's area: its centre in the table frame (mm) and its turn (degrees)."""

    side: str
    x_mm: float
    y_mm: float
    turn_deg: float

    def place(self, x: float, y: float) -> tuple[float, float]:
        """Seat-frame point (mm) -> table-frame point (mm)."""
        a = math.radians(self.turn_deg)
        c, s = math.cos(a), math.sin(a)
        return (self.x_mm + c * x - s * y, self.y_mm + s * x + c * y)


def seats(players: int, table_mm: tuple[float, float], inset_mm: tuple[float, float]) -> list[Seat]:
    """The seats of ``players`` around a table ``table_mm`` (width, depth) mm.

    ``inset_mm`` = (near/far inset, left/right inset): how far each area's centre lies from its
    table edge.
    """
    w, d = table_mm
    ny, sx = inset_mm
    centres = {"near": (w / 2, ny), "near_left": (w * 0.3, ny), "near_right": (w * 0.7, ny),
               "far": (w / 2, d - ny), "left": (sx, d / 2), "right": (w - sx, d / 2)}
    return [Seat(side, *centres[side], SIDE_TURN[side]) for side in SEATING[players]]
