"""The referee: legal moves are explained, illegal placements are reported, doubt is forgiven."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from ligretto_helpers import GOOD_MOVE, small_game
from tableref.rules import ligretto as L
from tableref.rules.playout import random_playout


def _midgame(players: int, seed: int, steps: int) -> L.State:
    rng = random.Random(seed)
    state = L.new_game(players, {"rounds": 1})
    for _ in range(steps):
        if state.phase != "play":
            break
        state = L.apply(state, rng.choice(L.legal_moves(state)))
    return state


@pytest.mark.parametrize("players,seed", [(p, s) for p in (2, 3, 4) for s in range(4)])
def test_each_random_move_explains_the_next_observation(players, seed):
    rng = random.Random(seed)
    state = L.new_game(players, {"rounds": 1})
    for _ in range(12):
        if L.is_over(state):
            break
        after = L.apply(state, rng.choice(L.legal_moves(state)))
        verdict = L.referee(state, L.observe(after))
        visible = L.observe(after) != L.observe(state)
        assert verdict.legal
        if visible:
            assert verdict.state == after
        state = after


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3), (4, 4)])
def test_two_players_placing_at_once_are_both_explained(players, seed):
    state = _midgame(players, seed, 6)
    first = next(m for m in L.legal_moves(state) if m.player == 0 and isinstance(m, L.Place))
    mid = L.apply(state, first)
    second = next(m for m in L.legal_moves(mid) if m.player == 1 and isinstance(m, L.Place))
    after = L.apply(mid, second)
    verdict = L.referee(state, L.observe(after))
    assert verdict.legal and len(verdict.moves) == 2   # the order of the two is not observable
    assert L.observe(verdict.state) == L.observe(after)
    assert sorted(verdict.state.pieces, key=str) == sorted(after.pieces, key=str)
    assert {m.player for m in verdict.moves} == {0, 1}


@pytest.mark.parametrize("kind", L.ILLEGAL_KINDS)
@pytest.mark.parametrize("seed", range(3))
def test_illegal_placement_is_reported(kind, seed):
    rng = random.Random(seed)
    state, move = None, None
    for s in range(seed, seed + 60):
        state = _midgame(2 + s % 3, s, rng.randint(2, 20))
        if kind.startswith("joker"):
            joker = next((m for m in L.legal_moves(state) if isinstance(m, L.PlaceJoker)), None)
            if joker is None:
                continue
            state = L.apply(state, joker)
        if state.phase == "play":
            move = L.illegal_placement(state, rng, kind)
        if move is not None:
            break
    assert move is not None
    after, faults = L.place_anyway(state, move)
    verdict = L.referee(state, L.observe(after))
    assert not verdict.legal
    assert [(v.code, v.player) for v in verdict.violations] == [(f"ligretto.{kind}", move.player)]
    assert any(p.startswith("cell:") for p in verdict.violations[0].pieces)
    misplaced = [p for p in verdict.state.pieces if p.faults]
    assert [p.player for p in misplaced] == [move.player]                 # kept on the board, marked


@pytest.mark.parametrize("what", ["cover", "token"])
def test_a_doubtful_misread_does_not_defeat_the_legal_explanation(what):
    state = small_game(2)
    after = L.apply(state, GOOD_MOVE)
    obs = L.observe(after)
    cells = list(obs.cells)
    i = next(n for n, c in enumerate(cells) if c.cell == (0, 2))
    if what == "cover":
        cells[i] = replace(cells[i], cover="card", owner=1, colour="green", confidence=0.3)
    else:
        cells[i] = replace(cells[i], token=True, token_confidence=0.4)
    verdict = L.referee(state, replace(obs, cells=tuple(cells)))
    assert verdict.legal and verdict.moves == (GOOD_MOVE,) and verdict.state == after
    assert verdict.explanations[0].cost == pytest.approx(0.3 if what == "cover" else 0.4)


@pytest.mark.parametrize("halves, as_joker, other_owner", [
    (1, False, True), (2, False, True), (1, True, False), (1, True, True)])
def test_a_sure_misread_border_is_not_a_concealing_card(halves, as_joker, other_owner):
    # the card placed earlier is seen, surely, in another player's border on one or both
    # halves, or as a joker (its colours and token as they were): the referee keeps the card
    # it knows
    before_next = L.apply(small_game(2), GOOD_MOVE)
    cells = list(L.observe(before_next).cells)
    placed = [n for n, c in enumerate(cells) if c.cover == "card"]
    assert len(placed) == 2
    for n in placed[:halves]:
        owner = 1 - cells[n].owner if other_owner else cells[n].owner
        misread = dict(cover="joker", colour=None, owner=owner) if as_joker else dict(owner=owner)
        cells[n] = replace(cells[n], confidence=1.0, **misread)
    verdict = L.referee(before_next, replace(L.observe(before_next), cells=tuple(cells)))
    assert verdict.legal and verdict.moves == () and verdict.state == before_next
    assert verdict.note.startswith(L.NOT_EXPLAINED)


@pytest.mark.parametrize("hide", ["token half", "other half"])
def test_a_card_with_one_half_unreadable_is_still_explained_legally(hide):
    # a hand over one half of the card just placed: the camera reads one half, the other is
    # unknown (cover None); the legal placement explains it, nothing is flagged
    state = small_game(2)
    after = L.apply(state, GOOD_MOVE)
    cells = list(L.observe(after).cells)
    halves = [n for n, c in enumerate(cells) if c.cover == "card"]
    n = next(k for k in halves if cells[k].token == (hide == "token half"))
    cells[n] = replace(cells[n], cover=None, owner=None, colour=None, confidence=0.0, token=None,
                       token_confidence=0.0)
    verdict = L.referee(state, replace(L.observe(after), cells=tuple(cells)))
    assert verdict.legal and verdict.state.pieces == after.pieces


@pytest.mark.parametrize("misread", ["other border", "joker", "absent player's border", "border unread"])
@pytest.mark.parametrize("half", ["token half", "other half"])
def test_a_new_card_with_one_half_misread_is_explained_legally(misread, half):
    # the card just placed shows one half, surely, in another player's border (one who plays,
    # or one who does not), as a joker, or with its border unread: one card misread, not two
    # players' pieces and a token on the nearer half, nor an observation to refuse
    state = small_game(2)
    after = L.apply(state, GOOD_MOVE)
    cells = list(L.observe(after).cells)
    halves = [n for n, c in enumerate(cells) if c.cover == "card"]
    n = next(k for k in halves if cells[k].token == (half == "token half"))
    owner = {"absent player's border": 3, "border unread": None}.get(misread, 1 - cells[n].owner)
    wrong = dict(cover="joker", colour=None) if misread == "joker" else {}
    cells[n] = replace(cells[n], owner=owner, confidence=0.95, **wrong)
    verdict = L.referee(state, replace(L.observe(after), cells=tuple(cells)))
    assert verdict.legal and verdict.moves == (GOOD_MOVE,) and verdict.state == after
    unexplained = 0.0 if owner is None or owner >= state.players else 0.95
    assert verdict.explanations[0].cost == pytest.approx(unexplained)


def test_contested_space_first_card_stays():
    """"The card that is placed on the board first is allowed to stay on the board." """
    state = small_game(2)
    first = GOOD_MOVE                                              # player 0 on [2,3]-[2,4]
    mid = L.apply(state, first)
    late = L.Place(1, 15 + 3, ((2, 4), (1, 4)), None, 1)           # player 1's card lands on top of [2,4]
    shown, _ = L.place_anyway(mid, late)
    verdict = L.referee(state, L.observe(shown))
    assert [v.code for v in verdict.violations] == ["ligretto.contested"]
    assert verdict.violations[0].player == 1                        # the JSON index stays 0-based
    assert verdict.violations[0].sentence == ("Players 1 and 2 played on the same space at once: player 1's "
                                              "card was first and stays; player 2 takes theirs back.")
    assert verdict.state.pieces == mid.pieces                       # the late card went back
    assert not any(p.faults for p in verdict.state.pieces)


def test_round_end_and_next_round_are_explained():
    rng = random.Random(9)
    state = L.new_game(3, {"rounds": 2})
    while state.phase == "play":
        state = L.apply(state, rng.choice(L.legal_moves(state)))
    target = state
    while target.phase == "player_boards":
        target = L.apply(target, L.legal_moves(target)[0])
    cleared = L.apply(target, L.legal_moves(target)[0])           # NextRound
    verdict = L.referee(state, L.observe(cleared))
    assert verdict.legal and verdict.state == cleared


def _playout_step(players: int, seed: int, wanted) -> tuple[L.State, L.State]:
    """``(before, after)`` around the first move equal to ``wanted`` in ``random_playout(seed)``."""
    found = []
    random_playout(L, players, seed, on_move=lambda b, m, a: found.append((b, a)) if m == wanted else None)
    assert found, f"{wanted} is not played in seed {seed}"
    return found[0]


@pytest.mark.parametrize("players,seed,move,kept", [
    # the last owed board triggers the removal rule; both cards go straight back to the hand, unseen
    (4, 41, L.ToPlayerBoard(0, (6, 13)), ((), (), (), ())),
    # two players, an optional board: the two cards come off again at once
    (2, 1, L.ToPlayerBoard(0, (8, 12)), ((), ())),
    # three players: the removal rule leaves player 1 the two cards put there last
    (3, 3, L.ToPlayerBoard(0, (0, 5)), ((), (26, 28), ())),
])
def test_the_last_player_board_and_the_removal_rule_are_explained(players, seed, move, kept):
    """"If every player has cards on their player board, then all of the players take exactly two
    cards off their player boards." """
    before, after = _playout_step(players, seed, move)
    assert before.phase == "player_boards" and after.player_boards == kept
    verdict = L.referee(before, L.observe(after))
    assert verdict.legal and verdict.note == ""
    assert [type(m) for m in verdict.moves] == [L.ToPlayerBoard] and verdict.moves[0].player == move.player
    assert L.observe(verdict.state) == L.observe(after)
    assert verdict.state.phase == after.phase and verdict.state.round == after.round


