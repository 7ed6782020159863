"""Sentences a person reads name players counted from 1; JSON keeps the index counted from 0."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tableref.rules import daluigi, dolcevita, ligretto
from tableref.rules.common import ANYONE, CHANCE, player_name, players_named
from tableref.rules.dolcevita.options import TIE_MONEY, TIE_SHARED
from tableref.rules.dolcevita.scoring import richest
from tableref.rules.errors import IllegalMove


@pytest.mark.parametrize("index,capital,expected", [
    (0, False, "player 1"),
    (3, False, "player 4"),
    (1, True, "Player 2"),
    (CHANCE, False, "chance"),
    (CHANCE, True, "Chance"),
    (ANYONE, False, "the whole table"),
    (None, True, "The whole table"),
])
def test_player_name(index, capital, expected):
    assert player_name(index, capital=capital) == expected


@pytest.mark.parametrize("indices,capital,expected", [
    ([1], False, "player 2"),
    ([0, 2], False, "players 1 and 3"),
    ([0, 1, 3], True, "Players 1, 2 and 4"),
    ([], False, "no player"),
])
def test_players_named(indices, capital, expected):
    assert players_named(indices, capital=capital) == expected


@pytest.mark.parametrize("rules,players,mover,expected", [
    # index 0 is to move in each seeded start; the first legal move is replayed by ``mover``
    (dolcevita, 3, 1, "it is player 1's turn to place a number card, not player 2's"),
    (dolcevita, 3, 2, "it is player 1's turn to place a number card, not player 3's"),
    (daluigi, 2, 1, "It is player 1's move now (serve), not player 2's."),
    (ligretto, 2, 1, "Player 2 does not hold card:P0#00(red/yellow) (another player's, on the board or on a "
                     "player board)."),
])
def test_illegal_move_names_players_from_one(rules, players, mover, expected):
    state = rules.new_game(players, seed=1)
    move = replace(rules.legal_moves(state)[0], player=mover)
    with pytest.raises(IllegalMove) as caught:
        rules.apply(state, move)
    assert caught.value.sentence == expected
    assert caught.value.player == mover                              # the JSON index stays 0-based
    assert move.to_json()["player"] == mover


@pytest.mark.parametrize("tiebreak,winners,expected", [
    (TIE_SHARED, (0, 2), "Players 1 and 3 tie at 7 and share the win (option tiebreak = shared)"),
    (TIE_MONEY, (2,), "Players 1 and 3 tie at 7; the one(s) with the most money win (option tiebreak = "
                      "most_money)"),
])
def test_dolcevita_tiebreak_names_players_from_one(tiebreak, winners, expected):
    parts = {"money": (3, 5, 4), "goods": (4, 0, 3)}
    assert richest((7, 5, 7), parts, tiebreak) == (winners, expected)


def test_daluigi_move_text_names_player_from_one():
    move = daluigi.legal_moves(daluigi.new_game(2, seed=1))[0]
    assert str(move).startswith("player 1: serve ")
    assert str(replace(move, player=CHANCE)).startswith("chance: serve ")
