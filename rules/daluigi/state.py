"""The state of a Da Luigi game: an immutable record that round-trips through JSON exactly.

Cube collections are count vectors in :data:`~.catalogue.COLOURS` order.  Hidden things are
tracked, not observed: ``bag`` (the cloth bag), ``unseen`` (guest cards not yet seen: the
face-down pile and the box are indistinguishable until drawn, so one set stands for both,
and ``pile`` counts the cards left in the pile).  ``tasks`` is the queue of what the rules
still have to do in the current turn (draws, abilities, serving, the end of the turn); its
head decides who moves next.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..common import require_dict, require_field
from ..errors import InvalidInput
from .catalogue import COLOURS, FIELDS, SLOTS, cubes_from_names
from .options import Options

NAME = "daluigi"


@dataclass(frozen=True)
class Guest:
    """A guest card lying on a strip slot, with the cubes on its order fields."""

    card: str
    cubes: tuple[int, ...]
    jokers: int = 0

    def to_json(self) -> dict:
        out = {"card": self.card, "cubes": _names(self.cubes)}
        if self.jokers:
            out["jokers"] = self.jokers
        return out

    @classmethod
    def from_json(cls, data) -> "Guest":
        d = require_dict(data, "guest")
        card = require_field(d, "card", str, "guest")
        cubes = cubes_from_names(require_field(d, "cubes", list, "guest"), f"guest {card}")
        jokers = d.get("jokers", 0)
        if isinstance(jokers, bool) or not isinstance(jokers, int) or jokers < 0:
            raise InvalidInput(f"guest {card}: jokers must be a non-negative integer, got {jokers!r}")
        return cls(card, cubes, jokers)


def _names(counts: tuple[int, ...]) -> list[str]:
    return [c for c, n in zip(COLOURS, counts) for _ in range(n)]


@dataclass(frozen=True)
class State:
    players: int
    options: Options
    to_move: int
    active: int
    market: tuple[tuple[int, ...], ...]
    bag: tuple[int, ...]
    used: tuple[int, ...]
    supply: tuple[tuple[int, ...], ...]
    strips: tuple[tuple[Guest | None, ...], ...]
    tiles: tuple[int, ...]  # flowers > 0, lemons < 0
    market_flowers: int
    market_lemons: int
    box_tiles: int
    served: tuple[tuple[str, ...], ...]
    discard: tuple[str, ...]
    unseen: tuple[str, ...]
    starts: tuple[str, ...]
    pile: int
    hand: int
    revealed: str | None
    given: tuple[int, ...]
    tasks: tuple[tuple, ...]
    end_triggered: bool = False
    final_turns: int = -1
    over: bool = False
    turn: int = 0

    @property
    def phase(self) -> str:
        """'over', 'action' (a turn's choice) or the name of the task at the head of the queue."""
        if self.over:
            return "over"
        return self.tasks[0][0] if self.tasks else "action"

    @property
    def final_round(self) -> bool:
        return self.end_triggered and self.final_turns >= 0

    def to_json(self) -> dict:
        return {
            "game": NAME, "players": self.players, "options": self.options.to_json(),
            "to_move": self.to_move, "active": self.active, "turn": self.turn,
            "market": [_names(f) for f in self.market], "bag": _names(self.bag), "used": _names(self.used),
            "supply": [_names(s) for s in self.supply],
            "strips": [[g.to_json() if g else None for g in strip] for strip in self.strips],
            "tiles": list(self.tiles), "market_flowers": self.market_flowers,
            "market_lemons": self.market_lemons, "box_tiles": self.box_tiles,
            "served": [list(s) for s in self.served], "discard": list(self.discard),
            "unseen": list(self.unseen), "starts": list(self.starts), "pile": self.pile, "hand": self.hand,
            "revealed": self.revealed, "given": list(self.given), "tasks": [list(t) for t in self.tasks],
            "end_triggered": self.end_triggered, "final_turns": self.final_turns, "over": self.over,
        }

    @classmethod
    def from_json(cls, data) -> "State":
        d = require_dict(data, "state")
        if d.get("game") != NAME:
            raise InvalidInput(f"state is for game {d.get('game')!r}, not {NAME!r}")
        n = require_field(d, "players", int, "state")
        if not 2 <= n <= 4:
            raise InvalidInput(f"state players must be 2 to 4, got {n}")

        def ints(key: str, length: int) -> tuple[int, ...]:
            v = require_field(d, key, list, "state")
            if len(v) != length or any(isinstance(x, bool) or not isinstance(x, int) for x in v):
                raise InvalidInput(f"state field {key!r} must be {length} integers, got {v!r}")
            return tuple(v)

        def cube_lists(key: str, length: int) -> tuple[tuple[int, ...], ...]:
            v = require_field(d, key, list, "state")
            if len(v) != length:
                raise InvalidInput(f"state field {key!r} must have {length} entries, got {len(v)}")
            return tuple(cubes_from_names(x if isinstance(x, list) else [None], f"state {key}") for x in v)

        def strs(key: str) -> tuple[str, ...]:
            v = require_field(d, key, list, "state")
            if any(not isinstance(x, str) for x in v):
                raise InvalidInput(f"state field {key!r} must be a list of card ids")
            return tuple(v)

        strips = require_field(d, "strips", list, "state")
        if len(strips) != n or any(not isinstance(s, list) or len(s) != SLOTS for s in strips):
            raise InvalidInput(f"state strips must be {n} lists of {SLOTS} slots")
        served = require_field(d, "served", list, "state")
        if len(served) != n or any(not isinstance(s, list) for s in served):
            raise InvalidInput(f"state served must be {n} lists of card ids")
        tasks = require_field(d, "tasks", list, "state")
        if any(not isinstance(t, list) or not t or not isinstance(t[0], str) for t in tasks):
            raise InvalidInput("state tasks must be non-empty lists starting with a task name")
        revealed = d.get("revealed")
        if revealed is not None and not isinstance(revealed, str):
            raise InvalidInput(f"state revealed must be a card id or null, got {revealed!r}")
        return cls(
            players=n, options=Options.from_json(d.get("options")),
            to_move=require_field(d, "to_move", int, "state"), active=require_field(d, "active", int, "state"),
            market=cube_lists("market", FIELDS), bag=cubes_from_names(require_field(d, "bag", list, "state"), "bag"),
            used=cubes_from_names(require_field(d, "used", list, "state"), "used"),
            supply=cube_lists("supply", n),
            strips=tuple(tuple(Guest.from_json(g) if g is not None else None for g in s) for s in strips),
            tiles=ints("tiles", n), market_flowers=require_field(d, "market_flowers", int, "state"),
            market_lemons=require_field(d, "market_lemons", int, "state"),
            box_tiles=require_field(d, "box_tiles", int, "state"),
            served=tuple(tuple(str(c) for c in s) for s in served), discard=strs("discard"),
            unseen=strs("unseen"), starts=strs("starts"), pile=require_field(d, "pile", int, "state"),
            hand=require_field(d, "hand", int, "state"), revealed=revealed, given=ints("given", n),
            tasks=tuple(tuple(t) for t in tasks),
            end_triggered=require_field(d, "end_triggered", bool, "state"),
            final_turns=require_field(d, "final_turns", int, "state"),
            over=require_field(d, "over", bool, "state"), turn=require_field(d, "turn", int, "state"),
        )


#: What the engine and the referee keep with a state once worked out (its legal moves, its labels
#: as a perfect camera reads them, the cubes each player holds); never a field.
KEPT = ("_legal", "_labels", "_held")


def evolve(state: State, **changes) -> State:
    """``dataclasses.replace`` for :class:`State` without re-running ``__init__`` (the hot path of a
    playout); what is kept with ``state`` (:data:`KEPT`) is not carried over."""
    new = object.__new__(State)
    fields = dict(state.__dict__)
    for kept in KEPT:
        fields.pop(kept, None)
    fields.update(changes)
    new.__dict__.update(fields)
    return new
