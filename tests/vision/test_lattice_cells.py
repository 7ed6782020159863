"""The lattice from its cells (upright views): columns and rows where the cells are, seams
kept, hidden lines filled in, a centred board completed; and the cell blobs of a mask."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tableref.vision.lattice_cells import AlignedLattice, aligned_lattice, square_blobs

CELL = 36.0


def centres(cols, rows, hidden=(), jitter=0.0, seed=0):
    rng = np.random.default_rng(seed)
    pts = [(x, y) for x in cols for y in rows if (x, y) not in hidden]
    return np.array(pts) + rng.uniform(-jitter, jitter, (len(pts), 2))


def seamed(n, start=100.0, seam=4.8, section=4, pitch=CELL):
    """Centres of ``n`` columns ``pitch`` apart, a seam every ``section`` columns."""
    return [start + k * pitch + seam * (k // section) for k in range(n)]


CASES = [
    # name, column xs, row ys, hidden cells, expected (rows, columns), found flags of columns
    ("plain 4x6", seamed(6, seam=0.0), seamed(4, seam=0.0), (), (4, 6), [True] * 6),
    ("sections a seam apart", seamed(12), seamed(8), (), (8, 12), [True] * 12),
    ("a wholly hidden column is filled in", seamed(8), seamed(4),
     tuple((seamed(8)[3], y) for y in seamed(4)), (4, 8), [True, True, True, False, True, True, True, True]),
    ("an arm over four columns: both parts are one board", seamed(12), seamed(4),
     tuple((x, y) for x in seamed(12)[3:7] for y in seamed(4)), (4, 12), [True] * 3 + [False] * 4 + [True] * 5),
]


@pytest.mark.parametrize("name, xs, ys, hidden, shape, found", CASES)
def test_columns_and_rows_where_the_cells_are(name, xs, ys, hidden, shape, found):
    lat = aligned_lattice(centres(xs, ys, hidden, jitter=1.5, seed=len(name)), CELL)
    assert (len(lat.rows), len(lat.columns)) == shape
    assert lat.found_columns.tolist() == found
    assert np.abs(lat.columns - np.array(xs)).max() < 3.0
    assert abs(lat.cell - CELL) < 1.5


def test_an_arm_over_spaces_wider_apart_than_a_space():
    # spaces 36 px with 2.2 px gaps: an arm over three columns and a seam leaves a gap of
    # 4.13 pitches, but 4.36 spaces (the two parts must still be one board)
    xs = seamed(12, pitch=CELL + 2.2)
    lat = aligned_lattice(centres(xs, seamed(4, pitch=CELL + 2.2), tuple((x, y) for x in xs[3:6]
                                                                       for y in seamed(4, pitch=CELL + 2.2))), CELL)
    assert len(lat.columns) == 12 and lat.found_columns.tolist() == [True] * 3 + [False] * 3 + [True] * 6
    assert np.abs(lat.columns - np.array(xs)).max() < 3.0


def test_the_part_beyond_an_arm_is_joined_though_a_hand_hides_some_of_it():
    # columns 7-9 under an arm; beyond it, a hand over the first three rows
    xs, ys = seamed(20), seamed(8)
    hidden = tuple((x, y) for x in xs[7:10] for y in ys) + tuple((x, y) for x in xs[10:] for y in ys[:3])
    lat = aligned_lattice(centres(xs, ys, hidden, jitter=1.0), CELL)
    assert len(lat.columns) == 20 and (~lat.found_columns).sum() == 3


@pytest.mark.parametrize("shown_rows, joined", [(3, True), (2, True), (1, False)])
def test_the_part_beyond_two_arms_is_joined_while_as_dense_as_a_hand_leaves_it(shown_rows, joined):
    # columns 7-8 and 11-12 under two arms; columns 9-10 between them show ``shown_rows`` of
    # the 5 rows, and beyond, columns 13-19 all 5 (a player's cards would show one or two)
    xs, ys = seamed(20), seamed(5)
    hidden = (tuple((x, y) for x in xs[7:9] + xs[11:13] for y in ys)
              + tuple((x, y) for x in xs[9:11] for y in ys[shown_rows:]))
    lat = aligned_lattice(centres(xs, ys, hidden, jitter=1.0), CELL)
    assert len(lat.columns) == (20 if joined else 7)


def blobs(xs, ys, sizes):
    """(N, 4) blobs: centres at ``xs`` x ``ys``, each column's width from ``sizes`` (x -> px)."""
    return np.array([(x, y, sizes.get(x, CELL), CELL) for x in xs for y in ys], np.float64)


