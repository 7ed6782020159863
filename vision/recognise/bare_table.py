"""Whether a place shows the bare table: its colour against the table's own around the layout.

A slot the card classifier reads as empty shows the bare table or, just above a column's last
card, that card's plain face. A sleeve can look like the second: a pale grey sleeve over a
grey table is a plain light band, and the classifier reads the slots under it as empty, surely
(validation render 2000531: twelve slots read empty at 0.99 under one, each holding a card). The
table's own colour is known around the layout: the median of points on two rings just outside
it, most of which an arm leaves bare. A slot clear of the cards' faces whose colour is much
lighter than the table's, or of another hue, is not bare table; a shadow only darkens the
table, so darker alone does not count; nor does a lamp's glare, which keeps the table's hue,
paler (:meth:`TableColour.glare`). Such a slot is covered, and so are the slots just above
the cards that look like it (the same sleeve reaching down over them). On a strongly
patterned cloth a bare slot may differ from the median too: it is then left unknown, which the
column's structure does not undo, never read as a card. Conversely, a slot the classifier
reads as covered, clear of the cards, whose every point plainly has the table's colour
(:meth:`TableColour.shows`, far stricter than :meth:`TableColour.bare`) is bare: a shadow or a
hand's tip in a corner made the classifier call a plain table covered.

Da Luigi's :mod:`.daluigi_table` asks the converse, strictly (does a spot show the table's
very colour, so that it is not called covered), from squares inside the play area's edges.

Pure functions over arrays: the caller gives the image, where the layout lies, and how table
millimetres map to image pixels.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

#: A place at least this much lighter than the table (OpenCV's 8-bit Lab: L 0-255) is not
#: bare table, nor one whose colour (a, b) lies at least CHROMA from the table's. Chosen on
#: validation renders 2000300..2000599: of the 2,305 empty slots read empty well above their
#: column's cards, 26 (in 10 renders) differ so, every one of them under a sleeve or an object
#: (none shown whole); lighter by 40 or a colour 60 away took one shown whole. CHROMA was 50
#: until 2026-12-04 (evening): on those renders and 2000600..2000799, of the 53 slots read
#: empty clear of the cards that hold one, 38 differ by 50, 43 by 30 (a light blue sleeve over
#: a grey table, 2000520: five cards of a column), 44 by 25; of the 3,656 truly empty, 1 shown
#: whole differs by any of them. Wrong places 521 -> 514 and 173 -> 173 at 30, 514 and 170 at
#: 25; 30 kept as the nearer to the table's own spread (a cloth's pattern).
LIGHTER, CHROMA = 60.0, 30.0
#: A place lighter than the table but of its very hue, only paler, is the table under a glare
#: (a lamp's highlight adds white light: the colour moves from the table's towards white), not
#: a cover: its chroma (a, b about the neutral 128) lies within GLARE_OFF of the line from
#: the table's chroma to neutral, at GLARE_PALEST to 1.1 times the table's. Asked only of a
#: table at least GLARE_TABLE_CHROMA from neutral (on a grey table a pale grey sleeve is of
#: the table's hue). Chosen on validation renders 2000200..2000599 (the readings of the
#: shipped models): of the 157 slots read empty that :func:`covered_above` called covered, 8
#: were empty and shown whole (a glare on a green or wooden table, 2000268 and 2000272) and 44
#: held a card; the test releases 7 of the 8 and no card (with GLARE_OFF 3 or 5: 5 and none;
#: GLARE_TABLE_CHROMA 10 or 20 and GLARE_PALEST 0.3 or 0.7 change nothing or one). Every
#: point must be lighter than the table too: on 2000754 a pale green money card on a green
#: baize has the baize's hue, paler, but its print is darker.
GLARE_OFF, GLARE_PALEST, GLARE_TABLE_CHROMA = 8.0, 0.5, 15.0
#: A slot just above the cards whose colour (Lab) lies within this of a covered slot's above
#: it is under the same cover.
SAME_COVER = 15.0
#: A place read as covered shows the bare table when its middle matches the table's colour
#: closely: the median within BARE_LIGHTNESS (L) and BARE_CHROMA (a, b) of it, and every point
#: read within BARE_WORST (a, b). Chosen on validation renders 2000300..2000599 and
#: 2000600..2000799: of the 1,894 slots read covered above their column's cards, 14 were empty
#: and shown whole, 7 of them so (a plain table, read covered for a shadow or a hand's tip in a
#: corner), and none of the 1,331 holding a card (the nearest, a card hidden under a sleeve of
#: the table's very colour, lies within 15, 5 and 6).
BARE_LIGHTNESS, BARE_CHROMA, BARE_WORST = 10.0, 4.0, 5.0
#: The rings: this far outside the layout's box (mm), a point every RING_STEP_MM along them;
#: fewer than MIN_RING_POINTS in the image and the table's colour is not taken.
RING_OFFSETS_MM = (15.0, 30.0)
RING_STEP_MM = 10.0
MIN_RING_POINTS = 10
#: The points read inside a place: a grid across its middle (shares of its sides).
INNER_U, INNER_V = np.linspace(0.2, 0.8, 5), np.linspace(0.25, 0.75, 3)

ToImage = Callable[[np.ndarray], np.ndarray]


def lab_at(image: np.ndarray, points_px: np.ndarray) -> np.ndarray:
    """The colour (OpenCV's 8-bit Lab, float) of ``image`` (BGR uint8) at each point (N, 2)
    inside it, interpolated; points outside the image are left out."""
    pts = np.asarray(points_px, np.float32).reshape(-1, 2)
    h, w = image.shape[:2]
    pts = pts[(pts[:, 0] >= 0) & (pts[:, 0] <= w - 1) & (pts[:, 1] >= 0) & (pts[:, 1] <= h - 1)]
    if not len(pts):
        return np.empty((0, 3), np.float32)
    bgr = cv2.remap(image, pts[:, 0].reshape(-1, 1), pts[:, 1].reshape(-1, 1), cv2.INTER_LINEAR)
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32)


def ring_mm(box_mm: np.ndarray) -> np.ndarray:
    """Points (N, 2) on the rings :data:`RING_OFFSETS_MM` outside the box of ``box_mm`` (its
    corners, any order), every :data:`RING_STEP_MM`."""
    box = np.asarray(box_mm, np.float64)
    (x0, y0), (x1, y1) = box.min(axis=0), box.max(axis=0)
    out = []
    for off in RING_OFFSETS_MM:
        xs = np.arange(x0 - off, x1 + off + 1e-9, RING_STEP_MM)
        ys = np.arange(y0 - off, y1 + off + 1e-9, RING_STEP_MM)
        out += [(x, y) for x in xs for y in (y0 - off, y1 + off)]
        out += [(x, y) for y in ys for x in (x0 - off, x1 + off)]
    return np.array(out, np.float64)


def inner_mm(quad_mm: np.ndarray) -> np.ndarray:
    """The grid of points (N, 2) across the middle of ``quad_mm`` (4, 2)."""
    q = np.asarray(quad_mm, np.float64)
    u, v = np.meshgrid(INNER_U, INNER_V)
    top = q[0] + (q[1] - q[0]) * u[..., None]
    bottom = q[3] + (q[2] - q[3]) * u[..., None]
    return (top + (bottom - top) * v[..., None]).reshape(-1, 2)


@dataclass(frozen=True)
class TableColour:
    """The table's own colour (Lab, 8-bit scale) around a layout."""

    lab: tuple[float, float, float]

    def __post_init__(self) -> None:
        if len(self.lab) != 3 or not all(math.isfinite(v) for v in self.lab):
            raise ValueError(f"a table colour is three finite Lab values, got {self.lab!r}")

    @classmethod
    def around(cls, image: np.ndarray, to_image: ToImage, box_mm: np.ndarray) -> TableColour | None:
        """The median colour of the rings around ``box_mm`` in ``image``; None when too few of
        their points lie in the image."""
        samples = lab_at(image, to_image(ring_mm(box_mm)))
        if len(samples) < MIN_RING_POINTS:
            return None
        return cls(tuple(float(v) for v in np.median(samples, axis=0)))

    def bare(self, lab: np.ndarray) -> bool:
        """Whether a place of colour ``lab`` may be the bare table (a shadow on it included)."""
        ref = np.asarray(self.lab)
        lab = np.asarray(lab, np.float64)
        return bool(lab[0] - ref[0] < LIGHTER and math.hypot(lab[1] - ref[1], lab[2] - ref[2]) < CHROMA)

    def glare(self, samples: np.ndarray) -> bool:
        """Whether a place whose points have colours ``samples`` (N, 3 Lab) is the table under a
        glare: every point lighter than the table (a card's print or edge is darker), their
        median of the table's hue, paler (:data:`GLARE_OFF`)."""
        samples = np.asarray(samples, np.float64).reshape(-1, 3)
        table = np.asarray(self.lab[1:], np.float64) - 128.0
        norm = float(np.linalg.norm(table))
        if not len(samples) or norm < GLARE_TABLE_CHROMA or samples[:, 0].min() < self.lab[0]:
            return False
        chroma = np.median(samples, axis=0)[1:] - 128.0
        off = abs(float(chroma[0] * table[1] - chroma[1] * table[0])) / norm
        along = float(chroma @ table) / norm ** 2
        return off <= GLARE_OFF and GLARE_PALEST <= along <= 1.1

    def shows(self, samples: np.ndarray) -> bool:
        """Whether a place whose points have colours ``samples`` (N, 3 Lab) shows this very
        table, plainly (:data:`BARE_LIGHTNESS`): stricter than :meth:`bare`."""
        samples = np.asarray(samples, np.float64).reshape(-1, 3)
        if not len(samples):
            return False
        off = samples - np.asarray(self.lab)
        middle = np.median(off, axis=0)
        return bool(abs(middle[0]) < BARE_LIGHTNESS and math.hypot(middle[1], middle[2]) < BARE_CHROMA
                    and np.hypot(off[:, 1], off[:, 2]).max() < BARE_WORST)


def place_samples(image: np.ndarray, to_image: ToImage, quad_mm: np.ndarray) -> np.ndarray:
    """The colours (N, 3 Lab) of the points across the middle of a place that lie in the image."""
    return lab_at(image, to_image(inner_mm(quad_mm)))


def median_lab(samples: np.ndarray) -> np.ndarray | None:
    """The median colour (Lab) of a place's points (:func:`place_samples`); None when none lies
    in the image."""
    return np.median(samples, axis=0) if len(samples) else None


def _clear_of_face(top: int, reach: int) -> int:
    """The first slot clear of the face of a column's last card (``top``: the slots up to it,
    0 where no card is read, and then no face lies above the bottom slots)."""
    return top + reach if top else 0


def covered_above(labels: Sequence[str], samples_of: Callable[[int], np.ndarray], table: TableColour,
                  empty: str, reach: int) -> set[int]:
    """The slots of one column (``labels`` from the bottom up) read ``empty`` that are
    covered: those at least ``reach`` slots above its last slot not read empty (clear of the
    last card's face; every slot where none is) that are neither bare table nor the table under
    a glare, and below them the ones within ``reach`` whose colour matches one of those
    (``samples_of(k)``: the colours of slot k's points, :func:`place_samples`)."""
    top = max((k + 1 for k, label in enumerate(labels) if label != empty), default=0)
    clear = _clear_of_face(top, reach)
    covers = {}
    for k in range(clear, len(labels)):
        if labels[k] == empty:
            samples = samples_of(k)
            lab = median_lab(samples)
            if lab is not None and not table.bare(lab) and not table.glare(samples):
                covers[k] = lab
    if not covers:
        return set()
    out = set(covers)
    for k in range(top, min(clear, len(labels))):
        if labels[k] == empty:
            lab = median_lab(samples_of(k))
            if lab is not None and min(float(np.linalg.norm(lab - c)) for c in covers.values()) < SAME_COVER:
                out.add(k)
    return out


def bare_above(labels: Sequence[str], samples_of: Callable[[int], np.ndarray], table: TableColour,
               empty: str, unknown: str, reach: int) -> set[int]:
    """The slots of one column (``labels`` from the bottom up) read ``unknown`` that show the
    bare table (:meth:`TableColour.shows`; ``samples_of(k)``: slot k's colours): those at least
    ``reach`` slots above its last slot read as a card, clear of that card's face (every slot
    where none is)."""
    top = max((k + 1 for k, label in enumerate(labels) if label not in (empty, unknown)), default=0)
    return {k for k in range(_clear_of_face(top, reach), len(labels))
            if labels[k] == unknown and table.shows(samples_of(k))}
