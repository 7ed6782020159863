"""Second looks: an unsure crop classified again through slightly moved windows.

A spot the classifier reads surely is taken at once. A spot it is unsure of (its top
probability below a bound) is cropped again through a few *views* (the quad scaled about its
centre, shifted along its sides by a fraction of their length, or turned by quarter turns for
a model trained on crops turned so) and its probabilities
become the normalised geometric mean over all the looks. A label that only one window
supports loses to one that every window finds; the cost is one more crop and forward pass per
view, for the unsure spots only.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from .crop import CropError, as_quad

#: Smallest probability a look may give a label (keeps the logarithm finite).
FLOOR = 1e-9


@dataclass(frozen=True)
class View:
    """A window moved from the quad it looks at: scaled about the quad's centre by ``scale``,
    then shifted by ``shift`` (along its first side, along its last side) in fractions of their
    lengths, then turned by ``turns`` quarter turns (the corner order rolled, so that the crop
    shows the quad turned anticlockwise: :mod:`~tableref.vision.crop`)."""

    scale: float = 1.0
    shift: tuple[float, float] = (0.0, 0.0)
    turns: int = 0

    def __post_init__(self) -> None:
        if isinstance(self.scale, bool) or not isinstance(self.scale, (int, float)) \
                or not math.isfinite(self.scale) or not 0.5 <= self.scale <= 2.0:
            raise CropError(f"a view's scale must lie in 0.5..2, got {self.scale!r}")
        if not (isinstance(self.shift, tuple) and len(self.shift) == 2
                and all(isinstance(s, (int, float)) and not isinstance(s, bool) and math.isfinite(s)
                        and abs(s) <= 0.5 for s in self.shift)):
            raise CropError(f"a view's shift is two fractions in -0.5..0.5, got {self.shift!r}")
        if isinstance(self.turns, bool) or not isinstance(self.turns, int) or not 0 <= self.turns <= 3:
            raise CropError(f"a view's turns are 0..3 quarter turns, got {self.turns!r}")

    def apply(self, quad: np.ndarray) -> np.ndarray:
        """``quad`` (4 corners in order) seen through this view."""
        return self.apply_many(as_quad(quad)[None])[0]

    def apply_many(self, quads: np.ndarray) -> np.ndarray:
        """Quads (N, 4, 2) seen through this view, each as :meth:`apply` sees one (not checked
        here: the crop that looks through them checks them)."""
        q = np.asarray(quads, np.float64).reshape(-1, 4, 2)
        centre = q.mean(axis=1, keepdims=True)
        along, across = q[:, 1:2] - q[:, :1], q[:, 3:4] - q[:, :1]
        moved = centre + (q - centre) * self.scale + self.shift[0] * along + self.shift[1] * across
        return np.roll(moved, -self.turns, axis=1)


Look = Callable[[list[np.ndarray]], np.ndarray]


def geometric_mean(looks: Sequence[np.ndarray]) -> np.ndarray:
    """The normalised geometric mean (N, L) of ``looks`` (one or more (N, L) probabilities of
    the same things over the same labels), each probability floored at :data:`FLOOR`; one
    look is its own mean, as it is."""
    if len(looks) == 1:
        return np.asarray(looks[0], np.float64)
    logs = np.mean([np.log(np.maximum(np.asarray(p, np.float64), FLOOR)) for p in looks], axis=0)
    mean = np.exp(logs - logs.max(axis=1, keepdims=True))
    return mean / mean.sum(axis=1, keepdims=True)


def with_second_looks(look: Look, quads: Sequence[np.ndarray], views: Sequence[View], below: float,
                      first: np.ndarray | None = None, others: Sequence[Look] = ()) -> np.ndarray:
    """Probabilities (N, L) of ``quads``: ``look(quads)``'s (or ``first``, when the caller has
    them already), and for a quad whose top probability is below ``below`` the normalised
    geometric mean of that look, one look per view and one look of each of ``others`` (other
    models with the same labels) at the quad itself. A look crops and classifies a list
    of quads as the caller reads spots (its crop, its colour balance), returning (len, L)
    probabilities. With no views, ``quads`` may be any things the looks take (indices of
    patches cut already, pairs of spaces): ``others`` are given them as they are."""
    if isinstance(below, bool) or not isinstance(below, (int, float)) or not 0.0 <= below <= 1.0:
        raise CropError(f"the bound for a second look must lie in 0..1, got {below!r}")
    first = np.asarray(look(list(quads)) if first is None else first)
    unsure = np.flatnonzero(first.max(axis=1) < below) if len(first) else np.empty(0, int)
    if not len(unsure) or not (views or others):
        return first
    at = [quads[i] for i in unsure]
    # every view's windows in one batch (one call of the model instead of one per view)
    moved = [q for view in views for q in view.apply_many(np.stack([np.asarray(q, np.float64) for q in at]))]
    looks = [first[unsure]]
    if moved:
        looks += list(np.asarray(look(moved), np.float64).reshape(len(views), len(at), -1))
    looks += [other(at) for other in others]
    out = first.copy()
    out[unsure] = geometric_mean(looks).astype(first.dtype)
    return out
