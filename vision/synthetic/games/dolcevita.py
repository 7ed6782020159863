"""Dolce Vita on the table: the grid of luxury cards, number cards, the players' cards.

As the rulebook lays it out: 63 luxury cards face up in 7 columns (the rulebook's "rows",
handed out left to right) of 9, the bottom card (slot 0) nearest the players; number cards
under the columns; each player's goods and money face up in front of them. The cards of a
column lie shingled, each higher card over the top of the one below, so every card shows its
bottom (the good's colour disc with the big value digit); number cards under a column lie
shingled towards the players, each showing its top (its colour and corner digits); a
player's cards lie in two fanned rows (goods, money), each showing its left part. Number cards
in hand and the cards in the box are not on the table.

Idents: ``dv.slot.C.S`` (column C from the left, slot S from the bottom), ``dv.under.C.K``
(the K-th number card of ``state.under[C]``), ``dv.goods.P.K`` and ``dv.money.P.K`` (the K-th
good or money card of player P); regions ``dv.slot.C.S`` for the slots, observed when empty.
"""

from __future__ import annotations

import numpy as np

from tableref.rules import dolcevita as rules
from tableref.rules.dolcevita.catalogue import COLUMNS, EMPTY, SLOTS, UNKNOWN, money_label, number_label, parse_card

from ..art_dolcevita import LUXURY_MM, NUMBER_MM
from tableref.calibration.layout import DEFAULT_MARKER_MM

from ..layout import Layout, Placed
from ..palette import PLAYER
from .scene import GameScene, Seen
from ...seats import seats

#: Play area (width, depth) in mm: with two players nobody sits at the sides.
TABLE_MM = {2: (620.0, 890.0), 3: (840.0, 890.0), 4: (840.0, 890.0), 5: (840.0, 890.0)}
#: Distance between neighbouring columns' centres (a number card and a gap).
COLUMN_PITCH_MM = 66.0
#: How far each higher card of a column lies beyond the one below (the part that shows).
SLOT_STEP_MM = 30.0
#: Centre of slot 0 and top edge of the number cards under the columns (y, mm).
SLOT0_Y_MM = 432.0
UNDER_TOP_MM = 388.0
#: Depth kept for the number cards under a column; more cards lie closer together.
UNDER_DEPTH_MM = 208.0
#: How far each number card under a column lies nearer the players than the one before.
UNDER_STEP_MM = 24.0
#: A player's area: centre inset from the table edge (near/far, sides), its width, the
#: step between fanned cards and the centres of the goods and money rows (seat frame, mm).
SEAT_INSET_MM = (95.0, 95.0)
SEAT_WIDTH_MM = 300.0
HOLD_STEP_MM = 30.0
GOODS_ROW_MM, MONEY_ROW_MM = 37.0, -37.0
#: Render colour of player i's number cards (the rules' fifth colour, white, is drawn purple).
RENDER_COLOURS = tuple(PLAYER)


def _luxury(label: str, x: float, y: float, turn: float, z: int, ident: str) -> Placed:
    kind, value = parse_card(label)
    if kind == "money":
        return Placed("dolcevita.money", {"value": value}, x, y, turn, z, ident=ident)
    return Placed("dolcevita.luxury", {"good": kind, "value": value}, x, y, turn, z, ident=ident)


def column_x(table_mm: tuple[float, float], column: int) -> float:
    """Centre x (mm) of column ``column``."""
    return table_mm[0] / 2 + (column - (COLUMNS - 1) / 2) * COLUMN_PITCH_MM


def slot_y(slot: int) -> float:
    """Centre y (mm) of slot ``slot`` of every column."""
    return SLOT0_Y_MM + slot * SLOT_STEP_MM


def _step(n: int, room: float, card: float, step: float) -> float:
    return step if n < 2 else min(step, (room - card) / (n - 1))


def layout(state: rules.State) -> tuple[Layout, dict[str, np.ndarray]]:
    """The table showing ``state``, and the slot regions (corners in mm, z = 0)."""
    table = TABLE_MM[state.players]
    parts: list[Placed] = []
    regions: dict[str, np.ndarray] = {}
    lw, lh = LUXURY_MM
    for c in range(COLUMNS):
        x = column_x(table, c)
        for s in range(SLOTS):
            y = slot_y(s)
            regions[f"dv.slot.{c}.{s}"] = np.array([[x - lw / 2, y - lh / 2, 0], [x + lw / 2, y - lh / 2, 0],
                                                     [x + lw / 2, y + lh / 2, 0], [x - lw / 2, y + lh / 2, 0]])
            if s < len(state.columns[c]):
                parts.append(_luxury(state.columns[c][s], x, y, 0.0, s, f"dv.slot.{c}.{s}"))
        under = state.under[c]
        step = _step(len(under), UNDER_DEPTH_MM, NUMBER_MM[1], UNDER_STEP_MM)
        for k, (player, value) in enumerate(under):
            parts.append(Placed("dolcevita.number", {"colour": RENDER_COLOURS[player], "value": value},
                                x, UNDER_TOP_MM - NUMBER_MM[1] / 2 - k * step, 0.0, k, ident=f"dv.under.{c}.{k}"))
    for p, seat in enumerate(seats(state.players, table, SEAT_INSET_MM)):
        for row, labels, name in ((GOODS_ROW_MM, state.goods[p], "goods"),
                                  (MONEY_ROW_MM, [money_label(v) for v in state.money[p]], "money")):
            step = _step(len(labels), SEAT_WIDTH_MM, lw, HOLD_STEP_MM)
            for k, label in enumerate(labels):
                x, y = seat.place(-SEAT_WIDTH_MM / 2 + lw / 2 + k * step, row)
                parts.append(_luxury(label, x, y, seat.turn_deg, k, f"dv.{name}.{p}.{k}"))
    return Layout(table, tuple(parts), DEFAULT_MARKER_MM), regions


def scene(state: rules.State) -> GameScene:
    """The :class:`GameScene` of a Dolce Vita state."""
    lay, regions = layout(state)
    return GameScene(rules.NAME, state, lay, regions)


def observation(scene: GameScene, seen: Seen) -> rules.Observation:
    """What a perfect recogniser reads: ``rules.observe(state)`` item by item, with
    ``"unknown"`` (confidence 0) for every card or empty slot it cannot see."""
    state = scene.state
    items = []

    def add(ok: bool, label: str, where: str) -> None:
        items.append(rules.Item(label, where, 1.0) if ok else rules.Item(UNKNOWN, where, 0.0))

    for c in range(COLUMNS):
        for s in range(SLOTS):
            ident = f"dv.slot.{c}.{s}"
            if s < len(state.columns[c]):
                add(seen.part(ident), state.columns[c][s], f"column:{c}:slot:{s}")
            else:
                add(seen.region(ident), EMPTY, f"column:{c}:slot:{s}")
        for k, (player, value) in enumerate(state.under[c]):
            add(seen.part(f"dv.under.{c}.{k}"), number_label(player, value), f"column:{c}:under")
    for p in range(state.players):
        for k, label in enumerate(state.goods[p]):
            add(seen.part(f"dv.goods.{p}.{k}"), label, f"player:{p}")
        for k, value in enumerate(state.money[p]):
            add(seen.part(f"dv.money.{p}.{k}"), money_label(value), f"player:{p}")
    return rules.Observation(tuple(items))
