"""The bare table's own look, for telling a spot that shows only the table from one under a hand.

The welcoming player's hand and revealed card lie at one seat's places on the bare table, and
are read as absent only where every seat's place shows. The spot classifier learnt tables of
many kinds, but on a wood table whose grain runs along the cards' edges it read some bare
places as covered (``unknown`` 0.6-1.0), and the hand or the revealed card was then unknown (6
of 150 validation renders 2000750..2000899). The table's look is measured in the image itself:
the median colour (CIE Lab) of small squares along a band just inside the play area's edges,
where nothing of the game lies (an arm crossing it covers a few squares; the median takes no
notice). A spot whose middle has about that colour shows the table: the share the classifier
gave ``unknown`` goes to ``blank`` (:class:`~.daluigi.Spots`, :data:`~.daluigi.ON_THE_TABLE`).
"""

from __future__ import annotations

import cv2
import numpy as np

from ..crop import inner_quad

#: The squares the table's look is measured on: this side (mm), this far apart along the band,
#: the band this far inside the play area's edges, and none this near a corner (the markers).
SQUARE_MM, STEP_MM, INSET_MM, CORNER_MM = 20.0, 40.0, 15.0, 70.0
#: A spot's middle shows the table when its chroma (CIE Lab a and b, 8-bit scale) lies within
#: TABLE_CHROMA of the table's and its lightness within TABLE_LIGHTNESS (wood grain, a lamp's
#: fall-off and shadows change the lightness far more than the hue). On validation renders
#: 2000750..2000899, of the hand places' spots showing the table whole (2,005) the chroma lay a
#: median 0.7 from the table's (90 % within 5.1), of those under a hand, an arm or an object
#: (85, places less than 0.3 shown) a median 25.9; of the 42 spots showing the table but read
#: as covered, 35 lie within both bounds, and 2 of the covered spots read so.
TABLE_CHROMA, TABLE_LIGHTNESS = 6.0, 40.0
#: A spot is plainly not the table when its chroma lies at least NOT_TABLE_CHROMA from the
#: table's (:func:`plainly_not_table`). Chosen on validation renders 2000450..2000749 and
#: 2000750..2000899 (the first spot of a pile read blank: :data:`~.daluigi.PILES`): scenes
#: exactly right 205 and 110 at 20, 25 or 30 (203 and 109 without the test), 204 and 109 at 35,
#: 203 and 109 at 40. Lightness is no test: a lamp's glare on a wood table made places there
#: 60 lighter than the table's median, of its hue (2000547).
NOT_TABLE_CHROMA = 30.0


def squares_mm(table_mm: tuple[float, float]) -> list[np.ndarray]:
    """The squares (4, 2) mm along the band inside the play area ``table_mm`` (width, depth)."""
    w, d = table_mm
    s = SQUARE_MM

    def square(x: float, y: float) -> np.ndarray:
        return np.array([[x, y], [x + s, y], [x + s, y + s], [x, y + s]], np.float64)

    out = []
    for x in np.arange(CORNER_MM, w - CORNER_MM - s + 1e-9, STEP_MM):
        out += [square(x, INSET_MM), square(x, d - INSET_MM - s)]
    for y in np.arange(CORNER_MM, d - CORNER_MM - s + 1e-9, STEP_MM):
        out += [square(INSET_MM, y), square(w - INSET_MM - s, y)]
    return out


def middle_lab(patches: np.ndarray, margin: float) -> np.ndarray:
    """(N, 3) the mean CIE Lab colour of each BGR patch's middle: the spot itself, without the
    crop's ``margin`` (a share of the spot's side on each side)."""
    n = len(patches)
    (x0, y0), _, (x1, y1), _ = inner_quad(patches.shape[1:3], margin) + 0.5  # pixel edges
    whole = np.s_[:, int(np.ceil(y0)):int(np.floor(y1)), int(np.ceil(x0)):int(np.floor(x1))]
    middle = np.ascontiguousarray(patches[whole])  # the pixels wholly inside the spot
    lab = cv2.cvtColor(middle.reshape(-1, middle.shape[2], 3), cv2.COLOR_BGR2LAB).reshape(middle.shape)
    return lab.reshape(n, -1, 3).astype(np.float64).mean(axis=1)


def table_lab(patches: np.ndarray, margin: float) -> np.ndarray | None:
    """The table's colour (3,) Lab: the median of the squares' middles; None without squares."""
    if not len(patches):
        return None
    return np.median(middle_lab(patches, margin), axis=0)


def _off_table(patches: np.ndarray, table: np.ndarray | None, margin: float) -> np.ndarray | None:
    """(N, 3) each patch's middle colour (Lab) less the table's; None without the table's
    colour or without patches."""
    if table is None or not len(patches):
        return None
    return middle_lab(patches, margin) - table


def shows_table(patches: np.ndarray, table: np.ndarray | None, margin: float) -> np.ndarray:
    """(N,) bool: whether each patch's middle has the table's colour (all False without one)."""
    off = _off_table(patches, table, margin)
    if off is None:
        return np.zeros(len(patches), bool)
    return (np.linalg.norm(off[:, 1:], axis=1) < TABLE_CHROMA) & (np.abs(off[:, 0]) < TABLE_LIGHTNESS)


def plainly_not_table(patches: np.ndarray, table: np.ndarray | None, margin: float) -> np.ndarray:
    """(N,) bool: whether each patch's middle is plainly not the table, its chroma at least
    :data:`NOT_TABLE_CHROMA` from the table's (all False without the table's colour)."""
    off = _off_table(patches, table, margin)
    if off is None:
        return np.zeros(len(patches), bool)
    return np.linalg.norm(off[:, 1:], axis=1) >= NOT_TABLE_CHROMA
