"""Find a board of square cells in a photograph: rows, columns, each cell's corners and colour.

No markers and no known size are needed. The steps (each a pure function over arrays):

1. straight edge segments, split into the two dominant line families, whose vanishing points
   give a transform that makes both families parallel and upright (:mod:`.lattice_lines`);
2. in that frame, each family's ladder of lines, and the run of lines that edges cover: the
   board's extent (:mod:`.lattice_ladder`);
3. every lattice line fitted to the image's edges; each corner is where its two lines cross,
   fitted near the corner so that a lens's bending does not move it; a homography from
   lattice coordinates to the image checks the whole and stands in for corners no edge shows
   (a hand over the board) (:mod:`.lattice_fit`);
4. the extent grown or shrunk to the board's edges, a second, close fit, stray corners
   mended, inner corners polished, the outer ring carried on from the inner lines
   (:mod:`.lattice_refine`).

Convention: rows run down the image and columns across it; the column boundaries are the
family of lines closer to the image's vertical. Row 0 is the top row in the image, column 0
the left column. Cell corners are given top-left, top-right, bottom-right, bottom-left as seen
in the image (x right, y down, pixels). Colours are BGR, the OpenCV order.
"""

from __future__ import annotations

import cv2
import numpy as np

from .lattice_fit import MIN_CELLS, Lattice, LatticeError, edge_strength, fit_corners, project
from .lattice_ladder import Ladder, extent, grow_ladder
from .lattice_lines import detect_segments, frame_segments, merge_segments, split_families
from .lattice_refine import mend, outer_ring, polish, reach

__all__ = ["Lattice", "LatticeError", "find_lattice", "cell_colours", "colour_name", "lattice_json"]

#: A lattice whose corners stray from one homography by more than this share of a cell (RMS)
#: is not a flat board of square cells.
MAX_RMS_CELLS = 0.2
#: Rounds of line fitting (the later ones start from the previous round's corners, grown or
#: shrunk to the board's extent).
FIT_ROUNDS = 2
#: An image whose saturation spreads at least this much (std, 0-255) is searched for edges in
#: its saturation too.
COLOURFUL_STD = 20.0
#: Colour means leave out this share of a cell at each side (gaps, rims, bleeding edges).
COLOUR_INSET = 0.2
#: Colour names: below this value (HSV V, 0-255) a colour is black; below this saturation
#: it is white (V at least WHITE_VALUE) or grey; else named by hue (OpenCV H, 0-180).
BLACK_VALUE, GREY_SATURATION, WHITE_VALUE = 60, 60, 170
HUE_NAMES = ((8, "red"), (20, "orange"), (34, "yellow"), (85, "green"), (100, "cyan"), (130, "blue"),
             (160, "purple"), (180, "red"))


def find_lattice(image: np.ndarray) -> Lattice:
    """The board of square cells in ``image``.

    Parameters
    ----------
    image : ndarray (H, W, 3) uint8 BGR or (H, W) uint8 grey

    Raises
    ------
    LatticeError
        No two families of straight lines, no periodic spacing, fewer than
        :data:`MIN_CELLS` cells a side, or corners that no flat lattice explains.
    """
    channels = _channels(image)
    size = (channels[0].shape[1], channels[0].shape[0])
    fams = split_families(merge_segments([detect_segments(ch) for ch in channels]), size)
    if fams is None:
        raise LatticeError("no lattice of square cells found: the image shows no two families of straight lines")
    cols, rows = frame_segments(fams.columns, fams.to_frame), frame_segments(fams.rows, fams.to_frame)
    lad_c = grow_ladder(cols[:, :, 0].mean(axis=1), fams.columns.lengths)
    lad_r = grow_ladder(rows[:, :, 1].mean(axis=1), fams.rows.lengths)
    if lad_c is None or lad_r is None:
        raise LatticeError("no lattice of square cells found: the straight lines are not evenly spaced")
    ext = extent(cols, rows, lad_c, lad_r)
    if ext is None:
        raise LatticeError(f"no lattice of square cells found: fewer than {MIN_CELLS} cells a side "
                           "show their edges")
    guess = _frame_corners(*ext, fams.to_frame)
    strengths = [edge_strength(ch) for ch in channels]
    strength = np.maximum.reduce(strengths)
    lattice = fit_corners(strength, guess)
    for _ in range(FIT_ROUNDS - 1):
        lattice = fit_corners(strength, reach(strength, lattice), refine=True)
    lattice = mend(lattice)
    lattice = outer_ring(mend(polish(_sharpest(channels, strengths, lattice), lattice)))
    cell = lattice.cell_size_px()
    if lattice.rms_px > MAX_RMS_CELLS * cell:
        raise LatticeError(f"no lattice of square cells found: the corners stray {lattice.rms_px:.1f} px from "
                           f"a flat grid of {cell:.0f} px cells")
    return lattice


