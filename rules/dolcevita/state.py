"""The state of a Dolce Vita game and its moves, as frozen records that round-trip through JSON.

The grid is ``COLUMNS`` columns (the rulebook's "rows"); each column lists its luxury cards
from the bottom card (slot 0, nearest the players, the first to be handed out) upwards.  Cards
lie packed from the bottom: when a card is taken the ones above slide down.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ..common import ANYONE, CHANCE, players_problem, require_dict, require_field
from ..errors import InvalidInput
from .catalogue import COLUMNS, NUMBER_VALUES, SLOTS, parse_card
from .options import check_options

NAME = "dolcevita"
MIN_PLAYERS = 2
MAX_PLAYERS = 5

#: Phases: lay out the grid (chance), place number cards, distribute column by column,
#: collect the number cards for the next round, game over.
DEAL, PLACE, DISTRIBUTE, COLLECT, OVER = "deal", "place", "distribute", "collect", "over"
PHASES = (DEAL, PLACE, DISTRIBUTE, COLLECT, OVER)


@dataclass(frozen=True)
class State:
    """One moment of a game.

    Attributes
    ----------
    players : int
        2..5 players; player 0 is the youngest (the first start player).
    options : tuple of (str, value)
        Every table option, defaults filled in, sorted by name.
    phase : str
        One of ``PHASES``.
    round : int
        The round being played, from 1.
    to_move : int
        The player to place next, ``CHANCE`` while the grid is laid out, ``ANYONE`` otherwise.
    next_column : int
        The column to distribute next (0..COLUMNS-1) while distributing.
    columns : tuple of COLUMNS tuples of str
        Luxury card labels per column, bottom card first, at most SLOTS each.
    box : tuple of str
        The luxury cards not in the grid or with a player: the undealt deck while laying out,
        then the cards back in the box.  Sorted.
    hands : tuple of tuples of int
        Number card values each player holds (hidden from the camera), ascending.
    under : tuple of COLUMNS tuples of (player, value)
        Number cards lying under each column, sorted (the order they were placed in neither
        shows on the table nor matters to the rules).
    goods : tuple of tuples of str
        Goods card labels in front of each player.
    money : tuple of tuples of int
        Money card values in front of each player, ascending.
    """

    players: int
    options: tuple[tuple[str, Any], ...]
    phase: str
    round: int
    to_move: int
    next_column: int
    columns: tuple[tuple[str, ...], ...]
    box: tuple[str, ...]
    hands: tuple[tuple[int, ...], ...]
    under: tuple[tuple[tuple[int, int], ...], ...]
    goods: tuple[tuple[str, ...], ...]
    money: tuple[tuple[int, ...], ...]

    def __post_init__(self) -> None:
        n = self.players
        problem = players_problem("Dolce Vita", n, MIN_PLAYERS, MAX_PLAYERS)
        if problem:
            raise InvalidInput(problem)
        if not (isinstance(self.round, int) and self.round >= 1):
            raise InvalidInput(f"round counts from 1, got {self.round!r}")
        if self.phase not in PHASES:
            raise InvalidInput(f"phase must be one of {PHASES}, got {self.phase!r}")
        if len(self.columns) != COLUMNS or len(self.under) != COLUMNS:
            raise InvalidInput(f"a state has {COLUMNS} columns, got {len(self.columns)} columns and "
                               f"{len(self.under)} lists of number cards under them")
        for c, column in enumerate(self.columns):
            if len(column) > SLOTS:
                raise InvalidInput(f"column {c} holds {len(column)} cards; a column has {SLOTS} slots")
        for what, rows in (("hands", self.hands), ("goods", self.goods), ("money", self.money)):
            if len(rows) != n:
                raise InvalidInput(f"{what} must list {n} players, got {len(rows)}")
        for hand in self.hands:
            if any(v not in NUMBER_VALUES for v in hand):
                raise InvalidInput(f"a hand holds number card values {NUMBER_VALUES}, got {hand}")
        for c, cards in enumerate(self.under):
            for player, value in cards:
                if not 0 <= player < n or value not in NUMBER_VALUES:
                    raise InvalidInput(f"number card ({player}, {value}) under column {c} names no player's card")
        if self.to_move not in (CHANCE, ANYONE) and not 0 <= self.to_move < n:
            raise InvalidInput(f"to_move must be a player 0..{n - 1}, CHANCE or ANYONE, got {self.to_move}")
        if not 0 <= self.next_column <= COLUMNS:
            raise InvalidInput(f"next_column must lie in 0..{COLUMNS}, got {self.next_column}")

    @cached_property
    def opts(self) -> dict[str, Any]:
        """The options as a dict."""
        return dict(self.options)

    def to_json(self) -> dict:
        return {
            "game": NAME, "players": self.players, "options": dict(self.options), "phase": self.phase,
            "round": self.round, "to_move": self.to_move, "next_column": self.next_column,
            "columns": [list(c) for c in self.columns], "box": list(self.box),
            "hands": [list(h) for h in self.hands],
            "under": [[[p, v] for p, v in cards] for cards in self.under],
            "goods": [list(g) for g in self.goods], "money": [list(m) for m in self.money],
        }

    @classmethod
    def from_json(cls, data: dict) -> "State":
        d = require_dict(data, "Dolce Vita state")
        if d.get("game") != NAME:
            raise InvalidInput(f"state is for game {d.get('game')!r}, expected {NAME!r}")
        what = "Dolce Vita state"

        def int_rows(key: str) -> tuple[tuple[int, ...], ...]:
            rows = require_field(d, key, list, what)
            if not all(isinstance(r, list) and all(_is_int(x) for x in r) for r in rows):
                raise InvalidInput(f"{what} field {key!r} must be a list of lists of integers")
            return tuple(tuple(r) for r in rows)

        def card_rows(key: str) -> tuple[tuple[str, ...], ...]:
            rows = require_field(d, key, list, what)
            if not all(isinstance(r, list) for r in rows):
                raise InvalidInput(f"{what} field {key!r} must be a list of lists of card labels")
            for r in rows:
                for label in r:
                    parse_card(label)
            return tuple(tuple(r) for r in rows)

        under = require_field(d, "under", list, what)
        if not all(isinstance(r, list) and all(isinstance(x, list) and len(x) == 2 and all(map(_is_int, x))
                                               for x in r) for r in under):
            raise InvalidInput(f"{what} field 'under' must list, per column, [player, value] pairs")
        box = require_field(d, "box", list, what)
        for label in box:
            parse_card(label)
        options = require_field(d, "options", dict, what)
        return cls(
            players=require_field(d, "players", int, what), options=check_options(options),
            phase=require_field(d, "phase", str, what), round=require_field(d, "round", int, what),
            to_move=require_field(d, "to_move", int, what), next_column=require_field(d, "next_column", int, what),
            columns=card_rows("columns"), box=tuple(box), hands=int_rows("hands"),
            under=tuple(tuple(sorted((p, v) for p, v in r)) for r in under),
            goods=card_rows("goods"), money=int_rows("money"),
        )


def evolve(state: State, **changes: Any) -> State:
    """``dataclasses.replace`` without re-validating: for the engine's own transitions, which
    keep a valid state valid (states from outside are validated by the constructor)."""
    new = object.__new__(State)
    new.__dict__.update(state.__dict__)
    new.__dict__.update(changes)
    return new


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


# --------------------------------------------------------------------------------------------
# Moves


@dataclass(frozen=True)
class Deal:
    """Chance: the next luxury card of the shuffled deck is laid face up in the next free slot
    (column by column, each from the bottom slot up)."""

    card: str
    player: int = CHANCE

    def __post_init__(self) -> None:
        parse_card(self.card)
        if self.player != CHANCE:
            raise InvalidInput(f"a deal is a chance event: its 'player' must be {CHANCE}, got {self.player!r}")

    def to_json(self) -> dict:
        return {"type": "deal", "player": self.player, "card": self.card}


@dataclass(frozen=True)
class Place:
    """A player puts one number card of ``value`` under column ``column`` (0 = the left one)."""

    player: int
    value: int
    column: int

    def __post_init__(self) -> None:
        if not (_is_int(self.player) and 0 <= self.player < MAX_PLAYERS):
            raise InvalidInput(f"place: player must be an integer 0..{MAX_PLAYERS - 1}, got {self.player!r}")
        if not (_is_int(self.value) and self.value in NUMBER_VALUES):
            raise InvalidInput(f"place: value must be one of {NUMBER_VALUES}, got {self.value!r}")
        if not (_is_int(self.column) and 0 <= self.column < COLUMNS):
            raise InvalidInput(f"place: column must be an integer 0..{COLUMNS - 1}, got {self.column!r}")

    def to_json(self) -> dict:
        return {"type": "place", "player": self.player, "value": self.value, "column": self.column}


@dataclass(frozen=True)
class Resolve:
    """The luxury cards of column ``column`` are handed out (the whole table does it)."""

    column: int
    player: int = ANYONE

    def __post_init__(self) -> None:
        if not (_is_int(self.column) and 0 <= self.column < COLUMNS):
            raise InvalidInput(f"resolve: column must be an integer 0..{COLUMNS - 1}, got {self.column!r}")
        if self.player != ANYONE:
            raise InvalidInput(f"resolve is done by the whole table: its 'player' must be {ANYONE}, got {self.player!r}")

    def to_json(self) -> dict:
        return {"type": "resolve", "player": self.player, "column": self.column}


@dataclass(frozen=True)
class Collect:
    """Every player takes their number cards back; the next round begins."""

    player: int = ANYONE

    def __post_init__(self) -> None:
        if self.player != ANYONE:
            raise InvalidInput(f"collect is done by the whole table: its 'player' must be {ANYONE}, got {self.player!r}")

    def to_json(self) -> dict:
        return {"type": "collect", "player": self.player}


Move = Deal | Place | Resolve | Collect


def move_from_json(data: dict) -> Move:
    d = require_dict(data, "Dolce Vita move")
    kind = require_field(d, "type", str, "Dolce Vita move")
    player = require_field(d, "player", int, "Dolce Vita move")
    what = f"Dolce Vita {kind} move"
    if kind == "deal":
        return Deal(card=require_field(d, "card", str, what), player=player)
    if kind == "place":
        return Place(player=player, value=require_field(d, "value", int, what),
                     column=require_field(d, "column", int, what))
    if kind == "resolve":
        return Resolve(column=require_field(d, "column", int, what), player=player)
    if kind == "collect":
        return Collect(player=player)
    raise InvalidInput(f"unknown Dolce Vita move type {kind!r}; expected deal, place, resolve or collect")


def state_from_json(data: dict) -> State:
    return State.from_json(data)
