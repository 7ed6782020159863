"""Cached renders of Da Luigi for training the spot classifier.

A render of the digital twin costs about a second, so each one is kept under
``$TABLEREF_CACHE/daluigi-renders/VERSION-DIGEST/`` (default ``~/.cache/tableref``, outside the
repository; the digest is of the code that made it, :func:`.spots.cache_root`) as one
``.npz``: the image, the rules state, the share of every part and region that shows, and the
mask of pixels covered by hands or distractors. Spots are cut from these afterwards
(:mod:`.daluigi`) into a folder of their own version.

Run ``python -m tableref.models.training.daluigi_renders FIRST COUNT`` to fill the cache.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path

import numpy as np

from ...rules.daluigi.state import State
from .spots import cache_root

log = logging.getLogger(__name__)

CACHE_VERSION = "v1"
#: Render workers (the machine has 2 cores).
WORKERS = 2


@dataclass(frozen=True, eq=False)
class CachedRender:
    """One render as cached.

    Attributes
    ----------
    seed : int
    image : ndarray (H, W, 3) uint8, BGR
    state : State
    parts, regions : dict name -> float
        Share (0..1) of each part and region that shows (the twin's ``Seen``).
    foreign : ndarray (H, W) bool
        Pixels covered by a hand or a distractor.
    """

    seed: int
    image: np.ndarray
    state: State
    parts: dict
    regions: dict
    foreign: np.ndarray


def cache_dir() -> Path:
    return cache_root("daluigi-renders", CACHE_VERSION)


def foreign_mask(render) -> np.ndarray:
    """(H, W) bool: pixels of ``render`` (a twin render) showing a hand or a distractor."""
    from ...vision.synthetic.games import is_foreign

    foreign = np.zeros(int(render.labels.max()) + 1, bool)
    for o in render.truth.objects:
        if is_foreign(o.kind):
            foreign[o.label] = True
    return foreign[render.labels]


def from_sample(s) -> CachedRender:
    """A :class:`CachedRender` of a twin dataset sample."""
    return CachedRender(s.seed, s.image, s.scene.state, dict(s.seen.parts), dict(s.seen.regions),
                        foreign_mask(s.render))


def render(seed: int) -> CachedRender:
    """Render Da Luigi ``seed`` with the twin."""
    from ...vision.synthetic.dataset import sample

    return from_sample(sample("daluigi", seed))


def _path(seed: int) -> Path:
    return cache_dir() / f"{seed}.npz"


def save(r: CachedRender) -> None:
    path = _path(r.seed)
    path.parent.mkdir(parents=True, exist_ok=True)
    meta = json.dumps({"state": r.state.to_json(), "parts": r.parts, "regions": r.regions})
    tmp = path.with_suffix(".tmp.npz")
    np.savez_compressed(tmp, image=r.image, foreign=np.packbits(r.foreign), meta=np.frombuffer(meta.encode(), np.uint8))
    os.replace(tmp, path)


def load(seed: int) -> CachedRender:
    """The cached render of ``seed`` (rendered and cached first when missing)."""
    path = _path(seed)
    if not path.is_file():
        r = render(seed)
        save(r)
        return r
    with np.load(path) as data:
        image = data["image"]
        h, w = image.shape[:2]
        foreign = np.unpackbits(data["foreign"])[:h * w].reshape(h, w).astype(bool)
        meta = json.loads(data["meta"].tobytes().decode())
    return CachedRender(seed, image, State.from_json(meta["state"]), meta["parts"], meta["regions"], foreign)


def _fill_one(seed: int) -> int:
    if not _path(seed).is_file():
        save(render(seed))
    return seed


def fill(seeds: list[int], workers: int = WORKERS) -> None:
    """Render and cache every seed of ``seeds`` not cached yet."""
    todo = [s for s in seeds if not _path(s).is_file()]
    if not todo:
        return
    log.info("rendering %d Da Luigi scenes into %s", len(todo), cache_dir())
    with get_context("spawn").Pool(workers) as pool:
        for _ in pool.imap_unordered(_fill_one, todo, chunksize=2):
            pass


if __name__ == "__main__":  # pragma: no cover - a cache filler for the command line
    logging.basicConfig(level=logging.INFO)
    first, count = int(sys.argv[1]), int(sys.argv[2])
    fill(list(range(first, first + count)))
