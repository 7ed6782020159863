"""Places read beside a covered place: kept only when read surely (pure functions).

A hand, a sleeve or a cup that covers one place of a grid often reaches a finger's width over
the next: what shows there is the place's edge with skin or cloth across it, which a
classifier can mistake for a card's border, a cube or an empty place. Each recogniser
therefore reads unknown a place read below its own confidence next to a place it left
unknown (the places that share an edge with it), judged on the first readings as they come,
not again on the result (no cascade across the grid).
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Mapping
from typing import TypeVar

Cell = TypeVar("Cell", bound=Hashable)


def beside(cell: tuple[int, int]) -> list[tuple[int, int]]:
    """The four places that share an edge with grid ``cell`` (row, column); some may lie off
    the grid."""
    r, c = cell
    return [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]


def unsure_beside_covered(confidence: Mapping[Cell, float], covered: Collection[Cell], below: float) -> set[Cell]:
    """The grid cells of ``confidence`` (cell -> how surely it was read) read below ``below``
    that share an edge with a cell of ``covered`` (cells read unknown).

    >>> sorted(unsure_beside_covered({(0, 0): 0.5, (0, 2): 0.5, (1, 1): 0.99}, {(0, 1)}, 0.9))
    [(0, 0), (0, 2)]
    """
    covered = set(covered)
    return {cell for cell, conf in confidence.items()
            if cell not in covered and conf < below and covered.intersection(beside(cell))}
