"""A fitted lattice made whole: its extent grown or shrunk to the board's, stray corners
mended, inner corners polished to sub-pixel, the outer ring carried on from the inner lines.
"""

from __future__ import annotations

import cv2
import numpy as np

from .lattice_fit import MIN_CELLS, SAMPLES_PER_CELL, Lattice, line_samples

#: A lattice line is part of the board when edges lie on it along at least this share of the
#: board (a chessboard's outer line shows edges along half its length), found within this
#: share of a cell of where the lattice predicts it; a side grows by at most MAX_EXTEND lines.
MIN_EDGE_SHARE = 0.35
EXTEND_SEARCH_SHARE = 0.12
MAX_EXTEND = 4
#: The strip beyond a side that is searched for the crossing lines going on (shares of a cell
#: out from the side; a chessboard's edge may cut its outer cells to under half their width).
STRIP = (0.08, 0.35)
#: A line beyond the board is guessed at the last spacing times its growth, held in this range.
EXTEND_RATIO = (0.8, 1.25)
#: A corner further than this share of a cell from where its neighbours put it is mended.
STRAY_CELLS = 0.12
MEND_ROUNDS = 2
#: Sub-pixel polish: half-window as a share of a cell, held within these pixels, and when to stop.
POLISH_WINDOW, POLISH_MAX_MOVE = 0.2, 0.3
POLISH_WINDOW_PX = (3, 12)
POLISH_CRITERIA = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.01)


def reach(strength: np.ndarray, lattice: Lattice) -> np.ndarray:
    """Corner guesses of ``lattice`` grown or shrunk at each side: a side loses its outer line
    while edges show along less than :data:`MIN_EDGE_SHARE` of it, and gains a line while
    the crossing lines go on into the strip beyond (the board's cells go on, perhaps cut)."""
    corners, cell = lattice.corners, lattice.cell_size_px()
    for _ in range(4):  # each side in turn: the side at axis 0's start, then rotate
        while corners.shape[0] > MIN_CELLS + 1 and _edge_share(strength, corners[0], cell) < MIN_EDGE_SHARE:
            corners = corners[1:]
        for _ in range(MAX_EXTEND):
            if corners.shape[0] < 3 or _edge_share(strength, corners[0], cell) < MIN_EDGE_SHARE:
                break  # beyond an edge that does not show (a cut cell's far side) lies no more board
            extra = beyond(corners)
            if _continues(strength, corners, extra, cell) < MIN_EDGE_SHARE:
                break
            corners = np.concatenate([extra[None], corners])
        corners = np.rot90(corners)  # the next side comes first (axes swap back after four turns)
    return corners


def _edge_share(strength: np.ndarray, line: np.ndarray, cell_px: float) -> float:
    """Share of the points along the polyline ``line`` (K, 2) of corners where an edge lies on it."""
    found = sum(len(line_samples(strength, p, q, 1, cell_px, EXTEND_SEARCH_SHARE)) for p, q in zip(line[:-1], line[1:]))
    return found / ((len(line) - 1) * SAMPLES_PER_CELL)


def _continues(strength: np.ndarray, corners: np.ndarray, extra: np.ndarray, cell_px: float) -> float:
    """Share of the crossing lines' points that show edges in the strip just beyond the first
    line of ``corners`` (towards ``extra``): cells there, whole or cut by the board's edge."""
    lo, hi = STRIP
    found = sum(len(line_samples(strength, p + lo * (q - p), p + hi * (q - p), 1, cell_px, EXTEND_SEARCH_SHARE,
                                 EXTEND_SEARCH_SHARE))
                for p, q in zip(corners[0], extra))
    return found / (len(extra) * SAMPLES_PER_CELL)


def beyond(corners: np.ndarray) -> np.ndarray:
    """The line of corners one step beyond the first line of ``corners`` (K, L, 2) along axis 0,
    its spacing scaled as the last two spacings scale (perspective)."""
    d0, d1 = corners[0] - corners[1], corners[1] - corners[2]
    ratio = np.linalg.norm(d0, axis=1) / np.maximum(np.linalg.norm(d1, axis=1), 1e-9)
    return corners[0] + d0 * np.clip(ratio, *EXTEND_RATIO)[:, None]


