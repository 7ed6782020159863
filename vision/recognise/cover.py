"""Cover models: whether a hand or an object lies over part of a spot a classifier read unsurely.

A card or space classifier names what it sees from 65 % of a spot shown, so a spot whose
telling part lies under a finger, a pen or a phone is read all the same, and often wrongly;
a spot partly under a hand should be reported unknown, never guessed (issue 5). A cover
model (labels :data:`COVER_LABELS`, trained by
:mod:`tableref.models.training.covers`) answers that one question, and a recogniser asks it
only of the spots its classifiers read unsurely. The cover model reads what the user's set
cannot change (a hand over a card), so an enrolment adapts the classifiers but never it: it
is opened beside the classifiers where it lies there, else the shipped one
(:func:`open_cover_model`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ..classifier import Classifier
from .common import RecognitionError, open_second_model

#: A cover model's labels, in output order.
COVER_LABELS = ("clear", "covered")


def check_cover_model(model: Any) -> None:
    """Raise unless ``model`` (a :class:`~..classifier.Classifier`, or None) reads :data:`COVER_LABELS`."""
    if model is not None and tuple(model.labels) != COVER_LABELS:
        raise RecognitionError(f"model {model.card.name!r} is no cover model: its labels are {list(model.labels)}, "
                               f"not {list(COVER_LABELS)}")


def open_cover_model(first: Path, shipped: Path, name: str) -> Classifier | None:
    """The cover model ``name`` beside the classifier card ``first``, else beside the shipped
    classifier card ``shipped``; None where neither folder holds it."""
    return open_second_model(first, name, shipped)


def covered(model: Classifier, image: np.ndarray, quads: list[np.ndarray], sure: float | np.ndarray) -> np.ndarray:
    """(len(quads),) bool: which spots ``model`` finds partly covered at least ``sure`` probably
    (one bound for all, or one per spot)."""
    if not quads:
        return np.zeros(0, bool)
    p = model.classify(image, quads).probabilities[:, COVER_LABELS.index("covered")]
    return p >= np.asarray(sure, p.dtype)  # the bound in the model's precision: at it is covered
