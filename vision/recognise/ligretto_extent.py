"""Which part of the lattice found is the board: the rows and columns read as the board's.

The lattice (:mod:`~tableref.vision.lattice_cells`) may reach beyond the board: a player's
cards laid in line with its rows, candidate lines added on both sides of a board short of a
known shape, edge lines whose spaces all read off the board. Given each place's kind as the
cover classifiers read it, these functions keep the board's part: pure functions of arrays.
"""

from __future__ import annotations

import numpy as np

from .ligretto_labels import HIDDEN, OFF


def settle_padding(keep: tuple[int, int], lines: int, n: int, leaning: int | None = None,
                   bare: tuple[bool, bool] = (False, False)) -> tuple[int, int]:
    """The extent ``keep`` (first, last) of ``lines`` whose first and last ``n`` are candidates
    added on both sides (a board short of a known shape): the extent has dropped those showing
    the table. Where it kept more than ``n`` of them (things over both sides), or none while the
    board's middle is known, which side is the board's the table does not tell: ``leaning``
    decides (how many before the lines found the board's middle puts on it), and with no middle
    known none is kept. Where it kept none and the candidates on one side show bare table alone
    (``bare``: before, after), the board's lines are the other side's, whatever the middle says:
    a side under a pale sleeve reads partly as table and is dropped too (test render 3003211,
    its far row under a sleeve, its middle half a row from the table's)."""
    if not n:
        return keep
    lo, hi = keep
    kept = max(0, n - lo) + max(0, hi - (lines - 1 - n))
    if kept == 0 and bare[0] != bare[1]:
        leaning = 0 if bare[0] else n
    if kept > n or (kept == 0 and leaning is not None):
        if leaning is None:
            return max(lo, n), min(hi, lines - 1 - n)
        return (n - leaning if lo <= n else lo), (lines - 1 - leaning if hi >= lines - 1 - n else hi)
    return keep


def bare_candidates(kinds: np.ndarray, n: int) -> tuple[bool, bool]:
    """Whether the first ``n`` rows of ``kinds`` and whether its last ``n`` read every place off
    the board: the candidate lines on each side show bare table alone (:func:`settle_padding`)."""
    if not n:
        return False, False
    return bool((kinds[:n] == OFF).all()), bool((kinds[-n:] == OFF).all())


#: First and last row, first and last column (inclusive) of the part of a grid kept as the board.
Extent = tuple[tuple[int, int], tuple[int, int]]


#: Parts of the lattice beyond a line of bare table less dense in spaces than this share of
#: its densest part are dropped (:func:`board_extent`). Density is the share of spaces among
#: the places that show, hidden ones left aside (since 2026-12-07; before, spaces per line: a
#: part mostly under an arm looked as sparse as a player's cards, test render 3003503 turned
#: by 3 degrees and 20 mm off the middle, read 8 x 6 for 8 x 12; the other 5,499 test and
#: validation renders compared, laid square, turned and off the middle, read the same).
SPARSE_PART = 0.5


def _dense_span(on: np.ndarray, bare: np.ndarray, axis: int, off: np.ndarray | None = None) -> tuple[int, int]:
    """First and last line along ``axis`` (0 rows, 1 columns) of the parts of a grid, split at
    ``bare`` lines, that are at least :data:`SPARSE_PART` as dense in places showing a space
    (``on``) as the part with the most of them; the whole grid where no line is bare. Density:
    with ``off`` (the places showing the table), the share of spaces among the places showing
    a space or the table; without, spaces per line."""
    counts = on.sum(axis=1 - axis)
    parts, start = [], None
    for i, is_bare in enumerate(list(bare) + [True]):
        if not is_bare and start is None:
            start = i
        elif is_bare and start is not None:
            parts.append((start, i - 1))
            start = None
    if len(parts) < 2:
        return 0, len(bare) - 1
    shown = [int(counts[a:b + 1].sum()) for a, b in parts]
    if off is None:
        density = [n / (b - a + 1) for n, (a, b) in zip(shown, parts)]
    else:
        table = off.sum(axis=1 - axis)
        density = [n / max(n + int(table[a:b + 1].sum()), 1) for n, (a, b) in zip(shown, parts)]
    main = int(np.argmax(shown))
    kept = [part for part, d in zip(parts, density) if d >= SPARSE_PART * density[main]]
    return kept[0][0], kept[-1][1]


