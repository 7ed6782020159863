"""The referee: legal changes are explained by their moves; misreads in doubt, or one sure misread, do not defeat them."""

from __future__ import annotations

import json
import random

import pytest

from tableref.rules import daluigi
from tableref.rules.common import CHANCE
from tableref.rules.daluigi import Item, Observation
from tableref.rules.daluigi.referee import ACTIONS
from tableref.rules.daluigi.state import evolve
from tableref.rules.errors import InvalidInput


def _relabel(observation, where, label, confidence):
    return Observation(tuple(Item(it.where, label, confidence) if it.where == where else it
                             for it in observation.items))


def _random_move(s, rng: random.Random):
    """The chance event due, drawn; else one of the legal moves at random."""
    return daluigi.sample_chance(s, rng) if s.to_move == CHANCE else rng.choice(daluigi.legal_moves(s))


def _states(seed: int, players: int, stride: int):
    """Every ``stride``-th (state, move, next state) of a random game."""
    rng = random.Random(seed)
    s = daluigi.new_game(players, None, seed)
    k = 0
    while not daluigi.is_over(s):
        m = _random_move(s, rng)
        nxt = daluigi.apply(s, m)
        if k % stride == 0:
            yield s, m, nxt
        s, k = nxt, k + 1


def test_no_change_is_no_move():
    s = daluigi.new_game(3, None, 4)
    verdict = daluigi.referee(s, daluigi.observe(s))
    assert verdict.legal and verdict.moves == () and verdict.state == s
    assert json.loads(json.dumps(verdict.to_json()))["legal"] is True


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3)])
def test_each_random_move_is_explained_by_it(players, seed):
    for s, move, nxt in _states(seed, players, stride=9):
        verdict = daluigi.referee(s, daluigi.observe(nxt))
        assert verdict.legal, (str(move), [str(v) for v in verdict.violations])
        best = verdict.explanations[0]
        assert best.cost == 0 and daluigi.observe(best.state) == daluigi.observe(nxt)
        if move.type in ("shop", "serve", "give", "cube"):
            assert best.moves == (move,)


def _set_up(players: int, seed: int):
    """A game started without a seed, its setup drawn and served at random: the table when the
    first player may act."""
    rng = random.Random(seed)
    s = daluigi.new_game(players, None, None)
    while s.to_move == CHANCE or s.phase == "serve":
        move = _random_move(s, rng)
        s = daluigi.apply(s, move)
    return s


@pytest.mark.parametrize("players,seed", [(2, 9), (2, 11), (3, 1), (3, 5), (4, 4), (4, 22)])
def test_a_setup_whose_start_card_was_served_before_the_camera_saw_it_is_explained(players, seed):
    # setup draws 3 dice per player; a 2-dish start card they fulfil is cleared away at once, so
    # the first reading may show it in the served pile and nowhere else
    table = _set_up(players, seed)
    assert any(table.served)
    verdict = daluigi.referee(daluigi.new_game(players, None, None), daluigi.observe(table))
    assert verdict.legal, [str(v) for v in verdict.violations]
    assert verdict.explanations[0].cost == 0 and daluigi.observe(verdict.state) == daluigi.observe(table)


@pytest.mark.parametrize("players,seed", [(2, 11), (3, 12), (4, 13)])
def test_whole_shopping_turn_with_serving_and_refill_is_explained(players, seed):
    rng = random.Random(seed)
    s = daluigi.new_game(players, None, seed)
    explained = 0
    while not daluigi.is_over(s) and explained < 4:
        turn, cur, moves = s.turn, s, []
        while not daluigi.is_over(cur) and cur.turn == turn:
            legal = daluigi.legal_moves(cur)
            shops = [m for m in legal if m.type == "shop"]
            m = (daluigi.sample_chance(cur, rng) if cur.to_move == CHANCE
                 else rng.choice(shops or legal))
            cur = daluigi.apply(cur, m)
            moves.append(m)
        if moves and moves[0].type == "shop":
            verdict = daluigi.referee(s, daluigi.observe(cur))
            assert verdict.legal and verdict.explanations[0].cost == 0
            assert daluigi.observe(verdict.state) == daluigi.observe(cur)
            # the same field; the pushes may differ where a guest served at once hides them
            assert (verdict.moves[0].type, verdict.moves[0].field) == ("shop", moves[0].field)
            explained += 1
        s = cur
    assert explained == 4


