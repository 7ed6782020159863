"""``tableref grid``: a real chessboard photograph read as JSON; bad input gets one line and exit 2."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest


def test_chessboard_photo_as_json(run_cli, shared_data, tmp_path):
    out = tmp_path / "cells.png"
    result = run_cli("grid", str(shared_data / "chessboard-9x6" / "left01.jpg"), "--json", "--annotate", str(out))
    assert result.code == 0, result
    data = json.loads(result.out)
    assert (data["rows"], data["columns"]) == (7, 10)
    assert len(data["cells"]) == 70 and data["colour_order"] == "BGR"
    first = data["cells"][0]
    assert (first["row"], first["column"]) == (0, 0) and len(first["corners"]) == 4
    assert {c["colour"] for c in data["cells"]} <= {"black", "white", "grey"}
    assert cv2.imread(str(out)).shape == (480, 640, 3)


def test_summary_without_json(run_cli, shared_data):
    result = run_cli("grid", str(shared_data / "chessboard-9x6" / "left04.jpg"))
    assert result.code == 0 and result.out.startswith("7 rows x 10 columns"), result


@pytest.mark.parametrize("make, message", [
    (lambda p: cv2.imwrite(str(p), np.full((480, 640, 3), 128, np.uint8)), "no lattice of square cells found"),
    (lambda p: cv2.imwrite(str(p), np.random.default_rng(1).integers(0, 256, (480, 640, 3), dtype=np.uint8)),
     "no lattice of square cells found"),
    (lambda p: p.write_bytes(b"not an image"), ""),
    (lambda p: None, ""),
])
def test_bad_images_are_refused_clearly(run_cli, tmp_path, make, message):
    path = tmp_path / "in.png"
    make(path)
    result = run_cli("grid", str(path), "--json")
    assert result.code == 2, result
    assert result.err.startswith("error: ") and "Traceback" not in result.err and result.err.count("\n") == 1
    assert message in result.err