#: An edge line showing no space of the board lies beyond it where, along at least this many
#: lines across it, bare table lies between it and the first space shown (:func:`_bare_beyond`).
#: Counting also the lines across along which a cover lies there, and asking that the bare ones
#: be no fewer: on the 300 test renders 3000000.. laid 40 mm off the table's middle 2 fewer
#: boards exactly right (284 against 286) and on the eleventh set of 300 one fewer (3003152);
#: the other test and validation renders alike.
BARE_ACROSS = 2


def _bare_beyond(on: np.ndarray, off: np.ndarray) -> bool:
    """Whether the first row of these places (rows from an edge inward, columns across it)
    lies beyond the board's edge: along at least :data:`BARE_ACROSS` columns the places before
    the first space shown are all bare table. A board off the table's middle, the lines the
    middle added beyond its edge partly under an arm that also hides part of the board: where
    the edge shows, it shows bare table beyond it. (An arm's pale sleeve reads as bare table
    too: over the board's edge rows at two columns, it takes them off.)"""
    bare = 0
    for shown, table in zip(on.T, off.T):
        if shown.any():
            k = int(np.argmax(shown))
            bare += bool(k >= 1 and table[:k].all())
    return bare >= BARE_ACROSS


def board_extent(kinds: np.ndarray) -> Extent:
    """First and last row and column (inclusive) of the grid of ``kinds`` after dropping edge
    rows and columns that show no space of the board and mostly places off it (a row that a
    hand hides is kept: it may be the board's, and its spaces are unknown), or that show bare
    table between them and the board's spaces (:func:`_bare_beyond`).

    First, where such rows or columns of bare table cut the grid into parts, the parts beyond
    them far sparser in spaces than the densest (:data:`SPARSE_PART`) are dropped: they are
    the players' cards laid beside the board, joined to its lattice in line with its rows
    (render 3000403, of `tableref bench --recognition --game ligretto --seed 300`: its lattice
    so reached 16 rows for 8). An arm's pale sleeve across the board also reads as bare
    table; the board's spaces on both sides of it are dense alike (validation renders
    2000335, 2000393, 2000437, 2000527, 2000537: all kept)."""
    on = (kinds != OFF) & (kinds != HIDDEN)
    off, hidden = kinds == OFF, kinds == HIDDEN

    def drop(rows: slice, cols: slice) -> bool:
        return not on[rows, cols].any() and int(off[rows, cols].sum()) > int(hidden[rows, cols].sum())

    bare_rows = [drop(slice(r, r + 1), slice(None)) for r in range(kinds.shape[0])]
    r0, r1 = _dense_span(on, np.array(bare_rows), 0, off)
    bare_cols = [drop(slice(r0, r1 + 1), slice(c, c + 1)) for c in range(kinds.shape[1])]
    c0, c1 = _dense_span(on[r0:r1 + 1], np.array(bare_cols), 1, off[r0:r1 + 1])
    sides = ((lambda x: x), (lambda x: x[::-1]), (lambda x: x.T), (lambda x: x.T[::-1]))  # top, bottom, left, right

    def edge(rows: slice, cols: slice, side: int) -> bool:
        if drop(rows, cols):
            return True
        if on[rows, cols].any():
            return False
        inward = sides[side]  # the edge line first, the lines across it as columns
        block = (slice(r0, r1 + 1), slice(c0, c1 + 1))
        return _bare_beyond(inward(on[block]), inward(off[block]))

    changed = True
    while changed and r1 > r0 and c1 > c0:
        changed = False
        if edge(slice(r0, r0 + 1), slice(c0, c1 + 1), 0):
            r0, changed = r0 + 1, True
        if edge(slice(r1, r1 + 1), slice(c0, c1 + 1), 1):
            r1, changed = r1 - 1, True
        if edge(slice(r0, r1 + 1), slice(c0, c0 + 1), 2):
            c0, changed = c0 + 1, True
        if edge(slice(r0, r1 + 1), slice(c1, c1 + 1), 3):
            c1, changed = c1 - 1, True
    return (r0, r1), (c0, c1)


def known_shape(keep_r: tuple[int, int], keep_c: tuple[int, int], lines: tuple[int, int],
                 padded: tuple[int, int], shapes: tuple[tuple[int, int], ...]) -> Extent:
    """The extent (rows, columns) kept, or the whole lattice along an axis where dropping its
    edge lines made a board of known shape (``shapes``, rows x columns) into none: an arm over
    a board's edge rows whose pale sleeve reads as bare table does not cut the rows off (their
    spaces, read off the board, are unknown). An axis with candidate lines on both sides
    (``padded``) keeps what :func:`settle_padding` decided."""
    def size(r: tuple[int, int], c: tuple[int, int]) -> tuple[int, int]:
        return r[1] - r[0] + 1, c[1] - c[0] + 1

    whole_r = keep_r if padded[0] else (0, lines[0] - 1)
    whole_c = keep_c if padded[1] else (0, lines[1] - 1)
    if not shapes or size(keep_r, keep_c) in shapes or size(whole_r, whole_c) not in shapes:
        return keep_r, keep_c
    for r, c in ((whole_r, keep_c), (keep_r, whole_c)):
        if size(r, c) in shapes:
            return r, c
    return whole_r, whole_c


