"""``tableref bench``: speed and accuracy figures, each naming what it was measured on.

An area (``rules``, later ``render``, ``recognition``, ``live``) is a function that returns a
list of :class:`Figure`.  The command prints them as a table for people, or as one JSON object.
"""

from __future__ import annotations

import platform
from dataclasses import dataclass

import os


@dataclass(frozen=True)
class Figure:
    """One measured number: ``area``/``name`` = ``value`` ``unit``, measured on ``measured_on``."""

    area: str
    name: str
    value: float
    unit: str
    measured_on: str

    def __post_init__(self) -> None:
        if not self.measured_on:
            raise ValueError(f"figure {self.area}/{self.name} does not say what it was measured on")

    def to_json(self) -> dict:
        return {"area": self.area, "name": self.name, "value": self.value, "unit": self.unit,
                "measured_on": self.measured_on}


def machine() -> dict:
    """What the figures were measured with."""
    return {"python": platform.python_version(), "cpus": os.cpu_count(), "machine": platform.machine(),
            "system": platform.system()}


def format_table(figures: list[Figure]) -> str:
    """A plain-text table of the figures, one per line."""
    rows = [("area", "figure", "value", "unit", "measured on")]
    for f in figures:
        value = f"{f.value:,.3f}".rstrip("0").rstrip(".") if isinstance(f.value, float) else f"{f.value:,}"
        rows.append((f.area, f.name, value, f.unit, f.measured_on))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    lines = []
    for r in rows:
        lines.append("  ".join(c.ljust(w) if i != 2 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))) + "  " + r[4])
    return "\n".join(lines)
