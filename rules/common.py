"""The surface shared by the three games' rules engines.

Every game subpackage (``daluigi``, ``dolcevita``, ``ligretto``) exposes the same module-level
functions, listed in :class:`GameRules`, and uses the records defined here for what crosses
its boundary: :class:`Violation`, :class:`Score`, :class:`Explanation` and :class:`Verdict`.

States, moves and observations are game-specific frozen dataclasses.  Each has
``to_json() -> dict`` and a classmethod ``from_json(dict)`` that round-trip exactly; the
state's JSON carries ``"game": NAME`` so that a file names its own game.

Chance (bag draws, card draws, shuffles) is an explicit move whose ``player`` is
:data:`CHANCE`.  When ``state.to_move == CHANCE``, ``legal_moves`` lists the possible events
and ``sample_chance(state, rng)`` draws one, so a camera or a seeded generator can supply it.
"""

from __future__ import annotations

import numbers
import random
from dataclasses import dataclass
from typing import Any, Protocol, Sequence

from .errors import InvalidInput

#: ``player`` of a chance event, and ``to_move`` of a state that waits for one.
CHANCE = -1
#: ``to_move`` of a state in which any player may act (Ligretto's simultaneous play).
ANYONE = -2


#: Most players' turns one referee call may explain (a live session looks back over a few readings).
MAX_TURNS = 10


def players_problem(game: str, players: Any, least: int, most: int) -> str | None:
    """Why ``players`` is no number of players ``game`` (its name in the message) is played
    by, ``least`` to ``most`` (a whole number, not a bool); None when it is one."""
    whole = isinstance(players, numbers.Integral) and not isinstance(players, bool)
    if not whole or not least <= players <= most:
        return f"{game} is played by {least} to {most} players, not {int(players) if whole else players!r}"
    return None


def check_turns(turns: int) -> None:
    """``turns`` (the players' turns a change may span, for :func:`referee`) is a whole number in
    1..:data:`MAX_TURNS`; else InvalidInput."""
    if isinstance(turns, bool) or not isinstance(turns, int) or not 1 <= turns <= MAX_TURNS:
        raise InvalidInput(f"turns is a whole number of turns in 1..{MAX_TURNS}, got {turns!r}")


def player_name(index: int | None, *, capital: bool = False) -> str:
    """How a sentence a person reads names player ``index``: ``"player 1"`` for index 0.

    JSON (moves, states, observations, :attr:`Violation.player`) counts players from 0; every
    sentence counts them from 1, as the table and the dashboard do.  :data:`CHANCE` is
    ``"chance"``; :data:`ANYONE` and ``None`` are ``"the whole table"``.  ``capital`` starts the
    name with a capital letter, for the start of a sentence.
    """
    if index == CHANCE:
        name = "chance"
    elif index is None or index == ANYONE:
        name = "the whole table"
    else:
        name = f"player {index + 1}"
    return name[0].upper() + name[1:] if capital else name


def players_named(indices: Sequence[int], *, capital: bool = False) -> str:
    """Several players in a sentence, counted from 1: ``"players 1 and 3"`` for ``[0, 2]``."""
    if len(indices) == 1:
        return player_name(indices[0], capital=capital)
    numbers = [str(i + 1) for i in indices]
    name = "players " + ", ".join(numbers[:-1]) + " and " + numbers[-1] if numbers else "no player"
    return name[0].upper() + name[1:] if capital else name


@dataclass(frozen=True)
class Violation:
    """One rule broken, as a position lies or as a change was seen.

    ``rule`` is the name of the rule function (whose docstring quotes the rulebook).
    """

    code: str
    player: int | None
    pieces: tuple[str, ...]
    sentence: str
    rule: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.code, str) or "." not in self.code:
            raise InvalidInput(f"violation code must look like 'game.reason', got {self.code!r}")
        if self.player is not None and not isinstance(self.player, int):
            raise InvalidInput(f"violation player must be an int or None, got {self.player!r}")
        object.__setattr__(self, "pieces", tuple(str(p) for p in self.pieces))

    def to_json(self) -> dict:
        return {"code": self.code, "player": self.player, "pieces": list(self.pieces),
                "sentence": self.sentence, "rule": self.rule}

    @classmethod
    def from_json(cls, data: dict) -> "Violation":
        d = require_dict(data, "violation")
        return cls(code=d.get("code"), player=d.get("player"), pieces=tuple(d.get("pieces", ())),
                   sentence=str(d.get("sentence", "")), rule=str(d.get("rule", "")))