#: At most this many edge lines that show no space are dropped to make a board of known shape
#: (:func:`trimmed_to_shape`).
MAX_TRIM = 4


def _blank_run(on: np.ndarray) -> int:
    """How many of the first rows of ``on`` show no space, one after another."""
    shows = on.any(axis=1)
    return int(np.argmax(shows)) if shows.any() else len(on)


def trimmed_to_shape(kinds: np.ndarray, keep_r: tuple[int, int], keep_c: tuple[int, int],
                     shapes: tuple[tuple[int, int], ...]) -> Extent:
    """The extent kept (rows, columns of ``kinds``), less the fewest edge lines that show no
    space of the board (at most :data:`MAX_TRIM`) that leave a board of known shape
    (``shapes``), where the extent is of none: of such ways, the one whose lines read most
    places off the board; none where two read alike. The centring about the table's middle
    adds hidden lines on the side a board off the middle lies short of it: an arm over that
    side leaves them all hidden (test renders 3000371 and 3000355 turned by 8 degrees and 30 mm
    off the middle, read 10 x 20 for 8 x 20; one line was all it dropped until 2026-12-07)."""
    size = (keep_r[1] - keep_r[0] + 1, keep_c[1] - keep_c[0] + 1)
    if not shapes or size in shapes:
        return keep_r, keep_c
    part = kinds[keep_r[0]:keep_r[1] + 1, keep_c[0]:keep_c[1] + 1]
    on, off = (part != OFF) & (part != HIDDEN), part == OFF
    top, bottom, left, right = _blank_run(on), _blank_run(on[::-1]), _blank_run(on.T), _blank_run(on.T[::-1])
    (r0, r1), (c0, c1) = keep_r, keep_c
    options, all_off = {}, int(off.sum())
    for rows, cols in shapes:
        dr, dc = size[0] - rows, size[1] - cols
        if dr < 0 or dc < 0 or dr + dc > MAX_TRIM:
            continue
        for a in range(max(0, dr - bottom), min(dr, top) + 1):
            for c in range(max(0, dc - right), min(dc, left) + 1):
                dropped_off = all_off - int(off[a:size[0] - (dr - a), c:size[1] - (dc - c)].sum())
                options[(r0 + a, r1 - (dr - a)), (c0 + c, c1 - (dc - c))] = (dr + dc, -dropped_off)
    if not options:
        return keep_r, keep_c
    ranked = sorted(options.items(), key=lambda o: o[1])
    if len(ranked) > 1 and ranked[0][1] == ranked[1][1]:
        return keep_r, keep_c
    return ranked[0][0]


def _bare_lines(kinds: np.ndarray) -> np.ndarray:
    """Whether each row of ``kinds`` shows no space of the board and more places off it than
    hidden: a line of bare table (the rule :func:`board_extent` drops edge lines by)."""
    on = ((kinds != OFF) & (kinds != HIDDEN)).any(axis=1)
    return ~on & ((kinds == OFF).sum(axis=1) > (kinds == HIDDEN).sum(axis=1))


