"""Draw what a recogniser read onto the photograph (for people checking a reading)."""

from __future__ import annotations

import cv2
import numpy as np

from ...rules.dolcevita.catalogue import EMPTY, UNKNOWN
from ..frame import check_bgr_image

#: Outline colours (BGR): a card read, an empty place, an unknown (covered) place.
READ_BGR, EMPTY_BGR, UNKNOWN_BGR = (60, 200, 60), (160, 160, 160), (40, 40, 230)
LINE_PX, FONT_SCALE = 1, 0.3


def colour_of(label: str) -> tuple[int, int, int]:
    """The outline colour of a place read as ``label``."""
    return UNKNOWN_BGR if label == UNKNOWN else EMPTY_BGR if label == EMPTY else READ_BGR


def draw_place(out: np.ndarray, quad_px: np.ndarray, label: str, colour, line_px: int = LINE_PX) -> None:
    """Outline one place (quad, image px) on ``out`` in place and write its label (card
    labels shortened to ``good:digit``, ``?`` for unknown, nothing for empty)."""
    pts = np.round(quad_px).astype(np.int32)
    cv2.polylines(out, [pts], True, colour, line_px, cv2.LINE_AA)
    if label != EMPTY:
        kind, _, value = label.partition(":")
        text = "?" if label == UNKNOWN else f"{kind[:3]}{value[:1]}"
        x, y = pts.min(axis=0)
        cv2.putText(out, text, (int(x), int(y) + 8), cv2.FONT_HERSHEY_SIMPLEX, FONT_SCALE, colour, 1, cv2.LINE_AA)


def annotate(image: np.ndarray, recognition) -> np.ndarray:
    """A copy of ``image`` (BGR uint8) with each reading's spot outlined and its label written;
    red outlines are unknown places."""
    out = check_bgr_image(image).copy()
    for r in recognition.readings:
        draw_place(out, r.quad_px, r.label, colour_of(r.label))
    return out