@dataclass(frozen=True)
class Score:
    """Scores of all players.

    ``parts`` maps a part's name (e.g. ``"guests"``, ``"money"``) to one integer per player;
    ``totals`` is their sum per player.  ``winners`` lists the winning players after the
    tie-breaks, ``tiebreak`` says in one sentence how a tie was broken (empty when none was
    needed).  ``final`` is true once the game is over.
    """

    totals: tuple[int, ...]
    parts: dict[str, tuple[int, ...]]
    winners: tuple[int, ...]
    tiebreak: str = ""
    final: bool = False

    def __post_init__(self) -> None:
        n = len(self.totals)
        object.__setattr__(self, "totals", tuple(int(t) for t in self.totals))
        object.__setattr__(self, "parts", {k: tuple(int(x) for x in v) for k, v in self.parts.items()})
        object.__setattr__(self, "winners", tuple(int(w) for w in self.winners))
        for name, values in self.parts.items():
            if len(values) != n:
                raise InvalidInput(f"score part {name!r} has {len(values)} values for {n} players")
        if self.parts:
            sums = tuple(sum(v[i] for v in self.parts.values()) for i in range(n))
            if sums != self.totals:
                raise InvalidInput(f"score parts add up to {sums}, not to the totals {self.totals}")
        if any(not 0 <= w < n for w in self.winners):
            raise InvalidInput(f"winners {self.winners} name players outside 0..{n - 1}")

    def to_json(self) -> dict:
        return {"totals": list(self.totals), "parts": {k: list(v) for k, v in self.parts.items()},
                "winners": list(self.winners), "tiebreak": self.tiebreak, "final": self.final}


@dataclass(frozen=True)
class Explanation:
    """A legal sequence of moves that turns the previous state into what the camera saw.

    ``cost`` is the summed doubt of the observation items that disagree with the explained
    state (0 for a perfect match); lower is better.  ``state`` is the state after ``moves``.
    """

    moves: tuple[Any, ...]
    state: Any
    cost: float = 0.0

    def to_json(self) -> dict:
        return {"moves": [m.to_json() for m in self.moves], "cost": round(float(self.cost), 6),
                "state": self.state.to_json()}


@dataclass(frozen=True)
class Verdict:
    """What the referee concluded from one observation.

    ``explanations`` are ranked best first (empty when no legal sequence explains the change).
    ``violations`` lists the rules broken when none does.  ``state`` is the state to continue
    from: the best explanation's state when there is one, otherwise the previous state with
    the observed (illegal) change applied as far as the game can represent it, or the previous
    state unchanged.  ``legal`` is true when the best explanation exists and has no violations.
    """

    explanations: tuple[Explanation, ...]
    violations: tuple[Violation, ...]
    state: Any
    note: str = ""

    @property
    def legal(self) -> bool:
        return bool(self.explanations) and not self.violations

    @property
    def moves(self) -> tuple[Any, ...]:
        return self.explanations[0].moves if self.explanations else ()

    def to_json(self) -> dict:
        return {"legal": self.legal, "explanations": [e.to_json() for e in self.explanations],
                "violations": [v.to_json() for v in self.violations], "state": self.state.to_json(),
                "note": self.note}


class GameRules(Protocol):
    """The module-level surface every game subpackage exposes (checked by the tests)."""

    NAME: str
    MIN_PLAYERS: int
    MAX_PLAYERS: int

    def new_game(self, players: int, options: dict | None = None, seed: int | None = None) -> Any: ...
    def legal_moves(self, state: Any) -> Sequence[Any]: ...
    def apply(self, state: Any, move: Any) -> Any: ...
    def sample_chance(self, state: Any, rng: random.Random) -> Any: ...
    def violations(self, state: Any) -> Sequence[Violation]: ...
    def score(self, state: Any) -> Score: ...
    def is_over(self, state: Any) -> bool: ...
    def referee(self, state: Any, observation: Any, turns: int = 1) -> Verdict: ...
    def observe(self, state: Any) -> Any: ...
    def state_from_json(self, data: dict) -> Any: ...
    def move_from_json(self, data: dict) -> Any: ...
    def observation_from_json(self, data: dict) -> Any: ...


# --------------------------------------------------------------------------------------------
# Small validation helpers used by every game's ``from_json``.

def require_dict(data: Any, what: str) -> dict:
    if not isinstance(data, dict):
        raise InvalidInput(f"{what} must be a JSON object, got {type(data).__name__}")
    return data


def require_field(data: dict, key: str, kind: type | tuple[type, ...], what: str) -> Any:
    """Return ``data[key]``, checked to be of ``kind`` (bool is never accepted as an int)."""
    if key not in data:
        raise InvalidInput(f"{what} is missing the field {key!r}")
    value = data[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) and bool not in kinds:
        raise InvalidInput(f"{what} field {key!r} must be {_kind_name(kinds)}, got a boolean")
    if not isinstance(value, kinds):
        raise InvalidInput(f"{what} field {key!r} must be {_kind_name(kinds)}, got {type(value).__name__}")
    return value


def with_defaults(game: str, defaults: dict, options: Any) -> dict:
    """``options`` (a JSON object, or None) laid over ``defaults``; an unknown name is an error.

    Each game then checks the values of its own options.
    """
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise InvalidInput(f"{game} options must be a JSON object, got {type(options).__name__}")
    unknown = sorted(set(options) - set(defaults))
    if unknown:
        raise InvalidInput(f"unknown {game} option(s) {', '.join(map(repr, unknown))}; "
                           f"known: {', '.join(sorted(defaults))}")
    return {**defaults, **options}


def _kind_name(kinds: tuple[type, ...]) -> str:
    names = {int: "an integer", str: "a string", list: "a list", dict: "an object", bool: "a boolean",
             float: "a number", type(None): "null"}
    return " or ".join(names.get(k, k.__name__) for k in kinds)
