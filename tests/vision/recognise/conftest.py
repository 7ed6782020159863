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


class StubClassifier:
    """A classifier that reads every quad as ``row`` (probabilities over ``labels``), counting
    the quads it was asked about; its card names it ``stub`` with ``preprocessing``."""

    def __init__(self, labels, row=None, preprocessing=None):
        from types import SimpleNamespace

        self.labels = tuple(labels)
        self.card = SimpleNamespace(name="stub", preprocessing=preprocessing)
        self.row = None if row is None else np.asarray(row, np.float32)
        self.asked = 0

    def classify(self, image, quads):
        from types import SimpleNamespace

        self.asked += len(quads)
        return SimpleNamespace(probabilities=np.tile(self.row, (len(quads), 1)))


def peaked(labels, label: str, p: float) -> np.ndarray:
    """Probabilities over ``labels``: ``p`` on ``label``, the rest spread evenly over the others."""
    row = np.full(len(labels), (1.0 - p) / (len(labels) - 1), np.float32)
    row[list(labels).index(label)] = p
    return row
