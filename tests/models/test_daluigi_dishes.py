"""The ``daluigi-dishes`` recipe: order fields alone, cut and labelled as the spot classifier's."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from tableref.models.training import daluigi, daluigi_dishes, daluigi_renders
from tableref.models.training.recipes import get_recipe
from tableref.vision.recognise.common import locate_table
from tableref.vision.recognise.daluigi_labels import ALLOWED, BLANK
from tableref.vision.recognise.daluigi_model import DISH_MODEL_NAME, PREPROCESSING, SECOND_DISH_MODEL_NAME
from tableref.vision.recognise.daluigi_zones import DISH, load_daluigi_zones

#: A training render with cubes on its guests' order fields (seeded: the twin deals it so).
SEED = daluigi_dishes.TRAIN_SEED


@pytest.mark.parametrize("name, margin", [(DISH_MODEL_NAME, 0.6), (SECOND_DISH_MODEL_NAME, PREPROCESSING.crop.margin)])
def test_the_recipes_read_order_fields_with_the_spot_classifiers_labels(name, margin):
    recipe = get_recipe(name)
    assert recipe.labels == ALLOWED[DISH]
    assert recipe.preprocessing.input_size == PREPROCESSING.input_size and recipe.preprocessing.crop.margin == margin
    assert recipe.train_seed == daluigi_dishes.TRAIN_SEED and recipe.val_seed == daluigi.VAL_SEED
    assert recipe.samples // daluigi_dishes.DISHES_PER_RENDER == 1800  # renders, validation ones included


def test_the_second_recipe_reads_as_the_spot_classifiers_cut():
    assert get_recipe(SECOND_DISH_MODEL_NAME).preprocessing == PREPROCESSING


def test_the_wide_cut_holds_the_models_input_and_room_to_move_it():
    """The cut around each field is wider than the first model's input by more than the
    augmentation moves it, at least at the input's resolution."""
    context, recipe = daluigi_dishes.DISH_CONTEXT, get_recipe(DISH_MODEL_NAME)
    aug, crop = recipe.augmentation, recipe.preprocessing.crop
    assert context.crop.margin >= crop.margin + aug.shift
    assert context.input_size[0] / (1 + 2 * context.crop.margin) >= \
        recipe.preprocessing.input_size[0] / (1 + 2 * crop.margin) - 1


def test_order_fields_are_cut_with_the_spot_recipes_labels(cache):
    patches, labels = daluigi_dishes.render_dishes(SEED)
    assert patches.shape == (len(labels), *daluigi_dishes.DISH_CONTEXT.input_size, 3) and patches.dtype == np.uint8
    got = Counter(daluigi_dishes.LABELS[i] for i in labels)
    # the same labels as the spot recipe gives the order fields of that render (blank ones aside)
    render = daluigi_renders.load(SEED)
    zones = load_daluigi_zones()
    view = locate_table(render.image, zones.marker_mm, choices_mm=zones.table_mm_choices, two_markers="never")
    every = [label for _, label in daluigi.truth_spots(zones, view, render, frozenset({DISH}))]
    assert every and all(label in ALLOWED[DISH] for label in every)
    assert Counter(label for label in every if label != BLANK) == Counter({k: v for k, v in got.items() if k != BLANK})
    assert any(label.startswith("cube:") for label in every), "the render should show cubes on order fields"
    assert 0 < got[BLANK] < Counter(every)[BLANK] / 2  # blank ones thinned out (a quarter kept)
    # and none of the other spots of the table
    assert len(every) < len(list(daluigi.truth_spots(zones, view, render)))
    again, _ = daluigi_dishes.render_dishes(SEED)  # seeded
    assert np.array_equal(again, patches)
