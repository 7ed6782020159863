"""What a camera sees of a Dolce Vita table, and how far a state disagrees with it.

An observation is a flat list of items, each a label, where it lies and a confidence in [0, 1]:

- ``column:C:slot:S`` (C 0..6 from the left, S 0..8 from the bottom): a luxury card label such
  as ``"car:400000"`` or ``"money:100000"``, or ``"empty"``;
- ``column:C:under``: one item per number card under column C, labelled ``"<colour>:<value>"``;
- ``player:P``: one item per luxury card in front of player P.

Any label may be ``"unknown"`` (occluded).  Hands and the box are hidden and never observed.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from ..common import require_dict, require_field
from ..errors import InvalidInput
from .catalogue import COLUMNS, EMPTY, SLOTS, UNKNOWN, money_label, number_label, parse_card, parse_number
from .state import NAME, State

#: A disagreeing item this confident (or more) rules an explanation out; below it, it is a misread.
MISREAD_LIMIT = 0.5
#: Doubt charged for a card the state has at a place where the camera saw nothing.
MISSING_COST = 1.0

_WHERE = re.compile(r"^(?:column:([0-6]):(?:slot:([0-8])|(under))|player:([0-4]))$")


@dataclass(frozen=True)
class Item:
    """One thing seen: ``label`` at ``where`` with ``confidence`` in [0, 1]."""

    label: str
    where: str
    confidence: float = 1.0

    def __post_init__(self) -> None:
        if not isinstance(self.label, str) or not self.label:
            raise InvalidInput(f"an observed item needs a label string, got {self.label!r}")
        if not isinstance(self.where, str) or not _WHERE.match(self.where):
            raise InvalidInput(f"observed item where={self.where!r}: expected 'column:C:slot:S' (C 0..{COLUMNS - 1}, "
                               f"S 0..{SLOTS - 1}), 'column:C:under' or 'player:P'")
        conf = self.confidence
        if isinstance(conf, bool) or not isinstance(conf, (int, float)) or not 0.0 <= conf <= 1.0:
            raise InvalidInput(f"observed item confidence must be a number in [0, 1], got {conf!r}")
        if self.label not in (EMPTY, UNKNOWN):
            if self.where.endswith(":under"):
                if parse_number(self.label) is None:
                    raise InvalidInput(f"{self.label!r} under a column is no number card; expected e.g. 'red:4'")
            else:
                parse_card(self.label)
        elif self.label == EMPTY and ":slot:" not in self.where:
            raise InvalidInput(f"'empty' describes a slot, not {self.where!r}")

    def to_json(self) -> dict:
        return {"label": self.label, "where": self.where, "confidence": self.confidence}


@dataclass(frozen=True)
class Observation:
    """Everything the camera saw at one moment."""

    items: tuple[Item, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "items", tuple(self.items))
        if not all(isinstance(i, Item) for i in self.items):
            raise InvalidInput("an observation lists Item records")

    def to_json(self) -> dict:
        return {"game": NAME, "items": [i.to_json() for i in self.items]}

    @classmethod
    def from_json(cls, data: dict) -> "Observation":
        d = require_dict(data, "Dolce Vita observation")
        if d.get("game") != NAME:
            raise InvalidInput(f"observation is for game {d.get('game')!r}, expected {NAME!r}")
        items = []
        for raw in require_field(d, "items", list, "Dolce Vita observation"):
            r = require_dict(raw, "observed item")
            items.append(Item(label=require_field(r, "label", str, "observed item"),
                              where=require_field(r, "where", str, "observed item"),
                              confidence=require_field(r, "confidence", (int, float), "observed item")))
        return cls(tuple(items))

    def grouped(self) -> dict[str, list[Item]]:
        groups: dict[str, list[Item]] = {}
        for item in self.items:
            groups.setdefault(item.where, []).append(item)
        return groups


def observation_from_json(data: dict) -> Observation:
    return Observation.from_json(data)


def slot_where(column: int, slot: int) -> str:
    return f"column:{column}:slot:{slot}"


def under_where(column: int) -> str:
    return f"column:{column}:under"


def player_where(player: int) -> str:
    return f"player:{player}"


def expected_items(state: State) -> dict[str, list[str]]:
    """The labels a perfect camera sees of ``state``, per place."""
    seen: dict[str, list[str]] = {}
    for c, column in enumerate(state.columns):
        for s in range(SLOTS):
            seen[slot_where(c, s)] = [column[s] if s < len(column) else EMPTY]
        seen[under_where(c)] = [number_label(p, v) for p, v in state.under[c]]
    for p in range(state.players):
        seen[player_where(p)] = list(state.goods[p]) + [money_label(v) for v in state.money[p]]
    return seen


def observe(state: State) -> Observation:
    """What a perfect camera sees of ``state``: every slot, the number cards, the players' cards."""
    return Observation(tuple(Item(label, where, 1.0) for where, labels in expected_items(state).items()
                             for label in labels))


@dataclass(frozen=True)
class Disagreement:
    """One place where the state and the observation differ."""

    where: str
    expected: str
    seen: str
    confidence: float


def disagreements(state: State, seen: dict[str, list[Item]]) -> list[Disagreement]:
    """Where ``state`` and the observed items (grouped by place) differ.

    Unknown labels agree with anything.  At a place holding several cards (under a column, in
    front of a player) the cards are compared as multisets: a seen card not in the state counts
    its confidence, paired with a missing one when there is one (a misread; else the seen card
    is one too many); an unknown card stands for a missing one, or is one too many; a state
    card the camera did not see at all counts MISSING_COST.  A disagreement with both
    ``expected`` and ``seen`` set is a misread label, otherwise a card too many or too few.  A slot not observed at all agrees; a place
    of several cards with no item seen there was seen empty.
    """
    found: list[Disagreement] = []
    expected = expected_items(state)
    for where, items in seen.items():
        want = expected.get(where)
        if want is None:
            found.extend(Disagreement(where, "", i.label, i.confidence) for i in items if i.label != UNKNOWN)
            continue
        if ":slot:" in where:
            for item in items:
                if item.label != UNKNOWN and item.label != want[0]:
                    found.append(Disagreement(where, want[0], item.label, item.confidence))
            continue
        left = Counter(want)
        extra: list[Item] = []
        unknown: list[Item] = []
        for item in items:
            if item.label == UNKNOWN:
                unknown.append(item)
            elif left[item.label] > 0:
                left[item.label] -= 1
            else:
                extra.append(item)
        missing = sorted(left.elements())
        extra.sort(key=lambda i: i.confidence)
        for item in extra:
            found.append(Disagreement(where, missing.pop() if missing else "", item.label, item.confidence))
        for item in unknown:  # an unreadable card stands for any card the state has there
            if missing:
                missing.pop()
            else:
                found.append(Disagreement(where, "", item.label, item.confidence))
        found.extend(Disagreement(where, label, "", MISSING_COST) for label in missing)
    for where, want in expected.items():
        if where not in seen and ":slot:" not in where:  # nothing seen where the state has cards
            found.extend(Disagreement(where, label, "", MISSING_COST) for label in want)
    return found


def cost(found: list[Disagreement]) -> float:
    return sum(d.confidence for d in found)


def explains(found: list[Disagreement]) -> bool:
    """True when every disagreement is a plausible misread (confidence below MISREAD_LIMIT)."""
    return all(d.confidence < MISREAD_LIMIT for d in found)
