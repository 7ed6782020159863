"""Where Ligretto's board lies: its rows and columns of square spaces on the rectified table.

The table is warped to a top-down view at :data:`RECT_PX_PER_MM` (from its markers). There a
space of the board is a square blob of saturated colour between pale gaps, and so is each
half of a two-colour card lying on it (inside the card's white margin); nothing else on a
Ligretto table is such a square. The blobs' centres fall into columns and rows
(:func:`tableref.vision.lattice_cells.aligned_lattice`), which finds any board whose rows and
columns run along the table's edges (a board turned on the table is found on a view turned
with it), its sections a seam apart or not. Rows and columns that a hand hides wholly are filled
in between the ones found, and at the board's edge from the middle of the play area when the
zones say the board lies there (``board_centred``); a board short of a known shape is completed
with candidate lines on both sides, for the reader to keep those the table shows covered.

Row 0 is the row furthest from the camera (the top of the rectified view), column 0 the
leftmost, as in the rules' board.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np

from ...calibration.profile import Profile
from ...calibration.rectify import rectify, table_to_rectified
from ...calibration.table import spans
from ..lattice_cells import AlignedLattice, aligned_lattice, square_blobs
from ..lattice_plane import lattice_turn, plane_correction
from .common import RecognitionError, TableView, ZonesError, load_zones, locate_table

#: Resolution of the rectified table (px per mm): a 30 mm space is 36 px, the 1.4 mm gap
#: between spaces about 2 px (enough to keep neighbouring blobs apart).
RECT_PX_PER_MM = 1.2
#: A board needs at least this many rows and columns (a 2-player board has 8 x 12).
MIN_SIDE = 2
COLOURS = ("red", "yellow", "green", "blue")


@dataclass(frozen=True)
class LigrettoZones:
    """The zones description of Ligretto (``data/ligretto.zones.json``)."""

    marker_mm: float
    table_mm_choices: tuple[tuple[float, float], ...]
    cell_mm: float
    board_centred: bool
    colours_bgr: Mapping[str, tuple[float, float, float]]
    board_shapes: tuple[tuple[int, int], ...] = ()
    #: Whether each owner's cards of one pair of colours are bounded by a deck's
    #: (:mod:`.ligretto_decks`; false for a set whose cards' colours differ from the catalogue's).
    deck_limits: bool = True

    def __post_init__(self) -> None:
        if not self.marker_mm > 0 or not self.cell_mm > 0:
            raise ZonesError(f"ligretto zones: marker_mm and cell_mm must be positive, got {self.marker_mm} "
                             f"and {self.cell_mm}")
        if any(len(shape) != 2 or min(shape) < MIN_SIDE for shape in self.board_shapes):
            raise ZonesError(f"ligretto zones: board_shapes must be [rows, columns] pairs of at least {MIN_SIDE}, "
                             f"got {[list(shape) for shape in self.board_shapes]}")
        if set(self.colours_bgr) != set(COLOURS):
            raise ZonesError(f"ligretto zones: colours_bgr must name {', '.join(COLOURS)}, got {sorted(self.colours_bgr)}")

    @property
    def longest_sides(self) -> tuple[int, int]:
        """The most columns and the most rows of any known board shape (0 where none is known)."""
        return (max((c for _, c in self.board_shapes), default=0), max((r for r, _ in self.board_shapes), default=0))

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "LigrettoZones":
        try:
            return cls(float(data["marker_mm"]), tuple((float(w), float(d)) for w, d in data["table_mm_choices"]),
                       float(data["cell_mm"]), bool(data["board_centred"]),
                       {str(k): tuple(float(x) for x in v) for k, v in dict(data["colours_bgr"]).items()},
                       tuple((int(r), int(c)) for r, c in data.get("board_shapes", [])),
                       bool(data.get("deck_limits", True)))
        except (KeyError, TypeError, ValueError) as exc:
            raise ZonesError(f"ligretto zones are malformed: {exc!r}") from None


#: Whether the lens is estimated from the markers when the profile has no lens calibration
#: (:func:`~.common.estimated_lens`). Not for Ligretto: the board is found from its own spaces
#: anyway, and with the estimate the shipped cell classifier read double-bordered cards of the
#: demo as dashed, surely (seed 7: 6 false flags of 799 legal placements instead of 2, 198 of
#: 201 illegal ones flagged instead of 200), for 0.72 to 0.64 % per-space error on the test
#: renders (docs/ligretto-recognition.md).
LENS_FROM_MARKERS = False
#: Whether markers the detector missed are looked for by their pattern when two locate the table
#: (:func:`~.common.with_markers_missed`). Not for Ligretto either: on validation renders
#: 2000300..2000449, 2000450..2000749 and 2000750..2000999, boards exactly right 135, 272, 222
#: without it, 135, 271, 221 with it (wrong spaces 141, 74, 106 -> 141, 76, 126).
FIND_MISSING_MARKERS = False


def zones_for(profile: Profile | None) -> LigrettoZones:
    """The zones with ``profile``'s ``zones.ligretto`` overrides (the shipped ones without)."""
    overrides = None
    if profile is not None and profile.zones is not None:
        overrides = profile.zones.get("ligretto")
    return LigrettoZones.from_json(load_zones("ligretto", overrides))


