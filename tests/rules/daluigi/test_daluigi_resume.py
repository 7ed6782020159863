"""The state a verdict continues from: flagged, and playable (wrong dice, purchases seen before serving)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from tableref.rules import daluigi
from tableref.rules.common import CHANCE
from tableref.rules.daluigi import Item, Observation
from tableref.rules.daluigi.engine import resume
from tableref.rules.daluigi.overlay import overlay
from tableref.rules.daluigi.referee import DOUBT

PLAYOUT_MOVES = 3000


def _base(table, market):
    """Player 0 to act: G26 (blue, slot 2) and G02 (green green, slot 3); player 1: G40 (blue, slot 1)."""
    s = table.market(table.full_market(table.empty()), market)
    return table.guest(table.guest(table.guest(s, 0, 2, "G26"), 0, 3, "G02"), 1, 1, "G40")


def _seen(state, labels):
    changes = {k.replace("_", ":"): v for k, v in labels.items()}
    items = [Item(it.where, changes.pop(it.where, it.label), 1.0) for it in daluigi.observe(state).items]
    return Observation(tuple(items + [Item(w, label, 1.0) for w, label in changes.items()]))


def _plays_to_the_end(state, seed):
    rng = random.Random(seed)
    for _ in range(PLAYOUT_MOVES):
        if daluigi.is_over(state):
            return True
        moves = daluigi.legal_moves(state)
        assert moves, f"no legal move in phase {state.phase}"
        state = daluigi.apply(state, daluigi.sample_chance(state, rng) if state.to_move == CHANCE
                              else rng.choice(moves))
    return False


WRONG_DIE_CASES = [
    # field 0's blue die put on G02 (green green) instead of G26: back to the supply, then served to G26
    ({0: ["blue"]}, {"market_0": "", "supply_0": "", "order_0_3": "blue"}, "blue", (0, 0, 0, 0, 0, 0)),
    # a red die of the supply put on G02 beside a green one; the red stays in the supply
    ({}, {"supply_0": "", "order_0_3": "green,red"}, "red", (0, 0, 0, 0, 1, 0)),
]


@pytest.mark.parametrize("market,labels,colour,supply_after", WRONG_DIE_CASES)
def test_a_die_on_a_field_of_another_colour_is_flagged_and_play_goes_on(table, market, labels, colour,
                                                                        supply_after):
    s = _base(table, market)
    if "market_0" not in labels:
        s = table.supply(s, 0, ["green", "red"])
    seen = _seen(s, labels)
    as_seen = overlay(s, seen, DOUBT)
    found = daluigi.violations(as_seen)
    assert [(v.code, v.player) for v in found] == [("daluigi.wrong_dish", 0)]
    assert f"cube:{colour}" in found[0].pieces
    verdict = daluigi.referee(s, seen)
    assert [(v.code, v.player) for v in verdict.violations] == [("daluigi.wrong_dish", 0)]
    assert verdict.state.supply[0] == supply_after
    assert daluigi.violations(verdict.state) == []
    assert daluigi.legal_moves(verdict.state)
    assert _plays_to_the_end(verdict.state, seed=7)


@pytest.mark.parametrize("order", ["red", "red,red,red", "blue,green"])
def test_a_wrong_die_never_leaves_the_serving_without_moves(table, order):
    """The position as seen itself, serving due: the wrong die opens no field and fills none."""
    s = table.supply(_base(table, {}), 0, ["blue", "green", "green"])
    s = replace(s, tasks=(("serve", 0), ("end_turn",)), to_move=0)
    as_seen = overlay(s, _seen(s, {"order_0_3": order}), DOUBT)
    moves = daluigi.legal_moves(as_seen)
    assert moves and all(m.type == "serve" for m in moves)
    assert _plays_to_the_end(resume(as_seen), seed=8)


PURCHASE_CASES = [
    # field 4 (1 clock) taken without pushing a guest, seen before its dice are placed
    (4, ["blue", "green"], "daluigi.unpaid"),
    (6, ["green", "green", "yellow"], "daluigi.unpaid"),
    # a free top-row field: legal, its serving still to come
    (0, ["blue"], None),
]


@pytest.mark.parametrize("field,dice,code", PURCHASE_CASES)
def test_a_purchase_seen_before_serving_is_not_a_must_serve(table, field, dice, code):
    s = _base(table, {field: dice})
    seen = _seen(s, {f"market_{field}": "", "supply_0": ",".join(dice)})
    verdict = daluigi.referee(s, seen)
    assert [v.code for v in verdict.violations] == ([code] if code else [])
    # the player serves next: the table after that is what the verdict continues from, or a legal step
    served = resume(replace(overlay(s, seen, DOUBT), tasks=(("serve", 0), ("end_turn",))))
    if served.to_move == 0 and served.phase == "serve":
        served = daluigi.apply(served, daluigi.legal_moves(served)[0])
    after = daluigi.referee(verdict.state, daluigi.observe(served))
    assert after.legal, [str(v) for v in after.violations]


def test_must_serve_once_the_next_player_is_seen(table):
    """The die G26 wants left in the supply, then player 1 takes a field: now it is flagged."""
    s = _base(table, {0: ["blue"], 1: ["red"]})
    verdict = daluigi.referee(s, _seen(s, {"market_0": "", "supply_0": "blue"}))
    assert verdict.legal
    later = _seen(verdict.state, {"market_0": "", "market_1": "", "supply_0": "blue", "supply_1": "red"})
    codes = [(v.code, v.player) for v in daluigi.referee(verdict.state, later).violations]
    assert ("daluigi.must_serve", 0) in codes
