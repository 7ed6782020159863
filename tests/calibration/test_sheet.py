"""The printable marker sheet: true size, a valid PDF, a PNG with its dpi; truncated images."""

from __future__ import annotations

import re
import struct
import zlib

import cv2
import numpy as np
import pytest

from tableref.calibration.errors import MarkerError
from tableref.calibration.markers import detect_markers
from tableref.calibration.pdf import pdf_bytes, png_bytes
from tableref.calibration.sheet import SHEET_DPI, marker_sheet

#: Paper sizes in PostScript points (1/72 inch).
PAPER_POINTS = {"a4": (595.2756, 841.8898), "a3": (841.8898, 1190.5512)}
SIZE_TOLERANCE_MM = 0.2


@pytest.mark.parametrize(("paper", "marker_mm", "shape"), [("a4", 50.0, (3508, 2480)), ("a3", 80.0, (4961, 3508))])
def test_sheet_markers_are_true_size(paper, marker_mm, shape):
    page, paper_mm = marker_sheet(paper, marker_mm)
    assert page.shape == shape and page.dtype == np.uint8
    px_per_mm = page.shape[1] / paper_mm[0]
    found = detect_markers(page)
    assert [m.id for m in found] == [0, 1, 2, 3]
    for m in found:
        sides = np.linalg.norm(np.roll(m.corners, -1, axis=0) - m.corners, axis=1) / px_per_mm
        # detected corners lie on pixel centres of the edge pixels: up to one pixel short
        assert np.all(np.abs(sides - marker_mm) <= SIZE_TOLERANCE_MM)
    by_id = {m.id: m.corners.mean(axis=0) for m in found}
    # laid out as on the table, seen from the camera: 0 near left, 1 near right, 2 far right, 3 far left
    assert by_id[0][0] < by_id[1][0] and by_id[3][0] < by_id[2][0]
    assert by_id[0][1] > by_id[3][1] and by_id[1][1] > by_id[2][1]


@pytest.mark.parametrize(("paper", "marker_mm", "ids", "dictionary", "message"), [
    ("a4", 120.0, (0, 1, 2, 3), "DICT_4X4_50", "do not fit on A4"),
    ("letter", 50.0, (0, 1, 2, 3), "DICT_4X4_50", "unknown paper"),
    ("a4", 50.0, (0, 1, 2), "DICT_4X4_50", "4 different marker ids"),
    ("a4", 50.0, (0, 1, 2, 60), "DICT_4X4_50", r"must lie in 0\.\.49"),
    ("a4", 50.0, (0, 1, 2, 3), "DICT_X", "unknown ArUco dictionary"),
])
def test_sheet_errors(paper, marker_mm, ids, dictionary, message):
    with pytest.raises(MarkerError, match=message):
        marker_sheet(paper, marker_mm, ids, dictionary)


@pytest.mark.parametrize("paper", ["a4", "a3"])
def test_pdf_is_valid_and_exactly_the_paper_size(paper):
    page, paper_mm = marker_sheet(paper)
    data = pdf_bytes(page, paper_mm)
    assert data.startswith(b"%PDF-1.4\n") and data.endswith(b"%%EOF\n")
    box = [float(v) for v in re.search(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", data).groups()]
    np.testing.assert_allclose(box, PAPER_POINTS[paper], atol=1e-3)
    # the cross-reference table points at each object
    xref_at = int(re.search(rb"startxref\n(\d+)\n", data).group(1))
    assert data[xref_at:].startswith(b"xref\n0 6\n")
    offsets = [int(o) for o in re.findall(rb"(\d{10}) 00000 n ", data)]
    for number, offset in enumerate(offsets, start=1):
        assert data[offset:].startswith(f"{number} 0 obj".encode())
    # the image stream is the page, pixel for pixel
    header = re.search(rb"/Width (\d+) /Height (\d+) .*?/Length (\d+) >>\nstream\n", data)
    width, height, length = (int(v) for v in header.groups())
    raw = zlib.decompress(data[header.end():header.end() + length])
    np.testing.assert_array_equal(np.frombuffer(raw, np.uint8).reshape(height, width), page)
    assert (width, height) == (page.shape[1], page.shape[0])


def test_png_says_300_dpi():
    page = np.full((30, 20), 255, np.uint8)
    data = png_bytes(page, SHEET_DPI)
    at = data.index(b"pHYs")
    per_metre_x, per_metre_y, unit = struct.unpack(">IIB", data[at + 4:at + 13])
    assert (per_metre_x, per_metre_y, unit) == (11811, 11811, 1)
    np.testing.assert_array_equal(cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_GRAYSCALE), page)


