"""The shipped Da Luigi recogniser on fresh renders (seeds 3100000.., never trained on).

The issue's targets (recall and precision >= 99.5 %, colour error <= 0.1 %, guest card error
<= 0.2 %, >= 95 % of scenes exact) are NOT met yet by the shipped model; see
docs/daluigi-recognition.md for the measured figures. This test guards what the shipped model
does reach on these 20 renders (floors a little below the figures measured on them), so a
change that makes recognition worse fails; raise the floors towards the targets as the model
improves.
"""

from __future__ import annotations

import shutil
from collections import Counter
from dataclasses import replace

import numpy as np
import pytest

from tableref.bench.recognition_daluigi import _shots, figures, score
from tableref.calibration.profile import Profile
from tableref.live.recognition import Recogniser
from tableref.models.card import load_card
from tableref.models.training.daluigi import enrolment_photo
from tableref.rules.common import Violation
from tableref.vision.classifier import Classifier
from tableref.vision.recognise.common import RecognitionError
from tableref.vision.recognise.daluigi import DaLuigiRecogniser, locate_daluigi
from tableref.vision.recognise.daluigi_labels import ALLOWED, LABELS
from tableref.vision.recognise.daluigi_live import LiveDaLuigi
from tableref.vision.recognise.daluigi_model import (DISH_MODEL_NAME, MODEL_NAME, MODELS_DIR, PREPROCESSING,
                                                     SECOND_DISH_MODEL_NAME, SECOND_MODEL_NAME)
from tableref.vision.recognise.daluigi_zones import CARD_GROUPS, DISH
from tableref.vision.synthetic.dataset import sample

from .conftest import cover_markers

#: Fresh renders read by the test (the benchmark reads 300 from 3000000).
CI_SEED, CI_SCENES = 3_100_000, 20
#: The issue's targets (%), not met yet (see the module docstring).
TARGETS = {"cube detection recall": 99.5, "cube detection precision": 99.5, "cube colour error": 0.1,
           "guest card error": 0.2, "scenes read exactly right": 95.0}
#: What the shipped models must keep on these renders (%; recall and card error strict): measured
#: 97.6, 99.2, 0.2, 3.6 and 65 % of scenes exact with the second model asked at unsure spots
#: (2026-12-02; the first model alone 96.6, 98.8, 0.2, 4.6 and 55 %); with a guest place showing
#: too little left unknown and a row known only where the place after it shows, 98.4, 99.2, 0.2,
#: 3.6 and 60 %. The floors were 82, 96.5, 3.0 and 25 for the models of 2026-11-30; on the
#: benchmark's 300 renders docs/daluigi-recognition.md.
RECALL, PRECISION, COLOUR_ERROR, CARD_ERROR, EXACT = 96.0, 98.5, 1.0, 6.0, 55.0


@pytest.fixture(scope="module")
def recogniser():
    return DaLuigiRecogniser.open()


@pytest.mark.parametrize("name", [MODEL_NAME, SECOND_MODEL_NAME])
def test_shipped_models_match_their_cards(name):
    path = MODELS_DIR / f"{name}.card.json"
    card = load_card(path)
    assert card.labels == LABELS and card.preprocessing == PREPROCESSING
    assert card.parameters <= 1_000_000
    Classifier.open(path)  # checks the hash and the input/output shapes


def test_the_recogniser_asks_the_second_model_and_refuses_one_that_reads_otherwise(recogniser):
    assert recogniser.second is not None and recogniser.second.card.name == SECOND_MODEL_NAME
    with pytest.raises(RecognitionError, match="labels"):
        DaLuigiRecogniser(recogniser.classifier, second=Classifier.open(MODELS_DIR / "ligretto-cells.card.json"))


@pytest.mark.parametrize("name, margin", [
    (DISH_MODEL_NAME, 0.6),         # the fields above and below in view
    (SECOND_DISH_MODEL_NAME, 0.2),  # the spot classifiers' input: it reads their patches
])
def test_the_order_field_models_match_their_cards(name, margin):
    path = MODELS_DIR / f"{name}.card.json"
    card = load_card(path)
    assert card.labels == ALLOWED[DISH] and card.preprocessing == replace(PREPROCESSING, crop=replace(
        PREPROCESSING.crop, margin=margin))
    assert card.parameters <= 1_000_000
    Classifier.open(path)