@pytest.mark.parametrize("wider, joined", [(0.0, True), (0.37, True), (0.6, False)])
def test_the_parts_an_arm_splits_join_though_its_seams_and_cut_edges_widen_the_gap(wider, joined):
    # columns 8-10 under an arm (the seam after column 7 with them), columns 7 and 11 cut by it:
    # their shown parts' centres lie away from the arm, so the gap is wider than whole cells
    xs = seamed(20)
    cut = (wider * CELL - 4.8) / 2  # the seam under the arm, and each cut column's shift
    left, right = [x - cut * (k == 7) for k, x in enumerate(xs[:8])], [x + cut * (k == 0) for k, x in enumerate(xs[11:])]
    sizes = {left[-1]: 0.6 * CELL, right[0]: 0.6 * CELL}
    lat = aligned_lattice(np.concatenate([blobs(left, seamed(8), sizes), blobs(right, seamed(8), sizes)]), CELL)
    if joined:
        assert len(lat.columns) == 20 and lat.found_columns.tolist() == [True] * 8 + [False] * 3 + [True] * 9
        assert np.abs(lat.columns[8:11] - np.array(xs[8:11])).max() < 0.25 * CELL
    else:  # not a whole number of cells apart, however widened: the longer part alone
        assert len(lat.columns) == 9


@pytest.mark.parametrize("ys", [
    # two arms over rows 2-5 of eight: rows 1 and 6, cut, have their centres 5 px off the
    # arms; their own two gaps (31 px) would put five rows between them, the columns' pitch four
    [100.0, 131.0, 100.0 + 6 * CELL + 4.8 + 5.0, 100.0 + 7 * CELL + 4.8],
    # every row shows: the rows' own pitch, 13 % short of the columns' (a view whose depth is
    # unmeasured), places them
    seamed(8, pitch=0.87 * CELL),
])
def test_rows_that_few_neighbours_measure_are_filled_in_at_the_columns_pitch(ys):
    lat = aligned_lattice(centres(seamed(20), ys), CELL)
    assert (len(lat.rows), len(lat.columns)) == (8, 20)
    assert np.allclose(lat.rows[[0, -1]], [ys[0], ys[-1]])


def test_the_bend_is_not_carried_past_the_lines_found():
    # rows 0-3 added above the found rows 4-7 (an arm over them) take the bend of row 4, the
    # first found, not the quadratic carried on past it
    bend = np.zeros((2, 6))
    bend[1, 5] = 8.0  # y moved by 8 (y / 500)^2
    xs, ys = np.array(seamed(6, seam=0.0)), np.array(seamed(8, seam=0.0))
    lat = AlignedLattice(xs, ys, CELL, np.ones(6, bool), np.arange(8) >= 4, bend)
    moved = lat.centres()[..., 1] - ys[:, None]
    assert np.allclose(moved[:4], moved[4]) and np.allclose(moved[4:, 0], 8.0 * (ys[4:] / 500.0) ** 2)
    assert np.allclose(lat.centres()[..., 0], xs[None, :])


