"""Shared builders for the Ligretto tests: a small board where every rule is easy to break."""

from __future__ import annotations

from dataclasses import replace

from tableref.rules import ligretto as L

#: 5x5 board, one hole at [4, 4]; token 0 stands in the middle on red.
SMALL_BOARD = {
    "name": "small",
    "rows": ["RYGBR", "YGBRY", "GBRYG", "BRYGB", "RYGB."],
    "tokens": [[2, 2], [0, 0], [0, 4], [4, 0]],
}


def small_game(players: int = 2, **options) -> L.State:
    return L.new_game(players, {"board": SMALL_BOARD, **options})


def play(state: L.State, *moves) -> L.State:
    for move in moves:
        state = L.apply(state, move)
    return state


def with_hands(state: L.State, *hands) -> L.State:
    """``state`` with the given hands (cards leave the game for the scenario; not conserved)."""
    return replace(state, hands=tuple(tuple(h) for h in hands))

#: Player 0's yellow/green card right of token 0 (token 0 then stands on [2, 4]).
GOOD_MOVE = L.Place(0, 3, ((2, 3), (2, 4)), 0, 1)
