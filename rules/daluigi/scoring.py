"""Scoring: 'players count the points brought in by their served guests ... For every lemon a player
has, 1 point is deducted; for every flower bouquet, 1 point is added.'"""

from __future__ import annotations

from ..common import Score, player_name
from .rulebook import card_of
from .state import State


def dice_held(state: State, player: int) -> int:
    """'food dice in their supply and on their guest cards' (the tie-break)."""
    on_guests = sum(sum(g.cubes) for g in state.strips[player] if g is not None)
    return sum(state.supply[player]) + on_guests


def score(state: State) -> Score:
    """Points per player; 'The player with the most points wins. In case of a tie, the tied player with
    more food dice in their supply and on their guest cards wins. If there is still a tie, there are
    multiple winners.'"""
    n = state.players
    guests = tuple(sum(card_of(state, c).points for c in state.served[p]) for p in range(n))
    flowers = tuple(max(0, t) for t in state.tiles)
    lemons = tuple(min(0, t) for t in state.tiles)
    totals = tuple(g + f + l for g, f, l in zip(guests, flowers, lemons))
    best = max(totals)
    tied = [p for p in range(n) if totals[p] == best]
    tiebreak = ""
    winners = tied
    if len(tied) > 1:
        dice = {p: dice_held(state, p) for p in tied}
        most = max(dice.values())
        winners = [p for p in tied if dice[p] == most]
        names = ", ".join(f"{player_name(p)} ({dice[p]} dice)" for p in tied)
        if len(winners) == 1:
            tiebreak = f"Tied on {best} points, broken by the most food dice in supply and on guests: {names}."
        else:
            tiebreak = (f"Tied on {best} points and on food dice held: {names}; there are multiple winners.")
    return Score(totals=totals, parts={"guests": guests, "flowers": flowers, "lemons": lemons},
                 winners=tuple(winners), tiebreak=tiebreak, final=state.over)
