"""``tableref analyze``: bad input gets one clear line and exit code 2."""

from __future__ import annotations

import cv2
import numpy as np
import pytest


@pytest.mark.parametrize("make, message", [
    (lambda p: cv2.imwrite(str(p), np.zeros((720, 1280, 3), np.uint8)), "blank"),
    (lambda p: cv2.imwrite(str(p), np.random.default_rng(3).integers(0, 256, (720, 1280, 3), dtype=np.uint8)),
     "no table found"),
    (lambda p: p.write_bytes(b"not an image"), ""),
    (lambda p: None, ""),
])
def test_bad_images_are_refused_clearly(run_cli, tmp_path, make, message):
    path = tmp_path / "in.png"
    make(path)
    result = run_cli("analyze", str(path), "--game", "dolcevita")
    assert result.code == 2, result
    assert result.err.startswith("error: ") and "Traceback" not in result.err
    assert message in result.err


def test_game_is_required(run_cli, tmp_path):
    result = run_cli("analyze", str(tmp_path / "x.png"))
    assert result.code == 2 and "--game" in result.err
