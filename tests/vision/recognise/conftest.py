"""Helpers shared by the recogniser tests."""

from __future__ import annotations

import cv2
import numpy as np

from tableref.calibration.markers import detect_markers


def cover_markers(image: np.ndarray, ids) -> np.ndarray:
    """``image`` with the markers ``ids`` painted over in the table's grey (a hand or a cup)."""
    out = image.copy()
    for m in detect_markers(image):
        if m.id in ids:
            centre = m.corners.mean(axis=0)
            grown = centre + 1.6 * (m.corners - centre)
            cv2.fillConvexPoly(out, np.round(grown).astype(np.int32), (150, 150, 150))
    return out
