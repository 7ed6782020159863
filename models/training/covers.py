"""What the cover models share: whether a hand or an object lies over part of a spot.

The card and space classifiers name what they see from 65 % of a spot shown, so a card whose
value index lies under a finger is read all the same, often wrongly, where the benchmarks (as
issue 5 asks) want it unknown. A cover model answers that one question alone, and a recogniser
asks it only of the spots its classifiers read unsurely (``dolcevita-cover``,
``ligretto-hidden``).

A spot is labelled by the twin's share of it that shows: ``clear`` from :data:`CLEAR_SHARE`,
``covered`` below :data:`COVERED_SHARE`, the band between left out. Clear spots far outnumber
covered ones; every covered spot is kept and :data:`CLEAR_PER_COVERED` clear ones for each.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ...vision.recognise.cover import COVER_LABELS
from .spots import SpotSample

#: The cover models' labels, in output order (the recognisers').
LABELS = COVER_LABELS
CLEAR, COVERED = LABELS
#: A spot showing at least CLEAR_SHARE is clear, one showing less than COVERED_SHARE covered
#: (the benchmarks' count: a card or space at least 95 % shown must be read).
CLEAR_SHARE, COVERED_SHARE = 0.97, 0.9
#: Clear spots kept per covered spot.
CLEAR_PER_COVERED = 3


def share_label(shown: float) -> str | None:
    """``clear``, ``covered`` or None (left out) for a spot of which ``shown`` shows."""
    if shown >= CLEAR_SHARE:
        return CLEAR
    return COVERED if shown < COVERED_SHARE else None


def kept(labels: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Indices (ascending) of the spots kept of those labelled ``labels`` (indices into
    :data:`LABELS`): every covered spot and :data:`CLEAR_PER_COVERED` clear ones for each,
    drawn with ``rng``."""
    covered = np.flatnonzero(labels == LABELS.index(COVERED))
    clear = np.flatnonzero(labels == LABELS.index(CLEAR))
    keep = rng.choice(clear, min(len(clear), CLEAR_PER_COVERED * len(covered)), replace=False)
    return np.sort(np.concatenate([covered, keep]))


def kept_samples(splits: Sequence[tuple[str, Sequence[int]]], cached: Callable[[int], tuple[np.ndarray, np.ndarray]],
                 rng: np.random.Generator, inner: Callable[[], np.ndarray]) -> list[SpotSample]:
    """The samples :func:`kept` keeps of each (split, render seeds) in ``splits``: ``cached(seed)``
    gives a render's (patches, label indices), ``inner()`` each sample's quad in its patch
    (called once per sample kept, in order, after the split's keep is drawn from ``rng``)."""
    samples: list[SpotSample] = []
    for split, seeds in splits:
        renders = [cached(s) for s in seeds]
        labels = np.concatenate([lab for _, lab in renders])
        every = np.concatenate([p for p, _ in renders])
        samples += [SpotSample(every[i], inner(), LABELS[labels[i]], None, split) for i in kept(labels, rng)]
    return samples
