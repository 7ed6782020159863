"""The ``dolcevita-cover`` recipe: spots labelled by how much of them a hand or an object hides,
cut as the card models' are, and a short run that exports a model the recogniser accepts."""

from __future__ import annotations

import numpy as np
import pytest

from tableref.models.training import dolcevita, dolcevita_cover
from tableref.models.training.covers import COVERED, share_label
from tableref.models.training.dolcevita_cover import cover_label
from tableref.models.training.recipes import get_recipe, run_recipe
from tableref.vision.classifier import Classifier
from tableref.vision.recognise.cover import COVER_LABELS
from tableref.vision.recognise.dolcevita import COVER_MODEL_NAME, PREPROCESSING, DolceVitaRecogniser

#: A training render with a hand over some of its spots (the twin deals it so).
SEED = dolcevita.TRAIN_SEED


@pytest.mark.parametrize("shown", [1.0, 0.95, 0.5])
def test_a_spot_is_labelled_by_the_share_of_it_that_shows_whatever_lies_there(shown):
    assert cover_label("car:300000", shown) == cover_label("empty", shown) == share_label(shown)


def test_the_recipe_reads_the_card_models_spots():
    recipe = get_recipe(COVER_MODEL_NAME)
    assert recipe.labels == COVER_LABELS and recipe.preprocessing == PREPROCESSING
    assert recipe.train_seed == dolcevita.TRAIN_SEED and recipe.val_seed == dolcevita.VAL_SEED


def test_a_render_gives_every_spot_the_card_model_gives_labelled_by_its_cover():
    patches, labels = dolcevita_cover.render_spots(SEED)
    cards = dolcevita.render_photo(SEED, lambda label, shown: f"{label}@{shown}")
    shares = [float(label.rsplit("@", 1)[1]) for label in cards.labels]
    expected = [cover_label("", s) for s in shares]
    assert [COVER_LABELS[i] for i in labels] == [e for e in expected if e is not None]
    assert patches.shape == (len(labels), *dolcevita.CONTEXT_SIZE, 3)
    assert 0 < int(np.sum(labels == COVER_LABELS.index(COVERED))) < len(labels)


def test_a_short_run_exports_a_cover_model_the_recogniser_accepts(tmp_path, monkeypatch):
    monkeypatch.setenv("TABLEREF_CACHE", str(tmp_path / "cache"))
    result = run_recipe(get_recipe(COVER_MODEL_NAME), tmp_path / "model", "pytest smoke", epochs=1, samples=220)
    assert result.max_probability_diff < 1e-4 and result.card.labels == COVER_LABELS
    assert result.card.training.val_samples > 0
    DolceVitaRecogniser(DolceVitaRecogniser.open().classifier, cover=Classifier.open(result.card_path))
