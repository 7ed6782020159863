"""Calibration patterns (chessboard, ChArUco): parsing their spec and finding them in an image.

Spec strings, as given on the command line:

``chessboard:COLSxROWS[:SQUARE]``
    A chessboard with COLS x ROWS *inner* corners (OpenCV's sample board is ``9x6``);
    SQUARE is the side of one square (any unit, default 1; it scales nothing in the
    intrinsics).
``charuco:COLSxROWS:SQUARE:MARKER:DICT``
    A ChArUco board of COLS x ROWS *squares*, square side SQUARE and marker side MARKER in
    the same unit, markers from the ArUco dictionary DICT, e.g.
    ``charuco:5x7:0.04:0.02:DICT_6X6_250``. The board layout is OpenCV's current one (4.7 and
    later); a board printed by OpenCV 4.6 or older with an even number of rows differs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import cv2
import numpy as np

from .errors import PatternSpecError
from .markers import dictionary

#: Sub-pixel refinement of chessboard corners, as in OpenCV's reference calibration test:
#: a (5, 5) half-window, no dead zone, stop after 30 iterations or a step below 0.1 px.
SUBPIX_WINDOW = (5, 5)
SUBPIX_ZERO_ZONE = (-1, -1)
SUBPIX_CRITERIA = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_COUNT, 30, 0.1)

#: A ChArUco view needs at least this many corners to constrain a camera (a homography needs
#: 4; a few more keep one noisy corner from deciding the view).
MIN_CHARUCO_CORNERS = 6

_GRID = re.compile(r"^(\d+)x(\d+)$")
_SPEC_HELP = "use chessboard:COLSxROWS[:SQUARE] (e.g. chessboard:9x6) or charuco:COLSxROWS:SQUARE:MARKER:DICT " \
             "(e.g. charuco:5x7:0.04:0.02:DICT_6X6_250)"

Points = tuple[np.ndarray, np.ndarray]


@dataclass(frozen=True)
class ChessboardPattern:
    """A chessboard of ``cols`` x ``rows`` inner corners with squares of side ``square``."""

    cols: int
    rows: int
    square: float = 1.0

    def __post_init__(self) -> None:
        if self.cols < 2 or self.rows < 2:
            raise PatternSpecError(f"a chessboard needs at least 2x2 inner corners, got {self.cols}x{self.rows}")
        if not self.square > 0:
            raise PatternSpecError(f"chessboard square size must be positive, got {self.square}")

    def describe(self) -> str:
        return f"chessboard {self.cols}x{self.rows} (inner corners)"

    def object_points(self) -> np.ndarray:
        """Board-frame corner positions, shape (cols*rows, 3), float32, z = 0, row by row."""
        grid = np.zeros((self.cols * self.rows, 3), np.float32)
        grid[:, :2] = np.indices((self.cols, self.rows)).T.reshape(-1, 2)
        return grid * np.float32(self.square)

    def find(self, gray: np.ndarray) -> Points | None:
        """Find the board in a grey ``uint8`` image (H, W).

        Returns
        -------
        (object_points (N, 3) float32, image_points (N, 1, 2) float32 in px) or None
        """
        found, corners = cv2.findChessboardCorners(gray, (self.cols, self.rows))
        if not found:
            return None
        cv2.cornerSubPix(gray, corners, SUBPIX_WINDOW, SUBPIX_ZERO_ZONE, SUBPIX_CRITERIA)
        return self.object_points(), corners


@dataclass(frozen=True)
class CharucoPattern:
    """A ChArUco board: ``cols`` x ``rows`` squares, square and marker side, ArUco dictionary."""

    cols: int
    rows: int
    square: float
    marker: float
    dictionary_name: str

    def __post_init__(self) -> None:
        if self.cols < 2 or self.rows < 2:
            raise PatternSpecError(f"a ChArUco board needs at least 2x2 squares, got {self.cols}x{self.rows}")
        if not 0 < self.marker < self.square:
            raise PatternSpecError(f"ChArUco marker side must be positive and smaller than the square side, "
                                   f"got marker {self.marker} and square {self.square}")
        dictionary(self.dictionary_name)  # raises on an unknown name

    def describe(self) -> str:
        return f"ChArUco board {self.cols}x{self.rows} ({self.dictionary_name})"

    def board(self) -> cv2.aruco.CharucoBoard:
        """The OpenCV board object (current layout, OpenCV 4.7 and later)."""
        return cv2.aruco.CharucoBoard((self.cols, self.rows), self.square, self.marker,
                                      dictionary(self.dictionary_name))

    def find(self, gray: np.ndarray) -> Points | None:
        """Find the board's inner corners in a grey ``uint8`` image (H, W).

        Returns
        -------
        (object_points (N, 1, 3) float32, image_points (N, 1, 2) float32 in px) or None
            None when fewer than :data:`MIN_CHARUCO_CORNERS` corners are found or they lie
            on one line.
        """
        board = self.board()
        corners, ids, _marker_corners, _marker_ids = cv2.aruco.CharucoDetector(board).detectBoard(gray)
        if ids is None or len(ids) < MIN_CHARUCO_CORNERS or board.checkCharucoCornersCollinear(ids):
            return None
        object_points, image_points = board.matchImagePoints(corners, ids)
        return object_points.astype(np.float32), image_points.astype(np.float32)


Pattern = ChessboardPattern | CharucoPattern


def _grid(text: str, what: str, spec: str) -> tuple[int, int]:
    match = _GRID.match(text)
    if not match:
        raise PatternSpecError(f"pattern {spec!r}: {what} must look like COLSxROWS (e.g. 9x6), got {text!r}")
    return int(match.group(1)), int(match.group(2))


def _length(text: str, what: str, spec: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise PatternSpecError(f"pattern {spec!r}: {what} must be a number, got {text!r}") from None
    if not (value > 0 and np.isfinite(value)):
        raise PatternSpecError(f"pattern {spec!r}: {what} must be a positive number, got {text!r}")
    return value


def parse_pattern(spec: str) -> Pattern:
    """Parse a pattern spec such as ``chessboard:9x6`` or ``charuco:5x7:0.04:0.02:DICT_6X6_250``.

    Raises
    ------
    PatternSpecError
        The spec names an unknown kind or has the wrong number or form of parts.
    """
    kind, _, rest = spec.strip().partition(":")
    parts = rest.split(":") if rest else []
    if kind == "chessboard" and len(parts) in (1, 2):
        cols, rows = _grid(parts[0], "the inner-corner count", spec)
        square = _length(parts[1], "the square size", spec) if len(parts) == 2 else 1.0
        return ChessboardPattern(cols, rows, square)
    if kind == "charuco" and len(parts) == 4:
        cols, rows = _grid(parts[0], "the square count", spec)
        return CharucoPattern(cols, rows, _length(parts[1], "the square size", spec),
                              _length(parts[2], "the marker size", spec), parts[3])
    raise PatternSpecError(f"unknown pattern spec {spec!r}: {_SPEC_HELP}")
