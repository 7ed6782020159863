"""A table marker the detector missed, looked for where the markers it found say it lies.

ArUco's detector finds a marker only when its black square is one clean quadrilateral: a pen,
a die or a finger across its border, or a blur, and the marker is lost, though most of its
cells still show. Once two markers have located the table (:func:`~.recognise.common.locate_table`),
each missing marker's place in the image is known to within some pixels (more on the far
side, which two markers along one edge do not measure). There the marker's own pattern (its
id's cells, its black border, the white around it) is matched: the image around the predicted
place is resampled into the marker's upright frame, the pattern is slid over it at a few
scales, and the best match, when it agrees well enough, gives the marker's corners. The
recogniser then locates the table from three markers or four instead of two.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from ..calibration.markers import DetectedMarker, dictionary
from ..calibration.images import to_gray

#: Pixels per marker module (one cell) in the upright frame the match is made in.
MODULE_PX = 8
#: How far from the predicted place the marker is looked for: this many marker sides around it.
REACH_SIDES = 1.25
#: Scales of the pattern tried against the predicted size (a far marker two markers mislocate
#: is smaller or larger than predicted).
SCALES = (0.8, 0.87, 0.94, 1.0, 1.07, 1.15, 1.25)
#: A match counts when the pattern and the image agree at least this much (normalised
#: cross-correlation, -1..1): the markers found on the validation renders named below, under a
#: pen, a cup's rim, a sleeve's edge or a blur, matched at 0.61-0.89. On validation renders
#: 2000200..2000799 of Dolce Vita, 0.5 and 0.7 read the same 483 scenes of 600 exactly right.
MIN_MATCH = 0.6
#: ... and at least this much better than any other marker of the dictionary (or its own
#: turned), in any of four turns, matches at the same place: every marker has the same black
#: border and quiet zone, so another marker there matches the one looked for at 0.6-0.8 (but
#: its own pattern better still), and the right one, small and blurred, leads the best other by
#: only 0.04-0.08 (validation renders 2000351, 2000485, 2000498, 2000754 of Dolce Vita; a marker
#: half under a sleeve, 0.608 against 0.608, is left missing). On validation renders
#: 2000200..2000799, scenes exactly right (wrong places): 481 of 600 (483) with no lead asked,
#: 483 (475) at 0.03, 482 (546) at 0.06.
MIN_LEAD = 0.03
#: The match is then refined by aligning the pattern to the image with a homography
#: (``cv2.findTransformECC``: at most 50 steps, or until a step changes it by less than 1e-4).
#: Fitting the black square's sides instead (as the detector's markers are refined) follows a
#: pen or a sleeve across a side: on the 13 validation renders of Dolce Vita whose reading the
#: search changed, places wrong 227 without the search, 93 with the match as found, 141 with
#: its sides fitted (156 aligned, then fitted), 39 aligned.
ALIGN_UNTIL = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 50, 1e-4)


@lru_cache(maxsize=256)
def _pattern(marker_id: int, dictionary_name: str) -> np.ndarray:
    """The marker as printed, its white quiet zone one module wide around it: float32, upright,
    ``MODULE_PX`` px a module."""
    d = dictionary(dictionary_name)
    side = (d.markerSize + 2) * MODULE_PX
    marker = cv2.aruco.generateImageMarker(d, marker_id, side, borderBits=1)
    return cv2.copyMakeBorder(marker, MODULE_PX, MODULE_PX, MODULE_PX, MODULE_PX, cv2.BORDER_CONSTANT,
                              value=255).astype(np.float32)


def _best_other(patch: np.ndarray, marker_id: int, dictionary_name: str) -> float:
    """How well the best other marker of the dictionary (any of its four turns) matches ``patch``
    (normalised cross-correlation), the patch being a pattern's size."""
    size = patch.shape[::-1]
    best = -1.0
    for other in range(len(dictionary(dictionary_name).bytesList)):
        pattern = cv2.resize(_pattern(other, dictionary_name), size, interpolation=cv2.INTER_AREA)
        for turns in range(4):
            if other == marker_id and turns == 0:
                continue
            turned = np.ascontiguousarray(np.rot90(pattern, turns))
            best = max(best, float(cv2.matchTemplate(patch, turned, cv2.TM_CCOEFF_NORMED)[0, 0]))
    return best


def find_near(image: np.ndarray, marker_id: int, predicted: np.ndarray,
              dictionary_name: str) -> tuple[DetectedMarker, float] | None:
    """Marker ``marker_id`` near ``predicted`` (its four corners in image px, ArUco order), found
    by its pattern, with how well it matched; None when nothing there matches at least
    :data:`MIN_MATCH` and :data:`MIN_LEAD` better than any other marker.

    Pure: no file or camera access. ``image`` BGR or grey uint8."""
    gray = to_gray(image).astype(np.float32)
    pattern = _pattern(marker_id, dictionary_name)
    side = pattern.shape[0] - 2 * MODULE_PX  # the black square's side in the upright frame
    reach = int(round(REACH_SIDES * side))
    # upright frame: the predicted black square at (reach + MODULE_PX .. + side), room around it
    offset = reach + MODULE_PX
    upright = np.float32([[offset, offset], [offset + side, offset], [offset + side, offset + side],
                          [offset, offset + side]])
    to_image = cv2.getPerspectiveTransform(upright, np.float32(predicted))
    canvas = 2 * offset + side
    window = cv2.warpPerspective(gray, to_image, (canvas, canvas), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=float("nan"))
    if np.isnan(window).mean() > 0.25:
        return None  # the place lies mostly outside the image
    window = np.nan_to_num(window, nan=float(np.nanmean(window)))
    best = (-1.0, 0, 0, 0)
    for size in {int(round(pattern.shape[0] * scale)) for scale in SCALES}:
        if size >= canvas:
            continue
        scaled = cv2.resize(pattern, (size, size), interpolation=cv2.INTER_AREA)
        _, score, _, (x, y) = cv2.minMaxLoc(cv2.matchTemplate(window, scaled, cv2.TM_CCOEFF_NORMED))
        best = max(best, (float(score), size, x, y))
    score, size, x, y = best
    if score < MIN_MATCH or score - _best_other(window[y:y + size, x:x + size], marker_id, dictionary_name) < MIN_LEAD:
        return None
    scale = size / pattern.shape[0]
    matched = np.float32([[scale, 0, x], [0, scale, y], [0, 0, 1]])  # pattern px -> window px
    square = np.float32([[MODULE_PX, MODULE_PX], [MODULE_PX + side, MODULE_PX], [MODULE_PX + side, MODULE_PX + side],
                         [MODULE_PX, MODULE_PX + side]])[None]
    try:  # the pattern aligned to the window by a homography, to a fraction of a pixel (a match
        # found a module or more off, as on a far marker a pen crosses, moves that far: validation
        # render 2000485 of Dolce Vita read with 13 places wrong so, 56 when such moves were refused)
        _, warp = cv2.findTransformECC(pattern, window, matched.copy(), cv2.MOTION_HOMOGRAPHY, ALIGN_UNTIL, None, 1)
    except cv2.error:
        warp = matched  # the alignment did not converge: the match as found
    corners = cv2.perspectiveTransform(cv2.perspectiveTransform(square, warp), to_image)
    return DetectedMarker(marker_id, corners[0].astype(np.float64)), score
