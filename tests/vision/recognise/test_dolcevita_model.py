"""The shipped Dolce Vita card model: it matches its card, and the recogniser built on it
reads fresh renders (seeds never used in training) as well as the benchmark measured.

The 30 renders here (seeds 3100000..) are a CI-sized sample; the benchmark
(``tableref bench --recognition --game dolcevita``, docs/benchmarks.md) reads 300. Issue 5's
targets (per-card error at most 0.2 %, 95 % of scenes exactly right) are NOT met yet: the
shipped model measured 7.4 % per-card error (0.9 % misread) on the benchmark's 300 renders, and
9.7 % (0.74 % misread) on these 30.
So this test guards what was reached against regressions (:data:`MAX_CARD_ERROR`,
:data:`MAX_MISREAD`) and the targets are tightened to the issue's as models improve.
"""

from __future__ import annotations

import pytest

from tableref.bench.recognition import _shots, refused_errors, scene_errors
from tableref.models.card import load_card
from tableref.vision.classifier import Classifier
from tableref.vision.recognise.common import RecognitionError
from tableref.vision.recognise.dolcevita import MODELS_DIR, MODEL_NAME, PREPROCESSING, DolceVitaRecogniser
from tableref.vision.recognise.dolcevita_labels import LABELS

CARD_PATH = MODELS_DIR / f"{MODEL_NAME}.card.json"
#: The CI sample: fresh test seeds, never rendered for training or validation.
SEEDS = range(3_100_000, 3_100_030)
#: What the shipped model reaches, with room for a 30-scene sample (issue 5's targets: 0.002 and
#: 95 % exact scenes, not met yet).
MAX_CARD_ERROR, MAX_MISREAD = 0.12, 0.015


def test_shipped_model_matches_its_card():
    card = load_card(CARD_PATH)
    assert card.labels == LABELS
    assert card.preprocessing == PREPROCESSING
    assert card.parameters <= 1_000_000
    assert (MODELS_DIR / card.file).stat().st_size < 2_000_000
    Classifier.open(CARD_PATH)  # checks the hash and the input/output shapes


@pytest.fixture(scope="module")
def readings():
    recogniser = DolceVitaRecogniser.open()
    out = []
    for shot in _shots(list(SEEDS)):
        try:
            errors, places = scene_errors(shot, recogniser.read(shot.image).observation)
        except RecognitionError:
            errors, places = refused_errors(shot)
        out.append((shot.seed, errors, sum(places.values())))
    return out


def test_recogniser_reads_fresh_renders_as_well_as_measured(readings):
    wrong = sum(len(errors) for _, errors, _ in readings)
    misread = sum(e.kind == "misread" for _, errors, _ in readings for e in errors)
    places = sum(n for _, _, n in readings)
    detail = [(seed, [(e.kind, e.where, e.label) for e in errors[:3]]) for seed, errors, _ in readings if errors]
    assert wrong / places <= MAX_CARD_ERROR, f"{wrong} of {places} places wrong: {detail[:5]}"
    assert misread / places <= MAX_MISREAD, f"{misread} of {places} places misread: {detail[:5]}"

