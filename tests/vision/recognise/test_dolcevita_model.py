"""The shipped Dolce Vita card model: it matches its card, and the recogniser built on it
reads fresh renders (seeds never used in training) as well as the benchmark measured.

The 30 renders here (seeds 3100000..) are a CI-sized sample; the benchmark
(``tableref bench --recognition --game dolcevita``, docs/benchmarks.md) reads 300. Issue 5's
targets (per-card error at most 0.2 %, 95 % of scenes exactly right) are NOT met yet. The
errors here are counted strictly (a card at least 65 % shown left unknown is a miss, though
the issue asks a card partly under a hand to be reported unknown): the shipped models (trained
on crops with the blur undone, 2026-12-01 evening) measured 1.34 % strict per-card error
(0.32 % misread; 0.68 % by the issue's count) on the benchmark's 300 renders, and 1.37 %
(0.37 % misread; 0.74 %) on these 30; the models before them 1.36 % and 0.37 % on the 300,
and the models of 2026-11-30 2.0 % and 0.38 % on the 300, 2.6 % and 0.37 % on these 30.
So this test guards what was reached against regressions (:data:`MAX_CARD_ERROR`,
:data:`MAX_MISREAD`, about twice the figures measured here) and the targets are tightened to
the issue's as models improve.
"""

from __future__ import annotations

import pytest

from tableref.bench.recognition import _shots, refused_errors, scene_errors
from tableref.models.card import load_card
from tableref.vision.classifier import Classifier
from tableref.vision.recognise.common import RecognitionError
from tableref.rules.dolcevita.catalogue import UNKNOWN
from tableref.vision.recognise.cover import COVER_LABELS
from tableref.vision.recognise.dolcevita import (COVER_MODEL_NAME, MIN_DISPLAY_CARDS, MODEL_NAME,
                                                MODELS_DIR, ONE_EDGE_CONFIDENCE, PREPROCESSING, SECOND_MODEL_NAME,
                                                DolceVitaRecogniser)
from tableref.vision.recognise import dolcevita
from tableref.vision.recognise.dolcevita_labels import LABELS

from .conftest import cover_markers

CARD_PATH = MODELS_DIR / f"{MODEL_NAME}.card.json"
#: The CI sample: fresh test seeds, never rendered for training or validation.
SEEDS = range(3_100_000, 3_100_030)
#: What the shipped model reaches, with room for a 30-scene sample (issue 5's targets: 0.002 and
#: 95 % exact scenes, not met yet).
MAX_CARD_ERROR, MAX_MISREAD = 0.03, 0.0075
#: ... and by the issue's count (a partly covered card left unknown is no error).
MAX_ISSUE_ERROR = 0.015


@pytest.mark.parametrize("name, labels", [(MODEL_NAME, LABELS), (SECOND_MODEL_NAME, LABELS),
                                          (COVER_MODEL_NAME, COVER_LABELS)])
def test_shipped_models_match_their_cards(name, labels):
    path = MODELS_DIR / f"{name}.card.json"
    card = load_card(path)
    assert card.labels == labels
    assert card.preprocessing == PREPROCESSING
    assert card.parameters <= 1_000_000
    assert (MODELS_DIR / card.file).stat().st_size < 2_000_000
    Classifier.open(path)  # checks the hash and the input/output shapes


def test_the_recogniser_asks_the_second_model_and_refuses_one_that_reads_otherwise():
    assert DolceVitaRecogniser.open().second is not None
    first = Classifier.open(CARD_PATH)
    other = Classifier.open(MODELS_DIR / "ligretto-cells.card.json")
    with pytest.raises(RecognitionError, match="labels"):
        DolceVitaRecogniser(first, second=other)


@pytest.fixture(scope="module")
def shots():
    return list(_shots(list(SEEDS)))


def _read(recogniser, shot):
    """(errors, places) of one reading of ``shot``."""
    try:
        errors, places = scene_errors(shot, recogniser.read(shot.image).observation)
    except RecognitionError:
        errors, places = refused_errors(shot)
    return errors, sum(places.values())


