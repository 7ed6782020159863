"""The lattice finder: real chessboard photographs against OpenCV's chessboard corners,
synthetic boards under known homographies, and images without a lattice."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tableref.vision.lattice import LatticeError, cell_colours, colour_name, find_lattice, lattice_json

#: OpenCV's sample calibration photographs: 9 x 6 inner corners, so 10 x 7 squares.
PATTERN = (9, 6)
SUBPIX = ((5, 5), (-1, -1), (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.1))
#: Inner corners lie within this of OpenCV's refined chessboard corners (px).
CORNER_TOLERANCE_PX = 2.0
#: The outer ring (no reference) lies within this share of a cell of where the reference
#: corners' lines, carried straight on one cell, put it (perspective and the lens bend them a little).
RING_TOLERANCE_CELLS = 0.25

# Photographs the finder reads (of the 26 in the set, three are not: see docs/grid.md).
REAL = ["left01", "left02", "left03", "left04", "left05", "left06", "left07", "left08", "left09", "left11",
        "left12", "left13", "right01", "right03", "right04", "right05", "right06", "right08", "right09",
        "right11", "right12", "right13", "right14"]


def reference_corners(grey: np.ndarray) -> np.ndarray:
    found, corners = cv2.findChessboardCorners(grey, PATTERN)
    assert found
    return cv2.cornerSubPix(grey, corners, *SUBPIX).reshape(PATTERN[1], PATTERN[0], 2)


@pytest.mark.parametrize("name", REAL)
def test_real_chessboard_matches_opencv_corners(shared_data, name):
    image = cv2.imread(str(shared_data / "chessboard-9x6" / f"{name}.jpg"))
    ref = reference_corners(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    lattice = find_lattice(image)
    assert {lattice.rows, lattice.columns} == {7, 10}
    inner = lattice.corners[1:-1, 1:-1].reshape(-1, 2)
    assert len(inner) == PATTERN[0] * PATTERN[1]
    nearest = np.linalg.norm(ref.reshape(-1, 1, 2) - inner[None], axis=2)
    assert nearest.min(axis=1).max() < CORNER_TOLERANCE_PX
    assert len(set(nearest.argmin(axis=1))) == len(inner)  # one reference corner per lattice corner
    # the outer ring has no reference: it must carry on the reference corners' lines, one cell out
    matched = ref.reshape(-1, 2)[nearest.argmin(axis=0)].reshape(lattice.rows - 1, lattice.columns - 1, 2)
    full = np.full(lattice.corners.shape, np.nan)
    full[1:-1, 1:-1] = matched
    for _ in range(4):  # each side in turn: straight on from the two reference lines inside it
        full[0, 1:-1] = 2 * full[1, 1:-1] - full[2, 1:-1]
        full = np.rot90(full)
    full[0, 0], full[0, -1] = 2 * full[1, 1] - full[2, 2], 2 * full[1, -2] - full[2, -3]
    full[-1, 0], full[-1, -1] = 2 * full[-2, 1] - full[-3, 2], 2 * full[-2, -2] - full[-3, -3]
    cell = lattice.cell_size_px()
    ring = np.ones(full.shape[:2], bool)
    ring[1:-1, 1:-1] = False
    assert np.linalg.norm(lattice.corners[ring] - full[ring], axis=1).max() < RING_TOLERANCE_CELLS * cell


#: Synthetic boards: inner corners within this of the truth (px).
INNER_TOLERANCE_PX = 1.0
COLOURS = {"red": (40, 40, 220), "yellow": (30, 210, 230), "green": (60, 170, 40), "blue": (200, 110, 20)}


def synthetic_board(rows: int, cols: int, cell: int, gap: int, tilt: np.ndarray, seed: int):
    """A board of coloured cells on a pale base, photographed through homography ``tilt``
    (board px -> image px) onto a grey table: (image, true corners (rows+1, cols+1, 2), names)."""
    rng = np.random.default_rng(seed)
    names = rng.choice(sorted(COLOURS), (rows, cols))
    margin = 20
    flat = np.full((rows * cell + 2 * margin, cols * cell + 2 * margin, 3), (205, 212, 214), np.uint8)
    for r in range(rows):
        for c in range(cols):  # 2 * gap pale pixels between cells: the line between them at k * cell - 0.5
            x0, y0 = margin + c * cell + gap, margin + r * cell + gap
            flat[y0:y0 + cell - 2 * gap, x0:x0 + cell - 2 * gap] = COLOURS[names[r, c]]
    image = cv2.warpPerspective(flat, tilt, (960, 720), borderValue=(120, 128, 130))
    image = cv2.GaussianBlur(image, (0, 0), 0.8)
    noise = rng.normal(0, 3, image.shape)
    image = np.clip(image + noise, 0, 255).astype(np.uint8)
    grid = np.stack(np.meshgrid(np.arange(cols + 1), np.arange(rows + 1)), axis=2) * cell + margin - 0.5
    truth = cv2.perspectiveTransform(grid.reshape(-1, 1, 2).astype(np.float64), tilt).reshape(rows + 1, cols + 1, 2)
    return image, truth, names


def tilt(shift=(80.0, 60.0), turn_deg=0.0, lean=0.0, scale=1.0) -> np.ndarray:
    a = np.deg2rad(turn_deg)
    m = np.array([[scale * np.cos(a), -scale * np.sin(a), shift[0]], [scale * np.sin(a), scale * np.cos(a), shift[1]],
                  [0.0, lean, 1.0]])
    return m


SYNTHETIC = [
    # rows, columns, cell px, gap px, homography, seed
    (4, 6, 60, 2, tilt(), 1),
    (8, 12, 40, 1, tilt((120.0, 80.0), 4.0), 2),
    (6, 6, 50, 2, tilt((200.0, 120.0), -7.0, 0.0004), 3),
    (8, 8, 45, 2, tilt((250.0, 80.0), 10.0, 0.0003, 0.9), 4),
]


@pytest.mark.parametrize("rows, cols, cell, gap, homography, seed", SYNTHETIC)
def test_synthetic_boards_give_every_cell_and_colour(rows, cols, cell, gap, homography, seed):
    image, truth, names = synthetic_board(rows, cols, cell, gap, homography, seed)
    lattice = find_lattice(image)
    assert (lattice.rows, lattice.columns) == (rows, cols)
    error = np.linalg.norm(lattice.corners - truth, axis=2)
    assert error[1:-1, 1:-1].max() < INNER_TOLERANCE_PX  # fitted to the edges
    assert error.max() < RING_TOLERANCE_CELLS * cell  # the outer ring carries the inner lines on
    colours = cell_colours(image, lattice)
    assert [[colour_name(colours[r, c]) for c in range(cols)] for r in range(rows)] == names.tolist()
    data = lattice_json(lattice, colours)
    assert data["rows"] == rows and len(data["cells"]) == rows * cols and data["colour_order"] == "BGR"


def _stripes() -> np.ndarray:
    img = np.full((480, 640, 3), 200, np.uint8)
    img[:, ::40] = 20
    return img


@pytest.mark.parametrize("make, message", [
    (lambda: np.full((480, 640, 3), 128, np.uint8), "no two families"),
    (lambda: np.random.default_rng(5).integers(0, 256, (480, 640, 3), dtype=np.uint8), "no lattice"),
    (_stripes, "no lattice"),
    (lambda: np.zeros((480, 640), np.float32), "uint8"),
])
def test_no_lattice_is_a_clear_error(make, message):
    with pytest.raises(LatticeError, match=message):
        find_lattice(make())


@pytest.mark.parametrize("bgr, name", [
    ((10, 10, 10), "black"), ((250, 250, 250), "white"), ((128, 128, 128), "grey"), ((40, 40, 220), "red"),
    ((30, 210, 230), "yellow"), ((60, 170, 40), "green"), ((200, 110, 20), "blue"), ((0, 128, 255), "orange"),
])
def test_colour_names(bgr, name):
    assert colour_name(bgr) == name
