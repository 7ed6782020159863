"""White balance for reading cube colours under warm and cool light.

The cube colours (brown, orange, yellow, red) lie close together, and a 2700 K lamp makes a
yellow cube look orange. Before classification every spot's patch is scaled per channel so
that white paper reads :data:`TARGET_WHITE` in each channel. The white comes from the
profile's colour references when they give one (``colour_references.white_bgr``: the marker
sheet's white as this camera sees it under this light), else from the white paper round the
table markers found in the image itself (the ring :data:`RING_MM` outside each marker's black
square, which every printed marker has). Training applies the same balance to its patches
(:mod:`tableref.models.training.daluigi`), so both see the same colours.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import cv2
import numpy as np

from .common import TableView, ZonesError

#: What white paper reads in each channel after balancing (8-bit).
TARGET_WHITE = 225.0
#: The white paper ring round a marker's black square: from / to this far outside it (mm).
#: A marker sheet leaves a margin of one cell (50 mm / 6 = 8.3 mm) round the square.
RING_MM = (2.0, 6.5)
#: Of the ring's pixels, the brightest quarter is taken as white (a hand, a shadow or the
#: table where the sheet is cut narrower only darken some).
WHITE_PERCENTILE = 75.0
#: Gains are kept in this range (a marker half in shadow must not turn the picture purple).
GAIN_RANGE = (0.6, 2.5)
#: No balance (a white reading this grey).
NEUTRAL = np.ones(3, np.float32)


def white_from_markers(image: np.ndarray, view: TableView) -> np.ndarray | None:
    """The BGR (3,) float of the paper round the markers the fit used, or None if none shows."""
    layout = view.calibration.layout
    used = set(view.calibration.markers_used)
    h, w = image.shape[:2]
    found = []
    for m in layout.markers:
        if m.id not in used:
            continue
        centre = m.corners_mm.mean(axis=0)
        rings = []
        for grow in RING_MM:
            scale = 1.0 + 2.0 * grow / layout.marker_mm
            rings.append(np.round(view.to_image(centre + (m.corners_mm - centre) * scale)).astype(np.int32))
        x0, y0 = np.clip(rings[1].min(axis=0), 0, [w, h])
        x1, y1 = np.clip(rings[1].max(axis=0) + 1, 0, [w, h])
        if x1 <= x0 or y1 <= y0:
            continue
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)  # the ring, in the marker's box only
        cv2.fillConvexPoly(mask, rings[1] - [x0, y0], 1)
        cv2.fillConvexPoly(mask, rings[0] - [x0, y0], 0)
        found.append(image[y0:y1, x0:x1][mask.astype(bool)])
    pixels = np.concatenate(found) if found else np.empty((0, 3), np.uint8)
    if len(pixels) == 0:
        return None
    grey = pixels.astype(np.float32).sum(axis=1)
    bright = pixels[grey >= np.percentile(grey, WHITE_PERCENTILE)]
    return bright.astype(np.float32).mean(axis=0)


def white_from_profile(colour_references: Mapping[str, Any] | None) -> np.ndarray | None:
    """``colour_references.white_bgr`` as a (3,) float, None when the profile gives none.

    Raises
    ------
    ZonesError
        A ``white_bgr`` that is not three numbers in (0, 255].
    """
    if not colour_references or "white_bgr" not in colour_references:
        return None
    value = colour_references["white_bgr"]
    try:
        white = np.asarray(value, np.float32)
    except (TypeError, ValueError):
        white = np.zeros(0, np.float32)
    if white.shape != (3,) or not np.all((white > 0) & (white <= 255)):
        raise ZonesError(f"profile colour_references.white_bgr must be three numbers in (0, 255] (the sheet's white "
                         f"as B, G, R), got {value!r}")
    return white


def gains_for(image: np.ndarray, view: TableView, colour_references: Mapping[str, Any] | None = None) -> np.ndarray:
    """Per-channel gains (3,) float32 that make the white paper read :data:`TARGET_WHITE`."""
    white = white_from_profile(colour_references)
    if white is None:
        white = white_from_markers(image, view)
    if white is None:
        return NEUTRAL
    return np.clip(TARGET_WHITE / np.maximum(white, 1.0), *GAIN_RANGE).astype(np.float32)


def balance(patches: np.ndarray, gains: np.ndarray) -> np.ndarray:
    """BGR uint8 patches (..., 3) scaled per channel by ``gains`` (3,), clipped to 0..255."""
    return np.clip(patches.astype(np.float32) * gains, 0, 255).astype(np.uint8)