def filled_beyond(found_cols, n, xs, ys, padded=(0, 0), cut=0.0):
    """A lattice of ``ys`` rows whose first ``found_cols`` columns of ``xs`` were found (the
    last of them ``cut`` px left of its place: a hand over it) and the rest of ``n`` filled in
    at the plain pitch from them, as a centred board is completed."""
    cols = list(xs[:found_cols - 1]) + [xs[found_cols - 1] - cut]
    cols += [cols[-1] + k * CELL for k in range(1, n - found_cols + 1)]
    return AlignedLattice(np.array(cols), np.array(ys, np.float64), CELL, np.arange(n) < found_cols,
                          np.ones(len(ys), bool), None, padded)


@pytest.mark.parametrize("shown_rows, moved", [(4, True), (1, False)])
def test_a_column_filled_in_moves_onto_the_cells_that_show_along_it(shown_rows, moved):
    # columns 0-6 found, the last cut by a hand; 7-10 under it and 11 beyond it, filled in at
    # the plain pitch, a seam (4.8 px) short and the cut's 8 px: the last column's cells that
    # show pull it onto them (validation render 2000751)
    xs, ys = seamed(12), seamed(8, seam=0.0)
    lat = filled_beyond(7, 12, xs, ys, cut=8.0)
    assert abs(lat.columns[11] - xs[11]) > 0.35 * CELL
    out = lat.snapped(blobs([xs[11]], ys[:shown_rows], {}), CELL)
    if moved:
        assert out.found_columns.tolist() == [True] * 7 + [False] * 4 + [True]
        assert abs(out.columns[11] - xs[11]) < 0.5 and np.abs(out.columns - np.array(xs)).max() < 0.25 * CELL
        assert np.allclose(np.diff(out.columns[6:]), (out.columns[11] - out.columns[6]) / 5)
    else:  # one cell is no column
        assert out is lat


def test_only_whole_cells_of_the_board_move_a_filled_in_line_and_padded_candidates_stay():
    xs, ys = seamed(12), seamed(8, seam=0.0)
    lat = filled_beyond(7, 12, xs, ys, cut=8.0)
    cut = blobs([xs[11]], ys, {xs[11]: 0.6 * CELL})  # cells cut by the hand: no line's place
    beyond = blobs([lat.columns[11] + 0.6 * CELL], ys, {})  # farther than SNAP_REACH from the last
    below = blobs([xs[11]], [ys[-1] + 2 * CELL, ys[-1] + 3 * CELL], {})  # a player's cards below the board
    assert all(lat.snapped(b, CELL) is lat for b in (cut, beyond, below))
    padded = filled_beyond(10, 12, xs, ys, padded=(0, 1), cut=8.0)  # column 11 a candidate only
    assert padded.snapped(blobs([xs[11]], ys, {}), CELL) is padded


def test_a_few_blobs_between_two_columns_are_not_a_column():
    # two card halves off their spaces' centres, half a cell right of the first column
    xs, ys = seamed(6, seam=0.0), seamed(4, seam=0.0)
    between = [[xs[0] + 0.5 * CELL, y] for y in ys[:2]]
    lat = aligned_lattice(np.concatenate([centres(xs, ys, jitter=1.0), between]), CELL)
    assert len(lat.columns) == 6 and np.abs(lat.columns - np.array(xs)).max() < 3.0


#: A player's cards laid in a line: two halves to a card, 0.85 of a pitch apart, cards at
#: any offset from each other (as on test render 3000011's side of the table).
HALVES = (0.0, 0.85, 2.4, 3.25, 4.7, 5.55)


def test_lone_blobs_elsewhere_are_not_columns():
    # stray blobs, and a player's column of cards four cells beside the board
    beside = [[seamed(6)[-1] + 4 * CELL, 100.0 + h * CELL] for h in HALVES]
    pts = np.concatenate([centres(seamed(6), seamed(4), jitter=1.0), [[900.0, 500.0], [60.0, 700.0]], beside])
    lat = aligned_lattice(pts, CELL)
    assert (len(lat.rows), len(lat.columns)) == (4, 6)