def test_the_recogniser_reads_order_fields_with_their_own_models_and_refuses_ones_that_read_otherwise(recogniser):
    assert recogniser.dishes is not None and recogniser.dishes.card.name == DISH_MODEL_NAME
    assert recogniser.second_dishes is not None and recogniser.second_dishes.card.name == SECOND_DISH_MODEL_NAME
    with pytest.raises(RecognitionError, match="order fields"):
        DaLuigiRecogniser(recogniser.classifier, dishes=recogniser.classifier)  # every label, not the group's
    with pytest.raises(RecognitionError, match="order fields"):
        DaLuigiRecogniser(recogniser.classifier, dishes=recogniser.dishes, second_dishes=recogniser.classifier)
    with pytest.raises(RecognitionError, match="only beside a first"):
        DaLuigiRecogniser(recogniser.classifier, second_dishes=recogniser.second_dishes)


class Counting:
    """A classifier that forwards to ``model`` and notes how many spots each call reads."""

    def __init__(self, model: Classifier):
        self.model, self.card, self.labels, self.calls = model, model.card, model.labels, []

    def predict(self, tensor):
        self.calls.append(len(tensor))
        return self.model.predict(tensor)


def test_the_second_order_field_model_is_asked_only_where_the_first_is_unsure(recogniser, shots):
    first, second = Counting(recogniser.dishes), Counting(recogniser.second_dishes)
    both = DaLuigiRecogniser(recogniser.classifier, second=recogniser.second, dishes=first, second_dishes=second,
                             cover_map=recogniser.cover_map)
    for s in shots[:5]:
        try:
            assert both.read(s.image).observation == recogniser.read(s.image).observation
        except RecognitionError:
            continue
    assert second.calls and all(0 < n for n in second.calls)
    assert sum(second.calls) < sum(first.calls) / 3  # the unsure fields only, a few of each image's


@pytest.fixture(scope="module")
def shots():
    """The fresh renders, made by the benchmark's two render workers."""
    return list(_shots(list(range(CI_SEED, CI_SEED + CI_SCENES))))


@pytest.fixture(scope="module")
def readings(recogniser, shots):
    """Each shot with its reading (None where the recogniser refused it: markers covered)."""
    out = []
    for shot in shots:
        try:
            out.append((shot, recogniser.read(shot.image)))
        except RecognitionError:
            out.append((shot, None))
    return out


@pytest.fixture(scope="module")
def measured(readings):
    tally: Counter = Counter()
    for shot, got in readings:
        tally += score(shot, None if got is None else {it.where: it.label for it in got.observation.items})
    return {f.name.split(": ")[1]: f.value for f in figures(tally, [0.0], CI_SCENES, CI_SEED)}


@pytest.fixture(scope="module")
def shot(readings):
    """The first shot that is read."""
    return next(s for s, got in readings if got is not None)


@pytest.mark.parametrize("figure, bound, higher", [
    # the strict figures (a partly covered place left unknown counts against the reading), as
    # the floors were measured
    ("cube detection recall", RECALL, True),
    ("cube detection precision", PRECISION, True),
    ("cube colour error", COLOUR_ERROR, False),
    ("guest card error", CARD_ERROR, False),
    ("scenes read exactly right", EXACT, True),
])
def test_keeps_its_accuracy_on_fresh_renders(measured, figure, bound, higher):
    strict = {"cube detection recall": "cube detection recall, strict (cubes on partly covered places left unknown "
                                       "count as missed)",
              "guest card error": "guest card error, strict"}
    value = measured[strict.get(figure, figure)]
    assert (value >= bound) if higher else (value <= bound), \
        f"{figure}: {value:.3f} % (floor {bound} %, the issue's target {TARGETS[figure]} %)"


def test_a_partly_covered_place_left_unknown_counts_only_in_the_strict_figures(shots):
    def partly_cubes(s, where: str, truth: str) -> bool:  # cubes on a place partly covered
        return where not in s.whole and truth not in ("?", "") and where.startswith(("market:", "supply:"))

    shot = next(s for s in shots if any(partly_cubes(s, w, t) for w, t in s.truth.items()))
    where = next(w for w, t in shot.truth.items() if partly_cubes(shot, w, t))
    perfect = dict(shot.truth)
    assert score(shot, perfect)["exact"] == score(shot, perfect)["exact strict"] == 1
    tally = score(shot, {**perfect, where: "?"})
    assert tally["exact"] == 1 and tally["exact strict"] == 0 and tally["cubes partly"] > 0
    tally = score(shot, {**perfect, where: perfect[where] + ",red"})  # read wrong: scored as any place
    assert tally["exact"] == 0


