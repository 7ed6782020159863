"""The demo source: frames through open_source, determinism, and its ground-truth timeline."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from tableref.vision.capture import open_source, registered_sources
from tableref.vision.errors import SourceError
from tableref.vision.synthetic.demo import DemoReader, demo_timeline, parse_demo
from tableref.rules.daluigi import Move as DaLuigiMove
from tableref.rules.dolcevita.state import Place as DolceVitaPlace
from tableref.vision.synthetic.demo_illegal import is_placement
from tableref.vision.synthetic.demo_motion import StepMotion
from tableref.vision.synthetic.demo_script import HAND_PHASES, PHASES, DemoSettings, Timeline
from tableref.vision.synthetic.games import GAMES, rules_of

#: Seconds to wait for a frame from a source (the first one draws camera, table and textures).
PATIENCE_S = 30.0
#: Games whose demo makes illegal placements.
ILLEGAL_GAMES = ("dolcevita", "ligretto", "daluigi")
#: Games searched for an illegal placement of a given kind before giving up.
GAMES_TO_SEARCH = 20


def test_importing_capture_does_not_load_the_renderer_but_knows_the_demo():
    code = ("import sys, tableref.vision.capture as c; "
            "print('demo' in c.registered_sources(), 'tableref.vision.synthetic.scene' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["True", "False"]
    assert "demo" in registered_sources()


def test_open_source_demo_yields_1280x720_bgr_frames():
    with open_source("demo:seed=2", every_frame=True) as source:
        frames = [source.read(PATIENCE_S) for _ in range(3)]
    assert [f.sequence for f in frames] == [0, 1, 2]
    for f in frames:
        assert f.image.shape == (720, 1280, 3) and f.image.dtype == np.uint8
        assert f.source == f"demo {DemoSettings().game}"
    assert not np.array_equal(frames[0].image, frames[1].image)  # sensor noise, a hand moving


@pytest.mark.parametrize(("game", "frames"), [("dolcevita", (0, 30, 31, 100)), ("ligretto", (0, 45))])
def test_same_seed_same_frames_other_seed_other_frames(game, frames):
    def film(seed):
        reader = DemoReader(parse_demo(f"{game},seed={seed},size=320x180"))
        reader.open()
        return [reader.render(f) for f in frames]

    first, again, other = film(5), film(5), film(6)
    for a, b, c in zip(first, again, other):
        assert a.shape == (180, 320, 3)
        assert np.array_equal(a, b)
        assert not np.array_equal(a, c)


@pytest.mark.parametrize(("argument", "expected", "error"), [
    ("", {"seed": 0, "illegal_rate": 0.1, "fps": 30.0, "image_size": (1280, 720), "loop": True}, None),
    ("ligretto", {"game": "ligretto", "players": 3}, None),
    ("game=dolcevita, players=2, seed=9, illegal=0.25, fps=15, size=640x360, loop=no",
     {"game": "dolcevita", "players": 2, "seed": 9, "illegal_rate": 0.25, "fps": 15.0, "image_size": (640, 360),
      "loop": False}, None),
    ("chess", None, "the demo plays one of"),
    ("dolcevita,players=9", None, "played by 2 to 5 players"),
    ("dolcevita,illegal=2", None, "share between 0 and 1"),
    ("dolcevita,illegal=lots", None, "must be a number"),
    ("dolcevita,size=1280", None, "WIDTHxHEIGHT"),
    ("dolcevita,speed=3", None, "unknown demo setting 'speed'"),
    ("dolcevita,ligretto", None, "needs a value"),
    ("seed=1,seed=2", None, "given twice"),
    ("seed=-1", None, "whole number >= 0"),
    ("fps=0", None, "demo fps"),
    ("loop=maybe", None, "true or false"),
])
def test_demo_specs(argument, expected, error):
    if error:
        with pytest.raises(SourceError, match=error):
            parse_demo(argument)
        return
    settings = parse_demo(argument)
    for name, value in expected.items():
        assert getattr(settings, name) == value


@pytest.mark.parametrize("game", GAMES)
def test_the_demo_plays_whole_games_to_the_end_and_loops(game):
    timeline = Timeline(DemoSettings(game=game, seed=1))
    steps = timeline.through_game(0)
    rules = rules_of(game)
    assert steps[-1].move is None and rules.is_over(steps[-1].after)
    assert sum(1 for s in steps if s.move is not None) > 10
    for a, b in zip(steps, steps[1:]):
        assert b.before is a.after and b.start == a.end
    after_end = timeline.truth(steps[-1].end)
    assert after_end.game == 1 and after_end.move is None
    assert not rules.is_over(after_end.state)


@pytest.mark.parametrize("game", GAMES)
def test_every_game_opens_with_its_set_up_table_held_still(game):
    settings = DemoSettings(game=game, seed=4, fps=10.0)
    timeline = Timeline(settings)
    end = timeline.through_game(0)[-1].end
    held = round(settings.timing.game_start_s * settings.fps)
    for start in (0, end):
        first_move = timeline.step_at(start + held)
        assert first_move.move is not None and first_move.start == start + held
        for frame in (start, start + held - 1):
            truth = timeline.truth(frame)
            assert truth.move is None and not truth.hand and truth.state is first_move.before
    assert timeline.truth(end).game == 1


def test_a_demo_that_does_not_loop_ends():
    settings = parse_demo("dolcevita,seed=2,loop=false")
    timeline = Timeline(settings)
    last = timeline.through_game(0)[-1]
    assert timeline.truth(last.end - 1).state is last.after
    assert timeline.step_at(last.end) is None and timeline.truth(last.end + 100) is None
    reader = DemoReader(settings)
    reader.open()
    assert reader.render(last.end) is None


@pytest.mark.parametrize(("game", "rate", "placements"), [
    ("dolcevita", 0.1, 600), ("dolcevita", 0.3, 400), ("ligretto", 0.1, 600), ("dolcevita", 0.0, 200),
    ("daluigi", 0.1, 600), ("daluigi", 0.3, 400), ("daluigi", 0.0, 200),
])
def test_illegal_placements_come_at_about_the_chosen_rate(game, rate, placements):
    timeline = Timeline(DemoSettings(game=game, seed=4, illegal_rate=rate))
    number = 0
    while timeline.placements()[1] < placements:
        timeline.through_game(number)
        number += 1
    illegal, total = timeline.placements()
    assert abs(illegal / total - rate) <= max(0.03, 2.5 * (rate * (1 - rate) / total) ** 0.5)


@pytest.mark.parametrize("game", ILLEGAL_GAMES)
def test_illegal_placements_are_in_the_truth_and_the_referee_flags_them(game):
    timeline = Timeline(DemoSettings(game=game, seed=6, illegal_rate=0.3))
    rules = rules_of(game)
    steps = [s for s in timeline.through_game(0) if s.illegal is not None][:4]
    assert steps
    for step in steps:
        before, after = timeline.truth(step.switch - 1), timeline.truth(step.switch)
        assert before.illegal is None or before.move is not step.move
        assert after.move is step.move and after.illegal == step.illegal.code
        assert after.player == step.illegal.player and after.state is step.after
        verdict = rules.referee(step.before, rules.observe(step.after))
        assert step.illegal.code in {v.code for v in verdict.violations}


def _illegal_steps(game, players, seed, kind, count):
    """The first ``count`` illegal steps of ``kind`` in the demo's games (rate 0.3)."""
    timeline = Timeline(DemoSettings(game=game, players=players, seed=seed, illegal_rate=0.3))
    found = []
    for number in range(GAMES_TO_SEARCH):
        found += [s for s in timeline.through_game(number) if s.illegal is not None and s.illegal.kind == kind]
        if len(found) >= count:
            return found[:count]
    raise AssertionError(f"fewer than {count} illegal {kind} placements in {GAMES_TO_SEARCH} games of {game}")