def locate_ligretto(image: np.ndarray, profile: Profile | None = None, zones: LigrettoZones | None = None,
                    two_markers: str = "one", lens_from_markers: bool = LENS_FROM_MARKERS) -> TableView:
    """Where the table lies in ``image`` (BGR uint8, H x W x 3), from its markers: three, any
    two, or even one (``two_markers``, see :func:`~.common.locate_table`). Two along one edge
    leave the far side of the table tens of mm off, one marker alone more; the board is found
    from its own spaces on the view all the same (on validation renders whose other two
    markers were hidden, 2000004, 2000005 and 2000045: two boards exactly right, and 2 wrong
    readings of about 200 spaces; of the two validation renders 2000000..2000099 that show
    one marker, 2000095 read with 1 wrong space of 96, the blurred 2000064 with 34). The lens's
    bend is estimated from the markers where ``lens_from_markers`` says so and the profile has
    no lens (:data:`LENS_FROM_MARKERS`).

    Raises
    ------
    RecognitionError
        A blank image, or too few table markers.
    """
    z = zones or zones_for(profile)
    return locate_table(image, z.marker_mm, profile, z.table_mm_choices, two_markers=two_markers,
                        lens_from_markers=lens_from_markers, find_missing=FIND_MISSING_MARKERS)


def locate_board(image: np.ndarray, profile: Profile | None = None,
                 zones: LigrettoZones | None = None) -> tuple[TableView, BoardView]:
    """The table (:func:`locate_ligretto`) and the board on it (:func:`find_board`).

    Where no board shows on the table located without the lens's bend, the table is located
    again with the bend estimated from the markers (:data:`LENS_FROM_MARKERS` otherwise left
    off): under a strong bend two markers in opposite corners can fit a table of the wrong
    size, on which the board's spaces are no longer square (test render 3001902, a pen over a
    third marker: 490 x 790 mm instead of 490 x 670 mm, the board not found; found so, it is
    read exactly right). Where that finds none either, the board's own spaces set the plane
    (:func:`squared_to_board`): test render 3002853, its table located by one marker (a cup, an
    arm and a phone over the other three) 1.25 times too large and tilted, the spaces too large
    to be taken for spaces. A table located by one marker alone, whose own small square is all
    that measures the plane, is squared to the board from the start (3002190: its lattice found
    with 10 rows for 8, 38 spaces wrong; none so). Tables located by two markers or more are
    left as they are: squared to the board, 28 fewer of 1,200 test renders read exactly right,
    and 2 fewer of the 128 located by two markers.

    Raises
    ------
    RecognitionError
        A blank image, too few table markers, or no board on the table any way (the first
        reason).
    """
    z = zones or zones_for(profile)
    view = locate_ligretto(image, profile, z)
    one_marker = len(view.calibration.markers_used) == 1
    if one_marker:  # the weakest location: the board's own plane from the start
        view = squared_to_board(image, view, z) or view
    try:
        return view, find_board(image, view, z)
    except RecognitionError as first:
        failed = first
    retries = [lambda: locate_ligretto(image, profile, z, lens_from_markers=True)]
    if not one_marker:  # a single marker's view was squared already (or could not be)
        retries.append(lambda: squared_to_board(image, view, z))
    for again in retries:
        try:
            other = again()
            if other is not None:
                return other, find_board(image, other, z)
        except RecognitionError:
            continue
    raise failed


