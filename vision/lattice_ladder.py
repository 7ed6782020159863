"""One family of lattice lines in the lattice frame: which positions are lines, and the board's
extent.

In the lattice frame (:mod:`tableref.vision.lattice_lines`) a family's lines are parallel and
their positions ``x(u)`` for line numbers ``u`` follow a 1-D projective map
``x = (a u + b) / (c u + 1)`` (``c`` is 0 when the vanishing points were exact; clutter
lines in the scene bias them a little, and then the spacing drifts across the board). The
rough period comes from the strongest comb-shaped Fourier component of the segments'
positions; a ladder then grows from the strongest line outwards, one rung at a time,
refitting the 1-D map as it goes, so the drift never adds up. The extent is the longest run of
rungs that edge segments cover for a good share of the other family's span.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

#: Candidate periods: from the span of the positions / MAX_LINES to span / 2, on a log grid
#: of this relative step.
MAX_LINES = 60
PERIOD_STEP = 0.008
#: The rough period is the largest one scoring at least this share of the best score.
HARMONIC_KEEP = 0.75
#: Positions closer than this share of a period are one line (both sides of a thin gap).
CLUSTER_SHARE = 0.12
#: A line is the next rung when it lies within this share of the local spacing of where
#: the ladder predicts it; growth stops after this many missing rungs in a row.
RUNG_TOLERANCE = 0.15
MAX_MISSES = 2
#: Ladders are grown from this many of the heaviest lines; the one gathering most weight wins.
SEEDS = 6
#: A rung whose share of line weight falls in one residue class mod n (n = 2, 3) at least
#: this much is a harmonic: the true period is n rungs.
HARMONIC_SHARE = 0.85
#: Fewer segments than this in a family make no ladder.
MIN_SEGMENTS = 4
#: A lattice line is part of the board when segments cover at least this share of the span
#: of the other family's lines (a chessboard's outer line is about half covered).
MIN_COVERAGE = 0.3
#: A segment lies on a line when it is within this share of the local spacing of it.
LINE_TOLERANCE = 0.2
#: Rounds of extent estimation (each family's extent bounds the other's coverage).
EXTENT_ROUNDS = 3


@dataclass(frozen=True)
class Ladder:
    """Line ``u`` of a family at ``x = (a u + b) / (c u + 1)`` in the lattice frame, for u in
    ``[first, last]``."""

    a: float
    b: float
    c: float
    first: int
    last: int

    def at(self, u) -> np.ndarray:
        u = np.asarray(u, np.float64)
        return (self.a * u + self.b) / (self.c * u + 1.0)

    def spacing(self, u) -> np.ndarray:
        return np.abs(self.at(np.asarray(u) + 0.5) - self.at(np.asarray(u) - 0.5))

    def span(self, first: int, last: int) -> "Ladder":
        return Ladder(self.a, self.b, self.c, first, last)


def rough_period(positions: np.ndarray, weights: np.ndarray) -> float | None:
    """The largest period whose comb scores nearly as well as the best one."""
    lo, hi = np.percentile(positions, [1, 99])
    span = hi - lo
    if span <= 0:
        return None
    periods = np.exp(np.arange(math.log(span / MAX_LINES), math.log(span / 2), PERIOD_STEP))
    w = (weights / weights.sum()).astype(np.float32)
    phase = (2 * math.pi * positions[None, :] / periods[:, None]).astype(np.float32)
    score = np.hypot(np.cos(phase) @ w, np.sin(phase) @ w)
    return float(periods[int(np.nonzero(score >= HARMONIC_KEEP * score.max())[0].max())])


def _clusters(positions: np.ndarray, weights: np.ndarray, gap: float) -> tuple[np.ndarray, np.ndarray]:
    order = np.argsort(positions)
    x, w = positions[order], weights[order]
    cuts = np.nonzero(np.diff(x) > gap)[0] + 1
    groups = np.split(np.arange(len(x)), cuts)
    return (np.array([np.average(x[g], weights=w[g]) for g in groups]), np.array([w[g].sum() for g in groups]))


def _fit_map(us: list[int], xs: list[float], period: float) -> tuple[float, float, float]:
    """(a, b, c) of the 1-D map through the rungs found so far."""
    u, x = np.asarray(us, np.float64), np.asarray(xs, np.float64)
    if len(u) == 1:
        return (period, x[0] - period * u[0], 0.0)
    if len(u) < 4:
        slope, icpt = np.polyfit(u, x, 1)
        return (float(slope), float(icpt), 0.0)
    sol = np.linalg.lstsq(np.column_stack([u, np.ones_like(u), -u * x]), x, rcond=None)[0]
    a, b, c = (float(v) for v in sol)
    if np.any(c * u + 1.0 <= 0):
        slope, icpt = np.polyfit(u, x, 1)
        return (float(slope), float(icpt), 0.0)
    return (a, b, c)


def grow_ladder(positions: np.ndarray, weights: np.ndarray) -> Ladder | None:
    """The ladder of lines among one family's segment positions (1-D, weighted by length)."""
    if len(positions) < MIN_SEGMENTS:
        return None
    period = rough_period(positions, weights)
    if period is None:
        return None
    xs, ws = _clusters(positions, weights, CLUSTER_SHARE * period)
    return _unharmonic(xs, ws, _grow(xs, ws, period))


