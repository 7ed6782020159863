"""Verdicts turned into events: moves, flags, round ends and the game's end, with summaries."""

from __future__ import annotations

import pytest

from tableref.gamelog import PlayerInfo
from tableref.live.judge import describe_move, milestones, reading_events, rounds_done
from tableref.rules import game
from tableref.rules.playout import random_playout

PLAYERS = (PlayerInfo("Ann", "#ff0000"), PlayerInfo("Bob", "#0000ff"))


def _steps(name, seed=2):
    rules = game(name)
    steps = []
    random_playout(rules, 2, seed, on_move=lambda before, move, after: steps.append((before, move, after)))
    return rules, steps


@pytest.mark.parametrize("name", ["dolcevita", "ligretto"])
def test_round_and_game_ends_are_found(name):
    rules, steps = _steps(name)
    kinds = [[d.kind for d in milestones(rules, before, after)] for before, _, after in steps]
    assert kinds[-1] == ["game_end"]
    assert sum(k == ["round_end"] for k in kinds) >= 1
    assert all(k in ([], ["round_end"]) for k in kinds[:-1])


def test_a_legal_move_is_accepted_with_its_player():
    rules, steps = _steps("dolcevita")
    before, move, after = steps[0]
    verdict = rules.referee(before, rules.observe(after))
    drafts = reading_events(rules, before, verdict, PLAYERS, lambda flags: None)
    assert [d.kind for d in drafts] == ["move_accepted"]
    assert drafts[0].player == move.player and drafts[0].summary.startswith(PLAYERS[move.player].name)
    assert drafts[0].state == after.to_json() and drafts[0].data["score"]["names"] == ["Ann", "Bob"]


def test_no_change_gives_no_event():
    rules, steps = _steps("dolcevita")
    state = steps[0][0]
    assert reading_events(rules, state, rules.referee(state, rules.observe(state)), PLAYERS, lambda f: None) == []


@pytest.mark.parametrize("state,expected", [
    ({"results": [[1, 2], [3, 4]], "round": 3}, 2),
    ({"round": 4}, 3),
    ({"turn": 9}, None),
])
def test_rounds_done(state, expected):
    assert rounds_done(state) == expected


@pytest.mark.parametrize("move,expected", [
    ({"type": "place", "player": 0, "value": 3, "column": 2}, "place value=3 column=2"),
    ({"type": "resolve"}, "resolve"),
    ({}, "move"),
])
def test_describe_move(move, expected):
    assert describe_move(move) == expected
