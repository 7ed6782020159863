"""The rulebook's worked example and its rules, each as a scenario."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from ligretto_helpers import GOOD_MOVE, small_game, with_hands
from tableref.rules import ligretto as L
from tableref.rules.errors import IllegalMove, InvalidInput

RUDI, LENA, FABIAN, ALEX = 0, 1, 2, 3


def _stop_position(players: int, left: list[int], **options) -> tuple[L.State, L.Place]:
    """Player 0 holds one card that fits; the others hold ``left[p]`` cards."""
    state = L.new_game(players, options)
    move = next(m for m in L.legal_moves(state) if m.player == 0 and isinstance(m, L.Place))
    hands = [(move.card,)] + [state.hands[p][:left[p]] for p in range(1, players)]
    return with_hands(state, *hands), move


def test_rulebook_four_player_example():
    """"Rudi is the first to put down all of his cards ... Rudi scores two points. Lena and Fabian
    each have two cards left, which means they score one point each. Alex still has four cards
    left, does not score any points, but does put two of his cards on his player board." """
    state, last = _stop_position(4, [0, 2, 2, 4])
    state = L.apply(state, last)
    assert (state.ended, state.stopper) == ("stop", RUDI)
    assert state.results[-1] == (2, 1, 1, 0)
    assert state.phase == "player_boards" and state.owes == ((ALEX, True),)
    assert all(m.player == ALEX and len(m.cards) == 2 for m in L.legal_moves(state))
    with pytest.raises(IllegalMove, match="player_board"):
        L.apply(state, L.ToPlayerBoard(LENA, state.hands[LENA]))
    state = L.apply(state, L.ToPlayerBoard(ALEX, state.hands[ALEX][:2]))
    assert len(state.player_boards[ALEX]) == 2 and state.phase == "next_round"
    assert L.score(state).totals == (2, 1, 1, 0) and L.score(state).winners == (RUDI,)


@pytest.mark.parametrize("option,owes,decline_ok", [
    ("optional", ((1, False),), True),
    ("mandatory", ((1, True),), False),
])
def test_two_player_exception(option, owes, decline_ok):
    """"In a game with two players, only the player who ends the round scores points. The other
    player ... is allowed to put two of their cards on their player board." """
    state, last = _stop_position(2, [0, 1], two_player_board=option)
    state = with_hands(state, state.hands[0], L.new_game(2).hands[1][:5])
    state = L.apply(state, last)
    assert state.results[-1] == (2, 0) and state.owes == owes
    if decline_ok:
        assert L.apply(state, L.ToPlayerBoard(1, ())).phase == "next_round"
    else:
        with pytest.raises(IllegalMove):
            L.apply(state, L.ToPlayerBoard(1, ()))


@pytest.mark.parametrize("faulty,stop_mistake,points,owes", [
    # "A player who makes a mistake positioning cards does not score any points and is not allowed
    # to put any cards on their playing board."
    (ALEX, "nobody", (2, 1, 1, 0), ()),
    (LENA, "nobody", (2, 0, 1, 0), ((ALEX, True),)),
    # the player who called stop made a mistake: nobody takes the two points, or the fewest left
    (RUDI, "nobody", (0, 1, 1, 0), ((ALEX, True),)),
    (RUDI, "fewest", (0, 2, 2, 1), ()),
])
def test_a_misplaced_card_scores_nothing(faulty, stop_mistake, points, owes):
    state, last = _stop_position(4, [0, 2, 2, 4], stop_mistake=stop_mistake)
    bad = L.Piece("card", 15 * faulty + 14, (0,), ("ligretto.colours_mismatch",))
    bad = replace(bad, cells=(state.board.index((7, 19)), state.board.index((7, 18))))
    state = replace(state, pieces=(bad,))
    state = L.apply(state, last)
    assert state.results[-1] == points
    assert state.owes == owes


@pytest.mark.parametrize("down,winner_rule,tie,points", [
    # "If it is not possible for any of the players to put down a card, the round ends immediately.
    # The player who was able to put down the most cards wins the round."
    # cards left are (5, 4, 4, 1): after the winner(s), player 3 has the fewest and takes one point
    ((3, 1, 1, 0), "most_put_down", "all", (2, 0, 0, 1)),
    ((3, 3, 1, 0), "most_put_down", "all", (2, 2, 0, 1)),
    ((3, 3, 1, 0), "most_put_down", "nobody", (0, 0, 0, 1)),
    ((3, 1, 1, 0), "fewest_left", "all", (0, 1, 1, 2)),
])
def test_round_ends_when_nobody_can_play(down, winner_rule, tie, points):
    from tableref.rules.ligretto.scoring import round_points
    state = L.new_game(4, {"blocked_winner": winner_rule, "blocked_tie": tie})
    pieces, spaces = [], iter(state.board.spaces())
    for p, n in enumerate(down):
        for k in range(n):
            pieces.append(L.Piece("card", 15 * p + k, (next(spaces), next(spaces))))
    hands = [(0,) * 5, (0,) * 4, (0,) * 4, (0,) * 1]
    state = replace(state, pieces=tuple(pieces), hands=tuple(hands), ended="blocked")
    assert round_points(state)[0] == points


