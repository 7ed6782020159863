"""Every reason code: a table of positions where one move breaks exactly that rule."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from ligretto_helpers import play, small_game
from tableref.rules import ligretto as L
from tableref.rules.errors import IllegalMove, InvalidInput

P, J = L.Place, L.PlaceJoker
#: Player 0's cards by colours (catalogue order): 0 red/yellow, 3 yellow/green, 5 green/blue.
RY, YG, GB = 0, 3, 5
GOOD = P(0, YG, ((2, 3), (2, 4)), 0, 1)            # yellow on yellow, green on green, next to token 0
JOKER = J(0, 0, (2, 3), 0)                          # player 0's joker right of token 0


def _ended(state):
    """The round ended by player 0 putting down their last card."""
    state = replace(state, hands=((YG,), state.hands[1]))
    return L.apply(state, GOOD)


CASES = [
    # code, options, moves before, the move, how the state is prepared
    ("colours_mismatch", {}, [], P(0, RY, ((2, 3), (2, 4)), 0, 1), None),
    ("wrong_way_round", {}, [], P(0, YG, ((2, 4), (2, 3)), 0, 0), None),
    ("touches_no_token", {}, [], P(0, GB, ((4, 2), (4, 3)), None, 1), None),
    ("corner_only", {}, [], P(0, GB, ((3, 3), (3, 4)), None, 1), None),
    ("covers_card", {}, [GOOD], P(0, RY, ((1, 3), (2, 3)), 0, 0), None),
    ("covers_token", {}, [], P(0, RY, ((2, 2), (2, 3)), 0, 1), None),
    ("token_not_farther", {}, [], P(0, YG, ((2, 3), (2, 4)), 0, 0), None),
    ("joker_other_player", {}, [JOKER], P(1, 18, ((1, 4), (2, 4)), 0, 0), None),
    ("joker_not_followed", {}, [JOKER], P(0, YG, ((0, 1), (0, 2)), 1, 1), None),
    ("joker_space", {"joker_from_start": False}, [], JOKER, None),
    ("relocation_skipped", {}, [], GOOD, lambda s: replace(s, relocations=((0, 1),))),
    ("not_blocked", {}, [], P(0, GB, ((4, 2), (4, 3)), 1, 0, True), None),
    ("not_in_hand", {}, [], P(0, 18, ((2, 3), (2, 4)), 0, 1), None),
    ("off_board", {}, [], P(0, GB, ((3, 4), (4, 4)), None, 1), None),
    ("round_over", {}, [], P(1, 18, ((1, 2), (0, 2)), 0, 1), _ended),
    ("player_board", {"two_player_board": "mandatory"}, [], L.ToPlayerBoard(1, ()), _ended),
    ("token_setup", {}, [GOOD], L.SetTokens(((0, 0), (0, 1), (0, 2), (0, 3))), None),
    ("not_now", {}, [], L.NextRound(((0, 0), (0, 1), (0, 2), (0, 3))), None),
]


@pytest.mark.parametrize("code,options,before,move,prepare", CASES, ids=[c[0] for c in CASES])
def test_each_rule_gives_its_code(code, options, before, move, prepare):
    state = play(small_game(2, **options), *before)
    if prepare:
        state = prepare(state)
    with pytest.raises(IllegalMove) as err:
        L.apply(state, move)
    assert err.value.code == f"ligretto.{code}"
    assert err.value.player == move.player
    if isinstance(move, (P, J)) and code not in ("round_over", "not_in_hand", "off_board"):
        after, faults = L.place_anyway(state, move)       # the referee's view keeps the card, marked
        assert [f.code for f in faults] == [f"ligretto.{code}"]
        assert after.pieces[-1].faults == (f"ligretto.{code}",)
        assert [v.code for v in L.violations(after)] == [f"ligretto.{code}"]


def test_every_reason_code_is_covered():
    tested = {f"ligretto.{c[0]}" for c in CASES} | {"ligretto.contested", "ligretto.round_cleared"}  # referee tests
    assert tested == set(L.REASONS)


RB = 2  # player 0's red/blue card
BESIDE_CARD = P(0, RB, ((1, 3), (1, 2)), 0, 1)  # touches the near half of token 0's card only


@pytest.mark.parametrize("before,move,options,code", [
    ([], GOOD, {}, None),
    ([], P(0, YG, ((2, 4), (2, 3)), 0, 0), {"wrong_way_round": "allowed"}, None),
    ([], P(0, YG, ((2, 4), (2, 3)), 0, 0), {"wrong_way_round": "mistake"}, "ligretto.wrong_way_round"),
    ([], JOKER, {"joker_from_start": True}, None),
    ([GOOD], BESIDE_CARD, {"touch": "card"}, None),
    ([GOOD], BESIDE_CARD, {"touch": "space"}, "ligretto.corner_only"),
    ([JOKER, P(0, YG, ((1, 4), (2, 4)), 0, 0)], P(1, 15 + RB, ((1, 3), (0, 3)), 0, 1), {"joker_lock": "follow_up"}, None),
    ([JOKER, P(0, YG, ((1, 4), (2, 4)), 0, 0)], P(1, 15 + RB, ((1, 3), (0, 3)), 0, 1), {"joker_lock": "round"},
     "ligretto.joker_other_player"),
])
def test_option_readings(before, move, options, code):
    state = play(small_game(2, **options), *before)
    if code is None:
        assert L.apply(state, move).pieces[-1].faults == ()
    else:
        with pytest.raises(IllegalMove) as err:
            L.apply(state, move)
        assert err.value.code == code


@pytest.mark.parametrize("data,message", [
    ({"type": "place", "player": 0, "card": 0, "cells": [[0, 0], [1, 1]], "token": 0, "to": 1}, "share an edge"),
    ({"type": "place", "player": 0, "card": 0, "cells": [[0, 0]], "token": 0, "to": 1}, "names 2 cells"),
    ({"type": "place", "player": 0, "card": 0, "cells": [[0, 0], [0, 1]], "token": 0, "to": 2}, "'to'"),
    ({"type": "dance", "player": 0}, "unknown Ligretto move type"),
    ({"type": "joker", "player": 0, "joker": 0, "cell": "a1", "token": 0}, "must be a list"),
    ({"type": "player_board", "player": 0, "cards": ["x"]}, "card ids"),
])
def test_malformed_moves_are_invalid_input(data, message):
    with pytest.raises(InvalidInput, match=message):
        L.move_from_json(data)


@pytest.mark.parametrize("move,message", [
    (P(0, YG, ((9, 9), (9, 8)), 0, 1), "outside"),
    (P(0, YG, ((2, 3), (2, 4)), 7, 1), "token must be"),
    (P(5, YG, ((2, 3), (2, 4)), 0, 1), "player must be"),
])
def test_moves_off_the_grid_are_invalid_input(move, message):
    with pytest.raises(InvalidInput, match=message):
        L.apply(small_game(2), move)


@pytest.mark.parametrize("kind", L.ILLEGAL_KINDS)
def test_illegal_placement_makes_the_requested_kind(kind):
    rng = random.Random(5)
    state = small_game(2)
    if kind in ("joker_other_player", "joker_not_followed"):
        state = L.apply(state, JOKER)
    if kind == "covers_card":
        state = L.apply(state, GOOD)
    move = L.illegal_placement(state, rng, kind)
    assert move is not None
    _, faults = L.place_anyway(state, move)
    assert [f.code for f in faults] == [f"ligretto.{kind}"]


def test_illegal_placement_unknown_kind():
    with pytest.raises(InvalidInput, match="unknown illegal placement kind"):
        L.illegal_placement(small_game(2), random.Random(0), "cheating")
