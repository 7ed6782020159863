"""Scoring a round and the game.

"First, the player who put down all of the cards in their hand takes one of the two-point
victory chips. The rest of the players count up the remaining cards in their hands. The
player with the fewest cards in their hand takes one one-point victory chip. If there is a
tie, the players who tied each take one one-point chip. The remaining players do not score
any points. Instead, they each put two of their cards on their player boards."
"""

from __future__ import annotations

from ..common import Score
from .state import State

#: The victory chip of the player who ends the round, and of the runner(s)-up.
WIN_POINTS, RUNNER_UP_POINTS = 2, 1
#: Cards a player who scored nothing puts on their player board, and takes off again.
PLAYER_BOARD_CARDS = 2


def faulty_players(state: State) -> set[int]:
    """"If a player made a mistake positioning a card, that player does not participate in the
    subsequent scoring of the round." """
    return {piece.player for piece in state.pieces if piece.faults}


def cards_put_down(state: State) -> tuple[int, ...]:
    """Cards each player put down this round (jokers too under option ``jokers_count``)."""
    counted = ("card", "joker") if state.opts["jokers_count"] else ("card",)
    out = [0] * state.players
    for piece in state.pieces:
        if piece.kind in counted:
            out[piece.player] += 1
    return tuple(out)


def _extreme(players: list[int], value, best) -> list[int]:
    if not players:
        return []
    target = best(value(p) for p in players)
    return [p for p in players if value(p) == target]


def round_winners(state: State, participants: list[int]) -> list[int]:
    """Who takes the two-point chip.

    Stop: "the player who put down all of the cards in their hand" (option ``stop_mistake``
    when that player made a mistake).  Nobody can play: "The player who was able to put down
    the most cards wins the round." (options ``blocked_winner``, ``blocked_tie``).
    """
    left = [len(h) for h in state.hands]
    if state.ended == "stop":
        if state.stopper in participants:
            return [state.stopper]
        if state.opts["stop_mistake"] == "fewest":
            return _extreme(participants, lambda p: left[p], min)
        return []
    if state.opts["blocked_winner"] == "most_put_down":
        down = cards_put_down(state)
        tied = _extreme(participants, lambda p: down[p], max)
    else:
        tied = _extreme(participants, lambda p: left[p], min)
    if len(tied) > 1 and state.opts["blocked_tie"] == "nobody":
        return []
    return tied


def round_points(state: State) -> tuple[tuple[int, ...], tuple[tuple[int, bool], ...]]:
    """Points of a round that has just ended, and ``(player, mandatory)`` who put cards on their
    player board.

    "Exception: In a game with two players, only the player who ends the round scores points.
    The other player does not score any points, but is allowed to put two of their cards on
    their player board."  "A player who makes a mistake positioning cards does not score any
    points and is not allowed to put any cards on their playing board."
    """
    faulty = faulty_players(state)
    participants = [p for p in range(state.players) if p not in faulty]
    winners = round_winners(state, participants)
    points = [0] * state.players
    for w in winners:
        points[w] = WIN_POINTS
    rest = [p for p in participants if p not in winners]
    if state.players == 2:
        mandatory = state.opts["two_player_board"] == "mandatory"
        owes = [(p, mandatory) for p in rest]
    else:
        left = [len(h) for h in state.hands]
        runners_up = _extreme(rest, lambda p: left[p], min)
        for p in runners_up:
            points[p] = RUNNER_UP_POINTS
        owes = [(p, True) for p in rest if p not in runners_up]
    return tuple(points), tuple((p, m) for p, m in owes if state.hands[p])


def score(state: State) -> Score:
    """Points per finished round; "The player who scores the most points in the predetermined
    number of rounds wins the game." (option ``game_tie`` for a tie)."""
    n = state.players
    parts = {f"round {r + 1}": pts for r, pts in enumerate(state.results)}
    totals = tuple(sum(pts[p] for pts in state.results) for p in range(n))
    best = max(totals)
    winners = [p for p in range(n) if totals[p] == best]
    tiebreak = ""
    if len(winners) > 1 and state.opts["game_tie"] == "rounds_won":
        won = [sum(1 for pts in state.results if pts[p] == WIN_POINTS) for p in range(n)]
        most = max(won[p] for p in winners)
        winners = [p for p in winners if won[p] == most]
        tiebreak = "Tied on points: the most rounds won decides."
    if len(winners) > 1:
        tiebreak = (tiebreak + " " if tiebreak else "") + "Tied players share the win."
    return Score(totals=totals, parts=parts, winners=tuple(winners), tiebreak=tiebreak,
                 final=state.phase == "over")