def _shopped(seed: int):
    """A two-player game's state before a purchase, the purchase, and what the table shows after it."""
    s = daluigi.new_game(2, None, seed)
    while s.phase != "action":
        s = daluigi.apply(s, daluigi.legal_moves(s)[0])
    shop = next(m for m in daluigi.legal_moves(s) if m.type == "shop" and m.field >= 3)
    return s, shop, daluigi.observe(daluigi.apply(s, shop))


#: A wrong reading per kind of place.
WRONG = {"supply": "brown,brown,brown,brown,brown", "market": "orange,orange", "slot": "G01"}


@pytest.mark.parametrize("misreads,legal", [
    ((("supply", 0.3),), True),
    ((("market", 0.49),), True),
    ((("slot", 0.2),), True),
    ((("supply", 0.9),), True),                    # one sure reading, not certain: a misreading
    ((("market", 0.6), ("supply", 0.3)), True),    # the doubtful one does not count
    ((("supply", 0.55), ("market", 0.55)), False),  # two sure readings: what the table shows
    ((("supply", 1.0),), False),                   # a certain reading
])
def test_misreads_defeat_the_legal_move_only_when_sure_enough(misreads, legal):
    s, shop, seen = _shopped(21)
    places = {"supply": f"supply:{shop.player}", "market": "market:0", "slot": f"slot:{1 - shop.player}:0"}
    for kind, confidence in misreads:
        seen = _relabel(seen, places[kind], WRONG[kind], confidence)
    verdict = daluigi.referee(s, seen)
    assert verdict.legal is legal
    if legal:
        assert verdict.moves[0] == shop
        assert verdict.explanations[0].cost == pytest.approx(sum(c for _, c in misreads))
        sure = [places[kind] for kind, c in misreads if c >= 0.5]
        assert all(where in verdict.note for where in sure)
        assert ("taken as misread" in verdict.note) is bool(sure)
    else:
        assert verdict.violations


def test_unknown_and_unseen_items_do_not_count():
    s = daluigi.new_game(2, None, 22)
    seen = daluigi.observe(s)
    items = tuple(Item(it.where, "?", 0.9) if it.kind == "market" else it for it in seen.items
                  if it.kind != "supply")
    verdict = daluigi.referee(s, Observation(items))
    assert verdict.legal and verdict.moves == ()


def test_observation_round_trip_and_bad_input():
    seen = daluigi.observe(daluigi.new_game(4, None, 3))
    assert daluigi.observation_from_json(json.loads(json.dumps(seen.to_json()))) == seen
    bad = [
        {"items": [{"where": "table:1", "label": ""}]},
        {"items": [{"where": "market:1", "label": "purple"}]},
        {"items": [{"where": "served:1", "label": "many"}]},
        {"items": [{"where": "market:1", "label": "", "confidence": 1.5}]},
        {"items": [{"where": "market:1", "label": ""}, {"where": "market:1", "label": "red"}]},
        {"game": "ligretto", "items": []},
        [],
    ]
    for data in bad:
        with pytest.raises(InvalidInput):
            daluigi.observation_from_json(data)
    with pytest.raises(InvalidInput, match="players 0 to 1"):
        daluigi.referee(daluigi.new_game(2, None, 1), Observation((Item("supply:3", ""),)))


def _guest_with_dice(seed: int):
    """A state of a random two-player game in which a guest card holds dice, and where it lies."""
    for s, _, _ in _states(seed, 2, stride=1):
        for p, strip in enumerate(s.strips):
            for slot, guest in enumerate(strip):
                if guest is not None and sum(guest.cubes) >= 1:
                    return s, f"{p}:{slot}"
    raise AssertionError("no guest got a die")


@pytest.mark.parametrize("change,legal", [
    ("fewer", True),     # dice leave a guest card only with it: the missing die went unseen
    ("more", False),     # a die that is not there, read for certain
])
def test_dice_on_a_guest_card_read_fewer_are_unseen(change, legal):
    s, place = _guest_with_dice(31)
    seen = daluigi.observe(s)
    dice = next(it.label for it in seen.items if it.where == f"order:{place}").split(",")
    label = ",".join(dice[1:] if change == "fewer" else dice + ["red"])
    verdict = daluigi.referee(s, _relabel(seen, f"order:{place}", label, 1.0))
    assert verdict.legal is legal
    if legal:
        assert verdict.moves == () and f"order:{place}" in verdict.note


