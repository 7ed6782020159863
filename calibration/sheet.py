"""A printable sheet of the four table markers at true size, with a placement guide.

The sheet holds the four markers of the default corner layout (:mod:`.layout`), each in a
dashed cutting frame. The user prints it at 100 % scale, checks the 100 mm bar, cuts the
four markers out and lays each one inside its corner of the play area, printed side up, its
top edge away from the camera, the corner of the black square marked by the small triangle
exactly on the play area's corner. The guide at the bottom of the sheet shows this.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from .errors import MarkerError
from .layout import DEFAULT_IDS, DEFAULT_MARKER_MM
from .markers import DEFAULT_DICTIONARY, dictionary
from .pdf import MM_PER_INCH

#: Paper sizes, (width, height) in millimetres, portrait.
PAPER_MM = {"a4": (210.0, 297.0), "a3": (297.0, 420.0)}
#: Raster resolution of the sheet, dots per inch.
SHEET_DPI = 300.0
#: Where each of the four corner markers goes, in layout order.
CORNER_NAMES = ("NEAR LEFT", "NEAR RIGHT", "FAR RIGHT", "FAR LEFT")
#: Which corner of the marker's square is the play-area corner: (-1|+1 in x, -1|+1 in y)
#: on the page, x to the right and y downwards (near left: bottom-left...).
_OUTER_CORNER = ((-1, 1), (1, 1), (1, -1), (-1, -1))
#: (row, column) of each slot's cell on the page.
_SLOT_CELL = ((1, 0), (1, 1), (0, 1), (0, 0))

# Page layout, millimetres.
_MARGIN = 10.0
_HEADER = 24.0
_GUIDE = 62.0
_TEXT = 3.6          # capital letter height of ordinary text
_LINE = 6.0          # line pitch of ordinary text
_QUIET_MODULES = 1.0  # white border around a marker, in marker modules (bits)
_CUT_MODULES = 1.8   # cutting frame distance from the marker, in modules
_SCALE_BAR_MM = 100.0
_LABEL_LINES = 2.3  # label text below each cutting frame, in lines
_INK, _PAPER, _GREY = 0, 255, 140
_FONT = cv2.FONT_HERSHEY_SIMPLEX
_FONT_CAP_PER_SCALE = 22.0  # Hershey simplex: cap height in px at fontScale 1


@dataclass(frozen=True)
class _Page:
    """A raster page with mm -> px conversion (x to the right, y downwards, from the top-left)."""

    image: np.ndarray
    sx: float
    sy: float

    def px(self, x_mm: float, y_mm: float) -> tuple[int, int]:
        return int(round(x_mm * self.sx)), int(round(y_mm * self.sy))

    def text(self, text: str, x_mm: float, y_mm: float, cap_mm: float = _TEXT, ink: int = _INK) -> None:
        """Draw ``text`` with its baseline-left at (x_mm, y_mm)."""
        scale = cap_mm * self.sy / _FONT_CAP_PER_SCALE
        thickness = max(1, int(round(scale * 2)))
        room = self.image.shape[1] - _MARGIN * self.sx - x_mm * self.sx
        (width, _), _ = cv2.getTextSize(text, _FONT, scale, thickness)
        if width > room:  # shrink a long line to end at the right margin
            scale *= room / width
        cv2.putText(self.image, text, self.px(x_mm, y_mm), _FONT, scale, ink, thickness, cv2.LINE_AA)

    def line(self, a: tuple[float, float], b: tuple[float, float], width_mm: float = 0.3, ink: int = _INK) -> None:
        cv2.line(self.image, self.px(*a), self.px(*b), ink, max(1, int(round(width_mm * self.sx))), cv2.LINE_AA)

    def dashed_rect(self, x0: float, y0: float, x1: float, y1: float, dash_mm: float = 3.0) -> None:
        for a, b in (((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))):
            length = float(np.hypot(b[0] - a[0], b[1] - a[1]))
            for start in np.arange(0.0, length, 2 * dash_mm):
                t0, t1 = start / length, min(start + dash_mm, length) / length
                self.line((a[0] + t0 * (b[0] - a[0]), a[1] + t0 * (b[1] - a[1])),
                          (a[0] + t1 * (b[0] - a[0]), a[1] + t1 * (b[1] - a[1])), 0.2, _GREY)


def marker_sheet(paper: str = "a4", marker_mm: float = DEFAULT_MARKER_MM, ids: Sequence[int] = DEFAULT_IDS,
                 dictionary_name: str = DEFAULT_DICTIONARY) -> tuple[np.ndarray, tuple[float, float]]:
    """Render the marker sheet.

    Parameters
    ----------
    paper : {"a4", "a3"}
    marker_mm : float
        Side of each marker's black square on paper, millimetres.
    ids : sequence of 4 ints
        Marker ids in layout order: near left, near right, far right, far left.
    dictionary_name : str

    Returns
    -------
    page : ndarray of shape (H, W), uint8
        The page at :data:`SHEET_DPI` (A4: 3508 x 2480).
    paper_mm : (width, height)
        The paper size in millimetres.

    Raises
    ------
    MarkerError
        Unknown paper, dictionary or id, or markers too large for the paper.
    """
    if paper not in PAPER_MM:
        raise MarkerError(f"unknown paper {paper!r}: use one of {sorted(PAPER_MM)}")
    if len(ids) != 4 or len(set(ids)) != 4:
        raise MarkerError(f"the sheet prints 4 different marker ids (near left, near right, far right, far left), got {list(ids)}")
    aruco = dictionary(dictionary_name)
    n_markers = int(aruco.bytesList.shape[0])
    if any(not 0 <= i < n_markers for i in ids):
        raise MarkerError(f"marker ids {list(ids)} must lie in 0..{n_markers - 1} for {dictionary_name}")
    width_mm, height_mm = PAPER_MM[paper]
    module = marker_mm / (aruco.markerSize + 2)
    cell_w = (width_mm - 2 * _MARGIN) / 2
    cell_h = (height_mm - 2 * _MARGIN - _HEADER - _GUIDE) / 2
    frame = marker_mm + 2 * _CUT_MODULES * module
    if not (marker_mm > 0 and frame <= cell_w and frame + _LABEL_LINES * _LINE <= cell_h):
        largest = min(cell_w, cell_h - _LABEL_LINES * _LINE) / (1 + 2 * _CUT_MODULES / (aruco.markerSize + 2))
        raise MarkerError(f"markers of {marker_mm:g} mm do not fit on {paper.upper()} (at most {largest:.0f} mm): "
                          "choose a smaller --marker-mm or a larger --paper")
    shape = (int(round(height_mm / MM_PER_INCH * SHEET_DPI)), int(round(width_mm / MM_PER_INCH * SHEET_DPI)))
    page = _Page(np.full(shape, _PAPER, np.uint8), shape[1] / width_mm, shape[0] / height_mm)
    _header(page, paper, marker_mm, ids, dictionary_name)
    for slot, marker_id in enumerate(ids):
        # as the markers lie in front of the camera: near ones on the lower row, far ones above
        row, col = _SLOT_CELL[slot]
        left = _MARGIN + col * cell_w + (cell_w - frame) / 2 + _CUT_MODULES * module
        top = _MARGIN + _HEADER + row * cell_h + _CUT_MODULES * module
        _marker(page, aruco, marker_id, slot, left, top, marker_mm, module)
    _guide(page, ids, height_mm - _MARGIN - _GUIDE, width_mm)
    return page.image, (width_mm, height_mm)



def _header(page: _Page, paper: str, marker_mm: float, ids: Sequence[int], name: str) -> None:
    x, y = _MARGIN, _MARGIN + _LINE
    page.text(f"tableref table markers   {name}   ids {','.join(map(str, ids))}", x, y, 1.4 * _TEXT)
    page.text(f"black square side: {marker_mm:g} mm. Print at 100% / actual size ({paper.upper()}, no fit-to-page).",
              x, y + 1.5 * _LINE)
    page.text("This bar must measure 100 mm:", x, y + 2.7 * _LINE)
    bar_x, bar_y = x + 75.0, y + 2.7 * _LINE
    page.line((bar_x, bar_y), (bar_x + _SCALE_BAR_MM, bar_y), 0.5)
    for tick in range(0, int(_SCALE_BAR_MM) + 1, 10):
        page.line((bar_x + tick, bar_y), (bar_x + tick, bar_y - (3.0 if tick % 50 == 0 else 1.5)), 0.3)


def _marker(page: _Page, aruco: cv2.aruco.Dictionary, marker_id: int, slot: int, left: float, top: float,
            marker_mm: float, module: float) -> None:
    bits = aruco.generateImageMarker(marker_id, aruco.markerSize + 2)
    x0, y0 = page.px(left, top)
    x1, y1 = page.px(left + marker_mm, top + marker_mm)
    page.image[y0:y1, x0:x1] = cv2.resize(bits, (x1 - x0, y1 - y0), interpolation=cv2.INTER_NEAREST)
    cut = _CUT_MODULES * module
    page.dashed_rect(left - cut, top - cut, left + marker_mm + cut, top + marker_mm + cut)
    # a triangle outside the quiet zone, its right angle pointing at the play-area corner
    sx, sy = _OUTER_CORNER[slot]
    cx = left + (marker_mm if sx > 0 else 0.0) + sx * _QUIET_MODULES * module
    cy = top + (marker_mm if sy > 0 else 0.0) + sy * _QUIET_MODULES * module
    leg = 0.9 * (_CUT_MODULES - _QUIET_MODULES) * module
    triangle = np.array([page.px(cx, cy), page.px(cx + sx * leg, cy), page.px(cx, cy + sy * leg)], np.int32)
    cv2.fillConvexPoly(page.image, triangle, _INK, cv2.LINE_AA)
    page.text(f"id {marker_id}: {CORNER_NAMES[slot]} corner", left - cut, top + marker_mm + cut + _LINE)
    page.text("top edge away from the camera", left - cut, top + marker_mm + cut + 2 * _LINE, 0.8 * _TEXT, _GREY)


def _guide(page: _Page, ids: Sequence[int], top: float, width_mm: float) -> None:
    x = _MARGIN
    page.text("Placement: cut the 4 markers out along the dashed lines. Lay each one inside its", x, top + _LINE)
    page.text("corner of the play area, printed side up, top edge away from the camera, with", x, top + 2 * _LINE)
    page.text("the black square's corner marked by the triangle on the play area's corner.", x, top + 3 * _LINE)
    page.text("Then: tableref calibrate table PHOTO --table WxH --marker-mm SIDE --out profile.json",
              x, top + 4 * _LINE, 0.85 * _TEXT)
    box_w, box_h, s = 70.0, 20.0, 5.0
    bx, by = (width_mm - box_w) / 2, top + 4.8 * _LINE
    page.line((bx, by), (bx + box_w, by))
    page.line((bx + box_w, by), (bx + box_w, by + box_h))
    page.line((bx + box_w, by + box_h), (bx, by + box_h))
    page.line((bx, by + box_h), (bx, by))
    corners = ((bx, by + box_h - s), (bx + box_w - s, by + box_h - s), (bx + box_w - s, by), (bx, by))
    for marker_id, (mx, my) in zip(ids, corners):
        cv2.rectangle(page.image, page.px(mx, my), page.px(mx + s, my + s), _INK, -1)
        page.text(str(marker_id), mx + s + 1.0 if mx < bx + 1 else mx - 4.0, my + s - 1.0, _TEXT)
    page.text("W", bx + box_w / 2, by - 1.8, _TEXT)
    page.text("H", bx + box_w + 1.5, by + box_h / 2, _TEXT)
    page.text(f"origin (0,0) = outer corner of marker {ids[0]}; x to the right, y away from the camera",
              bx - 30.0, by + box_h + _LINE * 0.8, 0.8 * _TEXT)
    page.text("CAMERA (near edge)", bx + box_w / 2 - 18.0, by + box_h + 1.6 * _LINE, _TEXT, _GREY)
