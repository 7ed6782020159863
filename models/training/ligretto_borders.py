"""The ``ligretto-borders`` recipe: whose card it is, from the border style of the whole card.

The space classifiers (:mod:`.ligretto`) see a card half by half, each crop a space and a fifth
of a space around it; a card's two halves then decide its owner together. At the camera's
0.7-1.0 px/mm the dotted border (dots 2.2 mm apart) and the double one (two lines 0.9 mm
apart) are a few grey pixels either way, and both space classifiers read some dotted cards as
double, surely and alike. This classifier sees the whole card at once, lengthwise, with a
tenth of its size around it: the whole run of its border, at more pixels than the camera
gives it.

Samples are the face-up cards of each render, on the board and on the players' boards, cut at
the render's true corners, labelled with their border style where at least
:data:`FIRM_SHARE` of the card shows. Each crop is turned by a random half turn (a card lies
either way). Seeds as :mod:`.ligretto`'s: training renders ``TRAIN_SEED ..``, validation
renders ``VAL_SEED ..``; each render's cards are cached as ``.npz`` under ``$TABLEREF_CACHE``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np

from ...rules.ligretto.catalogue import BORDERS
from ...vision.crop import crop_patches, inner_quad
from ...vision.recognise.common import RecognitionError
from ...vision.recognise.ligretto_board import locate_ligretto, zones_for
from ...vision.recognise.ligretto_labels import (BORDERS_MODEL, BORDERS_PREPROCESSING, BORDERS_SMALL_PREPROCESSING,
                                                  SECOND_BORDERS_MODEL, lengthwise)
from ..card import CropSettings, Preprocessing
from .ligretto import AUGMENT, SECOND_TRAIN_SEED, TRAIN_SEED, VAL_RATIO, VAL_SEED
from .recipes import Recipe, register
from .spots import SpotSample, cache_root, cached_render, fill_cache, seeds_for, split_by_render

#: A card showing at least this share is a sample; less is left out.
FIRM_SHARE = 0.65
#: Cached context around each card: the quad plus this margin, at this size (h, w) px.
CONTEXT_MARGIN, CONTEXT_SIZE = 0.3, (64, 128)
#: Cards per render, roughly (to turn a sample count into a number of renders).
SAMPLES_PER_RENDER = 16
CACHE_VERSION = "v1"


def cache_dir():
    return cache_root(BORDERS_MODEL, CACHE_VERSION)


def card_samples(s) -> list[tuple[np.ndarray, str]]:
    """(quad in image px, lengthwise and clockwise; border style) of every face-up card of a
    render that shows at least :data:`FIRM_SHARE`."""
    out = []
    for o in s.labels()["objects"]:
        if o.get("kind") != "ligretto.card" or o["params"].get("back") or o.get("shown", 0.0) < FIRM_SHARE:
            continue
        out.append((lengthwise(np.asarray(o["polygon_px"], np.float64)), o["params"]["border"]))
    return out


def _context_prep() -> Preprocessing:
    return Preprocessing(CONTEXT_SIZE, "bgr", (0.0, 0.0, 0.0), (1.0, 1.0, 1.0), CropSettings("quad", CONTEXT_MARGIN))


def render_lengthwise(seed: int, found_of: Callable[[object], list[tuple[np.ndarray, str]]],
                      labels: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """Render ``seed`` and cut what ``found_of(render)`` lists ((quad in image px, lengthwise;
    label)): (patches (N, 64, 128, 3) uint8, label indices (N,)). A render whose table cannot
    be located gives none (the recogniser would read no card)."""
    from ...vision.synthetic.dataset import sample

    s = sample("ligretto", seed)
    empty = np.empty((0, *CONTEXT_SIZE, 3), np.uint8), np.empty(0, np.int64)
    try:
        locate_ligretto(s.image, None, zones_for(None), two_markers="opposite")
    except RecognitionError:
        return empty
    found = list(found_of(s))
    if not found:
        return empty
    patches = crop_patches(s.image, [q for q, _ in found], _context_prep())
    return patches, np.array([list(labels).index(label) for _, label in found], np.int64)


def lengthwise_samples(seed: int, count: int, per_render: int, folder: Path, cached: Callable[[int], tuple],
                       labels: Sequence[str], what: str) -> list[SpotSample]:
    """About ``count`` samples cut lengthwise (``per_render`` a render) from training and
    validation renders, each render's made by ``cached(seed)`` (a module-level function) into
    ``folder``; each crop turned by a random half turn."""
    train_seeds, val_seeds = seeds_for(count, per_render, VAL_RATIO, TRAIN_SEED, VAL_SEED)
    offset = seed - TRAIN_SEED
    train_seeds = [s + offset for s in train_seeds]
    fill_cache(train_seeds + val_seeds, folder, cached, what)
    rng = np.random.default_rng(seed)
    inner = inner_quad(CONTEXT_SIZE, CONTEXT_MARGIN)
    samples: list[SpotSample] = []
    for split, seeds in (("train", train_seeds), ("val", val_seeds)):
        for s in seeds:
            patches, indices = cached(s)
            samples += [SpotSample(p, np.roll(inner, 2 * int(rng.integers(2)), axis=0), labels[k], None, split)
                        for p, k in zip(patches, indices)]
    return samples


def render_cards(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Render ``seed`` and cut its cards: (patches, border indices) (:func:`render_lengthwise`)."""
    return render_lengthwise(seed, card_samples, BORDERS)