@pytest.mark.parametrize("second,legal", [
    ("same card's dice", True),    # read for the misread card: one misreading with it
    ("another card's dice", False),
])
def test_a_misread_card_and_its_dice_are_one_misreading(second, legal):
    s, place = _guest_with_dice(32)
    seen = daluigi.observe(s)
    card = next(it.label for it in seen.items if it.where == f"slot:{place}")
    seen = _relabel(seen, f"slot:{place}", "G01" if card != "G01" else "G02", 0.8)
    other = place if second == "same card's dice" else next(
        it.where.split(":", 1)[1] for it in seen.items if it.kind == "slot" and it.label and it.where != f"slot:{place}")
    dice = next(it.label for it in seen.items if it.where == f"order:{other}")
    seen = _relabel(seen, f"order:{other}", ",".join(x for x in (dice, "red") if x), 0.8)
    assert daluigi.referee(s, seen).legal is legal


def _two_turns(players: int, seed: int):
    """A state where a player is to act, and the state two turn actions later (shopping where
    a player can), each with what follows it; the table changed between them."""
    rng = random.Random(seed)
    s = daluigi.new_game(players, None, seed)
    while True:
        start, cur, acted = s, s, 0
        while acted < 2 or cur.to_move == CHANCE or cur.tasks:
            legal = daluigi.legal_moves(cur)
            if cur.to_move == CHANCE:
                move = daluigi.sample_chance(cur, rng)
            else:
                if acted == 2 and any(m.type in ACTIONS for m in legal):
                    break  # the third turn begins
                shops = [m for m in legal if m.type == "shop"]
                move = rng.choice(shops or legal)
                acted += move.type in ACTIONS
            cur = daluigi.apply(cur, move)
        if daluigi.observe(cur) != daluigi.observe(start):
            return start, cur
        s = cur


@pytest.mark.parametrize("turns, legal", [(1, False), (2, True), (3, True)])
def test_a_change_of_two_turns_is_explained_only_when_two_turns_are_allowed(turns, legal):
    before, after = _two_turns(3, 21)
    verdict = daluigi.referee(before, daluigi.observe(after), turns=turns)
    assert verdict.legal is legal
    if legal:
        assert verdict.explanations[0].cost == 0 and daluigi.observe(verdict.state) == daluigi.observe(after)


@pytest.mark.parametrize("turns", [0, 11, True, 1.5])
def test_turns_out_of_range_are_refused(turns):
    s = daluigi.new_game(3, None, 4)
    with pytest.raises(InvalidInput, match="turns"):
        daluigi.referee(s, daluigi.observe(s), turns=turns)


def _refill_then_purchase(players: int, seed: int, field: int | None = None):
    """A state whose next chance draws refill a market row, and the table once the next player has
    bought one of the refilled fields (the reading missed the refill): (before, after). With
    ``field``, the refill starts at that field and the field bought is that one."""
    rng = random.Random(seed)
    s = daluigi.new_game(players, None, seed)
    while not daluigi.is_over(s):
        head = s.tasks[0] if s.tasks else None
        if (s.to_move == CHANCE and head is not None and head[0] == "draw" and head[1] == "field" and s.turn > 0
                and field in (None, head[2])):
            refilled = {t[2] for t in s.tasks if t[0] == "draw" and t[1] == "field"} if field is None else {field}
            cur = s
            while (cur.to_move == CHANCE or not any(m.type == "shop" for m in daluigi.legal_moves(cur))) \
                    and not cur.over:
                cur = daluigi.apply(cur, _random_move(cur, rng))
            buys = [m for m in daluigi.legal_moves(cur) if m.type == "shop" and m.field in refilled]
            if buys:
                after = daluigi.apply(cur, rng.choice(buys))
                while after.to_move == CHANCE or after.tasks:
                    after = daluigi.apply(after, _random_move(after, rng))
                return s, after
        s = daluigi.apply(s, _random_move(s, rng))
    raise AssertionError("no refill followed by a purchase of a refilled field")