@pytest.mark.parametrize("confidence,starts", [(1.0, L.NOT_EXPLAINED), (0.6, L.NOT_EXPLAINED), (0.3, "doubtful")])
def test_a_legal_verdict_says_what_it_leaves_unexplained(confidence, starts):
    state = L.apply(small_game(2), GOOD_MOVE)
    obs = L.observe(state)
    cells = list(obs.cells)
    i = next(n for n, c in enumerate(cells) if c.cell == (4, 2))   # no move puts a token there
    cells[i] = replace(cells[i], token=True, token_confidence=confidence)
    verdict = L.referee(state, replace(obs, cells=tuple(cells)))
    assert verdict.legal and verdict.moves == () and verdict.state == state
    assert verdict.note.startswith(starts)
    assert ("token [4, 2]" in verdict.note) == (starts == L.NOT_EXPLAINED)


def test_json_round_trips():
    state = _midgame(3, 5, 10)
    obs = L.observe(state)
    assert L.observation_from_json(json.loads(json.dumps(obs.to_json()))) == obs
    verdict = L.referee(state, obs)
    assert json.loads(json.dumps(verdict.to_json()))["legal"] is True


def _round_cleared_case(seed: int):
    """(the state two placements before a round's end, the next round's first table)."""
    rng = random.Random(seed)
    history = [L.new_game(3, {"rounds": 2})]
    while history[-1].phase == "play":
        history.append(L.apply(history[-1], rng.choice(L.legal_moves(history[-1]))))
    target = history[-1]
    while target.phase == "player_boards":
        target = L.apply(target, L.legal_moves(target)[0])
    return history[-3], L.apply(target, L.legal_moves(target)[0])  # NextRound


