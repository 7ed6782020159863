"""Every reason code: one case that breaks exactly that rule and gets exactly that code."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tableref.rules import dolcevita as dv
from tableref.rules.common import ANYONE
from tableref.rules.dolcevita.observation import Item, Observation
from tableref.rules.dolcevita.state import DISTRIBUTE, OVER, PLACE
from tableref.rules.errors import IllegalMove, InvalidInput


def _placing(build, **kw):
    return build(3, phase=PLACE, to_move=0, **kw)


def _illegal(state, move) -> list[str]:
    with pytest.raises(IllegalMove) as caught:
        dv.apply(state, move)
    assert caught.value.sentence and caught.value.player == move.player
    return [caught.value.code]


def _refereed(state, change) -> list[str]:
    """Codes the referee reports for the observation of ``state`` changed by ``change``."""
    items = list(dv.observe(state).items)
    items = change(items)
    verdict = dv.referee(state, Observation(tuple(items)))
    assert not verdict.legal
    return [v.code for v in verdict.violations]


def _swap_slots(items):
    a = next(i for i, x in enumerate(items) if x.where == "column:0:slot:0")
    b = next(i for i, x in enumerate(items) if x.where == "column:0:slot:1")
    items[a], items[b] = replace(items[a], label=items[b].label), replace(items[b], label=items[a].label)
    return items


def _drop_number(items):
    return [x for x in items if not (x.where == "column:1:under" and x.label == "red:4")]


def _wrong_taker(items):
    """Column 0 is handed out, but its bottom card goes to player 1 instead of player 0."""
    bottom = next(x for x in items if x.where == "column:0:slot:0").label
    column = [x.label for x in items if x.where.startswith("column:0:slot:")][1:] + ["empty"]
    others = [x for x in items if not x.where.startswith("column:0:slot:")]
    return others + [Item(label, f"column:0:slot:{s}") for s, label in enumerate(column)] + [Item(bottom, "player:1")]


CASES = [
    ("dolcevita.game_over", lambda b: _illegal(b(3, phase=OVER), dv.Collect())),
    ("dolcevita.wrong_phase", lambda b: _illegal(_placing(b), dv.Deal("car:100000"))),
    ("dolcevita.not_in_box", lambda b: _illegal(dv.apply(dv.new_game(3), dv.Deal("car:100000")),
                                                dv.Deal("car:100000"))),
    ("dolcevita.not_your_turn", lambda b: _illegal(_placing(b), dv.Place(1, 4, 0))),
    ("dolcevita.not_in_hand", lambda b: _illegal(_placing(b, under={2: [(0, 4)]}), dv.Place(0, 4, 0))),
    ("dolcevita.placing_over", lambda b: _illegal(b(3), dv.Place(0, 4, 0))),
    ("dolcevita.column_closed", lambda b: _illegal(_placing(b, lengths={3: 0}, options={"short_column": "closed"}),
                                                   dv.Place(0, 4, 3))),
    ("dolcevita.still_placing", lambda b: _illegal(_placing(b), dv.Resolve(0))),
    ("dolcevita.wrong_column", lambda b: _illegal(b(3), dv.Resolve(3))),
    ("dolcevita.not_sorted", lambda b: _illegal(b(3), dv.Collect())),
    ("dolcevita.number_card_removed", lambda b: _refereed(_placing(b, under={1: [(0, 4)]}), _drop_number)),
    ("dolcevita.card_moved", lambda b: _refereed(_placing(b), _swap_slots)),
    ("dolcevita.wrong_distribution", lambda b: _refereed(b(3, under={0: [(0, 5)]}), _wrong_taker)),
    ("dolcevita.two_of_a_kind", lambda b: [v.code for v in dv.violations(
        b(3, goods={0: ["car:100000", "car:200000"]}))]),
    ("dolcevita.card_count", lambda b: [v.code for v in dv.violations(
        replace(b(3), box=b(3).box + ("car:100000",)))]),
    ("dolcevita.number_cards", lambda b: [v.code for v in dv.violations(
        replace(b(3), hands=((1, 2),) + b(3).hands[1:]))]),
]


@pytest.mark.parametrize("code,broken", CASES, ids=[c[0] for c in CASES])
def test_each_reason_code(build, code, broken):
    assert broken(build) == [code]


def test_every_reason_is_tested():
    assert sorted(c for c, _ in CASES) == sorted(dv.REASONS)


def test_legal_positions_have_no_violations(build):
    assert dv.violations(build(4)) == []
    assert dv.violations(dv.new_game(5, None, 3)) == []


@pytest.mark.parametrize("move_json,error", [
    ({"type": "place", "player": 0, "value": 7, "column": 0}, InvalidInput),
    ({"type": "place", "player": 0, "value": 3, "column": 7}, InvalidInput),
    ({"type": "place", "player": 0, "value": True, "column": 1}, InvalidInput),
    ({"type": "resolve", "player": 0, "column": 1}, InvalidInput),
    ({"type": "collect", "player": 2}, InvalidInput),
    ({"type": "deal", "player": -1, "card": "car:800000"}, InvalidInput),
    ({"type": "jump", "player": 0}, InvalidInput),
    ({"player": 0}, InvalidInput),
    ("place", InvalidInput),
    ({"type": "place", "player": 0, "value": 3, "column": 1}, None),
])
def test_malformed_moves(move_json, error):
    if error is None:
        assert dv.move_from_json(move_json).to_json() == move_json
    else:
        with pytest.raises(error):
            dv.move_from_json(move_json)


def test_move_for_a_missing_player_is_malformed(build):
    with pytest.raises(InvalidInput):
        dv.apply(build(3, phase=PLACE, to_move=0), dv.Place(4, 1, 0))


@pytest.mark.parametrize("options", [
    {"trade_in": "row"}, {"rounds": 0}, {"rounds": True}, {"tiebreak": "oldest"}, {"money_low_cards": 18},
    {"one_of_each_in_round_one": "yes"}, {"colour": "red"}, {"two_player_rounds": -1}, "fast",
])
def test_bad_options(options):
    with pytest.raises(InvalidInput):
        dv.new_game(3, options, 1)


@pytest.mark.parametrize("players", [1, 6, "3", True])
def test_bad_player_counts(players):
    with pytest.raises(InvalidInput):
        dv.new_game(players, None, 1)


def test_states_validate_themselves(build):
    good = build(3).to_json()
    for key, value in [("phase", "lunch"), ("players", 7), ("columns", [[]] * 6), ("to_move", 5),
                       ("under", [[[0, 9]]] + [[]] * 6), ("goods", [["yacht:1"], [], []]), ("game", "daluigi")]:
        with pytest.raises(InvalidInput):
            dv.state_from_json({**good, key: value})
    assert dv.state_from_json(good) == build(3)
    assert good["to_move"] == ANYONE and good["phase"] == DISTRIBUTE
