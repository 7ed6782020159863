"""Helpers shared by the recogniser tests."""

from __future__ import annotations

import cv2
import numpy as np

from tableref.calibration.markers import detect_markers


def cover_markers(image: np.ndarray, ids, view=None) -> np.ndarray:
    """``image`` with the markers ``ids`` painted over in the table's grey (a hand or a cup):
    those the detector finds, or, given ``view`` (a TableView of the image), wherever the view
    puts them, found or not (the recognisers look for a marker the detector misses by its
    pattern, :mod:`tableref.vision.marker_search`)."""
    out = image.copy()
    if view is None:
        squares = [m.corners for m in detect_markers(image) if m.id in ids]
    else:
        squares = [view.to_image(np.asarray(p.corners_mm, np.float64))
                   for p in view.calibration.layout.markers if p.id in ids]
    for corners in squares:
        centre = corners.mean(axis=0)
        grown = centre + 1.6 * (corners - centre)
        cv2.fillConvexPoly(out, np.round(grown).astype(np.int32), (150, 150, 150))
    return out