@pytest.mark.parametrize("name, line, joined", [
    ("the board's row, all 7 spaces", tuple(range(7)), True),
    ("the board's row, 4 spaces", (1, 2, 3, 4), True),
    ("the board's row, 3 spaces", (1, 2, 3), False),
    ("the board's row, a space hidden", (1, 2, 4, 5), True),
    ("a player's cards in line", None, False),
])
def test_one_line_beyond_an_arm_joins_when_its_cells_run_on_the_boards_pitch(name, line, joined):
    # two rows of 7 found; an arm hides rows 2-4 and most of row 5; beyond, the last row (as
    # the board's last row on test render 3000749 of `tableref bench --seed 600`)
    xs, ys = seamed(7), seamed(6)
    pts = centres(xs, ys[:2], jitter=1.0)
    along = [xs[k] for k in line] if line is not None else [xs[0] + h * CELL for h in HALVES]
    lat = aligned_lattice(np.concatenate([pts, [[x, ys[5]] for x in along]]), CELL)
    assert len(lat.rows) == (6 if joined else 2)


@pytest.mark.parametrize("shift, added", [(0.0, 0), (2 * CELL, 2), (-CELL, 1)])
def test_centred_board_gets_its_hidden_side(shift, added):
    xs = seamed(8, start=200.0, seam=0.0)
    middle = (xs[0] + xs[-1]) / 2
    lat = aligned_lattice(centres(xs, seamed(4, seam=0.0)), CELL)
    # the board's left (or right) columns hidden: only those past ``shift`` show
    keep = [x for x in xs if (x >= xs[0] + shift if shift >= 0 else x <= xs[-1] + shift)]
    part = aligned_lattice(centres(keep, seamed(4, seam=0.0)), CELL).centred((middle, 0.0))
    assert len(part.columns) == len(lat.columns) and (~part.found_columns).sum() == added


@pytest.mark.parametrize("axes", [(True, False), (False, True), (False, False)])
def test_centred_only_along_the_sides_whose_middle_is_known(axes):
    # a board seen only in its right half, and its top rows hidden: lines are added only
    # along an axis whose middle is known (two markers along one table edge measure one side)
    xs, ys = seamed(8, start=200.0, seam=0.0), seamed(6, seam=0.0)
    part = aligned_lattice(centres(xs[4:], ys[3:]), CELL)
    middle = ((xs[0] + xs[-1]) / 2, (ys[0] + ys[-1]) / 2)
    out = part.centred(middle, axes)
    assert (len(out.columns), len(out.rows)) == (8 if axes[0] else 4, 6 if axes[1] else 3)


SHAPES = ((8, 12), (8, 20), (12, 12))


@pytest.mark.parametrize("show_rows, axes, added, leaning", [
    (slice(2, 8), (True, True), 2, 2),  # two far rows hidden, a middle known to half a row off: both before
    (slice(0, 6), (True, True), 2, 0),  # two near rows hidden: after
    (slice(4, 8), (True, True), 4, 4),  # four far rows hidden (an arm along the board's side)
    (slice(5, 8), (True, True), 0, None),  # five hidden: too many to add
    (slice(2, 8), (True, False), 2, None),  # the rows' middle unknown: nothing leans
    (slice(4, 8), (True, False), 4, None),
    (slice(0, 8), (True, True), 0, None),  # whole: unchanged
])
def test_completed_to_the_nearest_known_shape_with_candidates_on_both_sides(show_rows, axes, added, leaning):
    xs, ys = seamed(12, seam=0.0), seamed(8, seam=0.0)
    part = aligned_lattice(centres(xs, ys[show_rows]), CELL)
    # the middle is known to about half a row: centring alone may leave a row out
    middle = ((xs[0] + xs[-1]) / 2, (ys[0] + ys[-1]) / 2 + 0.4 * CELL * (1 if show_rows.start else -1))
    out = part.completed(SHAPES, middle, axes)
    shown = show_rows.stop - show_rows.start
    assert len(out.rows) == shown + 2 * added and len(out.columns) == 12
    assert out.padded == (added, 0) and out.leaning == ((leaning, 0) if added else (None, None))
    assert not out.found_rows[:added].any() and not out.found_rows[len(out.rows) - added:].any()
    assert out.found_rows[added:added + shown].all()
    assert np.allclose(np.diff(out.rows), CELL, atol=1.0)  # the candidates at the rows' pitch
    if added and leaning is not None:  # where the middle puts them, the board's own rows
        kept = out.rows[added - leaning:len(out.rows) - leaning]
        assert np.allclose(kept, ys, atol=1.0)


