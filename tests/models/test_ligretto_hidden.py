"""The ``ligretto-hidden`` recipe: the board's spaces and the places beside it, labelled by the
share of each that shows; a short run exports a model the recogniser asks."""

from __future__ import annotations

import numpy as np

from tableref.models.training import ligretto, ligretto_hidden
from tableref.models.training.covers import COVERED, share_label
from tableref.models.training.recipes import get_recipe, run_recipe
from tableref.vision.classifier import Classifier
from tableref.vision.recognise.cover import COVER_LABELS
from tableref.vision.recognise.ligretto import LigrettoRecogniser
from tableref.vision.recognise.ligretto_labels import HIDDEN_MODEL, PREPROCESSING

#: A training render with a hand over part of the board (the twin deals it so).
SEED = ligretto.TRAIN_SEED + 4


def test_the_recipe_reads_the_cover_classifiers_spaces():
    recipe = get_recipe(HIDDEN_MODEL)
    assert recipe.labels == COVER_LABELS and recipe.preprocessing == PREPROCESSING
    assert recipe.train_seed == ligretto.TRAIN_SEED and recipe.val_seed == ligretto.VAL_SEED


def test_a_render_gives_every_space_labelled_by_the_share_of_it_that_shows(cache):
    from tableref.vision.synthetic.dataset import sample

    patches, labels = ligretto_hidden.render_spaces(SEED)
    s = sample("ligretto", SEED)
    board, regions = s.scene.state.board, s.labels()["regions"]
    spaces = [share_label(regions[f"lig.cell.{r}.{c}"]["shown"]) for r, c in map(board.cell, board.spaces())]
    spaces = [label for label in spaces if label is not None]
    assert [COVER_LABELS[i] for i in labels[:len(spaces)]] == spaces  # the board's spaces first, then beside it
    assert len(labels) > len(spaces) and patches.shape == (len(labels), *ligretto.CONTEXT_SIZE, 3)
    assert 0 < int(np.sum(labels == COVER_LABELS.index(COVERED))) < len(labels)


def test_a_short_run_exports_a_model_the_recogniser_asks(cache, tmp_path):
    # 17 renders: the third validation render (2000002) is the first with a space partly covered
    result = run_recipe(get_recipe(HIDDEN_MODEL), tmp_path / "model", "pytest smoke", epochs=1,
                        samples=17 * ligretto.SAMPLES_PER_RENDER)
    assert result.max_probability_diff < 1e-4 and result.card.labels == COVER_LABELS
    assert result.card.training.val_samples > 0
    shipped = LigrettoRecogniser.open()
    model = Classifier.open(result.card_path)
    assert LigrettoRecogniser(shipped.cell_model, shipped.token_model, hidden=model).hidden is model