def squared_to_board(image: np.ndarray, view: TableView, zones: LigrettoZones) -> TableView | None:
    """``view`` with its plane set by the board's spaces (:func:`~..lattice_plane.plane_correction`):
    on the view rectified from it they lie square, upright and of the zones' pitch, the board's
    middle where it was. None where too few spaces show."""
    rect = rectify(image, view.calibration, RECT_PX_PER_MM, view.intrinsics)
    correction = plane_correction(np.bitwise_or.reduce(_colour_masks(rect, zones)), zones.cell_mm * RECT_PX_PER_MM)
    if correction is None:
        return None
    to_rect = table_to_rectified(view.table_mm, RECT_PX_PER_MM)
    homography = np.linalg.inv(to_rect) @ correction @ to_rect @ view.calibration.homography
    return TableView(replace(view.calibration, homography=homography), view.intrinsics)


def turned_view(view: TableView, turn_deg: float) -> TableView:
    """``view`` turned about the table's middle so that what its rectified view shows turned by
    ``turn_deg`` (clockwise as the rectified view shows it) lies upright there."""
    a = np.radians(-turn_deg)
    to_rect = table_to_rectified(view.table_mm, RECT_PX_PER_MM)
    middle = to_rect @ np.array([view.table_mm[0] / 2, view.table_mm[1] / 2, 1.0])
    turn = np.array([[np.cos(a), -np.sin(a), 0.0], [np.sin(a), np.cos(a), 0.0], [0.0, 0.0, 1.0]])
    about = np.array([[1.0, 0.0, middle[0]], [0.0, 1.0, middle[1]], [0.0, 0.0, 1.0]])
    homography = np.linalg.inv(to_rect) @ about @ turn @ np.linalg.inv(about) @ to_rect @ view.calibration.homography
    return TableView(replace(view.calibration, homography=homography), view.intrinsics)


@dataclass(frozen=True, eq=False)
class BoardView:
    """The board found on the rectified table.

    Attributes
    ----------
    rect : ndarray (h, w, 3) uint8
        The table seen from above at :data:`RECT_PX_PER_MM` (row 0 of pixels: the far edge).
    lattice : AlignedLattice
        Column and row centres of the board's spaces in ``rect`` pixels.
    view : TableView
    """

    rect: np.ndarray
    lattice: AlignedLattice
    view: TableView

    @property
    def rows(self) -> int:
        return len(self.lattice.rows)

    @property
    def columns(self) -> int:
        return len(self.lattice.columns)

    def rect_to_mm(self, pts: np.ndarray) -> np.ndarray:
        """Rectified-view pixels (..., 2) -> table mm (..., 2)."""
        a = np.linalg.inv(table_to_rectified(self.view.table_mm, RECT_PX_PER_MM))
        p = np.asarray(pts, np.float64)
        return (p @ a[:2, :2].T + a[:2, 2]).reshape(p.shape)

    def cell_quads_rect(self) -> np.ndarray:
        """(rows, columns, 4, 2): each space's corners in ``rect`` pixels, top-left first, clockwise."""
        return self.lattice.quads()

    def cell_quads_image(self) -> np.ndarray:
        """(rows, columns, 4, 2): each space's corners in the camera image (px), in the crop's order
        (the space's top-left as seen from above with row 0 away from the camera, clockwise)."""
        mm = self.rect_to_mm(self.cell_quads_rect())
        return self.view.to_image(mm)


#: A board whose lines run at least this many degrees off the table's edges is found on the
#: view turned with it (:func:`find_board`).
TURN_MIN_DEG = 1.0


