"""The rulebook's worked examples and every rule of handing out, as scenarios."""

from __future__ import annotations

import pytest

from tableref.rules import dolcevita as dv
from tableref.rules.common import ANYONE
from tableref.rules.dolcevita.catalogue import COLUMNS
from tableref.rules.dolcevita.engine import new_game, rounds
from tableref.rules.dolcevita.state import COLLECT, DISTRIBUTE, OVER, PLACE

RED, YELLOW, GREEN, BLUE = 0, 1, 2, 3
LEFT, RIGHT = 0, COLUMNS - 1

#: "Left Row: Red and Yellow have the same total value, having each played cards totalling 3. [...]
#: Green with his 4 is the highest and gets the lowermost valued luxury: in this case it is
#: Jewellery 200.000. Blue has the second-highest card and thus gets the next lowest luxury: the
#: House at 300.000. Right Row: Red is highest and gets the clock 400.000, Yellow is
#: second-highest and takes the money 100.000, Green is third and gets the next money card which
#: also happens to be 100.000."
EXAMPLE_BOTTOMS = {LEFT: ["jewellery:200000", "house:300000", "car:100000"],
                   RIGHT: ["watch:400000", "money:100000", "money:100000", "boat:700000"]}
EXAMPLE_UNDER = {LEFT: [(RED, 1), (RED, 2), (YELLOW, 3), (GREEN, 4), (BLUE, 2)],
                 RIGHT: [(RED, 6), (YELLOW, 5), (GREEN, 3)]}


def test_rulebook_left_row(build):
    before = build(4, EXAMPLE_BOTTOMS, EXAMPLE_UNDER, next_column=LEFT)
    after = dv.apply(before, dv.Resolve(LEFT))
    assert after.goods[GREEN] == ("jewellery:200000",)
    assert after.goods[BLUE] == ("house:300000",)
    assert after.goods[RED] == after.goods[YELLOW] == ()
    # "These cards are immediately returned to the players."
    assert after.under[LEFT] == ((GREEN, 4), (BLUE, 2))
    assert 1 in after.hands[RED] and 2 in after.hands[RED] and 3 in after.hands[YELLOW]
    assert after.columns[LEFT] == before.columns[LEFT][2:]
    assert after.next_column == LEFT + 1 and after.phase == DISTRIBUTE
    assert dv.violations(after) == []


def test_rulebook_right_row(build):
    before = build(4, EXAMPLE_BOTTOMS, EXAMPLE_UNDER, next_column=RIGHT)
    after = dv.apply(before, dv.Resolve(RIGHT))
    assert after.goods[RED] == ("watch:400000",)
    assert after.money[YELLOW] == (100000,) and after.money[GREEN] == (100000,)
    assert after.goods[BLUE] == () and after.money[BLUE] == ()
    assert after.columns[RIGHT] == before.columns[RIGHT][3:]
    assert after.columns[RIGHT][0] == "boat:700000"
    assert after.phase == COLLECT and after.to_move == ANYONE  # round 1 of 4: collect next
    assert dv.score(after).parts["goods"][RED] == 400000


def test_rulebook_example_rows_refereed_as_one_distribution(build):
    before = build(4, EXAMPLE_BOTTOMS, EXAMPLE_UNDER, next_column=LEFT)
    after = before
    for c in range(COLUMNS):
        after = dv.apply(after, dv.Resolve(c))
    verdict = dv.referee(before, dv.observe(after))
    assert verdict.legal and verdict.moves == tuple(dv.Resolve(c) for c in range(COLUMNS))
    assert verdict.state == after
    assert after.goods[GREEN] == ("jewellery:200000",) and after.money[GREEN] == (100000,)


@pytest.mark.parametrize("trade_in,column_after", [
    # Note: "we suggest that the card being exchanged should be placed at the TOP of the row."
    ("top", ("horse:200000", "car:400000")),
    # "he puts the card with the 400.000 car into the row from which he has gotten his new car":
    # into the slot the new car left, so the next player still gets "the next luxury card up".
    ("place", ("car:400000", "horse:200000")),
])
def test_rulebook_car_exchange(build, trade_in, column_after):
    """'A player possesses a car with the value of 400.000 and in this round he wins another car
    with the value of 700.000. He must trade in the old car to get the new one.'"""
    before = build(3, {2: ["car:700000", "horse:100000", "horse:200000"]}, {2: [(0, 6), (1, 2)]},
                   goods={0: ["car:400000"]}, next_column=2, round_number=2, lengths={2: 3},
                   options={"trade_in": trade_in})
    after = dv.apply(before, dv.Resolve(2))
    assert after.goods[0] == ("car:700000",)
    assert after.goods[1] == ("horse:100000",)
    assert after.columns[2] == column_after
    assert dv.score(after).parts["goods"][0] == 700000
    assert dv.violations(after) == []


def test_trade_in_on_top_can_be_handed_out_again_in_a_short_column(build):
    # Column with two cards; three players count. The first trades in a car that lands on top
    # and is the third player's card (top reading), or stays in the first slot (place reading).
    setup = dict(players=3, bottoms={1: ["car:700000", "money:200000"]}, under={1: [(0, 6), (1, 5), (2, 4)]},
                 goods={0: ["car:300000"]}, next_column=1, lengths={1: 2})
    top = dv.apply(build(**setup), dv.Resolve(1))
    assert top.goods[2] == ("car:300000",) and top.columns[1] == ()
    place = dv.apply(build(**setup, options={"trade_in": "place"}), dv.Resolve(1))
    assert place.goods[2] == () and place.columns[1] == ("car:300000",)
    assert place.money[1] == (200000,)


