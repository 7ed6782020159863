"""The rulebook's worked examples and rules, each as a scenario (cards of the shipped, assumed deck)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tableref.rules import daluigi
from tableref.rules.common import CHANCE
from tableref.rules.daluigi import Move
from tableref.rules.errors import IllegalMove
from tableref.rules.daluigi.catalogue import CUBE_COUNTS, FIELDS


def play(state, *moves):
    for m in moves:
        state = daluigi.apply(state, m)
    return state


def shop(player, field, *pushes):
    return Move("shop", player, field=field, pushes=tuple(pushes))


def cube(colour):
    return Move("cube", CHANCE, colour=colour)


def card(card_id):
    return Move("card", CHANCE, card=card_id)


# --- setup -----------------------------------------------------------------------------------

@pytest.mark.parametrize("players,pile,hand", [(2, 24, 3), (3, 36, 4), (4, 48, 5)])
def test_setup_and_welcome_counts(players, pile, hand):
    """'count out 12 cards per player' and 'takes 1 more guest card than there are players'."""
    s = daluigi.new_game(players, None, seed=5)
    assert s.pile == pile and len(s.unseen) == 82
    assert [sum(map(sum, s.market[r * 3:(r + 1) * 3])) for r in range(4)] == [3, 6, 9, 12]
    for p in range(players):
        cards = [g for g in s.strips[p] if g is not None]
        waits = sorted(daluigi.load_deck().card(g.card).wait for g in cards)
        held = sum(s.supply[p]) + sum(sum(g.cubes) for g in cards)
        assert waits == [40, 60] and s.strips[p][0] is not None and s.strips[p][2] is not None
        assert held + sum(daluigi.load_deck().card(c).dishes for c in s.served[p]) == 3  # 3 dice each
    while s.to_move != s.active or s.tasks:
        s = daluigi.apply(s, daluigi.legal_moves(s)[0])
    s = play(s, Move("welcome", s.active))
    assert (s.hand, s.pile, s.to_move) == (hand, pile - hand, CHANCE)


def test_setup_without_seed_waits_for_chance():
    s = daluigi.new_game(2)
    assert s.to_move == CHANCE and s.phase == "start"


# --- shopping: the worked examples --------------------------------------------------------------

def test_bottom_row_three_clocks_on_one_guest_or_split(table):
    """'The player takes the 4 food dice from the market field in the bottom row. ... 3 clocks ...
    moves the female guest 3 time segments ... could also have split the time.'"""
    s = table.full_market(table.empty())
    s = table.guest(table.guest(s, 0, 0, "G19"), 0, 4, "G26")
    one = play(s, shop(0, 9, "G19", "G19", "G19"))
    assert table.slots(one, 0) == [None, None, None, "G19", "G26", None]
    split = play(s, shop(0, 9, "G19", "G19", "G26"))
    assert table.slots(split, 0) == [None, None, "G19", None, None, "G26"]
    assert sum(one.supply[0]) + sum(one.strips[0][3].cubes) == 4  # G19 wanted one of the red dice


def test_third_row_blocked_guest_must_push_out_the_other(table):
    """'the player can only move their male guest 1 field to the right. They could push the female
    guest out of their ristorante instead, but the newly acquired food dice could then no longer be
    used for that guest.'"""
    s = table.full_market(table.empty())
    s = table.market(s, {6: ["orange", "yellow", "blue"]})
    s = table.guest(table.guest(s, 0, 5, "G34"), 0, 3, "G02")  # G34 wants orange, yellow, blue
    with pytest.raises(IllegalMove) as err:
        daluigi.apply(s, shop(0, 6, "G02", "G02"))
    assert err.value.code == "daluigi.field_not_free"
    shops = [m for m in daluigi.legal_moves(s) if m.type == "shop" and m.field == 6]
    assert shops and all("G34" in m.pushes for m in shops)
    after = play(s, shop(0, 6, "G02", "G34"))
    assert table.slots(after, 0) == [None, None, None, None, "G02", None]
    assert after.discard[-1] == "G34" and after.tiles[0] == -1
    assert after.supply[0] == (0, 1, 1, 0, 0, 1) and after.served[0] == ()


def test_cannot_pay_in_full(table):
    """'it is not allowed to move a guest who is on segment "20" 3 time segments to the right if only
    2 segments are available.'"""
    s = table.guest(table.full_market(table.empty()), 0, 4, "G26")
    for pushes in (("G26", "G26"), ("G26", "G26", "G26")):
        with pytest.raises(IllegalMove) as err:
            daluigi.apply(s, shop(0, 9, *pushes))
        assert err.value.code == "daluigi.unpaid"
    assert not [m for m in daluigi.legal_moves(s) if m.type == "shop" and m.field >= 9]


