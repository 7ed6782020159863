"""Camera intrinsics: OpenCV's reference chessboard set, ChArUco, pattern specs."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from tableref.calibration.errors import MarkerError, PatternSpecError, TooFewViewsError
from tableref.vision.imageio import read_image
from tableref.calibration.intrinsics import calibrate_views
from tableref.calibration.patterns import CharucoPattern, ChessboardPattern, parse_pattern

#: OpenCV's reference result for the 13 left images (modules/python/test/test_calibration.py).
REFERENCE_RMS, RMS_TOLERANCE = 0.1963, 0.01
REFERENCE_FOCAL_CENTRE = (532.8, 532.9, 342.5, 233.9)
RELATIVE_TOLERANCE = 0.01
LEFT_IMAGES = [f"left{n:02d}.jpg" for n in range(1, 15) if n != 10]


def test_reference_chessboard_set_through_the_cli(run_cli, chessboard_dir):
    result = run_cli("calibrate", "camera", "--pattern", "chessboard:9x6", *(chessboard_dir / f for f in LEFT_IMAGES))
    assert result.code == 0, result
    report = json.loads(result.out)
    k = np.array(report["camera_matrix"])
    assert abs(report["rms"] - REFERENCE_RMS) <= RMS_TOLERANCE
    np.testing.assert_allclose((k[0, 0], k[1, 1], k[0, 2], k[1, 2]), REFERENCE_FOCAL_CENTRE, rtol=RELATIVE_TOLERANCE)
    assert report["image_size"] == [640, 480]
    assert len(report["views_used"]) == 13 and report["views_rejected"] == []
    assert len(report["dist_coeffs"]) == 5


def test_a_view_of_another_size_is_rejected_with_a_reason(chessboard_dir):
    views = {name: read_image(chessboard_dir / name) for name in LEFT_IMAGES[:4]}
    views["small.png"] = cv2.resize(views[LEFT_IMAGES[0]], (320, 240))
    views["blank.png"] = np.full((480, 640, 3), 128, np.uint8)
    result = calibrate_views(views, ChessboardPattern(9, 6))
    reasons = {r.file: r.reason for r in result.views_rejected}
    assert reasons == {"small.png": "image size 320x240 differs from 640x480 of the other views",
                       "blank.png": "no chessboard 9x6 (inner corners) found"}
    assert result.views_used == tuple(LEFT_IMAGES[:4])


def test_too_few_views_names_each_rejected_one(chessboard_dir):
    views = {LEFT_IMAGES[0]: read_image(chessboard_dir / LEFT_IMAGES[0]), "blank.png": np.zeros((480, 640, 3), np.uint8)}
    with pytest.raises(TooFewViewsError, match=r"only 1 of 2 images usable.*blank\.png: no chessboard"):
        calibrate_views(views, ChessboardPattern(9, 6))


def _charuco_views(pattern: CharucoPattern, camera_matrix: np.ndarray, size: tuple[int, int]) -> dict[str, np.ndarray]:
    """The board seen from several tilted poses through a distortion-free camera."""
    board_px_per_unit = 2000.0
    board_w, board_h = pattern.cols * pattern.square, pattern.rows * pattern.square
    art = pattern.board().generateImage((int(board_w * board_px_per_unit), int(board_h * board_px_per_unit)))
    art_to_board = np.diag([1 / board_px_per_unit, 1 / board_px_per_unit, 1.0])
    poses = [((0.35, 0.0, 0.0), (-0.10, -0.14, 0.45)), ((-0.3, 0.25, 0.1), (-0.08, -0.12, 0.5)),
             ((0.1, -0.4, -0.1), (-0.12, -0.13, 0.5)), ((0.0, 0.3, 0.3), (-0.09, -0.15, 0.55)),
             ((-0.25, -0.3, 0.0), (-0.1, -0.1, 0.48))]
    views = {}
    for n, (rvec, tvec) in enumerate(poses):
        rotation, _ = cv2.Rodrigues(np.array(rvec))
        image_from_board = camera_matrix @ np.column_stack([rotation[:, 0], rotation[:, 1], tvec])
        warped = cv2.warpPerspective(art, image_from_board @ art_to_board, size, flags=cv2.INTER_AREA,
                                     borderValue=200)
        views[f"view{n}.png"] = warped
    return views


def test_charuco_board_recovers_the_focal_length():
    pattern = parse_pattern("charuco:5x7:0.04:0.02:DICT_6X6_250")
    camera_matrix = np.array([[800.0, 0, 640], [0, 800.0, 360], [0, 0, 1]])
    result = calibrate_views(_charuco_views(pattern, camera_matrix, (1280, 720)), pattern)
    k = result.intrinsics.camera_matrix
    assert len(result.views_used) == 5
    assert result.intrinsics.rms < 1.0
    np.testing.assert_allclose((k[0, 0], k[1, 1]), (800.0, 800.0), rtol=0.03)


@pytest.mark.parametrize(("spec", "expected", "error"), [
    ("chessboard:9x6", ChessboardPattern(9, 6), None),
    ("chessboard:7x5:24.5", ChessboardPattern(7, 5, 24.5), None),
    ("charuco:5x7:0.04:0.02:DICT_6X6_250", CharucoPattern(5, 7, 0.04, 0.02, "DICT_6X6_250"), None),
    ("chessboard", None, PatternSpecError),
    ("chessboard:9by6", None, PatternSpecError),
    ("chessboard:1x6", None, PatternSpecError),
    ("chessboard:9x6:-2", None, PatternSpecError),
    ("charuco:5x7:0.04:0.05:DICT_6X6_250", None, PatternSpecError),
    ("charuco:5x7:0.04:0.02", None, PatternSpecError),
    ("charuco:5x7:0.04:0.02:DICT_NOPE", None, MarkerError),
    ("circles:4x11", None, PatternSpecError),
])
def test_pattern_specs(spec, expected, error):
    if error is not None:
        with pytest.raises(error):
            parse_pattern(spec)
    else:
        assert parse_pattern(spec) == expected
