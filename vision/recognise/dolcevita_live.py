"""Dolce Vita for the live referee: the recogniser behind ``recognise`` and ``annotate``.

The live loop reads a settled camera frame with :meth:`LiveDolceVita.recognise` and draws
the voted observation, with the referee's flags, on the stream with :meth:`annotate`. The
places of the last reading (which spot of the image each observation place is) are kept so
the picture shows every item where it lies; a flagged piece is outlined thick and red.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np

from ...calibration.profile import Profile
from ...rules.common import Violation
from ...rules.dolcevita.catalogue import EMPTY, UNKNOWN
from ...rules.dolcevita.observation import Observation
from ..frame import check_bgr_image
from .annotate import LINE_PX, colour_of, draw_place
from .common import ProfileFollower
from .dolcevita import MODEL_NAME, DolceVitaRecogniser, zones_for

#: Outline of a flagged piece (BGR) and its width in pixels.
FLAG_BGR, FLAG_PX = (0, 0, 255), 3


def is_flagged(where: str, label: str, pieces: Sequence[str]) -> bool:
    """Whether a place (``column:3:slot:2``) holding ``label`` is one of a flag's pieces.

    The referee names pieces by place (``column:3``, ``player:1``, ``column:3:slot:2:car:300000``)
    or by card (``card:car:300000``); a place is flagged when a piece names it, a place that
    contains it, or the card lying there.
    """
    for piece in pieces:
        if piece == where or where.startswith(piece + ":") or piece.startswith(where + ":"):
            return True
        if label not in (EMPTY, UNKNOWN) and piece.endswith(":" + label):
            return True
    return False


class LiveDolceVita:
    """The :class:`~tableref.live.recognition.Recogniser` of Dolce Vita (the models loaded once,
    and again when the profile names models adapted to its set: ``tableref enrol``)."""

    def __init__(self, recogniser: DolceVitaRecogniser | None = None):
        self._recogniser = recogniser or DolceVitaRecogniser.open()
        self._follower = ProfileFollower(MODEL_NAME)
        self._places: dict[tuple[str, int], np.ndarray] = {}
        self._lock = threading.Lock()

    def recognise(self, image: np.ndarray, profile: Profile | None) -> Observation:
        """Read one frame (BGR uint8, H x W x 3); raises ``RecognitionError`` when it cannot."""
        change = self._follower.follow(profile)
        if change:
            self._recogniser = DolceVitaRecogniser.open(profile=profile)
        if change is not None:
            self._recogniser.zones = zones_for(profile)
        result = self._recogniser.read(image, profile)
        places: dict[tuple[str, int], np.ndarray] = {}
        seen: dict[str, int] = {}
        for r in result.readings:
            k = seen.get(r.where, 0)
            seen[r.where] = k + 1
            places[r.where, k] = r.quad_px
        with self._lock:
            self._places = places
        return result.observation

    def annotate(self, image: np.ndarray, observation: Observation, flags: Sequence[Violation]) -> np.ndarray:
        """A copy of ``image`` with every observed place outlined and labelled, flagged ones in red."""
        out = check_bgr_image(image).copy()
        pieces = [p for flag in flags for p in flag.pieces]
        with self._lock:
            places = dict(self._places)
        seen: dict[str, int] = {}
        for item in observation.items:
            k = seen.get(item.where, 0)
            seen[item.where] = k + 1
            quad = places.get((item.where, k))
            if quad is None:
                continue
            flagged = is_flagged(item.where, item.label, pieces)
            draw_place(out, quad, item.label, FLAG_BGR if flagged else colour_of(item.label),
                       FLAG_PX if flagged else LINE_PX)
        return out


def live_recogniser() -> LiveDolceVita:
    """The factory named in :data:`tableref.live.recognition.BUILTIN`."""
    return LiveDolceVita()
