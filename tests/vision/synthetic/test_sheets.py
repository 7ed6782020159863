"""Print-and-play sheets: true-size A4 pages at 300 dpi, as a valid PDF and PNG."""

from __future__ import annotations

import re
import struct

import cv2
import numpy as np
import pytest

from tableref.vision.synthetic import SheetError
from tableref.calibration.pdf import pdf_bytes, png_bytes
from tableref.vision.synthetic import sheets
from tableref.vision.synthetic.sheets import A4_MM, DPI, catalogue, print_sheet

A4_PX = (3508, 2480)  # rows, columns at 300 dpi
A4_PT = (210 * 72 / 25.4, 297 * 72 / 25.4)
FEW = [("dolcevita.number", {"colour": "blue", "value": 6}), ("daluigi.strip", {}),
       ("ligretto.card", {"colours": ["red", "green"], "border": "dotted"})]
#: Without the long strip (drawn at 300 dpi it alone takes seconds): for tests of the files.
SMALL = FEW[::2]


def _check_pdf(data: bytes, pages: int) -> None:
    assert data.startswith(b"%PDF-1.4\n") and data.rstrip().endswith(b"%%EOF")
    xref = int(re.search(rb"startxref\n(\d+)\n", data).group(1))
    assert data[xref:xref + 4] == b"xref"
    count = int(re.search(rb"xref\n0 (\d+)\n", data).group(1))
    table = data[xref:].split(b"\n")[2:2 + count]
    for number, row in enumerate(table[1:], start=1):
        offset = int(row[:10])
        assert data[offset:].startswith(b"%d 0 obj" % number)
    assert re.search(rb"/Count (\d+)", data).group(1) == str(pages).encode()
    boxes = re.findall(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", data)
    assert len(boxes) == pages
    assert all(abs(float(w) - A4_PT[0]) < 1e-3 and abs(float(h) - A4_PT[1]) < 1e-3 for w, h in boxes)
    sizes = re.findall(rb"/Width (\d+) /Height (\d+)", data)
    assert sizes == [(b"2480", b"3508")] * pages


def test_pages_are_a4_at_300_dpi_and_long_parts_are_cut():
    sheet = print_sheet("daluigi", FEW)
    assert all(p.shape == (*A4_PX, 3) and p.dtype == np.uint8 for p in sheet.pages)
    assert len(sheet.pages) == 2  # the 450 mm strip is cut in two pieces
    ink = sum(int((p < 250).any(axis=2).sum()) for p in sheet.pages)
    assert ink > 0.05 * A4_PX[0] * A4_PX[1]


def test_pdf_is_valid_and_a4():
    sheet = print_sheet("ligretto", SMALL)
    _check_pdf(pdf_bytes(list(sheet.pages), A4_MM), len(sheet.pages))


def test_png_keeps_size_and_resolution():
    page = print_sheet("dolcevita", FEW[:1]).pages[0]
    data = png_bytes(page, DPI)
    assert data[12:16] == b"IHDR" and data[37:41] == b"pHYs"
    per_metre = struct.unpack(">I", data[41:45])[0]
    assert per_metre == round(DPI / 0.0254)
    back = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    assert np.array_equal(back, page)


@pytest.mark.parametrize("game, kinds", [
    ("daluigi", {"daluigi.marketplace": 1, "daluigi.strip": 4, "daluigi.guest": 90, "daluigi.tile": 35}),
    ("dolcevita", {"dolcevita.luxury": 49, "dolcevita.money": 17, "dolcevita.number": 30}),
    ("ligretto", {"ligretto.section": 10, "ligretto.card": 60, "ligretto.joker": 8, "ligretto.player_board": 4}),
])
def test_catalogue_counts(game, kinds):
    parts = catalogue(game)
    assert {k: sum(1 for n, _ in parts if n == k) for k in kinds} == kinds


@pytest.mark.parametrize("game, parts, message", [
    ("chess", None, "unknown game"),
    ("daluigi", [("daluigi.cube", {"colour": "wine"})], "cannot be printed"),
])
def test_bad_sheet_requests_raise(game, parts, message):
    with pytest.raises(SheetError, match=message):
        print_sheet(game, parts)


@pytest.mark.parametrize("name, code, message", [
    ("set.pdf", 0, "A4 page"),
    ("set.png", 0, "set-01.png"),
    ("set.txt", 2, "must end in .pdf or .png"),
])
def test_cli_render_print(run_cli, tmp_path, monkeypatch, name, code, message):
    # A few parts, not the whole set: the command's files and messages are what is tested here
    # (the whole catalogue is counted above); the full set takes tens of seconds to print.
    monkeypatch.setattr(sheets, "catalogue", lambda game: SMALL)
    result = run_cli("render", "print", "--game", "ligretto", "--out", tmp_path / name)
    assert result.code == code, result
    assert message in (result.out + result.err)
    if name == "set.pdf":
        data = (tmp_path / name).read_bytes()
        _check_pdf(data, int(re.search(rb"/Count (\d+)", data).group(1)))


def test_cli_unknown_game_is_a_usage_error(run_cli, tmp_path):
    assert run_cli("render", "print", "--game", "chess", "--out", tmp_path / "x.pdf").code == 2