def test_rows_classified_past_their_first_places_only_where_needed_read_the_same(recogniser, readings,
                                                                             monkeypatch):
    """A supply's later places, classified only where the first ones hold no blank
    (ROW_HEADS), give the readings that classifying every place gives."""
    import tableref.vision.recognise.daluigi as module

    for shot, got in readings[:6]:
        if got is None:
            continue
        monkeypatch.setattr(module, "ROW_HEADS", {})  # every place at once
        every = recogniser.read(shot.image).observation
        monkeypatch.setattr(module, "ROW_HEADS", {"supply": 1})  # most rows in two batches
        two = recogniser.read(shot.image).observation
        # the same places and labels; a confidence may differ in its last bits, the model's
        # arithmetic depending on the batch a spot is read in (on some CPUs)
        for items in (two.items, every.items):
            assert [(i.where, i.label) for i in items] == [(i.where, i.label) for i in got.observation.items]
            assert [i.confidence for i in items] == pytest.approx([i.confidence for i in got.observation.items],
                                                                 abs=1e-9)


def test_the_order_field_model_reads_the_guest_cards_alone(recogniser, readings):
    """Without the order-field model the same photographs read the same everywhere but on the
    guest cards (their order fields tell which card lies there, too), and there not always."""
    plain = DaLuigiRecogniser(recogniser.classifier, recogniser.zones, second=recogniser.second,
                              cover_map=recogniser.cover_map)
    changed = Counter()
    for shot, got in readings:
        if got is None:
            continue
        mine = {it.where: it.label for it in got.observation.items}
        other = {it.where: it.label for it in plain.read(shot.image).observation.items}
        for where in mine.keys() | other.keys():  # an order is given where a card (or unknown) is read
            changed[where.split(":")[0]] += mine.get(where) != other.get(where)
    assert changed["order"] > 0
    assert not +Counter({kind: n for kind, n in changed.items() if kind not in ("order", "slot", "revealed")})


def test_reading_gives_every_place_of_the_rules_observation(readings):
    for shot, got in readings:
        if got is None:
            continue
        places = {it.where for it in got.observation.items}
        # an order is read where a card is read or the slot is unknown
        assert {w for w in shot.truth if not w.startswith("order:")} <= places
        assert set(got.places_px) == places


@pytest.mark.parametrize("players, error", [(None, None), (5, RecognitionError)])
def test_players_given(recogniser, shot, players, error):
    if error is None:
        assert recogniser.read(shot.image, players=players).players >= 2
    else:
        with pytest.raises(error):
            recogniser.read(shot.image, players=players)


def _cover_far_markers(image: np.ndarray, axis: int) -> tuple[np.ndarray, list[int]]:
    """``image`` with the table markers on the far half along ``axis`` (0: right, 1: bottom)
    painted over (:func:`cover_markers`), and the ids left showing."""
    view = locate_daluigi(image)
    layout = view.calibration.layout
    far = [i for i in layout.ids if layout.placement(i).corners_mm.mean(axis=0)[axis] > view.table_mm[axis] / 2]
    return cover_markers(image, far), [i for i in layout.ids if i not in far]


@pytest.mark.parametrize("seed, axis", [
    (3_100_004, 0),  # a table for two (680 mm wide): the two left markers do not measure its width
    (3_100_004, 1),
    (3_100_000, 0),  # a table for three or four (900 mm wide)
])
def test_two_markers_along_one_edge_locate_the_table_and_its_size(recogniser, readings, seed, axis):
    shot, whole = next((s, got) for s, got in readings if s.seed == seed)
    assert whole is not None and len(whole.markers_used) == 4
    image, kept = _cover_far_markers(shot.image, axis)
    got = recogniser.read(image)
    assert got.markers_used == tuple(kept) and len(kept) == 2
    assert got.table_mm == whole.table_mm  # the size whose strips show best, not the largest
    before = {it.where: it.label for it in whole.observation.items}
    same = sum(before.get(it.where) == it.label for it in got.observation.items)
    assert same >= 0.95 * len(before)


def test_an_enrolment_photograph_with_markers_along_one_edge_is_refused(readings):
    shot = next(s for s, got in readings if s.seed == 3_100_004)
    image, _ = _cover_far_markers(shot.image, 0)
    state = sample("daluigi", shot.seed).scene.state
    with pytest.raises(RecognitionError, match="both sides of the table"):
        enrolment_photo("covered.png", image, state)
    assert len(enrolment_photo("whole.png", shot.image, state).labels) > 100


@pytest.mark.parametrize("image, error", [
    (np.full((720, 1280, 3), 128, np.uint8), RecognitionError),
    (np.random.default_rng(0).integers(0, 255, (720, 1280, 3), dtype=np.uint8), RecognitionError),
])
def test_bad_images_are_refused(recogniser, image, error):
    with pytest.raises(error):
        recogniser.read(image)