@pytest.mark.parametrize("columns, added", [
    (13, 1),  # one column of table or a player's cards beside an 8 x 12 board, a far row hidden
    (14, 1),  # two
    (15, 0),  # three: no known shape within reach
])
def test_completed_where_the_other_axis_reaches_beyond_the_shape(columns, added):
    # test render 3003211: its far row under a sleeve, the lattice found 7 x 21 for 8 x 20
    xs, ys = seamed(columns, seam=0.0), seamed(8, seam=0.0)
    part = aligned_lattice(centres(xs, ys[1:]), CELL)
    out = part.completed(SHAPES, ((xs[0] + xs[-1]) / 2, (ys[0] + ys[-1]) / 2))
    assert out.padded == (added, 0) and len(out.rows) == 7 + 2 * added and len(out.columns) == columns


def test_completed_prefers_the_shape_the_lattice_does_not_overrun():
    # 7 x 12 found: a row short of 8 x 11 and a column over it, a column short of 7 x 13
    xs, ys = seamed(12, seam=0.0), seamed(8, seam=0.0)
    part = aligned_lattice(centres(xs, ys[1:]), CELL)
    assert part.completed(((8, 11), (7, 13)), (0.0, 0.0)).padded == (0, 1)
    assert part.completed(((8, 11),), (0.0, 0.0)).padded == (1, 0)
    # a known shape found whole, another within reach of it: unchanged
    whole = aligned_lattice(centres(xs, ys), CELL)
    assert whole.completed(SHAPES + ((9, 11),), (0.0, 0.0)) is whole


@pytest.mark.parametrize("axis, to_end", [(1, True), (1, False), (0, True), (0, False)])
def test_a_line_moved_to_the_other_end(axis, to_end):
    xs, ys = seamed(12, seam=0.0), seamed(8, seam=0.0)
    lat = aligned_lattice(centres(xs, ys), CELL)
    out = lat.moved_line(axis, to_end)
    lines, moved = (lat.rows, out.rows) if axis == 0 else (lat.columns, out.columns)
    found = out.found_rows if axis == 0 else out.found_columns
    assert len(moved) == len(lines)
    if to_end:
        assert np.allclose(moved[:-1], lines[1:]) and moved[-1] == pytest.approx(lines[-1] + CELL)
        assert not found[-1] and found[:-1].all()
    else:
        assert np.allclose(moved[1:], lines[:-1]) and moved[0] == pytest.approx(lines[0] - CELL)
        assert not found[0] and found[1:].all()
    other = out.columns if axis == 0 else out.rows
    assert np.array_equal(other, lat.columns if axis == 0 else lat.rows)


def test_a_line_is_not_moved_among_candidates():
    xs, ys = seamed(12, seam=0.0), seamed(8, seam=0.0)
    padded = aligned_lattice(centres(xs, ys[1:]), CELL).completed(SHAPES, ((xs[0] + xs[-1]) / 2, ys[4]))
    assert padded.padded == (1, 0)
    with pytest.raises(ValueError, match="candidates"):
        padded.moved_line(0, True)
    assert len(padded.moved_line(1, True).columns) == 12


