"""Moves of Ligretto.  Spaces in moves are ``(row, column)``.

- ``Place``: a card on two spaces that share an edge; ``cells[i]`` gets the card's
  ``colours[i]``; ``token`` is the token it is played at (``None``: none), ``to`` (0 or 1) the
  half the token moves to; ``relocate`` marks the card that moves a blocked token.
- ``PlaceJoker``: a joker on one space next to ``token``; the token moves onto it.
- ``ToPlayerBoard``: after scoring, a player puts cards on their player board.
- ``NextRound``: the players clear the board and set the four tokens (player ANYONE).
- ``SetTokens``: before the first card of a round, the players move the tokens (ANYONE).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union

from ..common import ANYONE, require_dict, require_field
from ..errors import InvalidInput

Cell = tuple[int, int]


def _cell(value: Any, what: str) -> Cell:
    if (not isinstance(value, (list, tuple)) or len(value) != 2
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in value)):
        raise InvalidInput(f"{what} must be [row, column] of integers, got {value!r}")
    return (value[0], value[1])


def _adjacent(a: Cell, b: Cell) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


@dataclass(frozen=True)
class Place:
    player: int
    card: int
    cells: tuple[Cell, Cell]
    token: int | None
    to: int = 1
    relocate: bool = False

    def __post_init__(self) -> None:
        if len(self.cells) != 2 or not _adjacent(*self.cells):
            raise InvalidInput(f"a card covers two spaces that share an edge, got {list(self.cells)}")
        if self.to not in (0, 1):
            raise InvalidInput(f"'to' names the card half the token moves to (0 or 1), got {self.to!r}")

    def to_json(self) -> dict:
        return {"type": "place", "player": self.player, "card": self.card,
                "cells": [list(c) for c in self.cells], "token": self.token, "to": self.to,
                "relocate": self.relocate}


@dataclass(frozen=True)
class PlaceJoker:
    player: int
    joker: int
    cell: Cell
    token: int | None

    def to_json(self) -> dict:
        return {"type": "joker", "player": self.player, "joker": self.joker, "cell": list(self.cell),
                "token": self.token}


@dataclass(frozen=True)
class ToPlayerBoard:
    player: int
    cards: tuple[int, ...]

    def to_json(self) -> dict:
        return {"type": "player_board", "player": self.player, "cards": list(self.cards)}


@dataclass(frozen=True)
class NextRound:
    tokens: tuple[Cell, ...]
    player: int = ANYONE

    def to_json(self) -> dict:
        return {"type": "next_round", "player": self.player, "tokens": [list(c) for c in self.tokens]}


@dataclass(frozen=True)
class SetTokens:
    tokens: tuple[Cell, ...]
    player: int = ANYONE

    def to_json(self) -> dict:
        return {"type": "tokens", "player": self.player, "tokens": [list(c) for c in self.tokens]}


Move = Union[Place, PlaceJoker, ToPlayerBoard, NextRound, SetTokens]


def _optional_int(d: dict, key: str, what: str) -> int | None:
    value = d.get(key)
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise InvalidInput(f"{what} field {key!r} must be an integer or null, got {value!r}")
    return value


def move_from_json(data: Any) -> Move:
    d = require_dict(data, "move")
    kind = require_field(d, "type", str, "move")
    player = require_field(d, "player", int, "move")
    what = f"{kind} move"
    if kind == "place":
        cells = require_field(d, "cells", list, what)
        if len(cells) != 2:
            raise InvalidInput(f"a place move names 2 cells, got {len(cells)}")
        relocate = d.get("relocate", False)
        if not isinstance(relocate, bool):
            raise InvalidInput(f"place move field 'relocate' must be a boolean, got {relocate!r}")
        return Place(player, require_field(d, "card", int, what), (_cell(cells[0], "cell"), _cell(cells[1], "cell")),
                     _optional_int(d, "token", what), require_field(d, "to", int, what), relocate)
    if kind == "joker":
        return PlaceJoker(player, require_field(d, "joker", int, what), _cell(require_field(d, "cell", list, what), "cell"),
                          _optional_int(d, "token", what))
    if kind == "player_board":
        cards = require_field(d, "cards", list, what)
        if not all(isinstance(c, int) and not isinstance(c, bool) for c in cards):
            raise InvalidInput(f"player_board move 'cards' must be card ids, got {cards!r}")
        return ToPlayerBoard(player, tuple(cards))
    if kind in ("next_round", "tokens"):
        cells = tuple(_cell(c, "token cell") for c in require_field(d, "tokens", list, what))
        return NextRound(cells, player) if kind == "next_round" else SetTokens(cells, player)
    raise InvalidInput(f"unknown Ligretto move type {kind!r}; expected place, joker, player_board, next_round or tokens")
