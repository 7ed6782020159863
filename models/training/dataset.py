"""The dataset interface: (image, quad, label) samples from any builder -> model inputs.

A builder (procedural patches now, rendered game states later, photographs of a user's own
set for enrolment) yields :class:`Sample` records; many samples may share one image. Model
inputs are made only by the shared crop (:mod:`tableref.vision.crop`), with augmentation in
between during training.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ...vision.crop import Region, as_quad, crop_patches, to_tensor
from ...vision.frame import check_bgr_image
from ..card import Preprocessing
from . import TrainingError
from .augment import NONE, Augmentation, random_photometric, random_quads


@dataclass(frozen=True, eq=False)
class Sample:
    """One labelled item in an image.

    Attributes
    ----------
    image : ndarray of shape (H, W, 3), uint8
        BGR image the item lies in (shared between samples of one scene, never copied).
    quad : ndarray of shape (4, 2), float64
        The item's corners, image pixels, in the crop's order (item top-left first, clockwise).
    label : str
    px_per_mm : float or None
        Scale of the image, for cards that crop a box in millimetres.
    """

    image: np.ndarray
    quad: np.ndarray
    label: str
    px_per_mm: float | None = None

    def __post_init__(self) -> None:
        check_bgr_image(self.image, "sample image")
        object.__setattr__(self, "quad", as_quad(self.quad))
        if not isinstance(self.label, str) or not self.label:
            raise TrainingError(f"sample label must be a non-empty string, got {self.label!r}")


def split(samples: Sequence[Sample], val_fraction: float, seed: int) -> tuple[list[Sample], list[Sample]]:
    """Shuffle ``samples`` with ``seed`` and cut off ``val_fraction`` of them for validation.

    The cut is stratified: each label gives the same fraction (at least one sample of every
    label with two or more samples goes to each side), so a rare label is never missing
    from validation. Returns (train, val).
    """
    if not 0 < val_fraction < 1:
        raise TrainingError(f"val_fraction must be in (0, 1), got {val_fraction}")
    rng = np.random.default_rng(seed)
    by_label: dict[str, list[int]] = {}
    for i, s in enumerate(samples):
        by_label.setdefault(s.label, []).append(i)
    train, val = [], []
    for label in sorted(by_label):
        idx = by_label[label]
        order = rng.permutation(len(idx))
        n_val = int(round(len(idx) * val_fraction))
        if len(idx) >= 2:
            n_val = min(max(n_val, 1), len(idx) - 1)
        val += [idx[j] for j in order[:n_val]]
        train += [idx[j] for j in order[n_val:]]
    return [samples[i] for i in sorted(train)], [samples[i] for i in sorted(val)]


def label_indices(samples: Sequence[Sample], labels: Sequence[str]) -> np.ndarray:
    """Class index (N,) int64 of each sample's label within ``labels``."""
    index = {label: i for i, label in enumerate(labels)}
    unknown = sorted({s.label for s in samples} - index.keys())
    if unknown:
        raise TrainingError(f"samples carry labels the model does not know: {unknown[:10]}")
    return np.array([index[s.label] for s in samples], dtype=np.int64)


def make_inputs(samples: Sequence[Sample], prep: Preprocessing, aug: Augmentation = NONE,
                rng: np.random.Generator | None = None) -> np.ndarray:
    """Model inputs (N, C, h, w) float32 for ``samples``, augmented when ``aug`` is not NONE.

    Each sample's quad is jittered (if asked), cropped by the shared crop, changed in colour,
    brightness, blur and noise (if asked), then normalised by the shared ``to_tensor``.
    """
    if aug != NONE and rng is None:
        raise TrainingError("augmentation needs a seeded random generator")
    h, w = prep.input_size
    patches = np.empty((len(samples), h, w, 3), dtype=np.uint8)
    if not samples:
        return to_tensor(patches, prep)
    quads: Sequence[Region] = [s.quad for s in samples]
    if aug != NONE:
        quads = random_quads(np.stack(quads), aug, rng)
    for i, (s, quad) in enumerate(zip(samples, quads)):
        patches[i] = crop_patches(s.image, [quad], prep, s.px_per_mm)[0]
    if aug != NONE:
        patches = random_photometric(patches, aug, rng)
    return to_tensor(patches, prep)