def find_board(image: np.ndarray, view: TableView, zones: LigrettoZones,
               turned_deg: float | None = None) -> BoardView:
    """The board's spaces in ``image`` whose table is ``view``.

    A board turned on the table (its lines at least :data:`TURN_MIN_DEG` off the table's edges,
    :func:`~..lattice_plane.lattice_turn`) is found on the view turned with it about the
    table's middle (:func:`turned_view`): the board's rows and columns then run along that
    view's axes, and the board's view is that one. ``turned_deg``: how far ``view`` is turned
    so already (its turn is then not measured; 0: the board looked for on ``view`` as it is).

    Raises
    ------
    RecognitionError
        No board of at least :data:`MIN_SIDE` rows and columns of spaces shows.
    """
    rect = rectify(image, view.calibration, RECT_PX_PER_MM, view.intrinsics)
    cell_px = zones.cell_mm * RECT_PX_PER_MM
    # one pass over the four colours' masks together: each is thinned, so spaces of different
    # colours lie at least 2 * THIN_PX apart there too (the default colours' hue ranges, 24 wide,
    # do not meet; a profile's colours nearer than that would join a pixel to two masks)
    mask = np.bitwise_or.reduce(_colour_masks(rect, zones))
    components = cv2.connectedComponentsWithStats(mask, connectivity=4)  # labelled once, for both uses
    if turned_deg is None:
        turn = lattice_turn(mask, cell_px, components)
        if turn is not None and abs(turn) >= TURN_MIN_DEG:
            return find_board(image, turned_view(view, turn), zones, turned_deg=turn)
    # on a view turned to the board, what lies along the table's edges is turned the other way
    blobs = square_blobs(mask, cell_px, abs(turned_deg) / 2 if turned_deg else None, components)
    lattice = aligned_lattice(blobs, cell_px)
    if lattice is None or min(len(lattice.rows), len(lattice.columns)) < MIN_SIDE:
        raise RecognitionError(f"no Ligretto board found: fewer than {MIN_SIDE} rows and columns of coloured "
                               "spaces show on the table (is the board in view, between the markers?)")
    if zones.board_centred:  # about the table's middle, along the sides its markers measure
        h, w = rect.shape[:2]
        middle, axes = ((w - 1) / 2, (h - 1) / 2), spans(view.calibration.layout, view.calibration.markers_used)
        # the lines a side may grow to: the longest known board's (test renders 3001920 and
        # 3003049, arms over most of an 8 x 20 board: grown only to double what shows, cut short)
        lattice = lattice.centred(middle, axes, zones.longest_sides)
        lattice = lattice.completed(zones.board_shapes, middle, axes)
        lattice = lattice.snapped(blobs, cell_px)
    return BoardView(rect, lattice, view)


#: A space's colour: saturation (HSV, 0-255) at least this, value at least VALUE_MIN, and hue
#: (OpenCV, 0-180) within HUE_REACH of one of the four colours' hues. Wood and skin are less
#: saturated; a table cloth of a Ligretto colour would need a profile's colours.
SATURATION_MIN, VALUE_MIN, HUE_REACH = 130, 60, 12
#: Each colour's mask is thinned by this many pixels, so that spaces of one colour touching
#: across a thin gap stay apart.
THIN_PX = 2


def _hue_ranges(lo: int, hi: int) -> list[tuple[int, int]]:
    """``[lo, hi]`` on OpenCV's hue circle (0-179) as one or two plain ranges."""
    if lo < 0:
        return [(0, hi), (180 + lo, 179)]
    if hi > 179:
        return [(lo, 179), (0, hi - 180)]
    return [(lo, hi)]


def _colour_masks(rect: np.ndarray, zones: LigrettoZones) -> list[np.ndarray]:
    """One mask (h, w) uint8 per Ligretto colour of the pixels of that colour, thinned."""
    hsv = cv2.cvtColor(rect, cv2.COLOR_BGR2HSV)
    kernel = np.ones((2 * THIN_PX + 1, 2 * THIN_PX + 1), np.uint8)
    masks = []
    for name in COLOURS:
        ref = int(cv2.cvtColor(np.uint8([[zones.colours_bgr[name]]]), cv2.COLOR_BGR2HSV)[0, 0, 0])
        mask = np.zeros(hsv.shape[:2], np.uint8)
        for lo, hi in _hue_ranges(ref - HUE_REACH, ref + HUE_REACH):  # the hue circle wraps at 180
            mask |= cv2.inRange(hsv, (lo, SATURATION_MIN, VALUE_MIN), (hi, 255, 255))
        masks.append(cv2.erode(mask, kernel))
    return masks
