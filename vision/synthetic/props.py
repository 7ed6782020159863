"""Things on the table that are not game parts: a mug, a phone, a pen, and players' hands."""

from __future__ import annotations

import numpy as np

from .palette import shade
from .solids import hand, mug, pen, phone

DISTRACTORS = ("mug", "phone", "pen")
#: Skin tones (BGR), light to dark; each hand varies its tone a little.
SKIN_TONES = ((172, 196, 236), (142, 176, 226), (112, 150, 204), (86, 118, 172), (62, 88, 132), (46, 64, 98))
#: How far outside the play area an arm starts (mm).
_ARM_REACH_MM = 320.0
#: How far around the play area a distractor may stand (mm).
_DISTRACTOR_RIM_MM = 90.0


def distractor(rng: np.random.Generator, label: int, table_mm, eye_xy) -> tuple[str, object, np.ndarray, tuple]:
    """A random mug, phone or pen near or on the play area: (kind, solid, footprint, pose)."""
    w, d = table_mm
    name = DISTRACTORS[int(rng.integers(len(DISTRACTORS)))]
    xy = (float(rng.uniform(-_DISTRACTOR_RIM_MM, w + _DISTRACTOR_RIM_MM)),
          float(rng.uniform(-_DISTRACTOR_RIM_MM, d + _DISTRACTOR_RIM_MM)))
    yaw = float(rng.uniform(0, 360))
    if name == "mug":
        colour = tuple(int(c) for c in rng.integers(30, 240, 3))
        solid, foot = mug(label, xy, yaw, colour, rng, eye_xy)
    elif name == "phone":
        solid, foot = phone(label, xy, yaw, rng)
    else:
        solid, foot = pen(label, xy, yaw, rng)
    return f"distractor.{name}", solid, foot, (xy[0], xy[1], yaw, 0.0)


SIDES = ("near", "left", "right")


def arm_entry(side: str, table_mm, target_xy, offset_mm: float = 0.0) -> tuple[float, float]:
    """Where an arm reaching for ``target_xy`` from ``side`` of the table starts (mm)."""
    w, _ = table_mm
    tx, ty = target_xy
    if side == "near":
        return (tx + offset_mm, -_ARM_REACH_MM)
    if side == "left":
        return (-_ARM_REACH_MM, ty + offset_mm)
    return (w + _ARM_REACH_MM, ty + offset_mm)


def reaching_hand(rng: np.random.Generator, label: int, table_mm, target_xy) -> tuple[object, np.ndarray, tuple]:
    """A random hand reaching from the near, left or right side towards ``target_xy``."""
    side = SIDES[int(rng.integers(len(SIDES)))]
    entry = arm_entry(side, table_mm, target_xy, float(rng.uniform(-150, 150)))
    tone = np.array(SKIN_TONES[int(rng.integers(len(SKIN_TONES)))], np.float64) * rng.uniform(0.92, 1.08)
    skin = tuple(int(min(255, c)) for c in tone)
    sleeve = shade(tuple(int(c) for c in rng.integers(20, 230, 3)), 1.0)
    height = float(rng.uniform(3, 60))
    solid, hull = hand(label, target_xy, entry, skin, sleeve, height)
    return solid, hull, (float(target_xy[0]), float(target_xy[1]), 0.0, height)
