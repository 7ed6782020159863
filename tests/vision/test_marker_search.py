"""A table marker the detector misses, found by its pattern where the others put it (synthetic
images; and the Dolce Vita render whose marker a pen crosses)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tableref.calibration.markers import detect_markers, dictionary
from tableref.vision.marker_search import find_near

DICT = "DICT_4X4_50"
#: Where the marker lies (its black square, ArUco order), a little turned and foreshortened.
QUAD = np.array([[160, 110], [212, 114], [209, 165], [158, 161]], float)


def table_with(marker_id: int | None, pen: bool = False) -> np.ndarray:
    """A grey table 400 x 300 px with marker ``marker_id`` (white quiet zone around it) at QUAD,
    a dark pen across its border if told, slightly blurred."""
    image = np.full((300, 400, 3), 120, np.uint8)
    if marker_id is not None:
        marker = cv2.copyMakeBorder(cv2.aruco.generateImageMarker(dictionary(DICT), marker_id, 60, borderBits=1),
                                    10, 10, 10, 10, cv2.BORDER_CONSTANT, value=255)
        to_image = cv2.getPerspectiveTransform(np.float32([[10, 10], [70, 10], [70, 70], [10, 70]]), np.float32(QUAD))
        warped = cv2.warpPerspective(marker, to_image, (400, 300))
        inside = cv2.warpPerspective(np.full_like(marker, 255), to_image, (400, 300)) > 0
        image[inside] = warped[inside, None]
    if pen:
        cv2.line(image, (150, 90), (200, 200), (40, 30, 30), 6)
    return cv2.GaussianBlur(image, (3, 3), 0)


@pytest.mark.parametrize("present, pen, found", [
    (0, False, True),  # the marker plainly there
    (0, True, True),  # a pen across it: the detector misses it, its pattern still shows
    (5, True, False),  # another marker there: its own pattern matches better
    (7, False, False),
    (None, False, False),  # the bare table
])
def test_a_marker_is_found_by_its_pattern_near_where_it_should_lie(present, pen, found):
    image = table_with(present, pen)
    if present == 0 and pen:
        assert detect_markers(image, DICT) == []
    predicted = QUAD + [12.0, -9.0]  # the other markers put it 15 px off
    hit = find_near(image, 0, predicted, DICT)
    assert (hit is not None) == found
    if found:
        marker, score = hit
        assert marker.id == 0 and score >= 0.6
        assert np.abs(marker.corners - QUAD).max() < 1.0


def test_a_place_outside_the_image_finds_nothing():
    assert find_near(table_with(0), 0, QUAD + [380.0, 0.0], DICT) is None


def test_a_pen_over_a_marker_leaves_the_table_located_by_three():
    # validation render 2000351 of Dolce Vita: a cup over one far marker, a pen across a near
    # one; the table was located from the two on the right only, along one edge (its far side
    # unmeasured: 48 of the display's slots missed); the near left one is found by its pattern
    from tableref.bench.recognition import _shots
    from tableref.vision.recognise.common import one_edge
    from tableref.vision.recognise.dolcevita import locate_dolcevita

    shot = next(_shots([2_000_351]))
    assert [m.id for m in detect_markers(shot.image, DICT)] == [1]
    view = locate_dolcevita(shot.image)
    assert view.calibration.markers_used == (0, 1, 2) and not one_edge(view)