def test_top_row_is_free_and_voluntary_push_out_costs_a_lemon(table):
    s = table.guest(table.full_market(table.empty()), 0, 5, "G26")
    free = play(s, shop(0, 0))
    assert table.slots(free, 0)[5] == "G26" and free.tiles[0] == 0
    out = play(s, shop(0, 3, "G26"))
    assert out.tiles[0] == -1 and "G26" in out.discard
    with pytest.raises(IllegalMove) as err:
        daluigi.apply(s, shop(0, 0, "G26"))
    assert err.value.code == "daluigi.overpaid"
    extra = table.guest(table.full_market(table.empty(voluntary_push_out="extra")), 0, 5, "G26")
    assert play(extra, shop(0, 0, "G26")).tiles[0] == -1


# --- serving, jokers, collecting -------------------------------------------------------------------

def test_serving_is_the_players_choice_and_complete_orders_are_collected(table):
    s = table.full_market(table.empty())
    s = table.market(s, {0: ["blue"]})
    s = table.guest(table.guest(s, 0, 0, "G56"), 0, 2, "G26", )  # G56 blue,blue; G26 blue
    s = play(s, shop(0, 0))
    assert s.phase == "serve" and len(daluigi.legal_moves(s)) == 2
    s = play(s, Move("serve", 0, place=(("G26", "blue"),)))
    assert s.served[0] == ("G26",) and s.used[5] == 1 and table.slots(s, 0)[2] is None
    assert daluigi.score(s).parts["guests"][0] == 1


def test_joker_example_four_dice_replace_one_red(table):
    """'A player could give up 1 blue, 2 green, and 1 yellow die in order to replace 1 missing red die.'"""
    s = table.full_market(table.empty())
    s = table.market(s, {0: ["blue"]})
    s = table.supply(table.guest(s, 0, 0, "G66"), 0, ["green", "green", "yellow"])
    s = play(s, shop(0, 0))
    assert s.phase == "jokers"
    s = play(s, Move("joker", 0, guest="G66", pay=("yellow", "green", "green", "blue")))
    assert s.served[0] == ("G66",) and sum(s.supply[0]) == 0


@pytest.mark.parametrize("jokers,pay,code", [
    ("together", ("brown", "brown"), None),
    ("each", ("brown", "brown"), "no jokers"),
    ("together", ("brown", "red"), "daluigi.joker_payment"),
])
def test_jokers_only_when_they_fulfil_the_order(table, jokers, pay, code):
    """'These jokers are only assigned to a guest when doing so fulfills that guest's order.'"""
    s = table.full_market(table.empty(jokers=jokers))
    s = table.market(s, {0: ["brown"]})
    s = table.supply(table.guest(s, 0, 0, "G77"), 0, ["brown", "brown", "brown", "blue"])  # G77: red, red
    s = play(s, shop(0, 0))
    if code is None:
        s = play(s, Move("joker", 0, guest="G77", pay=pay))  # the second joker is forced: the engine pays it
        assert s.served[0] == ("G77",) and s.supply[0] == (0, 0, 0, 0, 0, 1)
    elif code == "no jokers":  # option jokers=each: one joker alone must fulfil the order
        assert s.phase != "jokers" and s.served[0] == () and sum(s.supply[0]) == 5
    else:
        with pytest.raises(IllegalMove) as err:
            daluigi.apply(s, Move("joker", 0, guest="G77", pay=pay))
        assert err.value.code == code


# --- welcoming --------------------------------------------------------------------------------

def test_welcome_push_chain_pushes_the_last_guest_out(table):
    """'They must place it on the field under time segment "30." However, a guest is already there ...
    the guest there is pushed to the exit. It leaves the ristorante without its order being fulfilled.'"""
    s = table.full_market(table.empty())
    for slot, c in ((3, "G13"), (4, "G74"), (5, "G36")):
        s = table.guest(s, 0, slot, c)
    s = play(s, Move("welcome", 0), card("G29"), Move("give", 0, to=0))
    assert table.slots(s, 0)[3:] == ["G29", "G13", "G74"]
    assert s.discard == ("G36",) and s.tiles[0] == -1
    assert s.to_move == CHANCE and s.tasks[0] == ("draw", "supply", 0)  # G29's ability: one die


def test_give_one_to_each_other_player_keep_two(table):
    s = table.full_market(table.empty(players=3))
    s = play(s, Move("welcome", 0), card("G26"), Move("give", 0, to=1), card("G27"))
    with pytest.raises(IllegalMove) as err:
        daluigi.apply(s, Move("give", 0, to=1))
    assert err.value.code == "daluigi.give_rule"
    s = play(s, Move("give", 0, to=0), card("G22"))
    assert sorted(m.to for m in daluigi.legal_moves(s)) == [0, 2]


