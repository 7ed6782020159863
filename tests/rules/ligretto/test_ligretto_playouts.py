"""Random games with every invariant checked after every move."""

from __future__ import annotations

import json
import random

import pytest

from tableref.rules import ligretto as L
from tableref.rules.ligretto.state import check_conservation

#: (players, games, rounds): a few hundred games in all, mostly one round to stay fast.
PLAN = [(2, 100, 1), (3, 70, 1), (4, 50, 1), (2, 3, 3), (3, 2, 3), (4, 2, 3)]


def _cases():
    for players, games, rounds in PLAN:
        for seed in range(games):
            yield pytest.param(players, seed, rounds, id=f"{players}p-r{rounds}-s{seed}")


@pytest.mark.parametrize("players,seed,rounds", list(_cases()))
def test_random_game_keeps_invariants(players, seed, rounds):
    rng = random.Random(seed)
    state = L.new_game(players, {"rounds": rounds})
    while not L.is_over(state):
        moves = L.legal_moves(state)
        assert moves, "a game that is not over always has a move"
        move = rng.choice(moves)
        before = json.dumps(state.to_json(), sort_keys=True)
        after = L.apply(state, move)
        assert json.dumps(state.to_json(), sort_keys=True) == before           # apply never mutates
        assert L.state_from_json(json.loads(json.dumps(after.to_json()))) == after
        assert L.move_from_json(json.loads(json.dumps(move.to_json()))) == move
        check_conservation(after)                                             # each card in one place
        L.score(after)                                                        # parts add up (Score checks)
        if rng.random() < 0.02:
            for other in moves:
                L.apply(state, other)
        state = after
    assert L.legal_moves(state) == []
    final = L.score(state)
    assert final.final and final.winners and len(state.results) == rounds
