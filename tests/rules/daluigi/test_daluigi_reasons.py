"""Every reason code: a position or move that breaks exactly that rule gets exactly that code."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tableref.rules import daluigi
from tableref.rules.common import CHANCE
from tableref.rules.daluigi import Item, Move, Observation
from tableref.rules.daluigi.catalogue import CUBE_COUNTS
from tableref.rules.daluigi.state import Guest
from tableref.rules.errors import IllegalMove


def _base(table, **options):
    """Player 0 to act: guests G26 (blue, slot 2) and G02 (green green, slot 3); a full market."""
    s = table.full_market(table.empty(**options))
    return table.guest(table.guest(s, 0, 2, "G26"), 0, 3, "G02")


def _phase(s, tasks, who):
    return replace(s, tasks=tasks, to_move=who)


def _serving(table, supply):
    s = table.supply(_base(table), 0, supply)
    return _phase(s, (("serve", 0), ("end_turn",)), 0)


def _jokers(table, supply, **options):
    s = table.supply(_base(table, **options), 0, supply)
    return _phase(s, (("jokers", 0), ("end_turn",)), 0)


def _assign(table, players=2):
    s = table.full_market(table.empty(players=players))
    return daluigi.apply(daluigi.apply(s, Move("welcome", 0)), Move("card", CHANCE, card="G26"))


MOVE_CASES = [
    ("daluigi.game_over", lambda t: replace(_base(t), over=True), Move("shop", 0, field=0)),
    ("daluigi.not_your_turn", _base, Move("shop", 1, field=0)),
    ("daluigi.wrong_phase", _base, Move("serve", 0)),
    ("daluigi.no_guest", lambda t: t.full_market(t.empty()), Move("shop", 0, field=0)),
    ("daluigi.field_empty", lambda t: t.market(_base(t), {0: []}), Move("shop", 0, field=0)),
    ("daluigi.unpaid", _base, Move("shop", 0, field=3)),
    ("daluigi.overpaid", _base, Move("shop", 0, field=0, pushes=("G02",))),
    ("daluigi.field_not_free", _base, Move("shop", 0, field=3, pushes=("G26",))),
    ("daluigi.unknown_guest", _base, Move("shop", 0, field=3, pushes=("G99",))),
    ("daluigi.final_round_serve_only", lambda t: replace(_base(t), end_triggered=True, final_turns=2),
     Move("welcome", 0)),
    ("daluigi.pass_not_allowed", _base, Move("pass", 0)),
    ("daluigi.wrong_dish", lambda t: _serving(t, ["blue", "green", "green"]),
     Move("serve", 0, place=(("G02", "green"), ("G26", "green")))),
    ("daluigi.cube_not_in_supply", lambda t: _serving(t, ["blue", "green"]),
     Move("serve", 0, place=(("G02", "green"), ("G02", "green")))),
    ("daluigi.must_serve", lambda t: _serving(t, ["blue", "green"]), Move("serve", 0, place=(("G02", "green"),))),
    ("daluigi.joker_incomplete", lambda t: _jokers(t, ["brown"] * 4, jokers="each"),
     Move("joker", 0, guest="G02", pay=("brown", "brown"))),
    ("daluigi.joker_payment", lambda t: _jokers(t, ["brown"] * 4),
     Move("joker", 0, guest="G26", pay=("brown", "brown", "brown"))),
    ("daluigi.give_rule", lambda t: _assign(t), Move("give", 0, to=2)),
    ("daluigi.wrong_card", lambda t: daluigi.apply(t.full_market(t.empty()), Move("welcome", 0)),
     Move("card", CHANCE, card="S1")),
    ("daluigi.cube_not_in_bag", lambda t: _phase(replace(_base(t), bag=(0, 0, 0, 0, 0, 5)),
                                                 (("draw", "field", 0),), CHANCE), Move("cube", CHANCE, colour="red")),
    ("daluigi.nothing_to_discard", lambda t: _phase(t.supply(_base(t), 0, ["red"]), (("discard", 0),), 0),
     Move("discard", 0, what="flower")),
    ("daluigi.flower_unavailable", lambda t: _phase(replace(_base(t), market_flowers=0, market_lemons=0),
                                                    (("flower", 0),), 0), Move("flower", 0, take=True)),
    ("daluigi.return_count", lambda t: _phase(t.supply(_base(t), 0, ["orange"] * 12), (("return", 0),), 0),
     Move("return", 0, cubes=("orange",))),
]


@pytest.mark.parametrize("code,build,move", MOVE_CASES, ids=[c[0] for c in MOVE_CASES])
def test_illegal_move_gets_its_code(table, code, build, move):
    state = build(table)
    before = state.to_json()
    with pytest.raises(IllegalMove) as err:
        daluigi.apply(state, move)
    assert err.value.code == code and err.value.sentence
    assert state.to_json() == before


def _strip(s, player, slots):
    strips = list(s.strips)
    strips[player] = tuple(slots)
    return replace(s, strips=tuple(strips))


POSITION_CASES = [
    ("daluigi.market_overfull", lambda t: t.market(_base(t), {0: ["red", "red"]})),
    ("daluigi.cube_count", lambda t: replace(_base(t), bag=_base(t).bag[:5] + (_base(t).bag[5] + 1,))),
    ("daluigi.order_not_collected", lambda t: t.guest(_base(t), 0, 5, "G40", ["blue"])),
    ("daluigi.wrong_dish", lambda t: t.guest(_base(t), 0, 5, "G40", ["red"])),
    ("daluigi.must_serve", lambda t: t.supply(_base(t), 0, ["blue"])),
]


@pytest.mark.parametrize("code,build", POSITION_CASES, ids=[c[0] for c in POSITION_CASES])
def test_position_violation_gets_its_code(table, code, build):
    assert daluigi.violations(_base(table)) == []
    found = daluigi.violations(build(table))
    assert [v.code for v in found] == [code] and found[0].sentence


def _seen(state, **labels):
    """The perfect observation of ``state`` with some places relabelled (keys use '_' for ':')."""
    changes = {k.replace("_", ":"): v for k, v in labels.items()}
    items = [Item(it.where, changes.pop(it.where, it.label), 1.0) for it in daluigi.observe(state).items]
    items += [Item(w, label, 1.0) for w, label in changes.items()]
    return Observation(tuple(items))


def _shop_turn(table):
    s = table.market(_base(table), {4: ["orange", "yellow"]})
    return s


SEEN_CASES = [
    # shopping a 1-clock field without pushing anyone
    ("daluigi.unpaid", _shop_turn, {"market_4": "", "supply_0": "orange,yellow"}),
    # two fields emptied in one turn, paid for one
    ("daluigi.one_field", _shop_turn,
     {"market_4": "", "market_0": "", "slot_0_3": "", "order_0_3": "", "slot_0_4": "G02",
      "supply_0": "orange,yellow,yellow"}),
    # G26 jumps over G02 to pay one clock
    ("daluigi.field_not_free", _shop_turn,
     {"market_4": "", "slot_0_2": "", "order_0_2": "", "slot_0_3": "G02", "slot_0_4": "G26", "order_0_4": "",
      "order_0_3": "", "supply_0": "orange,yellow"}),
    ("daluigi.guest_moved_left", _shop_turn, {"slot_0_2": "G02", "slot_0_3": "", "order_0_3": "", "order_0_2": ""}),
    ("daluigi.lemons_and_flowers", _shop_turn, {"lemons_0": "1", "flowers_0": "1"}),
    ("daluigi.wrong_dish", _shop_turn,
     {"market_0": "", "supply_0": "", "order_0_3": "yellow"}),
    # the blue die G26 wants kept in the supply, and the turn seen over (the emptied top row refilled)
    ("daluigi.must_serve", lambda t: t.market(_base(t), {0: ["blue"], 1: [], 2: []}),
     {"market_0": "yellow", "market_1": "yellow", "market_2": "yellow", "supply_0": "blue"}),
    ("daluigi.unexplained", _shop_turn, {"served_0": "3"}),
]


@pytest.mark.parametrize("code,build,labels", SEEN_CASES, ids=[c[0] for c in SEEN_CASES])
def test_referee_reports_the_broken_rule(table, code, build, labels):
    state = build(table)
    verdict = daluigi.referee(state, _seen(state, **labels))
    assert not verdict.legal
    assert [v.code for v in verdict.violations] == [code], [str(v) for v in verdict.violations]
    assert verdict.violations[0].player == 0


def test_referee_reports_a_guest_under_the_wrong_segment(table):
    s = _assign(table)  # G26 (waits 40) revealed, player 0 to give it away
    seen = _seen(s, revealed="", slot_1_4="G26", order_1_4="")
    verdict = daluigi.referee(s, seen)
    assert [v.code for v in verdict.violations] == ["daluigi.wrong_segment"]
    assert verdict.violations[0].player == 1 and verdict.state.strips[1][4] == Guest("G26", (0,) * 6)


def test_every_reason_code_is_tested():
    tested = {c[0] for c in MOVE_CASES + POSITION_CASES + SEEN_CASES} | {"daluigi.wrong_segment"}
    assert tested == set(daluigi.REASONS)


def test_cube_counts_match_the_rulebook():
    assert CUBE_COUNTS == (10, 12, 14, 16, 18, 20) and sum(CUBE_COUNTS) == 90