def parted_to_shape(kinds: np.ndarray, keep_r: tuple[int, int], keep_c: tuple[int, int],
                    shapes: tuple[tuple[int, int], ...]) -> Extent:
    """The extent kept (rows, columns of ``kinds``), less the part beyond a line of bare table
    across it, where the extent is of no known shape (``shapes``) and what is left, its edge
    lines of bare table dropped (:func:`board_extent`), is: the one such board, and it shows
    more spaces than the part dropped. A player's cards laid in line with the board beside it,
    as densely as the board's own spaces, are joined to its lattice beyond a few columns of
    bare table (test render 3003767: 9 x 25 read for an 8 x 20 board, its corner under a mug);
    the bare lines tell where the board ends. Otherwise the extent as it is."""
    size = (keep_r[1] - keep_r[0] + 1, keep_c[1] - keep_c[0] + 1)
    if not shapes or size in shapes:
        return keep_r, keep_c
    part = kinds[keep_r[0]:keep_r[1] + 1, keep_c[0]:keep_c[1] + 1]
    on = (part != OFF) & (part != HIDDEN)
    found = set()
    for axis in (0, 1):
        lines = part if axis == 0 else part.T
        for b in np.flatnonzero(_bare_lines(lines)):
            for lo, hi in ((0, b - 1), (b + 1, len(lines) - 1)):
                if hi < lo:
                    continue
                sub = part[lo:hi + 1] if axis == 0 else part[:, lo:hi + 1]
                (r0, r1), (c0, c1) = board_extent(sub)
                if axis == 0:
                    r0, r1 = r0 + lo, r1 + lo
                else:
                    c0, c1 = c0 + lo, c1 + lo
                kept = int(on[r0:r1 + 1, c0:c1 + 1].sum())
                if (r1 - r0 + 1, c1 - c0 + 1) in shapes and kept > int(on.sum()) - kept:
                    found.add(((r0 + keep_r[0], r1 + keep_r[0]), (c0 + keep_c[0], c1 + keep_c[0])))
    return found.pop() if len(found) == 1 else (keep_r, keep_c)


def bare_added_edge(kinds: np.ndarray, keep_r: tuple[int, int], keep_c: tuple[int, int],
                    found_rows: np.ndarray, found_columns: np.ndarray) -> tuple[int, bool] | None:
    """Where the extent kept (rows, columns of ``kinds``) has at one end a line of bare table
    (:func:`_bare_lines`) that was added, not found (``found_rows``, ``found_columns``), while
    it reaches the lattice's last line at the other end: (axis, to_end), the axis (0 rows, 1
    columns) and whether the board's missing line lies beyond its end (else before its start).
    The centring adds the lines a hand hides on the side short of the table's middle; a board
    off the middle may lack them on the other (test render 3000254 laid 40 mm left of the middle: a
    column of bare table added on the right, kept for the known shape, its first column under
    an arm). None where no such line is, or two are."""
    (r0, r1), (c0, c1) = keep_r, keep_c
    part = kinds[r0:r1 + 1, c0:c1 + 1]
    rows, cols = kinds.shape
    moves = []
    for axis, bare, (a, b), n, found in ((0, _bare_lines(part), keep_r, rows, found_rows),
                                         (1, _bare_lines(part.T), keep_c, cols, found_columns)):
        if bare[0] and not found[a] and b == n - 1:
            moves.append((axis, True))
        if bare[-1] and not found[b] and a == 0:
            moves.append((axis, False))
    return moves[0] if len(moves) == 1 else None


def kept_unbare(kinds: np.ndarray, keep_r: tuple[int, int], keep_c: tuple[int, int], axis: int, line: int) -> bool:
    """Whether ``line`` (a row where ``axis`` is 0, else a column, of ``kinds``) lies within the
    extent kept and is no line of bare table there (:func:`_bare_lines`): a line moved to a
    board's other end (:func:`bare_added_edge`) that shows bare table too was no better."""
    (r0, r1), (c0, c1) = keep_r, keep_c
    lo, hi = (r0, r1) if axis == 0 else (c0, c1)
    if not lo <= line <= hi:
        return False
    across = kinds[line, c0:c1 + 1] if axis == 0 else kinds[r0:r1 + 1, line]
    return not bool(_bare_lines(across[None, :])[0])


def board_part(kinds: np.ndarray, padded: tuple[int, int], leaning: tuple[int | None, int | None],
               shapes: tuple[tuple[int, int], ...]) -> Extent:
    """The part of a lattice's grid of ``kinds`` that is the board: the extent
    (:func:`board_extent`), its candidate lines settled (``padded`` and ``leaning`` as the
    lattice's, :func:`settle_padding`, :func:`bare_candidates`), a known shape (``shapes``)
    kept (:func:`known_shape`) or made (:func:`trimmed_to_shape`, :func:`parted_to_shape`)."""
    rows, cols = kinds.shape
    keep_r, keep_c = board_extent(kinds)
    keep_r = settle_padding(keep_r, rows, padded[0], leaning[0],
                            bare_candidates(kinds[:, keep_c[0]:keep_c[1] + 1], padded[0]))
    keep_c = settle_padding(keep_c, cols, padded[1], leaning[1],
                            bare_candidates(kinds[keep_r[0]:keep_r[1] + 1].T, padded[1]))
    keep_r, keep_c = known_shape(keep_r, keep_c, (rows, cols), padded, shapes)
    keep_r, keep_c = trimmed_to_shape(kinds, keep_r, keep_c, shapes)
    return parted_to_shape(kinds, keep_r, keep_c, shapes)
