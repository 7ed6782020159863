"""``tableref bench``: speed and accuracy figures, each naming what it was measured on.

An area (``rules``, later ``render``, ``recognition``, ``live``) is a function that returns a
list of :class:`Figure`.  The command prints them as a table for people, or as one JSON object.
"""

from __future__ import annotations

import math
import os
import platform
from dataclasses import dataclass


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


#: The standard normal quantile of a two-sided 95 % interval.
Z95 = 1.959964


def rate(part: float, whole: float, per: float) -> float:
    """``part`` of ``whole`` per ``per`` of it (100: per cent); NaN when ``whole`` is 0
    (nothing was measured)."""
    return per * part / whole if whole else float("nan")


def percent(part: int, whole: int) -> float:
    """``part`` of ``whole`` in per cent (:func:`rate` per 100)."""
    return rate(part, whole, 100.0)


def percent_interval(part: int, whole: int, z: float = Z95) -> tuple[float, float]:
    """The 95 % confidence interval (``z`` standard errors), in per cent, of the rate that
    ``part`` successes in ``whole`` independent trials measure: Wilson's score interval, whose
    ends are the rates ``p`` from which the measured share lies ``z * sqrt(p (1 - p) / whole)``
    away. It stays within 0-100 and is not empty at 0 or ``whole`` successes, where the
    normal approximation's is. (NaN, NaN) when ``whole`` is 0."""
    if not 0 <= part <= whole:
        raise ValueError(f"a share needs 0 <= part <= whole, got {part} of {whole}")
    if whole == 0:
        return float("nan"), float("nan")
    share, z2 = part / whole, z * z
    centre = (share + z2 / (2 * whole)) / (1 + z2 / whole)
    half = z / (1 + z2 / whole) * math.sqrt(share * (1 - share) / whole + z2 / (4 * whole * whole))
    low = 0.0 if part == 0 else max(0.0, centre - half)  # the ends exact where rounding would miss them
    high = 1.0 if part == whole else min(1.0, centre + half)
    return 100.0 * low, 100.0 * high


def interval_figures(area: str, name: str, part: int, whole: int, measured_on: str) -> list[Figure]:
    """The two ends of :func:`percent_interval` as figures beside ``name``'s: how far the rate
    measured on these scenes may lie from the rate over all scenes like them."""
    low, high = percent_interval(part, whole)
    on = f"{measured_on}; {part} of {whole}, Wilson's score interval"
    return [Figure(area, f"{name}, 95 % interval, low", low, "%", on),
            Figure(area, f"{name}, 95 % interval, high", high, "%", on)]


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
