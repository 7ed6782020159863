"""The Da Luigi spot classifier's labels, and which labels each group of spots allows.

``cube:C`` a food cube of colour C; ``field:C`` an empty order field printed in colour C;
``points:N``, ``wait:M``, ``ability:A`` a guest card's marks; ``tile:flower``/``tile:lemon``;
``edge`` the left edge of a card of a shingled pile; ``strip`` a ristorante strip's time
segment header; ``blank`` nothing of these; ``unknown`` covered by a hand or an object.
"""

from __future__ import annotations

from ...rules.daluigi.catalogue import ABILITIES, COLOURS, POINTS_RANGE, SEGMENTS
from .daluigi_zones import ABILITY, CUBE, DISH, EDGE, HEADER, POINTS, TILE, WAIT

BLANK, UNKNOWN = "blank", "unknown"
CUBE_LABELS = tuple(f"cube:{c}" for c in COLOURS)
FIELD_LABELS = tuple(f"field:{c}" for c in COLOURS)
POINTS_LABELS = tuple(f"points:{n}" for n in range(POINTS_RANGE[0], POINTS_RANGE[1] + 1))
WAIT_LABELS = tuple(f"wait:{m}" for m in SEGMENTS)
ABILITY_LABELS = tuple(f"ability:{a}" for a in ABILITIES)
TILE_LABELS = ("tile:flower", "tile:lemon")
EDGE_LABEL, STRIP_LABEL = "edge", "strip"

LABELS: tuple[str, ...] = (CUBE_LABELS + FIELD_LABELS + POINTS_LABELS + WAIT_LABELS + ABILITY_LABELS + TILE_LABELS
                           + (EDGE_LABEL, STRIP_LABEL, BLANK, UNKNOWN))

#: Labels each group allows, ``blank`` and ``unknown`` last.
ALLOWED: dict[str, tuple[str, ...]] = {
    CUBE: CUBE_LABELS + (BLANK, UNKNOWN),
    DISH: CUBE_LABELS + FIELD_LABELS + (BLANK, UNKNOWN),
    POINTS: POINTS_LABELS + (BLANK, UNKNOWN),
    WAIT: WAIT_LABELS + (BLANK, UNKNOWN),
    ABILITY: ABILITY_LABELS + (BLANK, UNKNOWN),
    TILE: TILE_LABELS + (BLANK, UNKNOWN),
    EDGE: (EDGE_LABEL, BLANK, UNKNOWN),
    HEADER: (STRIP_LABEL, BLANK, UNKNOWN),
}
