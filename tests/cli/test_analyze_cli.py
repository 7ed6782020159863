"""``tableref analyze``: bad input gets one clear line and exit code 2; the motion blur a
photograph shows is reported, and a long one noted on standard error."""

from __future__ import annotations

import json

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


@pytest.mark.parametrize("game, blurred", [
    ("daluigi", 2_000_477),  # validation renders with 7 px of motion blur
    ("ligretto", 2_000_829),
])
def test_a_blurred_photo_reports_the_blur_it_undid(run_cli, tmp_path, game, blurred):
    from tableref.vision.synthetic.dataset import sample

    for seed, name in ((3_100_100, "sharp.png"), (blurred, "blurred.png")):  # a sharp test render first
        cv2.imwrite(str(tmp_path / name), sample(game, seed).image)
    still = run_cli("analyze", str(tmp_path / "sharp.png"), "--game", game)
    sharp = json.loads(still.out)
    assert sharp["motion_blur"] is None or not sharp["motion_blur"]["undone"]
    assert "smeared" not in still.err
    result = run_cli("analyze", str(tmp_path / "blurred.png"), "--game", game)
    assert result.code == 0, result
    blur = json.loads(result.out)["motion_blur"]
    assert blur["moving"] and blur["undone"] and blur["length_px"] >= 6
    assert result.err.startswith("note: blurred.png is smeared by motion") and "undone before reading" in result.err


@pytest.mark.parametrize("blur, noted", [
    (None, False),
    ({"length_px": 7.0, "moving": True, "undone": True}, True),
    ({"length_px": 5.0, "moving": True, "undone": False}, True),  # moving, but too short to undo
    ({"length_px": 3.0, "moving": True, "undone": True}, False),  # short: reads as well as a still photo
    ({"length_px": 9.0, "moving": False, "undone": False}, False),  # soft, not smeared along a line
])
def test_the_blur_note_names_a_long_motion_blur_only(blur, noted):
    from pathlib import Path

    from tableref.commands.analyze import blur_note

    note = blur_note(Path("table.jpg"), {"motion_blur": blur})
    assert (note is not None) == noted
    if noted:
        assert f"{blur['length_px']:g} px" in note and ("undone before" in note) == blur["undone"]
