"""The ``daluigi-dishes`` recipe: a guest card's order fields alone, each a cube or its bare field.

A cube on an order field lies on a square printed in its own colour (a cube of another colour
there is a flag), so what tells it from the bare field is its shading, its rounded edges and
its shadow, a few pixels in a view of the whole table. The spot classifier
(:mod:`.daluigi`) learns order fields among every other spot of the table, of which they are a
small share (about 470 cubes on order fields in 100 training renders, against some 15,000
spots of all kinds kept); this recipe trains a classifier on order fields alone, from three
times as many renders as the spot classifier (1,200 against 420), with that classifier's input
and its labels for that group (:data:`~tableref.vision.recognise.daluigi_labels.ALLOWED`), so
the recogniser reads the patches it has already cut.

Renders: training seeds ``TRAIN_SEED ..`` (the second spot classifier's and more) and
validation seeds ``VAL_SEED ..``, cached as the spot recipes cache them; the order fields of
each are cut once more and cached beside them (``DISHES_VERSION``). Test seeds ``3000000 ..`` are never used here.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ...vision.crop import crop_patches
from ...vision.recognise.daluigi_colour import balance
from ...vision.recognise.daluigi_labels import ALLOWED, BLANK
from ...vision.recognise.daluigi_model import DISH_MODEL_NAME
from ...vision.recognise.daluigi_zones import DISH
from . import daluigi_renders
from .daluigi import CONTEXT_MARGIN, CONTEXT_SIZE, RECIPE, SECOND_TRAIN_SEED, VAL_SEED, _context_prep, render_photo
from .recipes import register
from .spots import SpotSample, cached_arrays, inner_quad, seeds_for

#: The labels: the order-field group's (cubes, printed fields, blank, unknown).
LABELS = ALLOWED[DISH]
#: Order-field spots kept per render, roughly (to turn a sample count into renders).
DISHES_PER_RENDER = 20
#: Validation renders per training render.
VAL_RATIO = 0.05
#: Share of blank order-field spots (a card with fewer fields, an empty guest place) kept.
BLANK_KEEP = 0.25
#: Training renders from (the second spot classifier's: a warm cache holds the first of them).
TRAIN_SEED = SECOND_TRAIN_SEED
#: Version of the cached order-field cuts: bump it whenever cutting or labelling changes.
DISHES_VERSION = "d1"


def render_dishes(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Cut the firm order-field spots of render ``seed``: (patches (N, 24, 24, 3) uint8, label
    indices (N,) into :data:`LABELS`), white-balanced as the recogniser balances them; blank
    ones kept with probability :data:`BLANK_KEEP` (seeded by ``seed``)."""
    photo = render_photo(seed, frozenset({DISH}))
    if not photo.quads:
        return np.empty((0, *CONTEXT_SIZE, 3), np.uint8), np.empty(0, np.int64)
    rng = np.random.default_rng(seed)
    spots = [(q, label) for q, label in zip(photo.quads, photo.labels) if label != BLANK or rng.random() < BLANK_KEEP]
    if not spots:
        return np.empty((0, *CONTEXT_SIZE, 3), np.uint8), np.empty(0, np.int64)
    patches = balance(crop_patches(photo.image, [q for q, _ in spots], _context_prep()), photo.gains)
    index = {label: i for i, label in enumerate(LABELS)}
    return patches, np.array([index[label] for _, label in spots], np.int64)


def _cached_dishes(seed: int) -> tuple[np.ndarray, np.ndarray]:
    def make() -> dict[str, np.ndarray]:
        patches, labels = render_dishes(seed)
        return {"patches": patches, "labels": labels}

    arrays = cached_arrays(daluigi_renders.cache_dir() / DISHES_VERSION / f"{seed}.npz", make)
    return arrays["patches"], arrays["labels"]


def build(seed: int, count: int) -> list[SpotSample]:
    """Samples of about ``count`` order-field spots from training renders (seeds from ``seed``)
    and validation renders (seeds from :data:`VAL_SEED`), each render and its cuts cached."""
    train_seeds, val_seeds = seeds_for(count, DISHES_PER_RENDER, VAL_RATIO, TRAIN_SEED, VAL_SEED)
    train_seeds = [s + seed - TRAIN_SEED for s in train_seeds]
    daluigi_renders.fill(train_seeds + val_seeds)
    inner = inner_quad(CONTEXT_SIZE, CONTEXT_MARGIN)
    samples: list[SpotSample] = []
    for split_name, seeds in (("train", train_seeds), ("val", val_seeds)):
        for s in seeds:
            patches, labels = _cached_dishes(s)
            samples += [SpotSample(p, inner, LABELS[i], None, split_name) for p, i in zip(patches, labels)]
    return samples


RECIPE_DISHES = register(replace(
    RECIPE,
    name=DISH_MODEL_NAME,
    train_seed=TRAIN_SEED,
    description="Da Luigi order fields: a cube or the bare field printed in its colour, from renders of the twin",
    labels=LABELS,
    build=build,
    samples=24_000,
    val_fraction=VAL_RATIO,
    settings={**RECIPE.settings, "epochs": 14},  # rendering and training within 20 minutes on 2 cores
    measured_on=(f"order fields of guest cards in renders of the digital twin (validation render seeds {VAL_SEED}..; "
                 f"training seeds {TRAIN_SEED}..), cut by the recogniser's own geometry; not photographs of a real "
                 "set"),
))
