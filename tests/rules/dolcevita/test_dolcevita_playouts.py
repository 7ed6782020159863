"""Random legal games at every player count, with every invariant checked after every move."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from tableref.rules import dolcevita as dv
from tableref.rules.common import ANYONE, CHANCE
from tableref.rules.dolcevita.catalogue import NUMBER_VALUES, deck_counter
from tableref.rules.dolcevita.state import DEAL

#: games per player count (2..5): 4 x 40 = 160 games, plus 65 under the option variants below.
GAMES_PER_COUNT = 40
#: option sets played as well, a few games each
VARIANTS = [
    {"trade_in": "place"},
    {"one_of_each_in_round_one": False, "all_tie_turns_column": True},
    {"short_column": "closed", "rounds": 8},
    {"tiebreak": "most_money", "money_low_cards": 0},
    {"two_player_rounds": 2, "money_low_cards": 17},
]


def luxury_cards(state) -> Counter:
    found = Counter(card for column in state.columns for card in column)
    found.update(state.box)
    for p in range(state.players):
        found.update(state.goods[p])
        found.update(f"money:{v}" for v in state.money[p])
    return found


def check_invariants(state, expected_deck: Counter) -> None:
    assert luxury_cards(state) == expected_deck  # every card in exactly one place
    for p in range(state.players):
        cards = sorted(list(state.hands[p]) + [v for under in state.under for q, v in under if q == p])
        assert cards == list(NUMBER_VALUES)
    assert dv.state_from_json(json.loads(json.dumps(state.to_json()))) == state
    result = dv.score(state)
    assert all(sum(part[p] for part in result.parts.values()) == result.totals[p] for p in range(state.players))
    assert state.to_move in (CHANCE, ANYONE) or 0 <= state.to_move < state.players
    if dv.is_over(state):
        assert dv.legal_moves(state) == [] and result.final and result.winners
    if state.opts["one_of_each_in_round_one"]:
        assert dv.violations(state) == []


def play(players: int, seed: int, options: dict | None = None, deal_by_chance: bool = False) -> int:
    rng = random.Random(seed)
    state = dv.new_game(players, options, None if deal_by_chance else seed)
    expected = deck_counter(state.opts["money_low_cards"])
    moves = 0
    while not dv.is_over(state):
        if state.phase == DEAL:
            move = dv.sample_chance(state, rng)
        else:
            legal = dv.legal_moves(state)
            assert legal
            move = legal[rng.randrange(len(legal))]
            if rng.random() < 0.02:
                for other in legal:
                    dv.apply(state, other)  # every listed move is accepted
        before = state.to_json()
        after = dv.apply(state, move)
        assert state.to_json() == before  # apply never changes its input
        assert dv.move_from_json(json.loads(json.dumps(move.to_json()))) == move
        state = after
        check_invariants(state, expected)
        moves += 1
    return moves


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_keep_invariants(players):
    for seed in range(GAMES_PER_COUNT):
        assert play(players, seed) > 0


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: ",".join(sorted(o)))
def test_random_games_under_options(options):
    for players in (2, 3, 4, 5):
        for seed in range(3):
            play(players, 1000 + seed, options)


def test_random_games_with_the_layout_as_chance_moves():
    for seed in range(5):
        play(3, seed, deal_by_chance=True)
