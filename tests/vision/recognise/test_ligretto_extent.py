"""Which part of the lattice is the board (``vision/recognise/ligretto_extent.py``): bare
table and a player's cards beyond it dropped, candidate lines settled, a known shape kept."""

from __future__ import annotations

import numpy as np
import pytest

from tableref.vision.recognise.ligretto_extent import board_extent, known_shape, settle_padding


def _kinds(rows: str) -> np.ndarray:
    """A grid of kinds: n a free space, c a card's half, h hidden, o off the board."""
    names = {"n": "none", "c": "card", "h": "hidden", "o": "off"}
    return np.array([[names[ch] for ch in row] for row in rows.split()])


@pytest.mark.parametrize("rows, expected", [
    # bare table around the board: dropped
    ("oooo nnnn ncnn oooo", ((1, 2), (0, 3))),
    # a row that a hand hides at the edge: kept (its spaces are the board's, unknown)
    ("hhhh nnnn ncnn", ((0, 2), (0, 3))),
    # a player's cards beyond a row of bare table, in line with the board's columns: not the board
    ("ooccoo oooooo nnnnnn ncnnnn nnnnnn oooooo oooooc", ((2, 4), (0, 5))),
    # an arm's sleeve across the board reads as bare table: both sides as dense, the whole kept
    ("nnoonn ncoonn nnoonc", ((0, 2), (0, 5))),
    # ... and a sparse part beyond it dropped, the bare columns at the new edge too
    ("nnnoon nnnooo ncnooo", ((0, 2), (0, 2))),
])
def test_the_board_extent(rows, expected):
    assert board_extent(_kinds(rows)) == expected


@pytest.mark.parametrize("keep, lines, n, expected", [
    ((0, 8), 9, 0, (0, 8)),  # nothing padded
    ((0, 7), 9, 1, (0, 7)),  # the far candidate kept, the near one showed the table
    ((1, 8), 9, 1, (1, 8)),  # the near one kept
    ((0, 8), 9, 1, (1, 7)),  # both kept: which side is the board's is unknown, neither
    ((1, 7), 9, 1, (1, 7)),  # neither kept
    ((0, 9), 12, 2, (0, 9)),  # two padded: both far ones kept
    ((1, 10), 12, 2, (1, 10)),  # one on each side: the size of the shape, kept
])
def test_candidate_lines_on_both_sides_are_kept_on_one_only(keep, lines, n, expected):
    assert settle_padding(keep, lines, n) == expected


SHAPES = ((8, 12), (8, 20), (12, 12), (12, 8), (20, 8))


@pytest.mark.parametrize("keep_r, keep_c, lines, padded, shapes, expected", [
    # the far three rows of an 8 x 20 board under an arm read as bare table: kept (3000181)
    ((0, 4), (0, 19), (8, 20), (0, 0), SHAPES, ((0, 7), (0, 19))),
    # a row of the table beside a board of known shape is dropped as before
    ((1, 8), (0, 11), (9, 12), (0, 0), SHAPES, ((1, 8), (0, 11))),
    # dropping made a known shape out of none: kept as dropped
    ((0, 7), (0, 11), (10, 12), (0, 0), SHAPES, ((0, 7), (0, 11))),
    # the lattice is no known shape either: nothing to restore
    ((0, 4), (0, 10), (8, 11), (0, 0), SHAPES, ((0, 4), (0, 10))),
    # columns dropped, rows not: the columns come back
    ((0, 7), (2, 19), (8, 20), (0, 0), SHAPES, ((0, 7), (0, 19))),
    # rows and columns dropped: the rows come back when that alone makes a known shape ...
    ((0, 6), (0, 11), (8, 20), (0, 0), SHAPES, ((0, 7), (0, 11))),
    # ... else the columns, else both
    ((0, 6), (0, 14), (8, 20), (0, 0), SHAPES, ((0, 7), (0, 19))),
    # no shapes known (a profile's empty list): as dropped
    ((0, 4), (0, 19), (8, 20), (0, 0), (), ((0, 4), (0, 19))),
    # candidate rows on both sides: their settling stands
    ((1, 5), (0, 19), (10, 20), (1, 0), SHAPES, ((1, 5), (0, 19))),
])
def test_a_board_of_known_shape_keeps_edge_lines_that_read_as_table(keep_r, keep_c, lines, padded, shapes, expected):
    assert known_shape(keep_r, keep_c, lines, padded, shapes) == expected
