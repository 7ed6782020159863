"""What a camera sees of a Ligretto table, and how far a state is from it.

Per board space: what covers it (a card: its owner and the colour of the half on this space;
a joker: its owner; nothing) and whether a token stands on it.  Per player: the cards left in
hand (a count, when visible: the face-down pile is hidden while a round is played, the players
count their cards when it ends) and the cards on the player board (their colours).  Each item
has a confidence in [0, 1]; ``None`` means unknown.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..common import player_name, require_dict, require_field
from ..errors import InvalidInput
from .catalogue import COLOURS, card_colours
from .geometry import class_key
from .state import FREE, NAME, State

COVERS = ("card", "joker", "none")
#: Confidence at and above which an item counts as seen for sure (below it, a disagreeing item
#: must not defeat a legal explanation).
SURE = 0.5


def _confidence(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
        raise InvalidInput(f"{what} must be a number in [0, 1], got {value!r}")
    return float(value)


@dataclass(frozen=True)
class CellSeen:
    """One board space: ``cover`` in COVERS or None (unknown); ``owner`` and ``colour`` of a card
    (``colour`` None for a joker or nothing); ``token`` True/False/None."""

    cell: tuple[int, int]
    cover: str | None
    owner: int | None = None
    colour: str | None = None
    confidence: float = 1.0
    token: bool | None = None
    token_confidence: float = 1.0

    def __post_init__(self) -> None:
        if self.cover not in COVERS + (None,):
            raise InvalidInput(f"cell cover must be one of {COVERS} or null, got {self.cover!r}")
        if self.colour is not None and self.colour not in COLOURS:
            raise InvalidInput(f"cell colour must be one of {COLOURS} or null, got {self.colour!r}")
        if self.cover == "none" and (self.owner is not None or self.colour is not None):
            raise InvalidInput(f"an empty space {list(self.cell)} has no owner or colour")
        if self.cover == "joker" and self.colour is not None:
            raise InvalidInput(f"a joker on {list(self.cell)} has no colour")
        _confidence(self.confidence, "cell confidence")
        _confidence(self.token_confidence, "token confidence")

    def expected(self) -> tuple:
        return (self.cover, self.owner, self.colour)

    def to_json(self) -> dict:
        return {"cell": list(self.cell), "cover": self.cover, "owner": self.owner, "colour": self.colour,
                "confidence": self.confidence, "token": self.token, "token_confidence": self.token_confidence}

    @classmethod
    def from_json(cls, data: Any) -> "CellSeen":
        d = require_dict(data, "observed cell")
        cell = require_field(d, "cell", list, "observed cell")
        if len(cell) != 2 or not all(isinstance(x, int) and not isinstance(x, bool) for x in cell):
            raise InvalidInput(f"observed cell 'cell' must be [row, column], got {cell!r}")
        owner = d.get("owner")
        if owner is not None and (isinstance(owner, bool) or not isinstance(owner, int)):
            raise InvalidInput(f"observed cell 'owner' must be a player index or null, got {owner!r}")
        token = d.get("token")
        if token is not None and not isinstance(token, bool):
            raise InvalidInput(f"observed cell 'token' must be true, false or null, got {token!r}")
        return cls((cell[0], cell[1]), d.get("cover"), owner, d.get("colour"),
                   _confidence(d.get("confidence", 1.0), "cell confidence"), token,
                   _confidence(d.get("token_confidence", 1.0), "token confidence"))


@dataclass(frozen=True)
class PlayerSeen:
    """One player: ``hand`` the count of cards left in hand (None: not visible); ``board`` the
    colour pairs on the player board, each sorted, the list sorted (None: not visible)."""

    player: int
    hand: int | None = None
    hand_confidence: float = 1.0
    board: tuple[tuple[str, str], ...] | None = None
    board_confidence: float = 1.0

    def __post_init__(self) -> None:
        if self.hand is not None and (isinstance(self.hand, bool) or not isinstance(self.hand, int) or self.hand < 0):
            raise InvalidInput(f"observed hand count must be a non-negative integer or null, got {self.hand!r}")
        if self.board is not None:
            pairs = tuple(sorted(class_key(*self._pair(p)) for p in self.board))
            object.__setattr__(self, "board", pairs)
        _confidence(self.hand_confidence, "hand confidence")
        _confidence(self.board_confidence, "player board confidence")

    @staticmethod
    def _pair(p: Any) -> tuple[str, str]:
        if not isinstance(p, (list, tuple)) or len(p) != 2 or any(c not in COLOURS for c in p):
            raise InvalidInput(f"a card on a player board is two colours of {COLOURS}, got {p!r}")
        return (p[0], p[1])

    def to_json(self) -> dict:
        return {"player": self.player, "hand": self.hand, "hand_confidence": self.hand_confidence,
                "board": None if self.board is None else [list(p) for p in self.board],
                "board_confidence": self.board_confidence}

    @classmethod
    def from_json(cls, data: Any) -> "PlayerSeen":
        d = require_dict(data, "observed player")
        board = d.get("board")
        if board is not None and not isinstance(board, list):
            raise InvalidInput(f"observed player 'board' must be a list of colour pairs or null, got {board!r}")
        return cls(require_field(d, "player", int, "observed player"), d.get("hand"),
                   _confidence(d.get("hand_confidence", 1.0), "hand confidence"),
                   None if board is None else tuple(tuple(p) if isinstance(p, list) else p for p in board),
                   _confidence(d.get("board_confidence", 1.0), "player board confidence"))


@dataclass(frozen=True)
class Observation:
    cells: tuple[CellSeen, ...]
    players: tuple[PlayerSeen, ...] = ()

    def __post_init__(self) -> None:
        seen = [c.cell for c in self.cells]
        if len(set(seen)) != len(seen):
            raise InvalidInput("an observation lists a board space twice")
        ps = [p.player for p in self.players]
        if len(set(ps)) != len(ps):
            raise InvalidInput("an observation lists a player twice")

    def to_json(self) -> dict:
        return {"game": NAME, "cells": [c.to_json() for c in self.cells],
                "players": [p.to_json() for p in self.players]}

    @classmethod
    def from_json(cls, data: Any) -> "Observation":
        d = require_dict(data, "observation")
        if d.get("game", NAME) != NAME:
            raise InvalidInput(f"observation is for game {d.get('game')!r}, expected {NAME!r}")
        return cls(tuple(CellSeen.from_json(c) for c in require_field(d, "cells", list, "observation")),
                   tuple(PlayerSeen.from_json(p) for p in d.get("players", [])))


def cell_view(state: State, index: int) -> tuple:
    """``(cover, owner, colour)`` a perfect camera sees on space ``index``."""
    n = state.cover[index]
    if n == FREE:
        return ("none", None, None)
    piece = state.pieces[n]
    return (piece.kind, piece.player, piece.colour_at(index))


def board_pairs(state: State, player: int) -> tuple[tuple[str, str], ...]:
    return tuple(sorted(class_key(*card_colours(c)) for c in state.player_boards[player]))


def observe(state: State) -> Observation:
    """What a perfect camera sees (confidence 1): hand counts only once the round has ended."""
    board = state.board
    tokens = set(state.tokens)
    cells = []
    for i in board.spaces():
        cover, owner, colour = cell_view(state, i)
        cells.append(CellSeen(board.cell(i), cover, owner, colour, 1.0, i in tokens, 1.0))
    counted = state.phase != "play"
    players = tuple(PlayerSeen(p, len(state.hands[p]) if counted else None, 1.0, board_pairs(state, p), 1.0)
                    for p in range(state.players))
    return Observation(tuple(cells), players)


def validate_for(state: State, obs: Observation) -> list[tuple[int, CellSeen]]:
    """The observed cells as ``(index, item)``; InvalidInput when one lies off the grid, or when
    the players seen name a player who is not playing. A cell whose border names a player who
    is not playing (a camera reading a fourth border style in a game of three) is that border
    misread: its owner is taken as unread (None), the rest of the reading stands."""
    out = []
    for item in obs.cells:
        i = state.board.index(item.cell, "observed cell")
        if item.owner is not None and not 0 <= item.owner < state.players:
            item = replace(item, owner=None)
        out.append((i, item))
    for p in obs.players:
        if not 0 <= p.player < state.players:
            raise InvalidInput(f"observation names player index {p.player}, "
                               f"but {state.players} play (indices 0..{state.players - 1})")
    return out


def disagreements(state: State, items: list[tuple[int, CellSeen]], players: tuple[PlayerSeen, ...]):
    """Yield ``(what, confidence)`` for every observed item that disagrees with ``state``; ``what``
    names the item (``"cell [r, c]"``, ``"token [r, c]"``, ``"player p hand"``, ``"player p board"``)."""
    tokens = set(state.tokens)
    for i, item in items:
        if item.cover is not None:
            cover, owner, colour = cell_view(state, i)
            if (item.cover != cover or (item.owner is not None and item.owner != owner)
                    or (item.colour is not None and item.colour != colour)):
                yield f"cell {list(item.cell)}", item.confidence
        if item.token is not None and item.token != (i in tokens):
            yield f"token {list(item.cell)}", item.token_confidence
    for p in players:
        if p.hand is not None and p.hand != len(state.hands[p.player]):
            yield f"{player_name(p.player)} hand", p.hand_confidence
        if p.board is not None and p.board != board_pairs(state, p.player):
            yield f"{player_name(p.player)} board", p.board_confidence


def cost(state: State, items, players) -> tuple[float, int]:
    """Summed confidence of disagreeing items, and how many of them are sure (>= SURE)."""
    total, sure = 0.0, 0
    for _, c in disagreements(state, items, players):
        total += c
        sure += c >= SURE
    return total, sure