def mend(lattice: Lattice) -> Lattice:
    """``lattice`` with each inner corner that strays from where its inner neighbours put it
    by more than :data:`STRAY_CELLS` of a cell moved there (an edge of something else caught
    by a fit). The outer ring is left out: :func:`outer_ring` carries it on afterwards."""
    corners = lattice.corners.copy()
    if min(corners.shape[:2]) < 5:
        return lattice
    limit = STRAY_CELLS * lattice.cell_size_px()
    for _ in range(MEND_ROUNDS):
        inner = corners[1:-1, 1:-1]
        guess = _neighbour_guess(inner)
        stray = np.linalg.norm(inner - guess, axis=2) > limit  # NaN compares False: kept
        if not stray.any():
            break
        corners[1:-1, 1:-1] = np.where(stray[..., None], guess, inner)
    return Lattice(corners, lattice.homography, lattice.rms_px)


def _neighbour_guess(corners: np.ndarray) -> np.ndarray:
    """Where each corner's neighbours put it (K, L, 2): the median of the midpoint of its two
    neighbours and the straight extensions of the two on either side, along both axes (NaN
    where no neighbours are there)."""
    pad = np.full((corners.shape[0] + 4, corners.shape[1] + 4, 2), np.nan)
    pad[2:-2, 2:-2] = corners
    k, l = corners.shape[:2]

    def at(dr: int, dc: int) -> np.ndarray:
        return pad[2 + dr:2 + dr + k, 2 + dc:2 + dc + l]

    guesses = []
    for dr, dc in ((1, 0), (0, 1)):
        guesses += [(at(-dr, -dc) + at(dr, dc)) / 2, 2 * at(-dr, -dc) - at(-2 * dr, -2 * dc),
                    2 * at(dr, dc) - at(2 * dr, 2 * dc)]
    stack = np.stack(guesses)
    out = np.full(corners.shape, np.nan)
    some = np.any(np.all(np.isfinite(stack), axis=3), axis=0)
    out[some] = np.nanmedian(stack[:, some], axis=0)
    return out


def polish(grey: np.ndarray, lattice: Lattice) -> Lattice:
    """``lattice`` with its inner corners moved to where the image's gradients meet (OpenCV's
    sub-pixel corner refinement, in a window a quarter of a cell wide each side); a corner
    that would move further than :data:`POLISH_MAX_MOVE` of a cell keeps its place."""
    corners = lattice.corners.copy()
    inner = np.ascontiguousarray(corners[1:-1, 1:-1].reshape(-1, 1, 2), np.float32)
    if not len(inner):
        return lattice
    cell = lattice.cell_size_px()
    half = int(np.clip(round(POLISH_WINDOW * cell), *POLISH_WINDOW_PX))
    h, w = grey.shape
    flat = inner.reshape(-1, 2)
    room = np.all((flat > half + 1) & (flat < np.array([w, h]) - half - 2), axis=1)  # whole window inside
    moved = flat.copy()
    if room.any():
        moved[room] = cv2.cornerSubPix(grey, np.ascontiguousarray(inner[room]), (half, half), (-1, -1),
                                       POLISH_CRITERIA).reshape(-1, 2)
    far = np.linalg.norm(moved - flat, axis=1) > POLISH_MAX_MOVE * cell
    moved[far] = flat[far]
    corners[1:-1, 1:-1] = moved.reshape(corners[1:-1, 1:-1].shape)
    return Lattice(corners, lattice.homography, lattice.rms_px)


def outer_ring(lattice: Lattice) -> Lattice:
    """``lattice`` with its outer ring of corners carried on from the lines inside it.

    A board's outer edge is a poor witness of its lattice: the edge of a chessboard's frame
    may cut its outer cells, and a white cell on a white rim shows no edge at all. So the
    outer lines continue the spacing of the inner ones (when a side has at least three inner
    lines to go on from)."""
    corners = lattice.corners.copy()
    for ends in (False, True):  # the sides' inner points first, then the four corners from them
        for _ in range(4):
            if corners.shape[0] >= 4 and corners.shape[1] >= 3:
                part = slice(0, 1) if ends else slice(1, -1)
                corners[0, part] = beyond(corners[1:, part])
            corners = np.rot90(corners)
    return Lattice(np.ascontiguousarray(corners), lattice.homography, lattice.rms_px)