@pytest.mark.parametrize("seed", [9, 10, 11])
def test_a_board_cleared_while_the_game_has_the_round_running_is_flagged_once_and_followed(seed):
    """Two placements the camera missed: the round's end is not the game's. The cleared board
    is flagged (ligretto.round_cleared) and the game goes on from the next round."""
    held, cleared = _round_cleared_case(seed)
    assert held.phase == "play" and held.pieces and all(held.hands)
    verdict = L.referee(held, L.observe(cleared))
    assert not verdict.legal and [v.code for v in verdict.violations] == ["ligretto.round_cleared"]
    stopper = min(range(3), key=lambda p: (len(held.hands[p]), p))
    assert verdict.violations[0].player == stopper and "cards left" in verdict.violations[0].sentence
    assert verdict.state.round == held.round + 1 and verdict.state.phase == "play" and not verdict.state.pieces
    assert verdict.state.tokens == cleared.tokens and len(verdict.state.results) == 1
    # the next reading of the new round is then explained legally
    assert L.referee(verdict.state, L.observe(verdict.state)).legal


def test_a_board_hidden_by_a_hand_is_not_taken_for_a_cleared_one():
    held, cleared = _round_cleared_case(9)
    under = {c for piece in held.pieces for c in piece.cells}
    obs = L.observe(cleared)
    hidden = tuple(replace(c, cover=None, owner=None, colour=None, token=None, confidence=0.0, token_confidence=0.0)
                   if held.board.index(c.cell, "cell") in under else c for c in obs.cells)
    verdict = L.referee(held, replace(obs, cells=hidden))
    assert "ligretto.round_cleared" not in [v.code for v in verdict.violations]
    assert verdict.state.round == held.round
