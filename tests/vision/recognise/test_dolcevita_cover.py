"""The cover model: a card face read unsurely where a hand or an object lies over part of the
spot is unknown, never guessed (issue 5); sure readings, empty places and covered ones are
never asked."""

from __future__ import annotations

import shutil
from types import SimpleNamespace

import numpy as np
import pytest

from tableref.bench.recognition import _shots, scene_errors
from tableref.models.card import load_card
from tableref.rules.dolcevita.catalogue import EMPTY, UNKNOWN
from tableref.vision.recognise.common import RecognitionError
from tableref.vision.recognise.cover import COVER_LABELS
from tableref.vision.recognise.dolcevita import (COVER_BELOW, COVER_MODEL_NAME, COVER_SURE, MODEL_NAME,
                                                MODELS_DIR, PREPROCESSING, DolceVitaRecogniser)
from tableref.vision.recognise.dolcevita_labels import LABELS

from .conftest import StubClassifier, peaked

QUAD = np.array([[600.0, 300.0], [640.0, 300.0], [640.0, 330.0], [600.0, 330.0]])
IMAGE = np.full((720, 1280, 3), 128, np.uint8)
FACE = "car:300000"


def Stub(labels, row):
    return StubClassifier(labels, row, PREPROCESSING)


def card_row(label: str, p: float) -> np.ndarray:
    return peaked(LABELS, label, p)


@pytest.mark.parametrize("label, p, p_covered, expected, asked", [
    (FACE, 0.90, 0.9, UNKNOWN, 1),           # unsure face, a finger over it: unknown
    (FACE, 0.90, 0.1, FACE, 1),              # unsure face, clear: read
    (FACE, 0.90, COVER_SURE, UNKNOWN, 1),    # at the bound: covered
    (FACE, COVER_BELOW, 0.9, FACE, 0),       # a sure face is not asked
    (EMPTY, 0.90, 0.9, EMPTY, 0),            # an empty place is not asked
    (UNKNOWN, 0.90, 0.9, UNKNOWN, 0),        # a covered place is unknown already
])
def test_an_unsure_face_partly_covered_is_unknown(label, p, p_covered, expected, asked):
    cover = Stub(COVER_LABELS, [1.0 - p_covered, p_covered])
    recogniser = DolceVitaRecogniser(Stub(LABELS, card_row(label, p)), cover=cover)
    (read,) = recogniser._classify(IMAGE, [QUAD], ["slot"])
    assert read.label == expected and cover.asked == asked
    assert read.hidden == (expected == UNKNOWN and label != UNKNOWN)


def test_a_hidden_slot_keeps_no_faces_to_be_read_from_later():
    cover = Stub(COVER_LABELS, [0.0, 1.0])
    recogniser = DolceVitaRecogniser(Stub(LABELS, card_row(FACE, 0.9)), cover=cover)
    view = SimpleNamespace(table_mm=(1000.0, 700.0), quads_to_image=lambda qs: [QUAD for _ in qs])
    recogniser._uncover = lambda columns, image, view: columns
    columns = recogniser._columns(IMAGE, view)
    assert all(r.label == UNKNOWN and r.alternatives == () for column in columns for r in column)


def test_without_a_cover_model_nothing_is_hidden():
    recogniser = DolceVitaRecogniser(Stub(LABELS, card_row(FACE, 0.9)))
    assert [r.label for r in recogniser._classify(IMAGE, [QUAD], ["slot"])] == [FACE]


def test_a_cover_model_must_read_covers():
    with pytest.raises(RecognitionError, match="no cover model"):
        DolceVitaRecogniser(Stub(LABELS, card_row(FACE, 0.9)), cover=Stub(LABELS, card_row(FACE, 0.9)))


def test_the_shipped_cover_model_is_opened(tmp_path):
    # (it matches its card: test_dolcevita_model.py's test_shipped_models_match_their_cards)
    assert DolceVitaRecogniser.open().cover.card.name == COVER_MODEL_NAME
    # a folder of card models without one (an enrolment's) is read with the shipped cover model
    first = load_card(MODELS_DIR / f"{MODEL_NAME}.card.json")
    for name in (f"{MODEL_NAME}.card.json", first.file):
        shutil.copy(MODELS_DIR / name, tmp_path / name)
    assert DolceVitaRecogniser.open(tmp_path).cover.card.name == COVER_MODEL_NAME


@pytest.mark.parametrize("seed, where", [
    (3_000_007, "player:1"),  # a car card 69 % shown, its value index under a finger: read as 400,000 at 0.80
    (3_000_116, "player:0"),  # a holiday card 74 % shown: read as 500,000 at 0.72
])
def test_a_card_under_part_of_a_hand_misread_without_the_cover_model_is_unknown_with_it(seed, where):
    shot = next(_shots([seed]))
    shipped = DolceVitaRecogniser.open()
    without = DolceVitaRecogniser(shipped.classifier, second=shipped.second)

    def misread(recogniser) -> list[str]:
        errors, _ = scene_errors(shot, recogniser.read(shot.image).observation)
        return [e.label for e in errors if e.kind == "misread" and e.where == where]

    assert misread(without) and not misread(shipped)
