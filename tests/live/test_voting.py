"""Voting over settled frames: a table of readings and the observation that wins."""

from __future__ import annotations

import pytest

from tableref.input import InputError
from tableref.live.voting import VoteSettings, observation_key, vote
from tableref.rules import game

RULES = game("dolcevita")
STATE = RULES.new_game(2, None, 1)
A = RULES.observe(STATE)
B = RULES.observation_from_json({**A.to_json(), "items": A.to_json()["items"][:-1]})  # one card unseen
C = RULES.observation_from_json({**A.to_json(), "items": A.to_json()["items"][:-2]})  # two cards unseen


def _doubtful(observation):
    data = observation.to_json()
    data["items"] = [{**item, "confidence": 0.6} for item in data["items"]]
    return RULES.observation_from_json(data)


SETTINGS = VoteSettings(frames=3, quorum=2, max_frames=5)

CASES = [
    ("too few frames", [A, A], None),
    ("unanimous", [A, A, A], ("A", 3)),
    ("two of three", [A, B, A], ("A", 2)),
    ("confidence is ignored", [A, _doubtful(A), B], ("A", 2)),
    ("no quorum yet", [A, B, C], None),
    ("no quorum at the end: largest group, latest on ties", [A, B, A, B, B], ("B", 3)),
]


@pytest.mark.parametrize("name,readings,expected", CASES, ids=[c[0] for c in CASES])
def test_vote(name, readings, expected):
    result = vote(readings, SETTINGS)
    if expected is None:
        assert result is None
        return
    label, agree = expected
    assert observation_key(result.observation) == observation_key({"A": A, "B": B}[label])
    assert (result.agree, result.total) == (agree, len(readings))


def test_no_quorum_keeps_reading_until_max():
    settings = VoteSettings(frames=2, quorum=2, max_frames=3)
    assert vote([A, B], settings) is None
    assert vote([A, B, A], settings).agree == 2


@pytest.mark.parametrize("values,message", [
    ({"frames": 0}, "frames"),
    ({"quorum": 4, "frames": 3}, "quorum <= frames"),
    ({"max_frames": 2, "frames": 3}, "quorum <= frames"),
])
def test_bad_settings(values, message):
    with pytest.raises(InputError, match=message):
        VoteSettings(**values)