def _channels(image: np.ndarray) -> list[np.ndarray]:
    """The grey images that edges are looked for in: grey, and for a colourful image also its
    saturation (coloured cells on a pale board differ little in grey, much in saturation)."""
    grey = _grey(image)
    if image.ndim == 2:
        return [grey]
    saturation = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)[..., 1]
    return [grey, saturation] if float(saturation.std()) >= COLOURFUL_STD else [grey]


def _sharpest(channels: list[np.ndarray], strengths: list[np.ndarray], lattice: Lattice) -> np.ndarray:
    """The channel whose edges are strongest along the lattice's lines (mid-points of cell sides)."""
    c = lattice.corners
    mids = np.concatenate([((c[1:] + c[:-1]) / 2).reshape(-1, 2), ((c[:, 1:] + c[:, :-1]) / 2).reshape(-1, 2)])
    h, w = channels[0].shape
    xy = np.clip(np.round(mids).astype(int), 0, [w - 1, h - 1])
    return channels[int(np.argmax([float(st[xy[:, 1], xy[:, 0]].mean()) for st in strengths]))]


def _grey(image: np.ndarray) -> np.ndarray:
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8 or image.ndim not in (2, 3) \
            or (image.ndim == 3 and image.shape[2] != 3) or min(image.shape[:2]) < 1:
        got = f"{image.dtype} {image.shape}" if isinstance(image, np.ndarray) else type(image).__name__
        raise LatticeError(f"the lattice finder needs a uint8 image (H, W, 3) BGR or (H, W) grey, got {got}")
    return image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def _frame_corners(lad_c: Ladder, lad_r: Ladder, to_frame: np.ndarray) -> np.ndarray:
    """Image corners (rows + 1, columns + 1, 2) where the two ladders' lines cross."""
    x = lad_c.at(np.arange(lad_c.first, lad_c.last + 1))
    y = lad_r.at(np.arange(lad_r.first, lad_r.last + 1))
    frame = np.stack(np.meshgrid(x, y), axis=2)
    return project(np.linalg.inv(to_frame), frame)


def cell_colours(image: np.ndarray, lattice: Lattice, inset: float = COLOUR_INSET) -> np.ndarray:
    """Mean BGR colour (rows, columns, 3) float64 of each cell's middle.

    Parameters
    ----------
    image : ndarray (H, W, 3) uint8 BGR
    lattice : Lattice
    inset : float
        Share of the cell left out at each side, in [0, 0.5).
    """
    if image.ndim != 3 or image.shape[2] != 3:
        raise LatticeError(f"cell colours need a BGR image (H, W, 3), got shape {image.shape}")
    quads = lattice.cell_quads()
    centre = quads.mean(axis=2, keepdims=True)
    inner = centre + (quads - centre) * (1.0 - 2.0 * inset)
    labels = np.zeros(image.shape[:2], np.int32)
    for n, q in enumerate(inner.reshape(-1, 4, 2)):
        cv2.fillConvexPoly(labels, np.round(q).astype(np.int32), n + 1)
    count = np.bincount(labels.ravel(), minlength=len(inner.reshape(-1, 4, 2)) + 1)[1:]
    out = np.stack([np.bincount(labels.ravel(), weights=image[..., ch].ravel(), minlength=len(count) + 1)[1:]
                    for ch in range(3)], axis=1)
    means = out / np.maximum(count, 1)[:, None]
    # a cell too small to hold a whole pixel: its centre pixel
    for n in np.nonzero(count == 0)[0]:
        x, y = np.clip(np.round(centre.reshape(-1, 2)[n]).astype(int), 0, [image.shape[1] - 1, image.shape[0] - 1])
        means[n] = image[y, x]
    return means.reshape(lattice.rows, lattice.columns, 3)


def colour_name(bgr) -> str:
    """A plain name of a BGR colour: black, white, grey, or a hue name."""
    pixel = np.clip(np.round(np.asarray(bgr, np.float64)), 0, 255).astype(np.uint8).reshape(1, 1, 3)
    h, s, v = (int(x) for x in cv2.cvtColor(pixel, cv2.COLOR_BGR2HSV)[0, 0])
    if v < BLACK_VALUE:
        return "black"
    if s < GREY_SATURATION:
        return "white" if v >= WHITE_VALUE else "grey"
    return next(name for top, name in HUE_NAMES if h < top or top == 180)


def lattice_json(lattice: Lattice, colours: np.ndarray) -> dict:
    """The lattice as plain JSON: rows, columns and per cell its corners, mean BGR and name."""
    quads = lattice.cell_quads()
    cells = [{"row": r, "column": c, "corners": np.round(quads[r, c], 2).tolist(),
              "mean_bgr": np.round(colours[r, c], 1).tolist(), "colour": colour_name(colours[r, c])}
             for r in range(lattice.rows) for c in range(lattice.columns)]
    return {"rows": lattice.rows, "columns": lattice.columns, "colour_order": "BGR",
            "corner_order": ["top-left", "top-right", "bottom-right", "bottom-left"],
            "rms_px": round(lattice.rms_px, 3), "cell_px": round(lattice.cell_size_px(), 2),
            "homography": np.round(lattice.homography, 8).tolist(), "cells": cells}
