"""Scoring detected boxes against labelled ones: IoU, one-to-one greedy matching, totals.

A detection matches a labelled box when their intersection over union is at least
:data:`MATCH_IOU`; pairs are taken greedily, highest IoU first, each box at most once.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

#: Least IoU at which a detection counts as finding a labelled die.
MATCH_IOU = 0.5


def iou_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IoU of every box of ``a`` (N, 4) with every box of ``b`` (M, 4); boxes are
    ``xmin, ymin, xmax, ymax``. Returns (N, M) float64."""
    a = np.asarray(a, np.float64).reshape(-1, 4)
    b = np.asarray(b, np.float64).reshape(-1, 4)
    ix = np.clip(np.minimum(a[:, None, 2], b[None, :, 2]) - np.maximum(a[:, None, 0], b[None, :, 0]), 0, None)
    iy = np.clip(np.minimum(a[:, None, 3], b[None, :, 3]) - np.maximum(a[:, None, 1], b[None, :, 1]), 0, None)
    inter = ix * iy
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    union = area_a[:, None] + area_b[None, :] - inter
    return np.divide(inter, union, out=np.zeros_like(inter), where=union > 0)


def match(detected: np.ndarray, labelled: np.ndarray, min_iou: float = MATCH_IOU) -> list[tuple[int, int]]:
    """Greedy one-to-one pairs (detection index, label index) with IoU >= ``min_iou``,
    taken in order of falling IoU (ties by index)."""
    iou = iou_matrix(detected, labelled)
    if iou.size == 0:
        return []
    rows, cols = np.nonzero(iou >= min_iou)
    order = np.lexsort((cols, rows, -iou[rows, cols]))
    used_d, used_l, pairs = set(), set(), []
    for k in order:
        d, g = int(rows[k]), int(cols[k])
        if d not in used_d and g not in used_l:
            used_d.add(d)
            used_l.add(g)
            pairs.append((d, g))
    return pairs


@dataclass(frozen=True)
class PhotoScore:
    """Counts for one photo: ``found`` labelled dice matched, of ``labelled``; ``detected`` boxes."""

    found: int
    labelled: int
    detected: int

    def __post_init__(self) -> None:
        if not 0 <= self.found <= min(self.labelled, self.detected):
            raise ValueError(f"found must be in 0..min(labelled, detected) = "
                             f"0..{min(self.labelled, self.detected)}, got {self.found}")

    @property
    def count_right(self) -> bool:
        return self.labelled == self.detected


def score_photo(detected: np.ndarray, labelled: np.ndarray, min_iou: float = MATCH_IOU) -> PhotoScore:
    """Score one photo's detections (N, 4) against its labelled boxes (M, 4)."""
    detected = np.asarray(detected).reshape(-1, 4)
    labelled = np.asarray(labelled).reshape(-1, 4)
    return PhotoScore(len(match(detected, labelled, min_iou)), len(labelled), len(detected))


@dataclass(frozen=True)
class Totals:
    """Totals over photos.

    Attributes
    ----------
    photos, labelled, detected, found, counted_right : int
        Photos; labelled dice; detections; detections matching a labelled die; photos whose
        number of detections equals their number of labelled dice.
    """

    photos: int
    labelled: int
    detected: int
    found: int
    counted_right: int

    @property
    def recall(self) -> float:
        """Share of labelled dice found (1 when there are none)."""
        return self.found / self.labelled if self.labelled else 1.0

    @property
    def precision(self) -> float:
        """Share of detections that are labelled dice (1 when there are none)."""
        return self.found / self.detected if self.detected else 1.0

    @property
    def exact_count_share(self) -> float:
        """Share of photos whose die count is exactly right (1 when there are no photos)."""
        return self.counted_right / self.photos if self.photos else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


def total(scores: Iterable[PhotoScore]) -> Totals:
    """Add up per-photo scores."""
    scores = list(scores)
    return Totals(len(scores), sum(s.labelled for s in scores), sum(s.detected for s in scores),
                  sum(s.found for s in scores), sum(s.count_right for s in scores))
