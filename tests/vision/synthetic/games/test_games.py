"""Game scenes: deterministic samples, perfect observations, and ground truth on the pixels."""

from __future__ import annotations

import json

import pytest

from tableref.vision.synthetic import CLEAN, LayoutError, render
from tableref.vision.synthetic.dataset import render_sample, sample
from tableref.vision.synthetic.games import GAMES, random_state, rules_of, scene_for
from tableref.vision.synthetic.games.checks import (CARD_KINDS, card_alone_mask, check_ground_truth, iou,
                                                    marker_errors, polygon_mask)

#: (game, seed) pairs: seeds chosen to cover several phases and player counts.
SAMPLES = [(game, seed) for game in ("dolcevita", "ligretto") for seed in (1, 2, 3)]  # Da Luigi: test_daluigi_scene.py


@pytest.fixture(scope="module")
def samples():
    return {(g, s): sample(g, s) for g, s in SAMPLES}


@pytest.mark.parametrize("game", GAMES)
def test_same_seed_same_bytes(game):
    a, b = sample(game, 11), sample(game, 11)
    assert a.jpeg == b.jpeg
    assert json.dumps(a.labels()) == json.dumps(b.labels())
    assert sample(game, 12).jpeg != a.jpeg


def _dv_pairs(expected, seen):
    assert len(expected.items) == len(seen.items)
    return [((e.where, e.label), (s.where, s.label), s.confidence) for e, s in zip(expected.items, seen.items)]


@pytest.mark.parametrize("game, seed", SAMPLES)
def test_perfect_observation_is_observe_where_visible_and_unknown_elsewhere(samples, game, seed):
    smp = samples[(game, seed)]
    rules = rules_of(game)
    expected = rules.observe(smp.scene.state)
    seen = smp.observation
    assert rules.observation_from_json(seen.to_json()) == seen
    hidden = 0
    if game == "dolcevita":
        for (where, label), (s_where, s_label), conf in _dv_pairs(expected, seen):
            assert s_where == where
            if s_label == "unknown":
                hidden += 1
                assert conf == 0.0
            else:
                assert (s_label, conf) == (label, 1.0)
    else:
        assert [c.cell for c in seen.cells] == [c.cell for c in expected.cells]
        for e, s in zip(expected.cells, seen.cells):
            if s.cover is None:
                hidden += 1
                assert (s.owner, s.colour, s.token) == (None, None, None)
            else:
                assert s.expected() == e.expected() and s.confidence == 1.0
                assert s.token in (e.token, None)
        for e, s in zip(expected.players, seen.players):
            assert s.hand in (e.hand, None) and s.board in (e.board, None)
    visible_parts = [o for o in smp.render.truth.objects if o.ident and smp.seen.part(o.ident)]
    assert visible_parts and hidden <= len(smp.scene.layout.components) + len(smp.scene.regions)


@pytest.mark.parametrize("game", GAMES)
def test_everything_is_seen_without_hands_or_distractors(game):
    state = random_state(game, 5)
    scene = scene_for(game, state)
    result = render(scene.layout, 5, CLEAN)
    from tableref.vision.synthetic.games import perfect_observation
    assert perfect_observation(scene, result) == rules_of(game).observe(state)


@pytest.mark.parametrize("game, seed", SAMPLES)
def test_card_polygons_cover_their_cards(samples, game, seed):
    smp = samples[(game, seed)]
    truth = smp.render.truth
    cards = [o for o in truth.objects if o.kind in CARD_KINDS and o.in_frame][:4]
    assert cards
    for o in cards:
        mask = card_alone_mask(smp.scene.layout, o.index, seed, truth.camera)
        assert iou(polygon_mask(mask.shape, o.polygon_px), mask) >= 0.95, o.ident


#: Dolce Vita 34 and 39: far markers ~24 px wide and sheared, where the detector's corners were
#: once ~2 px off (its edge profiles ran past the black border into the code cells).
MARKER_SAMPLES = [(game, seed) for game in GAMES for seed in (1, 2)] + [("dolcevita", 34), ("dolcevita", 39)]


@pytest.mark.parametrize("game, seed", MARKER_SAMPLES)
def test_marker_corners_match_the_detector_on_clean_renders(game, seed):
    result = render(scene_for(game, random_state(game, seed)).layout, seed, CLEAN)  # the dataset's scene
    errors, missed, excluded = marker_errors(result.image, result.truth)
    assert (missed, excluded) == (0, 0)
    assert len(errors) == 16 and max(errors) <= 1.0, max(errors)


def test_check_ground_truth_reports_figures():
    figures = check_ground_truth("ligretto", 2, 3).to_json()
    assert figures["renders"] == 2 and figures["cards"] == 6
    assert figures["card_iou_min"] >= 0.95 and figures["marker_error_max_px"] <= 1.0
    assert figures["markers_missed"] == 0 and figures["marker_corners"] + 4 * figures["markers_excluded"] == 32
    assert figures["cube_colour_match"] is None and figures["cubes"] == 0


@pytest.mark.parametrize("game, seed, message", [
    ("chess", 0, "unknown game"),
    ("ligretto", -1, "seed must be a whole number"),
    ("dolcevita", 1.5, "seed must be a whole number"),
])
def test_bad_sample_requests_raise(game, seed, message):
    with pytest.raises(LayoutError, match=message):
        render_sample(game, seed)


def test_labels_are_json_with_state_observation_polygons_and_camera(samples):
    image, labels = render_sample("dolcevita", 1)
    assert image.shape == (720, 1280, 3)
    assert json.loads(json.dumps(labels)) == labels
    assert {"state", "observation", "camera", "markers", "objects", "regions", "seed"} <= set(labels)
    assert labels["state"] == samples[("dolcevita", 1)].scene.state.to_json()
    part = next(o for o in labels["objects"] if o["ident"].startswith("dv.slot"))
    assert len(part["polygon_px"]) == 4 and len(part["polygon_mm"]) == 4 and "seen" in part
