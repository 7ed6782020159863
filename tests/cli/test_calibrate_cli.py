"""``tableref calibrate``: the happy paths, and each bad input -> exit 2 with one clear line."""

from __future__ import annotations

import json
import shutil

import cv2
import numpy as np
import pytest

from tableref.calibration.markers import dictionary

TABLE = "600x400"
_PX_PER_MM = 3
_TABLE_CORNERS_PX = np.float32([[200, 650], [1100, 640], [960, 110], [330, 120]])


def _table_photo(hidden=()) -> np.ndarray:
    """A 1280x720 perspective photo of a 600x400 mm play area with markers 0..3 (50 mm)."""
    w, h, side = 600 * _PX_PER_MM, 400 * _PX_PER_MM, 50 * _PX_PER_MM
    margin = 20 * _PX_PER_MM
    top = np.full((h + 2 * margin, w + 2 * margin), 180, np.uint8)
    aruco = dictionary("DICT_4X4_50")
    cells = {0: (margin, margin + h - side), 1: (margin + w - side, margin + h - side),
             2: (margin + w - side, margin), 3: (margin, margin)}
    pad = side // 6
    for marker_id, (x, y) in cells.items():
        if marker_id in hidden:
            continue
        top[y - pad:y + side + pad, x - pad:x + side + pad] = 255
        top[y:y + side, x:x + side] = cv2.resize(aruco.generateImageMarker(marker_id, 6), (side, side),
                                                 interpolation=cv2.INTER_NEAREST)
    area = np.float32([[margin, margin + h], [margin + w, margin + h], [margin + w, margin], [margin, margin]])
    warp = cv2.getPerspectiveTransform(area, _TABLE_CORNERS_PX)
    photo = cv2.warpPerspective(top, warp, (1280, 720), flags=cv2.INTER_AREA, borderValue=90)
    return cv2.cvtColor(photo, cv2.COLOR_GRAY2BGR)


@pytest.fixture(scope="module")
def photos(tmp_path_factory):
    folder = tmp_path_factory.mktemp("photos")
    cv2.imwrite(str(folder / "table.png"), _table_photo())
    cv2.imwrite(str(folder / "table3.png"), _table_photo(hidden=(2,)))
    cv2.imwrite(str(folder / "blank.png"), np.full((720, 1280, 3), 170, np.uint8))
    (folder / "notes.txt").write_text("these are not the pixels you are looking for\n")
    return folder


def _one_error_line(result) -> str:
    assert result.code == 2, result
    assert result.out == ""
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.err
    return lines[0]


def test_table_with_all_markers_then_rectify(run_cli, photos, tmp_path):
    profile = tmp_path / "p.json"
    result = run_cli("calibrate", "table", photos / "table.png", "--table", TABLE, "--out", profile)
    assert result.code == 0, result
    report = json.loads(result.out)
    assert report["markers_used"] == [0, 1, 2, 3] and report["markers_missing"] == []
    assert report["note"] == "all 4 markers visible: calibrated from 16 corners"
    assert report["reprojection"]["max_mm"] < 1.0
    saved = json.loads(profile.read_text())
    assert saved["version"] == 1 and saved["table"]["layout"]["table_mm"] == [600.0, 400.0]
    out = tmp_path / "top.png"
    result = run_cli("calibrate", "rectify", photos / "table.png", "--profile", profile, "--px-per-mm", "1", "--out", out)
    assert result.code == 0, result
    assert cv2.imread(str(out)).shape == (400, 600, 3)


def test_table_with_three_markers_says_so(run_cli, photos, tmp_path):
    result = run_cli("calibrate", "table", photos / "table3.png", "--table", TABLE, "--out", tmp_path / "p.json")
    assert result.code == 0, result
    report = json.loads(result.out)
    assert report["markers_missing"] == [2]
    assert report["note"] == "3 of 4 markers visible (missing [2]): calibrated from 12 corners"


def test_camera_out_creates_then_updates_a_profile(run_cli, photos, shared_data, tmp_path):
    images = sorted((shared_data / "chessboard-9x6").glob("left0[1-4].jpg"))
    profile = tmp_path / "p.json"
    assert run_cli("calibrate", "table", photos / "table.png", "--table", TABLE, "--out", profile).code == 0
    result = run_cli("calibrate", "camera", "--pattern", "chessboard:9x6", "--out", profile, *images)
    assert result.code == 0, result
    saved = json.loads(profile.read_text())
    assert saved["intrinsics"]["image_size"] == [640, 480]
    assert saved["table"]["undistorted"] is False  # the table section is kept