def test_completed_leaves_a_board_of_no_known_shape_near_alone():
    part = aligned_lattice(centres(seamed(5, seam=0.0), seamed(4, seam=0.0)), CELL)
    assert part.completed(SHAPES, (0.0, 0.0)) is part


def test_too_few_cells_is_no_lattice():
    assert aligned_lattice(np.array([[10.0, 10.0]]), CELL) is None
    assert aligned_lattice(centres([100.0], seamed(5)), CELL) is None


def test_square_blobs_keep_cell_sized_squares():
    mask = np.zeros((200, 300), np.uint8)
    mask[10:40, 10:40] = 1      # a cell
    mask[10:40, 60:150] = 1     # a long bar: no
    mask[100:108, 100:108] = 1  # a speck: no
    mask[120:150, 200:226] = 1  # a card's half: yes
    found = square_blobs(mask, CELL)
    assert sorted(np.round(found[:, :2]).astype(int).tolist()) == [[24, 24], [212, 134]]
    assert sorted(found[:, 2:].astype(int).tolist()) == [[26, 30], [30, 30]]  # width, height


def test_square_blobs_upright_within_a_bound_leave_out_those_turned_further():
    """On a view turned to a turned board, what lies along the table's edges is turned the other way."""
    mask = np.zeros((200, 300), np.uint8)
    mask[10:40, 10:40] = 1  # upright; then turned by 2, 8, -8 and 88 (-2) degrees
    for (x, y), turn in (((120.0, 30.0), 2.0), ((200.0, 30.0), 8.0), ((120.0, 120.0), -8.0), ((200.0, 120.0), 88.0)):
        box = cv2.boxPoints(((x, y), (29.0, 29.0), turn))
        cv2.fillConvexPoly(mask, np.round(box).astype(np.int32), 1)
    assert len(square_blobs(mask, CELL)) == 5  # each fills enough of its box
    upright = square_blobs(mask, CELL, upright_deg=4.0)
    assert sorted(np.round(upright[:, :2]).astype(int).tolist()) == [[24, 24], [120, 30], [200, 120]]


def test_a_column_between_two_arms_places_the_part_beyond_them():
    # as test render 3002833: two arms over columns 6-12 but for two spaces of one column, a
    # phone over part of columns 15-17; the lone column is too short to join by itself, and the
    # part beyond it lies further than MAX_JOIN from the first part (there a lens's bend also
    # left it off the pitch), but on the pitch from the column
    xs, ys = seamed(20), seamed(8)
    hidden = (tuple((x, y) for x in xs[6:13] for y in ys if not (x == xs[9] and y in ys[3:5]))
              + tuple((x, y) for x in xs[15:18] for y in ys[:4]))
    lat = aligned_lattice(centres(xs, ys, hidden, jitter=1.0), CELL)
    assert len(lat.columns) == 20
    assert lat.found_columns.tolist() == [True] * 6 + [False] * 3 + [True] + [False] * 3 + [True] * 7
    assert np.abs(lat.columns - np.array(xs)).max() < 3.0


@pytest.mark.parametrize("most, columns", [(0, 14), (20, 20)])
def test_a_board_mostly_hidden_grows_about_the_middle_to_the_longest_board(most, columns):
    # as test render 3003049: arms over the first 13 of 20 columns; the 7 that show lie right of
    # the table's middle, and doubling them falls short of the board
    xs, ys = seamed(20, seam=0.0), seamed(8, seam=0.0)
    shown = centres(xs[13:], ys)
    middle = ((xs[0] + xs[-1]) / 2, (ys[0] + ys[-1]) / 2)
    lat = aligned_lattice(shown, CELL).centred(middle, most=(most, 8))
    assert len(lat.columns) == columns and len(lat.rows) == 8
    assert np.abs(lat.columns - np.array(xs[20 - columns:])).max() < 3.0