@pytest.fixture(scope="module")
def readings(shots):
    recogniser = DolceVitaRecogniser.open()
    return [(shot.seed, *_read(recogniser, shot)) for shot in shots]


def test_recogniser_reads_fresh_renders_as_well_as_measured(readings):
    wrong = sum(len(errors) for _, errors, _ in readings)
    misread = sum(e.kind == "misread" for _, errors, _ in readings for e in errors)
    places = sum(n for _, _, n in readings)
    detail = [(seed, [(e.kind, e.where, e.label) for e in errors[:3]]) for seed, errors, _ in readings if errors]
    assert wrong / places <= MAX_CARD_ERROR, f"{wrong} of {places} places wrong: {detail[:5]}"
    assert misread / places <= MAX_MISREAD, f"{misread} of {places} places misread: {detail[:5]}"
    issue = sum(not e.partly for _, errors, _ in readings for e in errors)
    assert issue / places <= MAX_ISSUE_ERROR, f"{issue} of {places} places wrong by the issue's count"


def test_motion_blur_undone_reads_blurred_renders_better(shots, readings):
    """The blurred renders of the sample read with fewer errors when the blur the markers
    show is undone first (the recogniser's default) than as they are."""
    blurred = {shot.seed: shot for shot in shots if shot.blurred}
    assert len(blurred) >= 5
    plain = DolceVitaRecogniser.open(steady=False)
    steady = sum(len(errors) for seed, errors, _ in readings if seed in blurred)
    as_taken = sum(len(_read(plain, shot)[0]) for shot in blurred.values())
    # (the card models trained on crops through the estimated lens: 13 errors against 16)
    assert steady < 0.85 * as_taken, f"{steady} errors with the blur undone, {as_taken} without"


@pytest.mark.parametrize("seed", [3_000_002, 3_000_016, 3_000_035])
def test_a_two_player_table_is_not_read_with_seats_on_the_display(seed):
    # two players on the narrow table: the other seats' first card places lie on the display's
    # outer columns or the near player's fan, whose cards read there; these renders were read
    # as 5, 5 and 3 players, and every card of the far player was missed (14 on validation
    # render 2000281; since, at most one, and two on 3000035 with the model trained on the
    # crops of the lens estimated from the markers)
    shot = next(_shots([seed]))
    recognition = DolceVitaRecogniser.open().read(shot.image)
    assert recognition.players == shot.state.players == 2
    errors, _ = scene_errors(shot, recognition.observation)
    assert len([e for e in errors if e.where == "player:1"]) <= 2


def test_slots_above_an_empty_slot_read_empty(monkeypatch):
    # test render 3000153: on a pale table the classifier takes bare slots above five columns
    # for covered ones; a column has no gap, so above a slot read surely empty they are empty
    shot = next(_shots([3_000_153]))

    def empties_missed() -> int:
        errors, _ = scene_errors(shot, DolceVitaRecogniser.open().read(shot.image).observation)
        return sum(e.kind == "missed" and e.label == "empty" for e in errors)

    # the deduction alone: the bare table's colour (which finds most of these too) not asked
    monkeypatch.setattr(dolcevita, "bare_above", lambda *args: set())
    deduced = empties_missed()
    monkeypatch.setattr(dolcevita, "EMPTY_BELOW", 2.0)  # never sure enough: the slots stay unknown
    assert deduced + 10 <= empties_missed()