@pytest.mark.parametrize("suffix", [".pdf", ".png"])
def test_print_markers(run_cli, tmp_path, suffix):
    out = tmp_path / f"sheet{suffix}"
    result = run_cli("calibrate", "print-markers", "--paper", "a4", "--out", out)
    assert result.code == 0, result
    head = out.read_bytes()[:8]
    assert head == (b"%PDF-1.4" if suffix == ".pdf" else b"\x89PNG\r\n\x1a\n")


def _truncated_jpeg(folder):
    """A copy of a real photo with its last fifth cut off (a decoder would show it half grey)."""
    data = (folder / "whole.jpg").read_bytes()
    cut = folder / "cut.jpg"
    cut.write_bytes(data[: len(data) - len(data) // 5])
    return cut


@pytest.mark.parametrize(("case", "expected"), [
    ("missing file", "error: image file '{d}/nowhere.jpg' does not exist"),
    ("not an image", "error: image file '{d}/notes.txt' is not an image"),
    ("truncated jpeg", "error: image file '{d}/cut.jpg': JPEG data ends before its end-of-image marker"),
    ("no pattern (camera)", "error: only 2 of 3 images usable for calibration, at least 3 needed; {d}/blank.png: no chessboard 9x6"),
    ("fewer than 3 views", "error: only 2 of 2 images usable for calibration, at least 3 needed: take more photos"),
    ("no markers (table)", "error: no DICT_4X4_50 ArUco markers found in '{d}/blank.png'"),
    ("unknown pattern", "error: unknown pattern spec 'dots:4x11'"),
    ("profile missing a field", "error: profile '{d}/p.json': field 'intrinsics.dist_coeffs' is missing"),
    ("profile wrongly typed field", "error: profile '{d}/p.json': field 'intrinsics.camera_matrix' must be a 3x3 matrix of numbers, got the string 'K'"),
    ("profile unknown version", "error: profile '{d}/p.json': unknown profile version 7"),
    ("table size", "error: --table must be the play area as WIDTHxHEIGHT in mm, e.g. 800x600, got '60cm'"),
    ("sheet extension", "error: --out '{d}/sheet.svg': the marker sheet is written as .pdf or .png"),
])
def test_bad_input_gives_exit_2_and_one_line(run_cli, photos, shared_data, tmp_path, case, expected):
    board = sorted((shared_data / "chessboard-9x6").glob("left0[1-2].jpg"))
    d = tmp_path
    shutil.copy(board[0], d / "whole.jpg")
    cv2.imwrite(str(d / "blank.png"), np.full((480, 640, 3), 170, np.uint8))
    shutil.copy(photos / "notes.txt", d / "notes.txt")
    good_profile = {"version": 1, "intrinsics": {"camera_matrix": [[500, 0, 320], [0, 500, 240], [0, 0, 1]],
                                                 "dist_coeffs": [0, 0, 0, 0, 0], "image_size": [1280, 720]}}
    camera = ("calibrate", "camera", "--pattern", "chessboard:9x6")
    table = ("calibrate", "table", photos / "table.png", "--table", TABLE, "--out", d / "out.json", "--profile", d / "p.json")
    if case == "missing file":
        args = (*camera, *board, d / "nowhere.jpg")
    elif case == "not an image":
        args = (*camera, *board, d / "notes.txt")
    elif case == "truncated jpeg":
        args = (*camera, *board, _truncated_jpeg(d))
    elif case == "no pattern (camera)":
        args = (*camera, *board, d / "blank.png")
    elif case == "fewer than 3 views":
        args = (*camera, *board)
    elif case == "no markers (table)":
        args = ("calibrate", "table", d / "blank.png", "--table", TABLE, "--out", d / "out.json")
    elif case == "unknown pattern":
        args = ("calibrate", "camera", "--pattern", "dots:4x11", *board)
    elif case == "table size":
        args = ("calibrate", "table", photos / "table.png", "--table", "60cm", "--out", d / "out.json")
    elif case == "sheet extension":
        args = ("calibrate", "print-markers", "--out", d / "sheet.svg")
    else:
        if case == "profile missing a field":
            del good_profile["intrinsics"]["dist_coeffs"]
        elif case == "profile wrongly typed field":
            good_profile["intrinsics"]["camera_matrix"] = "K"
        else:
            good_profile["version"] = 7
        (d / "p.json").write_text(json.dumps(good_profile))
        args = table
    line = _one_error_line(run_cli(*args))
    assert line.startswith(expected.format(d=d)), line
    assert not (d / "out.json").exists()