@pytest.mark.parametrize("players, seed", [(2, 3), (3, 7), (4, 5)])
def test_a_refill_and_the_purchase_of_a_refilled_field_are_explained_together(players, seed):
    # the dice drawn onto the field bought are seen nowhere on the market: they are guided by
    # the colours the buyer now holds more of
    before, after = _refill_then_purchase(players, seed)
    verdict = daluigi.referee(before, daluigi.observe(after))
    assert verdict.legal and verdict.explanations[0].cost == 0
    assert daluigi.observe(verdict.state) == daluigi.observe(after)


@pytest.mark.parametrize("seed", [3, 11])
def test_what_is_kept_with_a_state_is_its_own(seed):
    """The labels, holdings and legal moves kept with a state once worked out (``KEPT``) are
    those of the state itself, never of the one it was evolved from."""
    from tableref.rules.daluigi.observation import _labels, expected_labels, labels_of
    from tableref.rules.daluigi.referee import _held, _holding
    from tableref.rules.daluigi.state import KEPT
    from tableref.rules.daluigi.legal import enumerate_moves
    for s, _, nxt in _states(seed, 3, 7):
        for state in (s, nxt):
            daluigi.legal_moves(state), labels_of(state), _held(state, 0)
            assert set(KEPT) <= set(state.__dict__)
        changed = evolve(s, supply=nxt.supply, market=nxt.market, strips=nxt.strips, to_move=nxt.to_move,
                         tasks=nxt.tasks)
        assert not set(KEPT) & set(changed.__dict__)
        assert labels_of(changed) == _labels(changed)
        assert [_held(changed, p) for p in range(3)] == [_holding(changed, p) for p in range(3)]
        assert daluigi.legal_moves(changed) == list(enumerate_moves(changed))
        assert expected_labels(s) is not labels_of(s)  # the public copy may be changed


def _reveal_after_a_stand_in(seed: int):
    """A state in which a welcome's next card is revealed, with that card put face down in a served
    pile as a stand-in for a served card the camera did not see (the two swapped), and the table
    once the card is revealed: (state held, the true state, the table)."""
    rng = random.Random(seed)
    s = daluigi.new_game(3, None, seed)
    while not daluigi.is_over(s):
        move = _random_move(s, rng)
        served = [(p, i, c) for p, pile in enumerate(s.served) for i, c in enumerate(pile) if not c.startswith("S")]
        if s.to_move == CHANCE and s.tasks[0][0] == "reveal" and served:
            p, i, stand_in = served[0]
            pile = list(s.served[p])
            pile[i] = move.card
            held = evolve(s, served=tuple(tuple(pile) if q == p else x for q, x in enumerate(s.served)),
                          unseen=tuple(stand_in if c == move.card else c for c in s.unseen))
            return held, s, daluigi.apply(s, move)
        s = daluigi.apply(s, move)
    raise AssertionError("no welcome after a guest was served")


@pytest.mark.parametrize("seed", [2, 5, 8])
def test_a_card_seen_that_the_state_has_served_face_down_was_a_stand_in(seed):
    # "collected face down in a pile": which card was served unseen is a guess; a card the table
    # then shows goes back among those not yet seen, and its drawing is legal
    held, truth, after = _reveal_after_a_stand_in(seed)
    assert daluigi.referee(truth, daluigi.observe(after)).legal
    verdict = daluigi.referee(held, daluigi.observe(after))
    assert verdict.legal and verdict.explanations[0].cost == 0
    assert after.revealed not in {c for pile in verdict.state.served for c in pile}
    assert sorted(c for pile in verdict.state.served for c in pile) != sorted(c for pile in held.served for c in pile)


