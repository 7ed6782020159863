"""The state of a Ligretto game: a frozen record that round-trips through JSON exactly.

Phases: ``play`` (everyone places at once), ``player_boards`` (after scoring, the players
who scored nothing put two cards on their player boards), ``next_round`` (the finished
round still lies on the board until the players clear it and set the tokens), ``over``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..common import ANYONE, player_name, players_problem, require_dict, require_field
from ..errors import InvalidInput
from .board import Board
from .catalogue import (CARDS_PER_PLAYER, JOKERS_PER_PLAYER, TOKENS, card_colours, card_owner,
                        joker_owner)

NAME = "ligretto"
MIN_PLAYERS, MAX_PLAYERS = 2, 4
PHASES = ("play", "player_boards", "next_round", "over")
#: ``cover`` of a free space.
FREE = -1


@dataclass(frozen=True)
class Piece:
    """A card or joker on the board.  A card's ``cells[i]`` carries ``card_colours(id)[i]``.

    ``faults`` lists the reason codes of the rules its placement broke (empty when placed
    properly); a player with a faulty piece scores nothing in the round.
    """

    kind: str
    id: int
    cells: tuple[int, ...]
    faults: tuple[str, ...] = ()

    @property
    def player(self) -> int:
        return card_owner(self.id) if self.kind == "card" else joker_owner(self.id)

    def colour_at(self, cell: int) -> str | None:
        return card_colours(self.id)[self.cells.index(cell)] if self.kind == "card" else None

    def to_json(self, board: Board) -> dict:
        return {"kind": self.kind, "id": self.id, "player": self.player,
                "cells": [list(board.cell(c)) for c in self.cells], "faults": list(self.faults)}

    @classmethod
    def from_json(cls, data: Any, board: Board) -> "Piece":
        d = require_dict(data, "piece")
        kind = require_field(d, "kind", str, "piece")
        if kind not in ("card", "joker"):
            raise InvalidInput(f"piece kind must be 'card' or 'joker', got {kind!r}")
        cells = tuple(board.index(c, "piece cell") for c in require_field(d, "cells", list, "piece"))
        if len(cells) != (2 if kind == "card" else 1):
            raise InvalidInput(f"a {kind} covers {2 if kind == 'card' else 1} space(s), got {len(cells)}")
        faults = require_field(d, "faults", list, "piece") if "faults" in d else []
        return cls(kind, require_field(d, "id", int, "piece"), cells, tuple(str(f) for f in faults))


@dataclass(frozen=True)
class State:
    """A Ligretto position.  Cards are ids (``catalogue``); spaces are board indices.

    ``hands[p]``: p's cards not on the board nor on p's player board (sorted; the order of
    the face-down pile is not tracked: the camera cannot see it).  ``pieces``: cards and
    jokers on the board this round in the order placed; ``cover[i]`` is the index in
    ``pieces`` of the top piece on space ``i`` or ``FREE``.  ``tokens[t]``: the space token
    ``t`` stands on.  ``locks``: ``(token, player)`` for a joker whose owner must now play
    next to it.  ``relocations``: ``(player, token)`` for a blocked token that player moves
    with a card put on any free place.  ``results``: points of each finished round.
    ``owes``: ``(player, mandatory)`` still to put cards on their player board.
    """

    players: int
    options: tuple[tuple[str, Any], ...]
    board: Board
    round: int
    phase: str
    hands: tuple[tuple[int, ...], ...]
    player_boards: tuple[tuple[int, ...], ...]
    jokers: tuple[tuple[int, ...], ...]
    pieces: tuple[Piece, ...]
    tokens: tuple[int, ...]
    locks: tuple[tuple[int, int], ...] = ()
    relocations: tuple[tuple[int, int], ...] = ()
    ended: str = ""
    stopper: int | None = None
    results: tuple[tuple[int, ...], ...] = ()
    owes: tuple[tuple[int, bool], ...] = ()
    cover: tuple[int, ...] = field(init=False, repr=False, compare=False)
    opts: dict = field(init=False, repr=False, compare=False)
    #: Facts derived from this (immutable) state, computed once on demand (see ``geometry``).
    memo: dict = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        problem = players_problem("Ligretto", self.players, MIN_PLAYERS, MAX_PLAYERS)
        if problem:
            raise InvalidInput(problem)
        if self.phase not in PHASES:
            raise InvalidInput(f"phase must be one of {PHASES}, got {self.phase!r}")
        for what, seq in (("hands", self.hands), ("player_boards", self.player_boards), ("jokers", self.jokers)):
            if len(seq) != self.players:
                raise InvalidInput(f"state {what} has {len(seq)} entries for {self.players} players")
        if len(self.tokens) != TOKENS:
            raise InvalidInput(f"state has {len(self.tokens)} tokens, expected {TOKENS}")
        object.__setattr__(self, "cover", covers_of(self.board, self.pieces))
        object.__setattr__(self, "opts", dict(self.options))
        object.__setattr__(self, "memo", {})

    @property
    def to_move(self) -> int:
        return ANYONE

    def option(self, key: str) -> Any:
        return self.opts[key]

    # -- JSON ----------------------------------------------------------------------------
    def to_json(self) -> dict:
        b = self.board
        return {
            "game": NAME, "players": self.players, "options": dict(self.options), "board": b.to_json(),
            "round": self.round, "phase": self.phase, "hands": [list(h) for h in self.hands],
            "player_boards": [list(h) for h in self.player_boards], "jokers": [list(j) for j in self.jokers],
            "pieces": [p.to_json(b) for p in self.pieces], "tokens": [list(b.cell(t)) for t in self.tokens],
            "locks": [{"token": t, "player": p} for t, p in self.locks],
            "relocations": [{"player": p, "token": t} for p, t in self.relocations],
            "ended": self.ended, "stopper": self.stopper, "results": [list(r) for r in self.results],
            "owes": [{"player": p, "mandatory": m} for p, m in self.owes],
        }

    @classmethod
    def from_json(cls, data: Any) -> "State":
        d = require_dict(data, "state")
        if d.get("game") != NAME:
            raise InvalidInput(f"state JSON is for game {d.get('game')!r}, expected {NAME!r}")
        board = Board.from_json(require_field(d, "board", dict, "state"))
        players = require_field(d, "players", int, "state")

        def ints(key: str) -> tuple[tuple[int, ...], ...]:
            value = require_field(d, key, list, "state")
            if not all(isinstance(x, list) and all(isinstance(i, int) and not isinstance(i, bool) for i in x)
                       for x in value):
                raise InvalidInput(f"state field {key!r} must be a list of lists of integers")
            return tuple(tuple(x) for x in value)

        def records(key: str, fields: tuple[str, str], kinds: tuple[type, type]) -> tuple:
            value = require_field(d, key, list, "state")
            return tuple((require_field(require_dict(r, key), fields[0], kinds[0], key),
                          require_field(r, fields[1], kinds[1], key)) for r in value)

        options = require_field(d, "options", dict, "state")
        stopper = d.get("stopper")
        if stopper is not None and (isinstance(stopper, bool) or not isinstance(stopper, int)):
            raise InvalidInput(f"state field 'stopper' must be an integer or null, got {stopper!r}")
        state = cls(
            players=players, options=tuple(sorted(options.items())), board=board,
            round=require_field(d, "round", int, "state"), phase=require_field(d, "phase", str, "state"),
            hands=ints("hands"), player_boards=ints("player_boards"), jokers=ints("jokers"),
            pieces=tuple(Piece.from_json(p, board) for p in require_field(d, "pieces", list, "state")),
            tokens=tuple(board.index(t, "token") for t in require_field(d, "tokens", list, "state")),
            locks=records("locks", ("token", "player"), (int, int)),
            relocations=records("relocations", ("player", "token"), (int, int)),
            ended=require_field(d, "ended", str, "state"), stopper=stopper, results=ints("results"),
            owes=records("owes", ("player", "mandatory"), (int, bool)),
        )
        check_conservation(state)
        return state


def evolve(state: State, cover: tuple[int, ...] | None = None, memo: dict | None = None, **changes: Any) -> State:
    """``state`` with ``changes``: the engine's own transitions, which keep every field valid by
    construction, so the checks of ``State.__post_init__`` are not run again (inputs from outside
    go through ``State(...)`` or ``State.from_json``).  ``cover`` is the new cover when the caller
    knows it; it is recomputed when ``pieces`` change without it.  ``memo`` is the new state's
    memo when the caller knows that ``state.memo`` holds for it too (its entries depend on the
    board, pieces, tokens, hands, jokers, locks and options, never on ``relocations``)."""
    new = object.__new__(State)
    fields = new.__dict__
    fields.update(state.__dict__)
    fields.update(changes)
    if cover is not None:
        fields["cover"] = cover
    elif "pieces" in changes:
        fields["cover"] = covers_of(state.board, fields["pieces"])
    if memo is None:
        tables = state.memo.get("tables")  # depends on the board alone, which never changes here
        memo = {} if tables is None else {"tables": tables}
    fields["memo"] = memo
    return new


def covers_of(board: Board, pieces: tuple[Piece, ...]) -> tuple[int, ...]:
    """Index of the top piece on each space (later pieces lie on earlier ones), else FREE."""
    cover = [FREE] * len(board.colours)
    for n, piece in enumerate(pieces):
        for c in piece.cells:
            cover[c] = n
    return tuple(cover)


def check_conservation(state: State) -> None:
    """Every card is in exactly one place (hand, board, player board) and belongs there."""
    seen: dict[int, str] = {}
    places = [(f"hand of {player_name(p)}", h) for p, h in enumerate(state.hands)]
    places += [(f"player board of {player_name(p)}", h) for p, h in enumerate(state.player_boards)]
    places.append(("board", tuple(x.id for x in state.pieces if x.kind == "card")))
    for where, cards in places:
        for c in cards:
            if not 0 <= c < state.players * CARDS_PER_PLAYER:
                raise InvalidInput(f"card id {c} in the {where} does not exist with {state.players} players")
            if c in seen:
                raise InvalidInput(f"card id {c} lies both in the {seen[c]} and in the {where}")
            seen[c] = where
    for p in range(state.players):
        for c in state.hands[p] + state.player_boards[p]:
            if card_owner(c) != p:
                raise InvalidInput(f"card id {c} belongs to {player_name(card_owner(c))}, not {player_name(p)}")
    if len(seen) != state.players * CARDS_PER_PLAYER:
        raise InvalidInput(f"state holds {len(seen)} cards, expected {state.players * CARDS_PER_PLAYER}")
    used = [x.id for x in state.pieces if x.kind == "joker"]
    jokers = [j for js in state.jokers for j in js] + used
    if sorted(jokers) != list(range(state.players * JOKERS_PER_PLAYER)):
        raise InvalidInput("state jokers: every joker must be either unused with its owner or on the board once")