def _cached(seed: int) -> tuple[np.ndarray, np.ndarray]:
    return cached_render(cache_dir() / f"{seed}.npz", lambda: render_cards(seed), ("patches", "borders"))


def build_borders(seed: int, count: int) -> list[SpotSample]:
    """About ``count`` card samples from training and validation renders (cached)."""
    return lengthwise_samples(seed, count, SAMPLES_PER_RENDER, cache_dir(), _cached, BORDERS, "Ligretto (cards)")


MEASURED_ON = (f"face-up cards of renders of the digital twin (validation render seeds {VAL_SEED}..; training "
               f"seeds {TRAIN_SEED}..), at least {FIRM_SHARE:.0%} shown, cut at the render's true corners; "
               "not photographs of a real set")
#: Cards sampled (about SAMPLES_PER_RENDER a render): 3,375 renders, 506 of them for validation.
BORDERS_SAMPLES = 54_000
#: The second card model's cards: 2,250 renders, 338 of them for validation (its recipe of
#: 2026-12-04, at :data:`~tableref.vision.recognise.ligretto_labels.BORDERS_PREPROCESSING`).
SECOND_BORDERS_SAMPLES = 36_000

BORDERS_RECIPE = register(Recipe(
    name=BORDERS_MODEL,
    description="Ligretto cards: the owner's border style (solid, double, dashed, dotted), from the whole card",
    labels=tuple(BORDERS), preprocessing=BORDERS_SMALL_PREPROCESSING, build=build_borders, samples=BORDERS_SAMPLES,
    val_fraction=VAL_RATIO, measured_on=MEASURED_ON, augmentation=AUGMENT,
    # 16 epochs at 32 x 64 on 54,000 cards (2026-12-07): 99.77 % of the 7,973 validation cards,
    # 26 min 48 s to render and train on that evening's machine, where the recipe of before (40 x
    # 80, 36,000 cards: 99.69 % of 5,494) costs as much by its steps (docs/ligretto-recognition.md,
    # Training). Before: 16 epochs of a net half as wide again as widths 16-96 (80 k parameters,
    # 12 epochs: 99.36 %; from a third of the renders: 99.0 %)
    settings={"epochs": 16, "batch_size": 64, "learning_rate": 3e-3},
    train_seed=TRAIN_SEED, val_seed=VAL_SEED, widths=(24, 48, 96, 128), pool_grid=1, split=split_by_render,
))

#: The second card model: the same network on other training renders, at the first's recipe of
#: 2026-12-04 (40 x 80, 36,000 cards), with which it was trained; two different cuts of a card
#: also err less alike.
SECOND_BORDERS_RECIPE = register(replace(
    BORDERS_RECIPE, name=SECOND_BORDERS_MODEL, train_seed=SECOND_TRAIN_SEED, preprocessing=BORDERS_PREPROCESSING,
    samples=SECOND_BORDERS_SAMPLES,
    description="Ligretto cards: the owner's border style, the recogniser's second look at the whole card: the same "
                "network on other training renders, at 40 x 80 px",
    measured_on=(f"face-up cards of renders of the digital twin (validation render seeds {VAL_SEED}..; training seeds "
                 f"{SECOND_TRAIN_SEED}..), at least {FIRM_SHARE:.0%} shown, cut at the render's true corners; "
                 "not photographs of a real set")))
