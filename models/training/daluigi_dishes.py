"""The ``daluigi-dishes`` recipes: a guest card's order fields alone, each a cube or its bare field.

A cube on an order field lies on a square printed in its own colour (a cube of another colour
there is a flag), so what tells it from the bare field is its shading, its rounded edges and
its shadow, a few pixels in a view of the whole table. The spot classifier
(:mod:`.daluigi`) learns order fields among every other spot of the table, of which they are a
small share (about 470 cubes on order fields in 100 training renders, against some 15,000
spots of all kinds kept); these recipes train classifiers on order fields alone, from more
than four times as many renders as the spot classifier (1,800 against 420), with its labels
for that group (:data:`~tableref.vision.recognise.daluigi_labels.ALLOWED`).

``daluigi-dishes`` sees a field with 0.6 of it around on each side, so the fields above and
below it show: a die beside the bare field printed in its colour is told by the difference.
``daluigi-dishes-b``, the second opinion, takes the spot classifiers' input (a fifth around), so
the recogniser reads it from the patches it has already cut.

Renders: training seeds ``TRAIN_SEED ..`` (the second spot classifier's and more) and
validation seeds ``VAL_SEED ..``, cached as the spot recipes cache them; the order fields of
each are cut once more for each recipe and cached beside them (``DISHES_VERSION``,
``SECOND_DISHES_VERSION``). Test seeds ``3000000 ..`` are never used here.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ...vision.recognise.daluigi_labels import ALLOWED
from ...vision.recognise.daluigi_model import DISH_MODEL_NAME, PREPROCESSING, SECOND_DISH_MODEL_NAME
from ...vision.recognise.daluigi_zones import DISH
from ..card import CropSettings, Preprocessing
from .daluigi import RECIPE, SECOND_TRAIN_SEED, VAL_RATIO, VAL_SEED, context_prep, cut_spots, samples_of
from .recipes import register
from .spots import SpotSample

#: The labels: the order-field group's (cubes, printed fields, blank, unknown).
LABELS = ALLOWED[DISH]
#: Order-field spots kept per render, roughly (to turn a sample count into renders).
DISHES_PER_RENDER = 20
#: Share of blank order-field spots (a card with fewer fields, an empty guest place) kept.
BLANK_KEEP = 0.25
#: Training renders from (the second spot classifier's: a warm cache holds the first of them).
TRAIN_SEED = SECOND_TRAIN_SEED
#: Versions of the cached order-field cuts (the first model's, the second's): bump one whenever
#: its cutting or labelling changes.
DISHES_VERSION, SECOND_DISHES_VERSION = "d3", "d2"
#: The first model's input: a field and 0.6 of it around on each side, the spot classifiers'
#: size and normalisation.
PREPROCESSING_DISHES = replace(PREPROCESSING, crop=CropSettings("quad", 0.6))
#: Its cached cut: wider than the input (for the augmentation's shifts and turns), at about the
#: input's resolution.
DISH_CONTEXT = context_prep((32, 32), 0.85)
#: The second model's cut: the spot recipes'.
SECOND_DISH_CONTEXT = context_prep()


def render_dishes(seed: int, context: Preprocessing = DISH_CONTEXT) -> tuple[np.ndarray, np.ndarray]:
    """Cut the firm order-field spots of render ``seed`` as ``context`` cuts them: (patches
    (N, h, w, 3) uint8, label indices (N,) into :data:`LABELS`), white-balanced as the
    recogniser balances them; blank ones kept with probability :data:`BLANK_KEEP` (seeded by
    ``seed``)."""
    return cut_spots(seed, LABELS, BLANK_KEEP, frozenset({DISH}), context)


def build(seed: int, count: int) -> list[SpotSample]:
    """Samples of about ``count`` order-field spots cut for the first model, from training
    renders (seeds from ``seed``) and validation renders (seeds from :data:`VAL_SEED`), each
    render and its cuts cached."""
    return samples_of(seed, count, DISHES_PER_RENDER, DISHES_VERSION, render_dishes, LABELS, DISH_CONTEXT)


def build_second(seed: int, count: int) -> list[SpotSample]:
    """As :func:`build`, the fields cut as the spot recipes cut them."""
    return samples_of(seed, count, DISHES_PER_RENDER, SECOND_DISHES_VERSION,
                      lambda s: render_dishes(s, SECOND_DISH_CONTEXT), LABELS, SECOND_DISH_CONTEXT)


RECIPE_DISHES = register(replace(
    RECIPE,
    name=DISH_MODEL_NAME,
    train_seed=TRAIN_SEED,
    description="Da Luigi order fields: a cube or the bare field printed in its colour, from renders of the twin",
    labels=LABELS,
    preprocessing=PREPROCESSING_DISHES,
    build=build,
    samples=36_000,  # 1,800 renders (24,000 from 1,200 until 2026-12-07)
    val_fraction=VAL_RATIO,
    settings={**RECIPE.settings, "epochs": 14},  # rendering and training within 20 minutes on 2 cores
    measured_on=(f"order fields of guest cards in renders of the digital twin (validation render seeds {VAL_SEED}..; "
                 f"training seeds {TRAIN_SEED}..), cut by the recogniser's own geometry; not photographs of a real "
                 "set"),
))

#: The second opinion: the first recipe's settings with the spot classifiers' input, on the same
#: renders (the recipe ``daluigi-dishes`` was before 2026-12-02, evening).
SECOND_RECIPE_DISHES = register(replace(
    RECIPE_DISHES,
    name=SECOND_DISH_MODEL_NAME,
    description="Da Luigi order fields, the second opinion: as daluigi-dishes, with the spot classifiers' input",
    preprocessing=PREPROCESSING,
    build=build_second,
))
