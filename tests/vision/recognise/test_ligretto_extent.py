"""Which part of the lattice is the board (``vision/recognise/ligretto_extent.py``): bare
table and a player's cards beyond it dropped, candidate lines settled, a known shape kept or
made."""

from __future__ import annotations

import numpy as np
import pytest

from tableref.vision.recognise.ligretto_extent import (bare_added_edge, bare_candidates, board_extent, kept_unbare,
                                                      known_shape, parted_to_shape, settle_padding, trimmed_to_shape)


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
    # an arm over the board's columns 1-4 and a pale sleeve beside it over column 5: what shows
    # beyond is as dense in spaces among the places that are not hidden, and is kept (test
    # render 3003503 turned by 3 degrees and 20 mm off the middle: read 8 x 6, 84 spaces wrong)
    ("oohhhhoooooo cchhhhnnnncn " + " ".join(["nhhhhonnnnnn"] * 4), ((1, 5), (0, 11))),
    # a board off the table's middle, two columns added beyond its left edge, an arm over its
    # upper rows there: where the edge shows, it shows the table beyond it (test render 3000032
    # laid 40 mm right of the middle)
    ("hhhnnn hhhnnn oonncn oonnnn", ((0, 3), (2, 5))),
    # ... along two lines across it at least, however many a cover hides (3003152: rows the
    # middle added above a 12 x 12 board under two arms)
    ("hhhhhhhhoo hhhhhhhhoo cnnhhhhncn nncnnnnnnn", ((2, 3), (0, 9))),
    # ... one is not enough
    ("hhhhhhhhho hhhhhhhhho cnnhhhhncn nncnnnnnnn", ((0, 3), (0, 9))),
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


@pytest.mark.parametrize("keep, lines, n, leaning, expected", [
    ((0, 7), 9, 1, 0, (0, 7)),  # the table tells: the far candidate kept, whatever the middle says
    ((1, 8), 9, 1, 0, (1, 8)),
    ((0, 8), 9, 1, 1, (0, 7)),  # both kept (things over both sides): the middle decides
    ((0, 8), 9, 1, 0, (1, 8)),
    ((1, 7), 9, 1, 1, (0, 7)),  # neither kept (a pale sleeve reads as table): the middle decides
    ((0, 11), 12, 2, 1, (1, 10)),  # two each side, all kept: one before, one after
])
def test_where_the_table_does_not_tell_the_board_s_middle_settles_the_candidates(keep, lines, n, leaning, expected):
    assert settle_padding(keep, lines, n, leaning) == expected


@pytest.mark.parametrize("keep, n, leaning, bare, expected", [
    # neither kept, the candidate after shows bare table alone: the one before, whatever the
    # middle says (3003211: a sleeve over the far row, the middle half a row off)
    ((1, 7), 1, 0, (False, True), (0, 7)),
    ((1, 7), 1, None, (False, True), (0, 7)),  # the middle unknown
    ((1, 7), 1, 1, (True, False), (1, 8)),  # the other way round
    ((1, 7), 1, 1, (True, True), (0, 7)),  # both bare: the middle decides, as before
    ((1, 7), 1, 0, (False, False), (1, 8)),  # neither: the middle
    ((0, 7), 1, 1, (False, True), (0, 7)),  # one kept: the table told already
    ((0, 8), 1, 0, (False, True), (1, 8)),  # both kept: the middle
])
def test_where_one_side_s_candidates_show_bare_table_the_other_side_s_are_the_board_s(keep, n, leaning, bare,
                                                                                      expected):
    assert settle_padding(keep, 9, n, leaning, bare) == expected


@pytest.mark.parametrize("rows, n, expected", [
    ("oooo nnnn hnnn oooo", 1, (True, True)),
    ("ohoo nnnn hnnn oooo", 1, (False, True)),
    ("oooo oooo nnnn ooho", 2, (True, False)),
    ("oooo oooo nnnn ooho", 0, (False, False)),  # no candidates
])
def test_candidate_lines_of_bare_table(rows, n, expected):
    assert bare_candidates(_kinds(rows), n) == expected


@pytest.mark.parametrize("rows, expected", [
    # a 9 x 12 extent, its first row showing no space: dropped, an 8 x 12 board
    ("hhhhoooooooo " + " ".join(["nnnnnnnnnnnn"] * 8), ((1, 8), (0, 11))),
    # ... not where that row shows a space
    ("hhhhoooooonn " + " ".join(["nnnnnnnnnnnn"] * 8), ((0, 8), (0, 11))),
    # the first and the last row show none, as much off the board: which to drop is unknown
    ("hhhhhhoooooo " + " ".join(["nnnnnnnnnnnn"] * 7) + " oooooohhhhhh", ((0, 8), (0, 11))),
    # ... the one reading more places off the board is dropped
    ("hhhhhhhooooo " + " ".join(["nnnnnnnnnnnn"] * 7) + " oooooohhhhhh", ((0, 7), (0, 11))),
    # of a known shape already: left alone
    (" ".join(["nnnnnnnnnnnn"] * 8), ((0, 7), (0, 11))),
])
def test_an_edge_line_showing_no_space_is_dropped_where_that_makes_a_known_shape(rows, expected):
    kinds = _kinds(rows)
    extent = ((0, kinds.shape[0] - 1), (0, kinds.shape[1] - 1))
    assert trimmed_to_shape(kinds, *extent, SHAPES) == expected


SHAPES = ((8, 12), (8, 20), (12, 12), (12, 8), (20, 8))


def _rows(*parts: tuple[str, int]) -> str:
    return " ".join(row for row, n in parts for _ in range(n))


