"""The ``dolcevita-cards`` recipe end to end on two renders: spots cut by the recogniser's own
geometry, a few training steps, an ONNX model that onnxruntime loads and that agrees with PyTorch."""

from __future__ import annotations

import pytest

from tableref.models.training.dolcevita import TRAIN_SEED, VAL_SEED, cache_dir
from tableref.models.training.recipes import get_recipe, run_recipe
from tableref.vision.recognise.dolcevita import DolceVitaRecogniser
from tableref.vision.recognise.dolcevita_labels import LABELS
from tableref.vision.synthetic.dataset import sample

#: Two renders' worth of spots (one training render, one validation render); a render gives
#: fewer spots than a batch, so each epoch is one step.
SMOKE_SAMPLES, SMOKE_EPOCHS = 220, 2
#: Any spot of the image (px, crop order).
QUAD = [[600.0, 300.0], [640.0, 300.0], [640.0, 330.0], [600.0, 330.0]]


@pytest.fixture(scope="module")
def smoke(tmp_path_factory):
    cache = tmp_path_factory.mktemp("cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("TABLEREF_CACHE", str(cache))
        result = run_recipe(get_recipe("dolcevita-cards"), tmp_path_factory.mktemp("model"), "pytest smoke",
                            epochs=SMOKE_EPOCHS, samples=SMOKE_SAMPLES)
        cached = sorted(p.name for p in cache_dir().glob("*.npz"))
    return result, cached


def test_recipe_trains_and_exports_an_agreeing_model(smoke):
    result, cached = smoke
    assert cached == [f"{TRAIN_SEED}.npz", f"{VAL_SEED}.npz"]  # training and validation renders never mix
    assert result.steps == SMOKE_EPOCHS
    assert result.max_probability_diff < 1e-4
    card = result.card
    assert card.labels == LABELS and card.parameters <= 1_000_000
    assert card.training.val_samples > 0 and card.training.command == "pytest smoke"
    recogniser = DolceVitaRecogniser.open(result.card_path.parent)  # checks the hash, shapes and labels
    probabilities = recogniser.classifier.classify(sample("dolcevita", TRAIN_SEED).image, [QUAD]).probabilities
    assert probabilities.shape == (1, len(LABELS)) and abs(float(probabilities.sum()) - 1.0) < 1e-5

