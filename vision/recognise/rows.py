"""Rows of places filled from their first: how many things lie there (pure functions).

A column's display cards, a fan's cards and a player's tiles all fill their places from the
first. Each place's classifier gives P(a thing lies there); the count read is the n whose
"things before n, none from n on" best explains every place read, not the places up to the
first one read empty: one place misread empty in the middle does not cut the row.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

#: Smallest probability used in a logarithm.
FLOOR = 1e-9


def fill_scores(shown: Sequence[float | None]) -> list[float]:
    """The log-likelihood of each count n = 0 .. len(shown): places before n hold a thing,
    the others none, given each place's P(thing) (None: a place that tells nothing, covered
    or off the table, left out).

    >>> [round(s, 2) for s in fill_scores([0.9, None, 0.2])]
    [-2.53, -0.33, -0.33, -1.71]
    """
    return [sum(math.log(max(p if k < n else 1.0 - p, FLOOR)) for k, p in enumerate(shown) if p is not None)
            for n in range(len(shown) + 1)]


def best_fill(shown: Sequence[float | None]) -> int:
    """The count that :func:`fill_scores` rates highest (the first of equals)."""
    scores = fill_scores(shown)
    return scores.index(max(scores))
