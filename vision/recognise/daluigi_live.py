"""Da Luigi for the live referee: the recogniser behind ``recognise`` and ``annotate``.

The live loop reads a settled camera frame with :meth:`LiveDaLuigi.recognise` and draws the
voted observation, with the referee's flags, on the stream with :meth:`annotate`. Where each
place lay in the last frame read is kept so the picture shows every item where it lies; a
flagged piece is outlined thick and red.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np

from ...calibration.profile import Profile
from ...rules.common import Violation
from ...rules.daluigi.observation import Observation
from .common import ProfileFollower
from .daluigi import DaLuigiRecogniser
from .daluigi_model import MODEL_NAME
from .daluigi_draw import draw
from .daluigi_zones import zones_for


class LiveDaLuigi:
    """The :class:`~tableref.live.recognition.Recogniser` of Da Luigi (the model loaded once,
    and again when the profile names one adapted to its set: ``tableref enrol``)."""

    def __init__(self, recogniser: DaLuigiRecogniser | None = None):
        self._recogniser = recogniser or DaLuigiRecogniser.open()
        self._follower = ProfileFollower(MODEL_NAME)
        self._places: dict[str, np.ndarray] = {}
        self._lock = threading.Lock()

    def recognise(self, image: np.ndarray, profile: Profile | None) -> Observation:
        """Read one frame (BGR uint8, H x W x 3); raises ``RecognitionError`` when it cannot."""
        change = self._follower.follow(profile)
        if change:
            self._recogniser = DaLuigiRecogniser.open(profile=profile)
        if change is not None:
            self._recogniser.zones = zones_for(profile)
        result = self._recogniser.read(image, profile)
        with self._lock:
            self._places = dict(result.places_px)
        return result.observation

    def annotate(self, image: np.ndarray, observation: Observation, flags: Sequence[Violation]) -> np.ndarray:
        """A copy of ``image`` with every observed place outlined and labelled, flagged ones in red."""
        with self._lock:
            places = dict(self._places)
        return draw(image, observation, places, [p for flag in flags for p in flag.pieces])


def live_recogniser() -> LiveDaLuigi:
    """The factory to name in :data:`tableref.live.recognition.BUILTIN` (``"daluigi"``)."""
    return LiveDaLuigi()
