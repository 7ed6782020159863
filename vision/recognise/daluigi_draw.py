"""Draw a Da Luigi reading onto the photograph: every place outlined with a short label."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import cv2
import numpy as np

from ...rules.daluigi.observation import UNKNOWN, Observation
from ..frame import check_bgr_image

#: Outline colours (BGR): a place read, an empty place, an unknown (covered) place, a flagged one.
READ_BGR, EMPTY_BGR, UNKNOWN_BGR, FLAG_BGR = (60, 200, 60), (160, 160, 160), (40, 40, 230), (0, 0, 255)
LINE_PX, FLAG_PX, FONT_SCALE = 1, 3, 0.32
#: Places whose label is a count, drawn as ``kind=N`` (and not at all when 0).
COUNTS = ("lemons", "flowers", "served", "hand")
#: Places that belong to one player (their second part is the player).
PLAYER_PLACES = ("slot", "order", "supply", "lemons", "flowers", "served")


def short(where: str, label: str) -> str:
    """A few characters for ``label`` at ``where``: cube initials (``rrb``), a card id, ``lemons=2``."""
    if label == UNKNOWN:
        return "?"
    kind = where.split(":")[0]
    if kind in COUNTS:
        return "" if label == "0" else f"{kind[0]}{label}"
    if kind in ("market", "order", "supply"):
        return "".join(c[0] for c in label.split(",") if c)
    return label


def is_flagged(where: str, label: str, pieces: Sequence[str], cards: Mapping[str, str] | None = None) -> bool:
    """Whether a place (``slot:0:2``) holding ``label`` is named by a flag's pieces.

    The referee names pieces ``field:F`` (market field F), ``guest:ID`` (the guest card ID, its
    order with it), ``player:P`` (everything of player P), or a place itself. ``cards`` gives
    the card read at each slot (to find a guest's order).
    """
    parts = where.split(":")
    card_here = label if parts[0] in ("slot", "revealed") else \
        (cards or {}).get(f"slot:{parts[1]}:{parts[2]}") if parts[0] == "order" else None
    for piece in pieces:
        kind, _, value = piece.partition(":")
        if piece == where or (kind == "field" and where == f"market:{value}"):
            return True
        if kind == "player" and parts[0] in PLAYER_PLACES and parts[1] == value:
            return True
        if kind == "guest" and value and card_here == value:
            return True
    return False


def draw(image: np.ndarray, observation: Observation, places_px: Mapping[str, np.ndarray],
         pieces: Sequence[str] = ()) -> np.ndarray:
    """A copy of ``image`` (BGR uint8) with every observed place that has a quad in
    ``places_px`` outlined and labelled; places named by ``pieces`` thick and red."""
    out = check_bgr_image(image).copy()
    cards = {it.where: it.label for it in observation.items if it.where.startswith("slot:")}
    for item in observation.items:
        quad = places_px.get(item.where)
        if quad is None:
            continue
        flagged = is_flagged(item.where, item.label, pieces, cards)
        colour = FLAG_BGR if flagged else UNKNOWN_BGR if item.label == UNKNOWN else \
            EMPTY_BGR if item.label in ("", "0") else READ_BGR
        pts = np.round(quad).astype(np.int32)
        cv2.polylines(out, [pts], True, colour, FLAG_PX if flagged else LINE_PX, cv2.LINE_AA)
        text = short(item.where, item.label)
        if text and item.where.split(":")[0] != "order":
            x, y = pts.min(axis=0)
            cv2.putText(out, text, (int(x), int(y) - 2), cv2.FONT_HERSHEY_SIMPLEX, FONT_SCALE, colour, 1, cv2.LINE_AA)
        elif text:
            x, y = pts.max(axis=0)
            cv2.putText(out, text, (int(pts[:, 0].min()), int(y) + 9), cv2.FONT_HERSHEY_SIMPLEX, FONT_SCALE, colour, 1,
                        cv2.LINE_AA)
    return out