@pytest.mark.parametrize("rows, expected", [
    # two rows the centring added above an 8 x 20 board, under an arm (3000371, 3000355)
    (_rows(("h" * 20, 2), ("n" * 20, 8)), ((2, 9), (0, 19))),
    # ... and one below: three lines, one way only
    (_rows(("h" * 20, 2), ("n" * 20, 8), ("h" * 20, 1)), ((2, 9), (0, 19))),
    # two columns beside it (3000596)
    (_rows(("hh" + "n" * 20, 8)), ((0, 7), (2, 21))),
    # two hidden on each side: which two are the board's the table does not tell
    (_rows(("h" * 20, 2), ("n" * 20, 6), ("h" * 20, 2)), ((0, 9), (0, 19))),
    # more than four lines: left alone
    (_rows(("h" * 20, 5), ("n" * 20, 8)), ((0, 12), (0, 19))),
])
def test_the_fewest_edge_lines_showing_no_space_are_dropped_to_a_known_shape(rows, expected):
    kinds = _kinds(rows)
    extent = ((0, kinds.shape[0] - 1), (0, kinds.shape[1] - 1))
    assert trimmed_to_shape(kinds, *extent, SHAPES) == expected


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


@pytest.mark.parametrize("rows, shapes, expected", [
    # a player's cards in two columns beside the board, beyond two columns of bare table and as
    # dense as the board, one row above it: the board's part is of a known shape (3003767)
    ("ccoooooo ccoonnnn ccoonnnn ccooncnn", ((3, 4),), ((1, 3), (4, 7))),
    # ... the same beyond a row of bare table
    ("cccc oooo nnnn ncnn nnnn", ((3, 4),), ((2, 4), (0, 3))),
    # the part that would be left shows fewer spaces than the part dropped: unchanged
    ("nnnonnnn nnnonnnn nnnonnnn", ((3, 3),), ((0, 2), (0, 7))),
    # no part left of a known shape: unchanged
    ("ccoooooo ccoonnnn ccoonnnn ccooncnn", ((3, 5),), ((0, 3), (0, 7))),
    # of a known shape already: left alone, whatever bare lines cross it
    ("nnonn nnonn", ((2, 5), (2, 2)), ((0, 1), (0, 4))),
    # no shapes known: unchanged
    ("ccoooooo ccoonnnn ccoonnnn ccooncnn", (), ((0, 3), (0, 7))),
])
def test_a_part_beyond_bare_table_is_dropped_where_that_leaves_a_known_shape(rows, shapes, expected):
    kinds = _kinds(rows)
    extent = ((0, kinds.shape[0] - 1), (0, kinds.shape[1] - 1))
    assert parted_to_shape(kinds, *extent, shapes) == expected


def test_a_part_is_dropped_within_the_extent_kept():
    kinds = _kinds("ooooooooo occoooooo occoonnnn occoonnnn occooncnn")
    assert parted_to_shape(kinds, (1, 4), (1, 8), ((3, 4),)) == ((2, 4), (5, 8))


@pytest.mark.parametrize("rows, keep_c, found_cols, expected", [
    # a column of bare table added on the left, kept for the known shape; the extent reaches the
    # lattice's right end: the board's missing column lies beyond it (3000254 off the middle)
    ("onnn onnn onnn", (0, 3), [False, True, True, True], (1, True)),
    # ... on the right: before the left end
    ("nnno nnno nnno", (0, 3), [True, True, True, False], (1, False)),
    # ... a place of it hidden, the rest bare table: the same (3000425)
    ("hnnn onnn onnn", (0, 3), [False, True, True, True], (1, True)),
    # found, not added: the table showed no space there, but the lattice saw one
    ("onnn onnn onnn", (0, 3), [True, True, True, True], None),
    # the extent short of the lattice's other end: nothing to move to
    ("onnno onnno onnno", (0, 3), [False, True, True, True, True], None),
    # no bare line
    ("hnnn hnnn onnn", (0, 3), [False, True, True, True], None),
])
def test_a_bare_line_added_on_the_wrong_side(rows, keep_c, found_cols, expected):
    kinds = _kinds(rows)
    found_rows = np.ones(kinds.shape[0], bool)
    assert bare_added_edge(kinds, (0, kinds.shape[0] - 1), keep_c, found_rows, np.array(found_cols)) == expected


def test_a_bare_row_added_is_moved_too_and_two_moves_are_none():
    kinds = _kinds("oooo nnnn nnnn")
    found = np.array([False, True, True])
    assert bare_added_edge(kinds, (0, 2), (0, 3), found, np.ones(4, bool)) == (0, True)
    kinds = _kinds("ooooo onnnn onnnn")
    assert bare_added_edge(kinds, (0, 2), (0, 4), found, np.array([False] + [True] * 4)) is None


@pytest.mark.parametrize("rows, keep_c, axis, line, expected", [
    ("hnnn nnnn onnn", (0, 3), 1, 0, True),  # the moved column shows a space: kept (3000254)
    ("hnnn hnnn onnn", (0, 3), 1, 0, True),  # hidden more than bare: may be the board's
    ("onnn onnn onnn", (0, 3), 1, 0, False),  # bare table again (validation render 2000485)
    ("hnnn onnn onnn", (0, 3), 1, 0, False),  # mostly bare
    ("hnnn nnnn onnn", (1, 3), 1, 0, False),  # not kept
    ("oooo nnnn nnnn", (0, 3), 0, 0, False),  # a row
    ("hhoo nnnn nnnn", (0, 3), 0, 0, True),  # hidden as much as bare: not bare table
])
def test_a_moved_line_is_kept_and_shows_no_bare_table(rows, keep_c, axis, line, expected):
    kinds = _kinds(rows)
    assert kept_unbare(kinds, (0, kinds.shape[0] - 1), keep_c, axis, line) is expected
