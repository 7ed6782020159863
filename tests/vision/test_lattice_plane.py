"""The plane of a lattice from its cells: squares drawn through a known homography (a table
rectified wrongly) come out square, upright and at the pitch asked for; and how far a lattice
is turned, measured from its cells."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tableref.vision.lattice_plane import cell_blobs, lattice_positions, lattice_turn, plane_correction

PITCH = 36.0
SIDE = 32.0  # a space less its gaps and the thinned rim


def tilted(scale: float, turn_deg: float, tilt: tuple[float, float]) -> np.ndarray:
    """A homography from the true (upright, PITCH) lattice to the view: turned, scaled, tilted."""
    c, s = np.cos(np.radians(turn_deg)), np.sin(np.radians(turn_deg))
    return np.array([[scale * c, -scale * s, 300.0], [scale * s, scale * c, 200.0], [tilt[0], tilt[1], 1.0]])


def drawn(h: np.ndarray, rows: int, columns: int, hidden=(), size=(1000, 1300)) -> np.ndarray:
    """A mask of the lattice's cells (each SIDE a side, PITCH apart) seen through ``h``."""
    mask = np.zeros(size, np.uint8)
    half = SIDE / 2
    for r in range(rows):
        for c in range(columns):
            if (r, c) in hidden:
                continue
            x, y = c * PITCH, r * PITCH
            quad = np.array([[x - half, y - half], [x + half, y - half], [x + half, y + half], [x - half, y + half]])
            pts = cv2.perspectiveTransform(quad.reshape(-1, 1, 2), h).reshape(-1, 2)
            cv2.fillConvexPoly(mask, np.round(pts * 16).astype(np.int32), 255, cv2.LINE_8, 4)
    return mask


def project(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(np.asarray(pts, np.float64).reshape(-1, 1, 2), h).reshape(-1, 2)


CASES = [
    # name, scale, turn (degrees), tilt, rows, columns, hidden cells
    ("upright already", 1.0, 0.0, (0.0, 0.0), 8, 12, ()),
    ("one marker: too large, tilted", 1.25, 2.0, (2e-4, -1e-4), 8, 12, ()),
    ("too small, turned", 0.8, -8.0, (-1e-4, 2e-4), 8, 20, ()),
    ("an arm over three rows", 1.15, 3.0, (1.5e-4, 0.0), 8, 12, tuple((r, c) for r in (3, 4, 5) for c in range(12))),
    ("a hand over a corner", 0.9, 0.0, (0.0, 2e-4), 12, 12, tuple((r, c) for r in range(5) for c in range(6))),
]


@pytest.mark.parametrize("name, scale, turn, tilt, rows, columns, hidden", CASES)
def test_the_cells_come_out_square_upright_and_at_the_pitch(name, scale, turn, tilt, rows, columns, hidden):
    h = tilted(scale, turn, tilt)
    correction = plane_correction(drawn(h, rows, columns, hidden), PITCH)
    assert correction is not None
    cells = np.array([(c * PITCH, r * PITCH) for r in range(rows) for c in range(columns)])
    seen = project(correction @ h, cells)
    # each cell lands on its true place, up to one shift for the whole lattice
    shift = seen - cells
    assert np.abs(shift - shift.mean(axis=0)).max() < 0.05 * PITCH


@pytest.mark.parametrize("name, scale, turn, tilt, rows, columns, hidden", CASES[:3])
def test_each_cell_takes_its_own_lattice_place(name, scale, turn, tilt, rows, columns, hidden):
    h = tilted(scale, turn, tilt)
    centres, sides = cell_blobs(drawn(h, rows, columns), PITCH)
    assert len(centres) == rows * columns
    uv, placed, _ = lattice_positions(centres)
    assert placed.all()
    span = uv.max(axis=0) - uv.min(axis=0) + 1
    assert tuple(span) == (columns, rows)
    assert len({tuple(p) for p in uv}) == rows * columns


def test_too_few_cells_measure_no_plane():
    h = tilted(1.0, 0.0, (0.0, 0.0))
    assert plane_correction(drawn(h, 2, 5), PITCH) is None  # two rows
    assert plane_correction(np.zeros((400, 400), np.uint8), PITCH) is None


def test_things_not_cell_sized_are_no_cells():
    mask = np.zeros((600, 600), np.uint8)
    cv2.rectangle(mask, (10, 10), (15, 15), 255, -1)  # a speck
    cv2.rectangle(mask, (100, 100), (300, 140), 255, -1)  # a long bar
    cv2.circle(mask, (450, 450), 60, 255, -1)  # a cup far larger than a space
    assert len(cell_blobs(mask, PITCH)[0]) == 0


@pytest.mark.parametrize("turn", [0.0, 0.6, 3.0, -8.0, 20.0, -35.0])
@pytest.mark.parametrize("rows, columns, hidden", [
    (8, 20, ()),
    (12, 12, tuple((r, c) for r in (4, 5, 6) for c in range(12))),  # an arm over three rows
])
def test_a_lattice_s_turn_is_measured_from_its_cells(turn, rows, columns, hidden):
    h = tilted(1.0, turn, (0.0, 0.0))
    middle = project(h, [((columns - 1) * PITCH / 2, (rows - 1) * PITCH / 2)])[0]
    h[:2, 2] += (650.0, 550.0) - middle  # turned either way, the whole lattice in view
    measured = lattice_turn(drawn(h, rows, columns, hidden, size=(1100, 1300)), PITCH)
    assert measured == pytest.approx(turn, abs=0.1)


def test_no_turn_is_measured_from_too_few_cells_or_cells_that_agree_on_no_axes():
    h = tilted(1.0, 5.0, (0.0, 0.0))
    assert lattice_turn(drawn(h, 2, 5), PITCH) is None  # ten cells
    assert lattice_turn(np.zeros((400, 400), np.uint8), PITCH) is None
    rng = np.random.default_rng(3)
    scattered = np.zeros((1000, 1000), np.uint8)  # cell-sized squares strewn at random turns
    for x, y in rng.uniform(60, 940, (60, 2)):
        box = cv2.boxPoints(((float(x), float(y)), (SIDE, SIDE), float(rng.uniform(0, 90))))
        cv2.fillConvexPoly(scattered, np.round(box).astype(np.int32), 255)
    assert lattice_turn(scattered, PITCH) is None
