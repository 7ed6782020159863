"""The ``ligretto-borders`` recipe: whole face-up cards, lengthwise, labelled with their border
style; a short run exports a model the recogniser can ask."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from tableref.models.training import ligretto, ligretto_borders
from tableref.models.training.recipes import get_recipe
from tableref.rules.ligretto.catalogue import BORDERS
from tableref.vision.recognise.ligretto_labels import (BORDERS_MODEL, BORDERS_PREPROCESSING,
                                                       BORDERS_SMALL_PREPROCESSING, SECOND_BORDERS_MODEL)

#: A training render with face-up cards of several border styles on the board and the
#: players' boards (seeded: the twin deals it so).
SEED = ligretto.TRAIN_SEED + 3


def test_the_recipe_reads_border_styles_from_the_ligretto_renders():
    recipe = get_recipe(BORDERS_MODEL)
    assert recipe.labels == tuple(BORDERS) and recipe.preprocessing == BORDERS_SMALL_PREPROCESSING
    assert recipe.train_seed == ligretto.TRAIN_SEED and recipe.val_seed == ligretto.VAL_SEED


def test_the_second_recipe_is_the_first_network_on_other_training_renders_at_its_recipe_of_before():
    first, second = get_recipe(BORDERS_MODEL), get_recipe(SECOND_BORDERS_MODEL)
    assert second.train_seed == ligretto.SECOND_TRAIN_SEED != first.train_seed
    assert second.val_seed == first.val_seed and second.labels == first.labels
    assert (second.settings, second.widths) == (first.settings, first.widths)
    # the cut and the number of cards it was trained with (the first's recipe of 2026-12-04)
    assert (second.preprocessing, second.samples) == (BORDERS_PREPROCESSING, ligretto_borders.SECOND_BORDERS_SAMPLES)
    assert first.samples > second.samples and first.preprocessing.crop == second.preprocessing.crop


@pytest.mark.parametrize("prep", [BORDERS_PREPROCESSING, BORDERS_SMALL_PREPROCESSING])
def test_the_cut_holds_the_models_input_and_room_to_move_it(prep):
    context, margin = ligretto_borders.CONTEXT_MARGIN, prep.crop.margin
    assert context >= margin + get_recipe(BORDERS_MODEL).augmentation.shift
    h, w = ligretto_borders.CONTEXT_SIZE
    assert w == 2 * h and prep.input_size[1] == 2 * prep.input_size[0] and prep.input_size[0] <= h


def test_cards_are_cut_lengthwise_with_their_border_styles(cache):
    from tableref.vision.synthetic.dataset import sample

    patches, borders = ligretto_borders.render_cards(SEED)
    assert patches.shape == (len(borders), *ligretto_borders.CONTEXT_SIZE, 3) and patches.dtype == np.uint8
    objects = sample("ligretto", SEED).labels()["objects"]
    face_up = Counter(o["params"]["border"] for o in objects if o["kind"] == "ligretto.card"
                      and not o["params"]["back"] and o["shown"] >= ligretto_borders.FIRM_SHARE)
    assert Counter(BORDERS[b] for b in borders) == face_up and len(face_up) >= 3
    # lengthwise: the white split between a card's two halves runs down the middle of its cut
    rows = patches[:, 24:40].astype(float).mean(axis=(1, 3))  # (cards, columns)
    split, halves = rows[:, 60:68].max(axis=1), rows[:, [44, 84]].mean(axis=1)
    assert (split > halves).mean() >= 0.9
    again, _ = ligretto_borders.render_cards(SEED)  # seeded
    assert np.array_equal(again, patches)


def test_a_short_run_exports_a_model_the_recogniser_asks(cache, run_cli, tmp_path):
    from tableref.vision.classifier import Classifier
    from tableref.vision.recognise.ligretto import LigrettoRecogniser

    done = run_cli("train", "--model", BORDERS_MODEL, "--out", tmp_path, "--samples", "48", "--max-steps", "2")
    assert done.code == 0, done
    model = Classifier.open(tmp_path / f"{BORDERS_MODEL}.card.json")
    assert model.labels == tuple(BORDERS) and model.card.preprocessing == BORDERS_SMALL_PREPROCESSING
    shipped = LigrettoRecogniser.open()
    assert LigrettoRecogniser(shipped.cell_model, shipped.token_model, borders=model).borders is model