def _grow(xs: np.ndarray, ws: np.ndarray, period: float) -> Ladder:
    """The ladder, from whichever of the heaviest lines gathers the most line weight."""
    best, best_weight = None, -1.0
    for seed in np.argsort(-ws)[:SEEDS]:
        ladder, weight = _grow_from(xs, ws, int(seed), period)
        if weight > best_weight:
            best, best_weight = ladder, weight
    return best


def _grow_from(xs: np.ndarray, ws: np.ndarray, seed: int, period: float) -> tuple[Ladder, float]:
    us, found, weight = [0], [float(xs[seed])], float(ws[seed])
    for step in (1, -1):
        u, misses = 0, 0
        while misses < MAX_MISSES:
            u += step
            a, b, c = _fit_map(us, found, period)
            ladder = Ladder(a, b, c, 0, 0)
            if c * u + 1.0 <= 0:
                break
            want, space = float(ladder.at(u)), float(ladder.spacing(u))
            if want < xs.min() - space or want > xs.max() + space:
                break
            i = int(np.argmin(np.abs(xs - want)))
            if abs(xs[i] - want) < RUNG_TOLERANCE * space and xs[i] not in found:
                us.append(u)
                found.append(float(xs[i]))
                weight += float(ws[i])
                misses = 0
            else:
                misses += 1
    a, b, c = _fit_map(us, found, period)
    return Ladder(a, b, c, min(us), max(us)), weight


def _unharmonic(xs: np.ndarray, ws: np.ndarray, ladder: Ladder) -> Ladder:
    """When only every n-th rung of ``ladder`` holds lines, the ladder of those rungs."""
    u = np.arange(ladder.first, ladder.last + 1)
    pos = ladder.at(u)
    weight = np.zeros(len(u))
    for n, p in enumerate(pos):
        near = np.abs(xs - p) < RUNG_TOLERANCE * float(ladder.spacing(u[n]))
        weight[n] = ws[near].sum()
    for n in (2, 3):
        shares = np.array([weight[np.mod(u, n) == r].sum() for r in range(n)]) / max(weight.sum(), 1e-12)
        r = int(np.argmax(shares))
        if shares[r] >= HARMONIC_SHARE and np.count_nonzero(weight[np.mod(u, n) == r]) >= 2:
            # rung u = n v + r: x = (a (n v + r) + b) / (c (n v + r) + 1)
            a, b, c = ladder.a, ladder.b, ladder.c
            d = c * r + 1.0
            kept = u[np.mod(u, n) == r]
            return Ladder(a * n / d, (a * r + b) / d, c * n / d, int((kept.min() - r) // n), int((kept.max() - r) // n))
    return ladder


def coverage(lines: np.ndarray, ladder: Ladder, across: tuple[float, float]) -> np.ndarray:
    """Share of ``across`` (a range of the other axis) that the segments ``lines`` (N, 2, 2),
    in (position, along) coordinates, cover near each rung of ``ladder``."""
    lo, hi = min(across), max(across)
    u = np.arange(ladder.first, ladder.last + 1)
    out = np.zeros(len(u))
    pos = lines[:, :, 0].mean(axis=1)
    for n, uu in enumerate(u):
        near = np.abs(pos - ladder.at(uu)) < LINE_TOLERANCE * float(ladder.spacing(uu))
        spans = np.sort(np.clip(lines[near, :, 1], lo, hi), axis=1)
        out[n] = _union_length(spans) / max(hi - lo, 1e-12)
    return out


def _union_length(spans: np.ndarray) -> float:
    total, end = 0.0, -math.inf
    for a, b in spans[np.argsort(spans[:, 0])]:
        if b > end:
            total += b - max(a, end)
            end = b
    return total


def extent(cols: np.ndarray, rows: np.ndarray, lad_c: Ladder, lad_r: Ladder) -> tuple[Ladder, Ladder] | None:
    """The runs of column and row lines that edges cover. ``cols`` and ``rows`` are each
    family's segments in the lattice frame (N, 2, 2) as (x, y) points."""
    row_pts = rows[:, :, ::-1]  # rows: the position is y, the run along them x
    span_c = (float(lad_c.at(lad_c.first)), float(lad_c.at(lad_c.last)))
    span_r = (float(lad_r.at(lad_r.first)), float(lad_r.at(lad_r.last)))
    run_c, run_r = lad_c, lad_r
    for _ in range(EXTENT_ROUNDS):
        rc = _longest_run(np.arange(lad_c.first, lad_c.last + 1), coverage(cols, lad_c, span_r) >= MIN_COVERAGE)
        rr = _longest_run(np.arange(lad_r.first, lad_r.last + 1), coverage(row_pts, lad_r, span_c) >= MIN_COVERAGE)
        if rc is None or rr is None:
            return None
        run_c, run_r = lad_c.span(*rc), lad_r.span(*rr)
        span_c = (float(run_c.at(run_c.first)), float(run_c.at(run_c.last)))
        span_r = (float(run_r.at(run_r.first)), float(run_r.at(run_r.last)))
    return run_c, run_r


def _longest_run(u: np.ndarray, ok: np.ndarray) -> tuple[int, int] | None:
    """First and last of the longest run of consecutive ``u`` where ``ok``; None below 2 rungs."""
    best, start = None, None
    for n, good in enumerate(list(ok) + [False]):
        if good and start is None:
            start = n
        elif not good and start is not None:
            if best is None or n - 1 - start > best[1] - best[0]:
                best = (start, n - 1)
            start = None
    if best is None or best[1] == best[0]:
        return None
    return int(u[best[0]]), int(u[best[1]])
