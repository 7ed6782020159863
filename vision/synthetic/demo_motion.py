"""How the demo acts a move out on the table: which parts stay, which move, where the hand goes.

For one :class:`~.demo_script.Step`, the layouts of the state before and after the move are
compared part by part (by ident): parts equal in both stay still for the whole step and are
drawn once; the others are drawn every frame. When exactly one part arrives (a card put down),
a hand carries it from where it lay (the face-down pile, a spare joker) or, when it came from
the player's hand, from the player's area, to its place; a move that changes several parts
(a column handed out, cards collected) is done by a hand working over them. The table switches
to the state after the move at the first ``release`` frame, as the timeline's truth says.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, replace

from . import games
from .games import dolcevita as _dv_scene
from .games import ligretto as _lig_scene
from ..seats import seats
from .kinds import size
from .layout import Layout, Placed
from .demo_script import Step

#: Where a player's arm starts and where the hand rests off the table: beyond their table
#: edge, in mm (the shoulder stays put while the hand moves).
SHOULDER_MM = 450.0
REST_MM = 220.0
#: Hand height above the table while travelling, and above a piece while holding it (mm).
HOVER_MM = 60.0
GRIP_MM = 6.0
#: How high a carried piece is lifted halfway (mm).
LIFT_MM = 30.0
#: Radius of the hand's circling while it works over several parts (mm).
WORK_RADIUS_MM = 15.0
#: Parameters that still show on a face-down part (its back).
BACK_LOOK = ("back", "border", "colour")
#: Ident suffix of a carried piece whose ident a part still in place holds.
HELD = "~held"
#: How far a player's area lies in from their table edge, per game (near/far, sides; mm).
SEAT_INSET_MM = {"dolcevita": _dv_scene.SEAT_INSET_MM,
                 "ligretto": (_lig_scene.SEAT_HALF_MM[1] + _lig_scene.RIM_MM,) * 2}
DEFAULT_INSET_MM = (100.0, 100.0)
#: Outward direction of each seat's table edge.
_OUTWARD = {"near": (0.0, -1.0), "near_left": (0.0, -1.0), "near_right": (0.0, -1.0), "far": (0.0, 1.0),
            "left": (-1.0, 0.0), "right": (1.0, 0.0)}


@dataclass(frozen=True)
class Arm:
    """One player's arm in a frame: fingers at ``target_mm``, ``height_mm`` above the table,
    coming from the shoulder at ``shoulder_mm`` (all table frame, mm)."""

    player: int
    target_mm: tuple[float, float]
    height_mm: float
    shoulder_mm: tuple[float, float]


@dataclass(frozen=True, eq=False)
class FramePlan:
    """What one frame shows: ``static`` (drawn once per step), ``moving`` parts drawn over it,
    and the arms over the table."""

    static: Layout
    moving: tuple[Placed, ...]
    arms: tuple[Arm, ...]


def _ease(t: float) -> float:
    t = min(1.0, max(0.0, t))
    return t * t * (3.0 - 2.0 * t)


def _lerp(a, b, t: float) -> tuple[float, float]:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def _look(part: Placed) -> tuple:
    """The parameters that decide how ``part`` looks: a face-down part shows only its back."""
    params = part.params
    if dict(params).get("back"):
        params = tuple((k, v) for k, v in params if k in BACK_LOOK)
    return params


def _key(part: Placed) -> str:
    return repr((part.kind, _look(part)))


def _pose(part: Placed) -> tuple:
    """What decides where and how ``part`` shows (its ident draws its jitter)."""
    return (part.kind, _look(part), part.x_mm, part.y_mm, part.rotation_deg, part.z_order, part.height_mm,
            part.ident)


def _unmatched(parts: list[Placed], others: list[Placed]) -> list[Placed]:
    """Parts with no part of the same kind and look among ``others`` (each matched once)."""
    pool = Counter(_key(c) for c in others)
    out = []
    for c in parts:
        k = _key(c)
        if pool[k] > 0:
            pool[k] -= 1
        else:
            out.append(c)
    return out


def _top(part: Placed) -> float:
    return part.height_mm + size(part.kind, part.params)[2]


class StepMotion:
    """The frames of one step, as parts and arms.

    Parameters
    ----------
    game : str
    step : Step
    """

    def __init__(self, game: str, step: Step):
        self.step = step
        before = games.scene_for(game, step.before).layout
        after = before if step.after is step.before else games.scene_for(game, step.after).layout
        table = before.table_mm
        later = {c.ident: _pose(c) for c in after.components}
        same = after.table_mm == table
        common = [c for c in before.components if same and c.ident and later.get(c.ident) == _pose(c)]
        kept = {c.ident for c in common}
        self.static = Layout(after.table_mm, tuple(common), after.marker_mm)
        self.before_only = tuple(c for c in before.components if c.ident not in kept)
        self.after_only = tuple(c for c in after.components if c.ident not in kept)
        arrivals = _unmatched(list(self.after_only), list(self.before_only))
        departures = _unmatched(list(self.before_only), list(self.after_only))
        seat = seats(step.before.players, table, SEAT_INSET_MM.get(game, DEFAULT_INSET_MM))[step.hand_player]
        ox, oy = _OUTWARD[seat.side]
        w, d = table
        edge = {"near": (seat.x_mm, 0.0), "far": (seat.x_mm, d), "left": (0.0, seat.y_mm),
                "right": (w, seat.y_mm)}.get(seat.side, (seat.x_mm, 0.0))
        self.shoulder = (edge[0] + ox * SHOULDER_MM, edge[1] + oy * SHOULDER_MM)
        self.rest = (edge[0] + ox * REST_MM, edge[1] + oy * REST_MM)
        home = (seat.x_mm, seat.y_mm)
        self.piece: Placed | None = None
        self.departure: Placed | None = None
        if len(arrivals) == 1 and len(departures) <= 1:
            self.piece = arrivals[0]
            self.departure = departures[0] if departures else None
            src = self.departure or replace(self.piece, x_mm=home[0], y_mm=home[1], height_mm=0.0,
                                            rotation_deg=seat.turn_deg)
            self.source = (src.x_mm, src.y_mm, src.rotation_deg, src.height_mm)
            self.target = (self.piece.x_mm, self.piece.y_mm)
        else:
            changed = departures + arrivals or list(self.before_only + self.after_only)
            n = len(changed)
            self.target = (sum(c.x_mm for c in changed) / n, sum(c.y_mm for c in changed) / n) if n else home
            self.source = (*self.target, 0.0, 0.0)
        self._carrying = tuple(c for c in self.before_only if c is not self.departure)
        #: While carried, the piece keeps its ident (so its jitter does not jump when it lies
        #: down) unless a part that is still in place has that ident (positional idents).
        taken = {c.ident for c in self._carrying}
        self._held_ident = None if self.piece is None or self.piece.ident not in taken else self.piece.ident + HELD

    def _arm(self, xy, height: float) -> tuple[Arm, ...]:
        return (Arm(self.step.hand_player, (float(xy[0]), float(xy[1])), float(height), self.shoulder),)

    def plan(self, frame: int) -> FramePlan:
        """Parts and arms of ``frame`` (a frame of this step)."""
        phase, i, n = self.step.phase_at(frame)
        t = _ease((i + 1) / n)
        src_xy = self.source[:2]
        grip = (_top(self.piece) if self.piece is not None else 0.0) + GRIP_MM
        if phase == "reach":
            height = grip + (HOVER_MM - grip) * (1.0 - t)
            return FramePlan(self.static, self.before_only, self._arm(_lerp(self.rest, src_xy, t), height))
        if phase == "carry":
            if self.piece is None:
                a = 2.0 * math.pi * t
                r = WORK_RADIUS_MM
                xy = (self.target[0] + r * math.sin(a), self.target[1] + r * (1 - math.cos(a)))
                return FramePlan(self.static, self.before_only, self._arm(xy, GRIP_MM))
            x0, y0, r0, h0 = self.source
            p = self.piece
            turn = (p.rotation_deg - r0 + 180.0) % 360.0 - 180.0
            xy = _lerp((x0, y0), self.target, t)
            h = h0 + (p.height_mm - h0) * t + LIFT_MM * math.sin(math.pi * t)
            held = replace(p, x_mm=xy[0], y_mm=xy[1], rotation_deg=r0 + turn * t, height_mm=h,
                           ident=self._held_ident or p.ident)
            return FramePlan(self.static, self._carrying + (held,), self._arm(xy, _top(held) + GRIP_MM))
        if phase == "release":
            return FramePlan(self.static, self.after_only, self._arm(self.target, grip + (HOVER_MM - grip) * t / 2))
        if phase == "withdraw":
            height = grip + (HOVER_MM - grip) * (0.5 + t / 2)
            return FramePlan(self.static, self.after_only, self._arm(_lerp(self.target, self.rest, t), height))
        return FramePlan(self.static, self.after_only, ())