@pytest.mark.parametrize(("kind", "players", "seed", "code"), [
    ("unpaid", 3, 1, "daluigi.unpaid"),
    ("unpaid", 2, 2, "daluigi.unpaid"),
    ("two_fields", 3, 1, "daluigi.one_field"),
    ("two_fields", 4, 3, "daluigi.one_field"),
    ("jumped", 3, 1, "daluigi.field_not_free"),
    ("jumped", 4, 3, "daluigi.field_not_free"),
])
def test_daluigi_illegal_shopping_is_flagged_with_its_code_and_player(kind, players, seed, code):
    rules = rules_of("daluigi")
    for step in _illegal_steps("daluigi", players, seed, kind, 2):
        player = step.before.active
        assert step.illegal.code == code and step.illegal.player == player == step.player
        assert step.move.type == "shop" and step.after is not step.before
        verdict = rules.referee(step.before, rules.observe(step.after))
        assert not verdict.explanations
        assert (code, player) in {(v.code, v.player) for v in verdict.violations}


@pytest.mark.parametrize(("game", "move", "expected"), [
    ("daluigi", DaLuigiMove("shop", 0, field=4, pushes=("G1",)), True),
    ("daluigi", DaLuigiMove("welcome", 1), True),
    ("daluigi", DaLuigiMove("pass", 2), True),
    ("daluigi", DaLuigiMove("serve", 0, place=(("G1", "red"),)), False),
    ("daluigi", DaLuigiMove("give", 0, to=1), False),
    ("daluigi", DaLuigiMove("cube", -1, colour="red"), False),
    ("dolcevita", DolceVitaPlace(0, 3, 1), True),
    ("dolcevita", DaLuigiMove("shop", 0, field=4), False),
    ("ligretto", DolceVitaPlace(0, 3, 1), False),
])
def test_what_the_illegal_rate_counts(game, move, expected):
    assert is_placement(game, move) is expected


@pytest.mark.parametrize("game", GAMES)
def test_hands_are_over_the_table_during_moves_and_gone_while_settled(game):
    timeline = Timeline(DemoSettings(game=game, seed=3, fps=10))
    shown = [s for s in timeline.through_game(0) if s.length][:6]
    for step in shown:
        motion = StepMotion(game, step)
        for frame in range(step.start, step.end):
            truth = timeline.truth(frame)
            plan = motion.plan(frame)
            assert truth.hand == (truth.phase in HAND_PHASES) == bool(plan.arms)
            assert truth.state is (step.after if frame >= step.switch and step.move is not None else step.before)
        if step.move is not None:
            phases = [timeline.truth(f).phase for f in range(step.start, step.end)]
            assert sorted(set(phases), key=PHASES.index) == list(PHASES) and phases[-1] == "settle"


def test_the_truth_of_a_spec_matches_the_source_frame_by_frame():
    timeline = demo_timeline("dolcevita,seed=7")
    reader = DemoReader(parse_demo("dolcevita,seed=7"))
    assert [timeline.truth(f).state.to_json() for f in (0, 200, 400)] == \
        [reader.timeline.truth(f).state.to_json() for f in (0, 200, 400)]
