"""Every game exposes the same surface, and random legal games keep the common invariants.

The per-game folders test each game's own rules in depth; this file checks what all three
promise alike, through the common surface only.
"""

from __future__ import annotations

import json
import random

import pytest

from tableref.rules import GAMES, game
from tableref.rules.common import ANYONE, CHANCE, Score, Verdict
from tableref.rules.playout import random_playout

SURFACE = ("NAME", "MIN_PLAYERS", "MAX_PLAYERS", "DEFAULT_OPTIONS", "REASONS", "new_game", "legal_moves",
           "apply", "sample_chance", "violations", "score", "is_over", "referee", "observe",
           "state_from_json", "move_from_json", "observation_from_json")

#: Games per player count played here with every invariant checked after every move.
GAMES_PER_COUNT = 3


@pytest.mark.parametrize("name", sorted(GAMES))
def test_surface_is_complete(name):
    rules = game(name)
    missing = [attr for attr in SURFACE if not hasattr(rules, attr)]
    assert not missing, f"{name} lacks {missing}"
    assert rules.NAME == name
    assert all(code.startswith(f"{name}.") for code in rules.REASONS)


def _roundtrip(rules, state):
    return rules.state_from_json(json.loads(json.dumps(state.to_json())))


def _cases():
    for name in sorted(GAMES):
        rules = game(name)
        for players in range(rules.MIN_PLAYERS, rules.MAX_PLAYERS + 1):
            for seed in range(GAMES_PER_COUNT):
                yield pytest.param(name, players, seed, id=f"{name}-{players}p-seed{seed}")


@pytest.mark.parametrize("name,players,seed", list(_cases()))
def test_random_game_keeps_invariants(name, players, seed):
    rules = game(name)
    rng = random.Random(seed)

    def check(before, move, after):
        before_json = json.dumps(before.to_json(), sort_keys=True)
        assert _roundtrip(rules, after) == after
        assert rules.move_from_json(json.loads(json.dumps(move.to_json()))) == move
        assert after.to_move in (CHANCE, ANYONE) or 0 <= after.to_move < players
        assert isinstance(rules.score(after), Score)  # Score checks that the parts add up
        # apply never changes its input, and the same move gives the same state again
        assert rules.apply(before, move) == after
        assert json.dumps(before.to_json(), sort_keys=True) == before_json
        if rng.random() < 0.05 and before.to_move != CHANCE:
            for other in rules.legal_moves(before):
                rules.apply(before, other)  # every listed move is accepted

    record = random_playout(rules, players, seed, on_move=check)
    assert rules.is_over(record.final)
    assert list(rules.legal_moves(record.final)) == []
    final = rules.score(record.final)
    assert final.final and final.winners


@pytest.mark.parametrize("name", sorted(GAMES))
def test_referee_sees_no_change_as_no_move(name):
    rules = game(name)
    state = rules.new_game(rules.MIN_PLAYERS, None, 7)
    verdict = rules.referee(state, rules.observe(state))
    assert isinstance(verdict, Verdict)
    assert verdict.legal and verdict.moves == ()
    assert json.loads(json.dumps(verdict.to_json()))["legal"] is True


@pytest.mark.parametrize("name", sorted(GAMES))
def test_same_seed_same_game(name):
    rules = game(name)
    a = random_playout(rules, rules.MAX_PLAYERS, 11)
    b = random_playout(rules, rules.MAX_PLAYERS, 11)
    assert a.to_json() == b.to_json()
