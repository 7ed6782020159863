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

from ...vision.recognise.daluigi_labels import ALLOWED
from ...vision.recognise.daluigi_model import DISH_MODEL_NAME
from ...vision.recognise.daluigi_zones import DISH
from .daluigi import RECIPE, SECOND_TRAIN_SEED, VAL_RATIO, VAL_SEED, cut_spots, samples_of
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
#: Version of the cached order-field cuts: bump it whenever cutting or labelling changes.
DISHES_VERSION = "d1"


def render_dishes(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Cut the firm order-field spots of render ``seed``: (patches (N, 24, 24, 3) uint8, label
    indices (N,) into :data:`LABELS`), white-balanced as the recogniser balances them; blank
    ones kept with probability :data:`BLANK_KEEP` (seeded by ``seed``)."""
    return cut_spots(seed, LABELS, BLANK_KEEP, frozenset({DISH}))


def build(seed: int, count: int) -> list[SpotSample]:
    """Samples of about ``count`` order-field spots from training renders (seeds from ``seed``)
    and validation renders (seeds from :data:`VAL_SEED`), each render and its cuts cached."""
    return samples_of(seed, count, DISHES_PER_RENDER, DISHES_VERSION, render_dishes, LABELS)


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