def test_welcome_is_forced_without_guests(table):
    s = table.full_market(table.empty())
    assert [m.type for m in daluigi.legal_moves(s)] == ["welcome"]
    with pytest.raises(IllegalMove) as err:
        daluigi.apply(s, shop(0, 0))
    assert err.value.code == "daluigi.no_guest"


# --- abilities --------------------------------------------------------------------------------

def _received(table, card_id, options=None, setup=None):
    s = table.full_market(table.empty(**(options or {})))
    if setup:
        s = setup(s)
    return play(s, Move("welcome", 0), card(card_id), Move("give", 0, to=1))


def test_ability_dice(table):
    one = _received(table, "G29")
    assert one.tasks[0] == ("draw", "supply", 1) and one.to_move == CHANCE
    two = _received(table, "G09")
    assert two.tasks[:2] == (("draw", "supply", 1),) * 2
    after = play(two, cube("red"), cube("green"))
    assert after.supply[1][4] == 1 and after.strips[1][2].cubes[3] == 0  # served at the end of the turn


def test_ability_lemon_and_flower_cancel(table):
    """'If a player already has, for example, 2 lemons and would receive 1 flower bouquet, 1 lemon is
    instead returned to the supply.'"""
    lemon = _received(table, "G30")
    assert lemon.tiles[1] == -1
    flower = _received(table, "G18", setup=lambda s: table.tiles(s, 1, -2))
    assert flower.phase == "flower" and flower.to_move == 1
    lemons_before = flower.market_lemons
    took = play(flower, Move("flower", 1, take=True))
    assert took.tiles[1] == -1 and took.market_lemons == lemons_before + 1


@pytest.mark.parametrize("arrow_target,code,slots", [
    ("free", "daluigi.field_not_free", ["G26", "G07", None, None, "G13", None]),
    ("chain", None, [None, "G26", "G07", "G13", None, None]),
])
def test_ability_arrow(table, arrow_target, code, slots):
    """'Arrow symbol: The player must push one of their guests 1 field to the right.'"""
    s = _received(table, "G13", {"arrow_target": arrow_target},
                  setup=lambda s: table.guest(table.guest(s, 1, 0, "G26"), 1, 1, "G07"))
    assert s.phase == "arrow" and s.to_move == 1
    if code:
        with pytest.raises(IllegalMove) as err:
            daluigi.apply(s, Move("arrow", 1, guest="G26"))
        assert err.value.code == code
        s = play(s, Move("arrow", 1, guest="G13"))
    else:
        s = play(s, Move("arrow", 1, guest="G26"))
    assert table.slots(s, 1) == slots


@pytest.mark.parametrize("where,expect", [("used", (1, 0)), ("bag", (0, 1))])
def test_ability_discard(table, where, expect):
    s = _received(table, "G03", {"discarded_cube": where},
                  setup=lambda s: table.tiles(table.supply(s, 1, ["orange"]), 1, 1))
    bag = s.bag[1]
    assert s.phase == "discard"
    s = play(s, Move("discard", 1, what="cube", colour="orange"))
    assert (s.used[1], s.bag[1] - bag) == expect
    nothing = _received(table, "G03")
    assert nothing.phase != "discard"  # 'If the player has none of these, they discard nothing.'


def test_ability_guest_draws_and_places_another(table):
    s = _received(table, "G01")
    assert s.tasks[0] == ("guest", 1)
    s = play(s, card("G26"))
    assert table.slots(s, 1)[2] == "G26" and table.slots(s, 1)[4] == "G01"


# --- the marketplace and the bag --------------------------------------------------------------------

def test_row_refilled_only_when_whole_row_empty(table):
    """'If, at the end of a turn, all the fields of one row of the marketplace are empty, those fields
    are refilled ... Empty fields in other rows are not refilled.'"""
    s = table.full_market(table.empty())
    s = table.guest(table.market(s, {1: [], 2: [], 4: []}), 0, 0, "G22")
    s = play(s, shop(0, 0))
    assert s.to_move == CHANCE and [t for t in s.tasks if t[0] == "draw"] == [
        ("draw", "field", 0), ("draw", "field", 1), ("draw", "field", 2)]
    s = play(s, cube("red"), cube("red"), cube("blue"))
    assert s.active == 1 and sum(s.market[4]) == 0 and [sum(x) for x in s.market[:3]] == [1, 1, 1]


def test_empty_bag_is_refilled_from_used_dice(table):
    s = table.full_market(table.empty())
    s = table.guest(table.market(s, {1: [], 2: []}), 0, 0, "G22")
    s = replace(s, used=s.bag, bag=(0,) * 6)
    s = play(s, shop(0, 0))
    assert s.to_move == CHANCE and s.used == (0,) * 6 and sum(s.bag) > 0


