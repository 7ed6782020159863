"""Lookups built once per board, and the placement moves shared by every state on it.

A board never changes, so the ``(row, column)`` of each space and the placements the engine
offers are built once per board and then looked up.  Moves are frozen dataclasses, so the same
object can stand in every list of legal moves that contains it: building the long lists of a
random game then costs a dictionary look-up per move instead of a validated construction.
"""

from __future__ import annotations

from functools import lru_cache

from .board import Board
from .moves import Cell, Place, PlaceJoker
from .state import State

#: Boards whose tables are kept (a session plays on one or two; a test suite on a handful).
BOARDS_KEPT = 16


class Tables:
    """``rc[i]``: the ``(row, column)`` of space ``i``; :meth:`place` and :meth:`joker`: the
    shared placement moves, by space index."""

    __slots__ = ("rc", "_places", "_jokers")

    def __init__(self, board: Board) -> None:
        self.rc: tuple[Cell, ...] = tuple(board.cell(i) for i in range(len(board.colours)))
        self._places: dict[tuple, Place] = {}
        self._jokers: dict[tuple, PlaceJoker] = {}

    def place(self, player: int, card: int, a: int, b: int, token: int | None, to: int,
              relocate: bool = False) -> Place:
        """``Place(player, card, (cell of a, cell of b), token, to, relocate)``."""
        key = (player, card, a, b, token, to, relocate)
        move = self._places.get(key)
        if move is None:
            move = self._places[key] = Place(player, card, (self.rc[a], self.rc[b]), token, to, relocate)
        return move

    def joker(self, player: int, joker: int, cell: int, token: int | None) -> PlaceJoker:
        """``PlaceJoker(player, joker, cell of cell, token)``."""
        key = (player, joker, cell, token)
        move = self._jokers.get(key)
        if move is None:
            move = self._jokers[key] = PlaceJoker(player, joker, self.rc[cell], token)
        return move


@lru_cache(maxsize=BOARDS_KEPT)
def board_tables(board: Board) -> Tables:
    return Tables(board)


def tables(state: State) -> Tables:
    """The tables of ``state.board`` (kept in ``state.memo`` too, so a board is hashed once per state)."""
    out = state.memo.get("tables")
    if out is None:
        out = state.memo["tables"] = board_tables(state.board)
    return out
