"""What the recipes trained on renders of the twin share: samples cut from cached context
patches, render seeds split into training and validation ranges, and the cache files.

A recipe renders a scene, cuts a *context patch* around every spot it reads (the spot plus a
margin, warped to a fixed size) and caches them per render seed as ``.npz``; samples then
crop the spot out of its patch with the model's own preprocessing, so augmentation can move
the crop a little without leaving the picture.
"""

from __future__ import annotations

import hashlib
import logging
import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from multiprocessing import get_context
from pathlib import Path

import cv2
import numpy as np

from .dataset import Sample

log = logging.getLogger(__name__)
#: Render processes filling a cache (the machine has 2 cores).
WORKERS = 2
#: The folders (of the package) whose code and data decide what a cached render holds: the
#: rules that deal the scene, the twin that draws it, the geometry that cuts its spots and the
#: recipes. A digest of them names the cache folder, so that a warm cache made by other code
#: (an earlier commit, an experiment not kept) is never trained on.
MADE_BY = ("rules", "vision", "calibration", "models/training")


@lru_cache(maxsize=None)
def code_digest(root: Path | None = None) -> str:
    """12 hex digits of SHA-256 over the ``.py`` and ``.json`` files under :data:`MADE_BY` of
    ``root`` (default: the installed package), with their paths."""
    root = root or Path(__file__).resolve().parents[2]
    digest = hashlib.sha256()
    for folder in MADE_BY:
        for path in sorted(p for p in (root / folder).rglob("*") if p.suffix in (".py", ".json")):
            digest.update(path.relative_to(root).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def cache_root(name: str, version: str) -> Path:
    """``$TABLEREF_CACHE/NAME/VERSION-DIGEST`` (default ``~/.cache/tableref``): a recipe's cached
    renders, in a folder of the code that made them (:func:`code_digest`)."""
    root = Path(os.environ.get("TABLEREF_CACHE", Path.home() / ".cache" / "tableref"))
    return root / name / f"{version}-{code_digest()}"


def firm_label(label: str, shown: float, unknown: str, high: float, low: float) -> str | None:
    """A spot's training label from the share of it that shows: ``label`` from ``high`` up,
    ``unknown`` (hidden) below ``low``, None (left out) between."""
    if shown >= high:
        return label
    return unknown if shown < low else None


def foreign_labels(render) -> np.ndarray:
    """(labels,) bool: which object labels of a render's label image are hands or distractors."""
    from ...vision.synthetic.games.scene import is_foreign

    foreign = np.zeros(int(render.labels.max()) + 1, bool)
    for o in render.truth.objects:
        foreign[o.label] = is_foreign(o.kind)
    return foreign


def covered_share(label_image: np.ndarray, foreign: np.ndarray, quad_px: np.ndarray) -> float:
    """Share of a quad (image px) covered by hands or distractors (``foreign``, per label of
    ``label_image``, as :func:`foreign_labels` gives), or outside the image."""
    h, w = label_image.shape
    mask = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(mask, np.round(quad_px).astype(np.int32), 1)
    inside = int(mask.sum())
    area = abs(cv2.contourArea(quad_px.astype(np.float32)))
    if area < 1:
        return 1.0
    covered = int(foreign[label_image[mask.astype(bool)]].sum())
    return float(min(1.0, (covered + max(area - inside, 0)) / area))


@dataclass(frozen=True, eq=False)
class SpotSample(Sample):
    """A :class:`Sample` that remembers which split its render belongs to."""

    split: str = "train"


def seeds_for(count: int, spots_per_render: int, val_ratio: float, train_seed: int,
              val_seed: int) -> tuple[list[int], list[int]]:
    """Training and validation render seeds for a pool of about ``count`` spots."""
    renders = max(2, math.ceil(count / spots_per_render))
    n_val = max(1, round(renders * val_ratio))
    return list(range(train_seed, train_seed + renders - n_val)), list(range(val_seed, val_seed + n_val))


def split_by_render(samples: Sequence[SpotSample]) -> tuple[list[SpotSample], list[SpotSample]]:
    """Training and validation samples by their renders' seed ranges (never mixed)."""
    return [s for s in samples if s.split == "train"], [s for s in samples if s.split == "val"]


def cached_arrays(path: Path, make: Callable[[], dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """The arrays stored at ``path`` (``.npz``), made by ``make()`` and stored first if missing.

    The file is written under another name and moved into place, so an interrupted run never
    leaves a half-written cache entry behind.
    """
    if path.is_file():
        with np.load(path) as data:
            return {k: data[k] for k in data.files}
    arrays = make()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp.npz")
    np.savez_compressed(tmp, **arrays)
    os.replace(tmp, path)
    return arrays


def cached_render(path: Path, make: Callable[[], tuple[np.ndarray, ...]],
                  names: Sequence[str]) -> tuple[np.ndarray, ...]:
    """The arrays of one render stored at ``path`` under ``names``, in that order:
    :func:`cached_arrays` of ``make()``'s tuple (one array per name)."""
    arrays = cached_arrays(path, lambda: dict(zip(names, make(), strict=True)))
    return tuple(arrays[name] for name in names)


def fill_cache(seeds: Sequence[int], folder: Path, cache_one: Callable[[int], object], what: str) -> None:
    """Make the ``folder/SEED.npz`` entries of ``seeds`` that are missing, ``cache_one(seed)``
    each (a module-level function: it runs in :data:`WORKERS` spawned processes)."""
    todo = [s for s in seeds if not (folder / f"{s}.npz").is_file()]
    if not todo:
        return
    log.info("rendering %d %s scenes into %s", len(todo), what, folder)
    with get_context("spawn").Pool(WORKERS) as pool:
        for _ in pool.imap_unordered(cache_one, todo, chunksize=4):
            pass