@pytest.mark.parametrize("from_round_one,round_number,expected_goods", [
    (True, 1, ("car:700000",)),
    (True, 2, ("car:700000",)),
    (False, 1, ("car:400000", "car:700000")),
    (False, 2, ("car:700000",)),
])
def test_one_of_each_good(build, from_round_one, round_number, expected_goods):
    state = build(3, {0: ["car:700000"]}, {0: [(0, 3)]}, goods={0: ["car:400000"]},
                  round_number=round_number, options={"one_of_each_in_round_one": from_round_one})
    after = dv.apply(state, dv.Resolve(0))
    assert after.goods[0] == expected_goods


def test_money_is_kept_without_limit(build):
    state = build(3, {0: ["money:200000"]}, {0: [(0, 3)]}, money={0: [100000, 200000, 200000]})
    after = dv.apply(state, dv.Resolve(0))
    assert after.money[0] == (100000, 200000, 200000, 200000)


def test_empty_column_turns_its_bottom_card(build):
    """'If no number cards are placed under a row the bottom card is removed and placed at the top.'"""
    state = build(3)
    after = dv.apply(state, dv.Resolve(0))
    assert after.columns[0] == state.columns[0][1:] + state.columns[0][:1]


@pytest.mark.parametrize("turns,expect_turned", [(False, False), (True, True)])
def test_all_tied_column(build, turns, expect_turned):
    state = build(3, under={0: [(0, 4), (1, 1), (1, 3)]}, options={"all_tie_turns_column": turns})
    after = dv.apply(state, dv.Resolve(0))
    assert after.under[0] == () and after.goods == ((), (), ()) and after.money == ((), (), ())
    turned = state.columns[0][1:] + state.columns[0][:1]
    assert after.columns[0] == (turned if expect_turned else state.columns[0])


def test_ties_cancel_but_others_rank(build):
    # 5 players: two pairs tie (4 and 2), the 3 counts alone and gets the bottom card.
    state = build(5, {0: ["boat:500000", "horse:600000"]},
                  {0: [(0, 4), (1, 4), (2, 2), (3, 2), (4, 3)]})
    after = dv.apply(state, dv.Resolve(0))
    assert after.goods[4] == ("boat:500000",)
    assert all(after.goods[p] == () for p in range(4))


def test_short_column_gives_nothing_to_the_rest(build):
    state = build(3, {0: ["watch:100000"]}, {0: [(0, 5), (1, 4), (2, 3)]}, lengths={0: 1})
    after = dv.apply(state, dv.Resolve(0))
    assert after.goods == (("watch:100000",), (), ()) and after.columns[0] == ()


@pytest.mark.parametrize("players,options,expected", [
    (3, {}, 6), (4, {}, 4), (5, {}, 5), (2, {}, 6), (2, {"two_player_rounds": 4}, 4), (4, {"rounds": 2}, 2),
])
def test_rounds_by_player_count(players, options, expected):
    assert rounds(new_game(players, options, seed=0)) == expected


def test_round_turn_order_and_start_player_rotation():
    state = new_game(3, None, seed=5)
    assert state.phase == PLACE and state.to_move == 0
    order = []
    while state.phase == PLACE:
        order.append(state.to_move)
        state = dv.apply(state, dv.legal_moves(state)[0])
    # "until everyone has only one card left": 5 cards each, in turn
    assert order == [0, 1, 2] * 5 and all(len(h) == 1 for h in state.hands)
    for c in range(COLUMNS):
        state = dv.apply(state, dv.Resolve(c))
    state = dv.apply(state, dv.legal_moves(state)[0])
    assert state.round == 2 and state.to_move == 1 and all(len(h) == 6 for h in state.hands)


def test_game_ends_after_the_last_round():
    state = new_game(4, {"rounds": 1}, seed=2)
    while state.phase == PLACE:
        state = dv.apply(state, dv.legal_moves(state)[-1])
    for c in range(COLUMNS):
        state = dv.apply(state, dv.Resolve(c))
    assert state.phase == OVER and dv.is_over(state) and dv.legal_moves(state) == []
    assert dv.score(state).final


@pytest.mark.parametrize("tiebreak,goods,money,winners", [
    ("shared", {0: ["car:300000"], 1: ["boat:100000"]}, {1: [200000]}, (0, 1)),
    ("most_money", {0: ["car:300000"], 1: ["boat:100000"]}, {1: [200000]}, (1,)),
    ("most_goods", {0: ["car:300000"], 1: ["boat:100000"]}, {1: [200000]}, (0,)),
    ("shared", {0: ["car:400000"], 1: ["boat:100000"]}, {1: [200000]}, (0,)),
])
def test_richest_wins(build, tiebreak, goods, money, winners):
    state = build(3, goods=goods, money=money, options={"tiebreak": tiebreak})
    result = dv.score(state)
    assert result.winners == winners
    assert result.totals[0] == sum(result.parts[k][0] for k in result.parts)
    assert bool(result.tiebreak) == (result.totals[0] == result.totals[1])


def test_seeded_setup_lays_out_the_grid():
    state = new_game(4, None, seed=9)
    assert [len(c) for c in state.columns] == [9] * COLUMNS and len(state.box) == 3
    assert state == new_game(4, None, seed=9) and state != new_game(4, None, seed=10)
    unseeded = new_game(4)
    assert unseeded.phase == "deal" and dv.legal_moves(unseeded)[0].player == -1
