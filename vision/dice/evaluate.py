"""Measuring the detector on labelled photos: recall, precision, exact counts and time."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..imageio import read_image
from .decode import DecodeSettings
from .detect import DiceDetector, PhotoMaps
from .labels import LabelledPhoto
from .score import PhotoScore, Totals, score_photo, total


def evaluate_maps(maps: Sequence[PhotoMaps], labelled: Sequence[np.ndarray], settings: DecodeSettings) -> Totals:
    """Totals of decoding each photo's maps with ``settings`` against its labelled boxes (N_i, 4)."""
    return total(score_photo(m.boxes(settings)[0], boxes) for m, boxes in zip(maps, labelled, strict=True))


@dataclass(frozen=True)
class Evaluation:
    """Per-photo scores of one detector on labelled photos, and the time it took.

    Attributes
    ----------
    names : tuple of str
        File names, in order.
    scores : tuple of PhotoScore
    seconds : tuple of float
        Detection time of each photo (boxes and colours, not reading the file).
    """

    names: tuple[str, ...]
    scores: tuple[PhotoScore, ...]
    seconds: tuple[float, ...]

    def totals(self, keep: Sequence[str] | None = None) -> Totals:
        """Totals over all photos, or over those named in ``keep``."""
        chosen = set(keep) if keep is not None else None
        return total(s for n, s in zip(self.names, self.scores) if chosen is None or n in chosen)

    def ms_per_photo(self, keep: Sequence[str] | None = None) -> float:
        """Mean detection time in milliseconds."""
        chosen = set(keep) if keep is not None else None
        times = [t for n, t in zip(self.names, self.seconds) if chosen is None or n in chosen]
        return 1000.0 * float(np.mean(times)) if times else 0.0


def evaluate(detector: DiceDetector, photos: Sequence[LabelledPhoto]) -> Evaluation:
    """Detect the dice of every labelled photo (with colours, as the CLI does) and score them."""
    names, scores, seconds = [], [], []
    for photo in photos:
        image = read_image(photo.path)
        started = time.perf_counter()
        dice = detector.detect(image)
        seconds.append(time.perf_counter() - started)
        boxes = np.asarray([d.box for d in dice], np.float32).reshape(-1, 4)
        scores.append(score_photo(boxes, photo.boxes))
        names.append(photo.name)
    return Evaluation(tuple(names), tuple(scores), tuple(seconds))