def test_two_markers_along_one_edge_read_only_the_sure_places():
    # test render 3000018: motion blur and a hand hide the far markers from the detector. With
    # the blur undone more markers are found (three with the Wiener filter's noise-to-signal at
    # 0.1, all four at 0.07); even without, the far ones are found by their pattern where the
    # near ones put them (vision/marker_search.py), and the table is measured.
    shot = next(_shots([3_000_018]))
    assert len(DolceVitaRecogniser.open().read(shot.image).markers_used) >= 3
    as_taken = DolceVitaRecogniser.open(steady=False).read(shot.image)
    assert len(as_taken.markers_used) == 4
    # with the far markers (far right, far left) painted over, the other side of the table is
    # not measured, so only places read at ONE_EDGE_CONFIDENCE count (it was refused before)
    image = cover_markers(shot.image, (2, 3), dolcevita.locate_dolcevita(shot.image))
    recognition = DolceVitaRecogniser.open(steady=False).read(image)
    assert len(recognition.markers_used) == 2
    known = [it for it in recognition.observation.items if it.label != UNKNOWN]
    assert known and all(it.confidence >= ONE_EDGE_CONFIDENCE for it in known)
    errors, places = scene_errors(shot, recognition.observation)
    # the sure places still include a few read off a shifted slot: over the 6 such test renders
    # 6 of 575 places misread with the shipped model (5 with the 540-render model; here 3 and 0)
    assert sum(e.kind == "misread" for e in errors) <= 0.05 * sum(places.values())
    # the card models trained since 2026-12-01 evening learn the crops of blurred renders with
    # the blur undone, so this one read as taken loses more: 49 of its 94 places wrong or
    # unread (1 misread), 34 with the models before
    assert len(errors) <= 0.6 * sum(places.values())


def test_a_display_mostly_under_two_arms_is_read_not_refused():
    # test render 3000142: two arms across the display leave 5 of its cards readable (refused
    # when 7 were asked for); the players' cards and number cards around it are read
    shot = next(_shots([3_000_142]))
    recognition = DolceVitaRecogniser.open().read(shot.image)
    display = [it for it in recognition.observation.items
               if ":slot:" in it.where and it.label not in (UNKNOWN, "empty")]
    assert MIN_DISPLAY_CARDS <= len(display) < 7
    errors, places = scene_errors(shot, recognition.observation)
    assert sum(e.kind == "misread" for e in errors) <= 0.03 * sum(places.values())
    assert len(errors) <= 0.5 * sum(places.values())


def _slot(c: int, s: int, label: str, confidence: float):
    import numpy as np

    return dolcevita.Reading(f"column:{c}:slot:{s}", dolcevita.SLOT, s, np.zeros((4, 2)), label, confidence)


@pytest.mark.parametrize("reads, expected", [
    # a slot read unsurely beside a covered slot of its column: unknown too
    ([(0, 0, "car:100000", 0.8), (0, 1, UNKNOWN, 0.0)], [UNKNOWN, UNKNOWN]),
    # ... or beside the same slot of the next column; an empty slot alike
    ([(0, 3, "empty", 0.7), (1, 3, UNKNOWN, 0.0)], [UNKNOWN, UNKNOWN]),
    # read surely: kept
    ([(0, 0, "car:100000", 0.95), (0, 1, UNKNOWN, 0.0)], ["car:100000", UNKNOWN]),
    # nothing covered beside it (a slot two away, a corner): kept, however unsure
    ([(0, 0, "car:100000", 0.7), (0, 2, UNKNOWN, 0.0), (1, 1, UNKNOWN, 0.0)], ["car:100000", UNKNOWN, UNKNOWN]),
    # judged on the readings as they come: one made unknown does not pass it on
    ([(0, 0, UNKNOWN, 0.0), (0, 1, "car:100000", 0.8), (0, 2, "car:200000", 0.8)],
     [UNKNOWN, UNKNOWN, "car:200000"]),
])
def test_a_slot_beside_a_covered_slot_is_read_only_when_sure(reads, expected):
    out = dolcevita.beside_the_covered([_slot(*r) for r in reads])
    assert [r.label for r in out] == expected
    assert all(r.confidence == 0.0 for r in out if r.label == UNKNOWN)


def test_fans_are_left_to_their_own_reading():
    import numpy as np

    under = dolcevita.Reading("column:0:under", dolcevita.UNDER, 0, np.zeros((4, 2)), "red:3", 0.7)
    out = dolcevita.beside_the_covered([under, _slot(0, 0, UNKNOWN, 0.0)])
    assert out[0].label == "red:3"