def test_live_recogniser_draws_flags(recogniser, shot):
    live = LiveDaLuigi(recogniser)
    assert isinstance(live, Recogniser)
    observation = live.recognise(shot.image, None)
    flag = Violation(code="daluigi.market_overfull", player=None, pieces=("field:0",), sentence="x", rule="r")
    plain = live.annotate(shot.image, observation, [])
    flagged = live.annotate(shot.image, observation, [flag])
    assert plain.shape == shot.image.shape and plain.dtype == np.uint8
    assert not np.array_equal(plain, shot.image)
    assert not np.array_equal(plain, flagged)


def _place(covered: int, unknown: float = 0.95) -> list[np.ndarray]:
    """A guest place's spot rows (dish fields, marks), all blank but for ``covered`` spots read
    covered at ``unknown`` (the rest of each covered row a hair more blank than anything else)."""
    rows = []
    for k, group in enumerate(CARD_GROUPS):
        row = np.full(len(ALLOWED[group]), 1e-6)
        if k < covered:
            row[-1], row[-2] = unknown, 1.0 - unknown
        else:
            row[-2] = 1.0
        rows.append(row / row.sum())
    return rows


@pytest.mark.parametrize("covered, label", [
    (0, ""),      # every spot shows blank: no card
    (2, ""),      # five spots show, all blank: no card
    (3, None),    # four show: too little to tell a card from none (as a card's reading asks 5)
    (7, None),    # wholly under a hand, though each covered spot is a hair more blank than a card
])
def test_a_guest_place_with_too_little_showing_is_unknown(recogniser, covered, label):
    card, cubes = recogniser._card(_place(covered))
    assert card.label == label and cubes.label is None


@pytest.mark.parametrize("adapted, second", [
    ((MODEL_NAME,), False),                    # an enrolment of before the second model: the first alone
    ((MODEL_NAME, SECOND_MODEL_NAME), True),   # both adapted: both asked
])
def test_the_second_model_is_asked_only_beside_the_first(tmp_path, adapted, second):
    for name in adapted:
        shutil.copy(MODELS_DIR / f"{name}.card.json", tmp_path)
        shutil.copy(MODELS_DIR / load_card(MODELS_DIR / f"{name}.card.json").file, tmp_path)
    recogniser = DaLuigiRecogniser.open(profile=Profile(models=tmp_path))
    assert recogniser.classifier.card.name == MODEL_NAME
    assert (recogniser.second is not None) == second
    assert recogniser.dishes is None  # not beside them: the spot classifiers read the order fields


@pytest.mark.parametrize("seed", [2_000_561, 2_000_726])
def test_a_blurred_photograph_is_read_with_its_blur_undone(recogniser, monkeypatch, seed):
    """Validation renders with the twin's motion blur (about 6 px): the blur is measured on the
    markers, reported, and undone before reading; so each reads exactly right, and not without
    (2000561, 2000726). 2000612, the case beside 2000726 with the order-field models before
    2026-12-07 evening, is not read exactly either way with those of that evening (of the 15
    renders of 2000450..2000749 with a blur of 5.8 px or more read exactly, these two alone are
    read wrong without undoing it)."""
    import tableref.vision.recognise.daluigi as module

    shot = next(_shots([seed]))
    got = recogniser.read(shot.image)
    assert got.motion_blur is not None and got.motion_blur.moving and got.to_json()["motion_blur"]["undone"]
    assert score(shot, {it.where: it.label for it in got.observation.items})["exact"] == 1
    monkeypatch.setattr(module, "DEBLUR_FROM_PX", float("inf"))
    plain = recogniser.read(shot.image)
    assert not plain.to_json()["motion_blur"]["undone"]
    assert score(shot, {it.where: it.label for it in plain.observation.items})["exact"] == 0


def test_a_short_blur_is_reported_and_left_as_it_is(recogniser, monkeypatch):
    """Validation render 2000460, the twin's 3 px blur: measured and reported, not undone (the
    image the spots are cut from is the photograph itself)."""
    import tableref.vision.recognise.daluigi as module

    shot = next(_shots([2_000_460]))
    cut_from = []
    real = module.Spots.__init__

    def spots(self, classifier, image, *args, **kwargs):
        cut_from.append(image)
        real(self, classifier, image, *args, **kwargs)

    monkeypatch.setattr(module.Spots, "__init__", spots)
    got = recogniser.read(shot.image)
    blur = got.to_json()["motion_blur"]
    assert got.motion_blur.moving and got.motion_blur.length_px < module.DEBLUR_FROM_PX and not blur["undone"]
    assert all(image is shot.image for image in cut_from)