def _turn_end_then_two_fields(players: int, seed: int, due: str):
    """A state in which the end of a turn is still due (``due``: "draw", the market's refill, or
    "jokers", the player's last choice), and the table once the next player has taken the dice of
    two fields untouched by the refill: (state, the next player's state before taking, the table)."""
    rng = random.Random(seed)
    s = daluigi.new_game(players, None, seed)
    while not daluigi.is_over(s):
        if s.phase == due and s.turn > 0 and (due != "draw" or s.tasks[0][1] == "field"):
            refilled = {t[2] for t in s.tasks if t[0] == "draw" and t[1] == "field"}
            cur = s
            while cur.phase != "action" and not cur.over:
                cur = daluigi.apply(cur, daluigi.sample_chance(cur, rng) if cur.to_move == CHANCE
                                    else next(m for m in daluigi.legal_moves(cur) if m.type == "done"))
            fields = [f for f, cubes in enumerate(cur.market) if any(cubes) and f not in refilled][:2]
            if cur.phase == "action" and cur.active != s.active and len(fields) == 2:
                taken = tuple(map(sum, zip(*(cur.market[f] for f in fields))))
                supply = tuple(tuple(map(sum, zip(x, taken))) if p == cur.active else x
                               for p, x in enumerate(cur.supply))
                market = tuple((0,) * len(x) if f in fields else x for f, x in enumerate(cur.market))
                return s, cur, evolve(cur, market=market, supply=supply)
        s = daluigi.apply(s, _random_move(s, rng))
    raise AssertionError(f"no {due} at a turn's end followed by a turn")


@pytest.mark.parametrize("players, seed, due", [(2, 3, "draw"), (3, 7, "draw"), (4, 5, "draw"),
                                                (2, 4, "jokers"), (3, 6, "jokers")])
def test_a_purchase_after_an_unseen_turn_end_is_judged_as_the_next_players(players, seed, due):
    # the reading before did not show the turn's end (its refill under a hand, or the jokers'
    # "done", which shows nothing); the next player then takes two fields: the flag names that
    # player, and the game goes on after their purchase
    before, turn, table = _turn_end_then_two_fields(players, seed, due)
    verdict = daluigi.referee(before, daluigi.observe(table))
    assert not verdict.legal
    flags = {(v.code, v.player) for v in verdict.violations}
    assert ("daluigi.one_field", turn.active) in flags, flags
    assert not (verdict.state.phase == "action" and verdict.state.active == turn.active)


@pytest.mark.parametrize("players, seed", [(2, 3), (3, 3), (4, 2)])
def test_a_long_refill_does_not_use_up_the_searchs_patience(players, seed):
    # the first field's four dice are drawn and then seen gone: drawing them matches nothing.
    # Games 1..8 for 2, 3 and 4 players: 12 of 23 such changes explained, none before (in the
    # others the dice drawn onto the field bought are guessed wrong)
    before, after = _refill_then_purchase(players, seed, field=9)
    verdict = daluigi.referee(before, daluigi.observe(after))
    assert verdict.legal and verdict.explanations[0].cost == 0


def _refill_from_a_bag_held_short(players: int, seed: int):
    """A state whose next chance draws refill the market, held with its bag short of dice (one die
    of a colour the refill does not draw, the rest counted among the used dice beside the market),
    and the table after the refill: (state held, the table)."""
    rng = random.Random(seed)
    s = daluigi.new_game(players, None, seed)
    while not daluigi.is_over(s):
        if s.phase == "draw" and s.tasks[0][1] == "field" and s.turn > 0:
            after = s
            while after.to_move == CHANCE:
                after = daluigi.apply(after, daluigi.sample_chance(after, rng))
            recycled = [a - b for a, b in zip(after.used, s.used)]  # not 0: the used dice went back in the bag
            new = [sum(x) - sum(y) for x, y in zip(zip(*after.market), zip(*s.market))]
            spare = [c for c, n in enumerate(new) if n == 0 and s.bag[c] > 0]
            if spare and not any(recycled):
                one = tuple(int(c == spare[0]) for c in range(len(s.bag)))
                used = tuple(u + b - o for u, b, o in zip(s.used, s.bag, one))
                return evolve(s, bag=one, used=used), after
        s = daluigi.apply(s, _random_move(s, rng))
    raise AssertionError("no refill leaving a colour undrawn")


@pytest.mark.parametrize("players, seed", [(2, 4), (3, 5), (4, 6)])
def test_dice_drawn_that_the_bag_held_does_not_have_come_from_the_used_dice(players, seed):
    # "When the bag is empty, all food dice collected next to the marketplace are placed back in
    # the bag": the state's bag, off by a die, is taken to have been emptied and refilled
    held, after = _refill_from_a_bag_held_short(players, seed)
    verdict = daluigi.referee(held, daluigi.observe(after))
    assert verdict.legal and verdict.explanations[0].cost == 0
    assert sum(verdict.state.used) == 0