def test_more_than_ten_dice_go_back_when_dice_run_out(table):
    """'every player who has more than 10 food dice in their supply must place dice of their choice back
    in the bag until they have only 10 left.'"""
    s = table.full_market(table.empty())
    s = table.guest(table.market(s, {1: [], 2: []}), 0, 0, "G22")
    s = table.supply(s, 1, ["brown"] * 10 + ["red"] * 2)
    s = replace(s, used=(0,) * 6)
    held = tuple(sum(v[c] for v in list(s.market) + list(s.supply)) for c in range(6))
    s = replace(s, used=tuple(CUBE_COUNTS[c] - held[c] for c in range(6)), bag=(0,) * 6)
    s = replace(s, used=(0,) * 6)  # dice are out of the game: nothing left anywhere to draw
    s = play(s, shop(0, 0))
    assert s.phase == "return" and s.to_move == 1
    with pytest.raises(IllegalMove) as err:
        daluigi.apply(s, Move("return", 1, cubes=("red",)))
    assert err.value.code == "daluigi.return_count"
    s = play(s, Move("return", 1, cubes=("red", "red")))
    assert sum(s.supply[1]) == 10 and s.to_move == CHANCE


# --- the end --------------------------------------------------------------------------------

def test_end_trigger_missing_cards_final_round_and_scoring(table):
    """'As soon as the guest card pile is used up during the "Welcome New Guests" action, the end of the
    game is triggered. If more guest cards are still needed ... taken from the unused guest cards ...
    every player ... gets exactly one more turn'."""
    s = replace(table.full_market(table.empty()), pile=2)
    s = play(s, Move("welcome", 0))
    assert s.end_triggered and s.pile == 0 and s.hand == 3
    s = play(s, card("G26"), Move("give", 0, to=1), card("G27"), card("G40"))
    assert s.phase != "assign"  # the last guests go to player 0 by force (given by the engine)
    while s.to_move == CHANCE:
        s = play(s, daluigi.legal_moves(s)[0])
    assert s.active == 1 and s.final_turns == 2
    assert "welcome" not in [m.type for m in daluigi.legal_moves(s)]
    with pytest.raises(IllegalMove) as err:
        daluigi.apply(s, Move("welcome", 1))
    assert err.value.code == "daluigi.final_round_serve_only"
    turns = 0
    while not daluigi.is_over(s):
        before = s.turn
        s = play(s, daluigi.legal_moves(s)[0])
        turns += s.turn - before
    assert turns == 2 and daluigi.legal_moves(s) == [] and daluigi.score(s).final


def test_final_round_pass_without_guests(table):
    s = replace(table.full_market(table.empty()), end_triggered=True, final_turns=1)
    assert [m.type for m in daluigi.legal_moves(s)] == ["pass"]
    top = replace(table.full_market(table.empty(final_round_without_guest="top_row")), end_triggered=True,
                  final_turns=1)
    assert {m.field for m in daluigi.legal_moves(top)} == {0, 1, 2}
    after = play(s, Move("pass", 0))
    assert after.over


@pytest.mark.parametrize("served,tiles,cubes,totals,winners,tiebreak", [
    ((("G01",), ("G26",)), (0, 0), (0, 0), (5, 1), (0,), ""),
    ((("G26",), ("G27",)), (-1, 1), (0, 0), (0, 2), (1,), ""),
    ((("G26",), ("G27",)), (0, 0), (2, 1), (1, 1), (0,), "broken"),
    ((("G26",), ("G27",)), (0, 0), (1, 1), (1, 1), (0, 1), "multiple winners"),
])
def test_scoring_and_tie_breaks(table, served, tiles, cubes, totals, winners, tiebreak):
    """'For every lemon ... 1 point is deducted; for every flower bouquet, 1 point is added. ... the tied
    player with more food dice in their supply and on their guest cards wins.'"""
    s = table.empty()
    for p in range(2):
        s = table.tiles(table.supply(s, p, ["blue"] * cubes[p]), p, tiles[p])
    s = replace(s, served=served, over=True)
    score = daluigi.score(s)
    assert score.totals == totals and score.winners == winners and tiebreak in score.tiebreak and score.final


def test_flower_guest_pushed_out_gives_a_flower_by_default(table):
    """'If a guest has the "flower bouquet" special ability, the player receives a flower bouquet instead.'"""
    for option, tile in (("flower", 1), ("lemon", -1)):
        s = table.guest(table.full_market(table.empty(flower_guest_out=option)), 0, 5, "G18")
        assert play(s, shop(0, 3, "G18")).tiles[0] == tile


def test_market_fields_are_twelve():
    assert FIELDS == 12
