"""``tableref bench --enrol`` on a few renders: its figures, and the stand-in set read far
better once enrolled (the shipped models, trained on the renders' colours, misread most of it)."""

from __future__ import annotations

import numpy as np
import pytest

from tableref.bench import enrol


def test_other_set_turns_hues_and_keeps_grey():
    image = np.array([[[0, 0, 255], [128, 128, 128]]], np.uint8)  # red, grey (BGR)
    turned = enrol.other_set(image)
    assert turned[0, 0].tolist() != [0, 0, 255] and abs(int(turned[0, 0].max()) - 255) <= 1
    assert turned[0, 1].tolist() == [128, 128, 128]


@pytest.fixture(scope="module")
def dolcevita():
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("tableref.models.training.dolcevita.ANCHOR_RENDERS", 2)
        return {f.name.split(": ", 1)[1]: f for f in enrol.run(scenes=3, seed=3_100_000)}


def test_enrolment_figures_say_what_they_were_measured_on(dolcevita):
    assert "stand-in set" in dolcevita["per-card error, adapted models, stand-in set"].measured_on
    assert all(f.measured_on and np.isfinite(f.value) for f in dolcevita.values())
    held = [f for name, f in dolcevita.items() if "held-out" in name]
    assert len(held) == 4 and all(0 <= f.value <= 100 for f in held)


def test_the_enrolled_models_read_the_stand_in_set_far_better(dolcevita):
    shipped = dolcevita["per-card error, shipped models, stand-in set"].value
    adapted = dolcevita["per-card error, adapted models, stand-in set"].value
    assert shipped > 40 and adapted < shipped / 2


def test_da_luigi_enrolled_reads_the_stand_in_cubes_far_better(tmp_path):
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("tableref.models.training.daluigi.ANCHOR_RENDERS", 2)
        mp.setenv("TABLEREF_CACHE", str(tmp_path))  # the anchor renders' cache
        got = {f.name.split(": ", 1)[1]: f.value for f in enrol.run(scenes=2, seed=3_100_000, game="daluigi")}
    assert got["cube colour error, shipped models, stand-in set"] > 30
    assert got["cube colour error, adapted models, stand-in set"] < got["cube colour error, shipped models, stand-in set"] / 2
    assert got["daluigi-spots spots of the held-out enrolment photograph read right, adapted"] > 90


def test_an_unknown_game_is_named():
    with pytest.raises(ValueError, match="not 'chess'"):
        enrol.run(scenes=1, game="chess")