def test_player_boards_are_emptied_by_two_when_everyone_has_cards():
    """"If every player has cards on their player board, then all of the players take exactly two
    cards off their player boards." """
    state, last = _stop_position(3, [0, 2, 4])
    boards = ((1, 2), (16, 17, 18), (31, 32))
    state = replace(state, player_boards=boards)
    state = L.apply(state, last)                     # player 2 owes two more cards
    hand2 = state.hands[2]
    state = L.apply(state, L.ToPlayerBoard(2, hand2[:2]))
    assert state.player_boards == ((), (18,), hand2[:2])
    assert set(boards[0]) <= set(state.hands[0])


def test_token_moves_to_the_farther_colour():
    """"The Ligretto token is always placed on the colour that is further away from the previous
    position of the Ligretto token." -- for a card laid along or across the token's side."""
    state = small_game(2)
    along = L.apply(state, GOOD_MOVE)
    assert along.board.cell(along.tokens[0]) == (2, 4)
    beside = [m for m in L.legal_moves(state) if isinstance(m, L.Place) and m.token == 0]
    for move in beside:
        after = L.apply(state, move)
        moved_to = after.board.cell(after.tokens[0])
        assert moved_to == move.cells[move.to]
        assert abs(moved_to[0] - 2) + abs(moved_to[1] - 2) == 2  # never the half beside the token


def test_joker_bridges_and_locks_its_token():
    """"put it on one of the ... free and permitted spaces next to the Ligretto token and immediately
    move the Ligretto token to the joker. Only the player who used the joker is allowed to put a
    card next to it. That card needs to be played immediately after playing the joker." """
    state = L.apply(small_game(2), L.PlaceJoker(0, 0, (2, 3), 0))
    assert state.board.cell(state.tokens[0]) == (2, 3) and state.locks == ((0, 0),)
    mine = [m for m in L.legal_moves(state) if m.player == 0]
    assert mine and all(m.token == 0 for m in mine)
    assert all(m.token != 0 for m in L.legal_moves(state) if m.player == 1)
    follow = next(m for m in mine if isinstance(m, L.Place))
    after = L.apply(state, follow)
    assert after.locks == ()


def _first_with(players: int, seed: int, predicate, **options):
    rng = random.Random(seed)
    state = L.new_game(players, {"rounds": 1, **options})
    while not L.is_over(state):
        if predicate(state):
            return state
        state = L.apply(state, rng.choice(L.legal_moves(state)))
    return None


@pytest.mark.parametrize("seed", range(6))
def test_blocked_token_is_moved_by_the_player_who_blocked_it(seed):
    """"that player puts their next card on any free space on the board that matches the colours on
    their card. That player immediately puts the blocked Ligretto token on one of the two new
    spaces." """
    state = None
    for s in range(seed, seed + 40):
        state = _first_with(2 + s % 3, s, lambda st: bool(st.relocations) and not st.locks)
        if state is not None:
            break
    assert state is not None
    player, token = state.relocations[0]
    moves = [m for m in L.legal_moves(state) if m.player == player]
    assert moves and all(m.relocate for m in moves)
    move = moves[len(moves) // 2]
    after = L.apply(state, move)
    assert after.board.cell(after.tokens[move.token]) == move.cells[move.to]


@pytest.mark.parametrize("rounds", [1, 2, 3])
def test_a_game_has_the_chosen_number_of_rounds(rounds):
    rng = random.Random(rounds)
    state = L.new_game(3, {"rounds": rounds})
    while not L.is_over(state):
        state = L.apply(state, rng.choice(L.legal_moves(state)))
    assert len(state.results) == rounds and state.round == rounds
    final = L.score(state)
    assert final.final and sum(final.totals) == sum(map(sum, state.results))


@pytest.mark.parametrize("options,message", [
    ({"rounds": 0}, "rounds"),
    ({"touch": "nose"}, "touch"),
    ({"colour_blind": True}, "unknown Ligretto option"),
    ({"board": "moon"}, "unknown board preset"),
    ({"board": {"name": "x", "rows": ["RZ"], "tokens": []}}, "letter 'Z'"),
    ({"board": {"name": "x", "rows": ["RYGB", "YGB"], "tokens": []}}, "different lengths"),
    ({"board": {"name": "x", "rows": ["RYGB"], "tokens": [[0, 0], [0, 1], [0, 2]]}}, "4 distinct token"),
    ({"board": {"name": "x", "rows": ["RYG."], "tokens": [[0, 0], [0, 1], [0, 2], [0, 3]]}}, "not a space"),
])
def test_bad_options_and_boards(options, message):
    with pytest.raises(InvalidInput, match=message):
        L.new_game(2, options)


@pytest.mark.parametrize("players,board", [(2, "two_player"), (3, "three_four_player"), (4, "three_four_player")])
def test_presets_by_player_count(players, board):
    state = L.new_game(players)
    assert state.board.name == board and state.board.assumed
    assert len(state.board.sections) == (6 if players == 2 else 10)
    assert L.new_game(players, {"sections": 9}).board.name == ("two_player" if players == 2 else "three_four_player_9")
