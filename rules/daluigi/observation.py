"""What a camera sees of a Da Luigi table, and how far an observation disagrees with a state.

An observation is a set of items; each says *where* it lies, its *label*, and a *confidence*
in [0, 1].  Label "?" means seen but unreadable; an item left out was not seen.  Places:

``market:F``   cubes on market field F (0-11, row by row from the top), e.g. "red,red,blue"
``slot:P:S``   guest card id under time segment S (0 = "60" ... 5 = "10") of player P ("" = empty)
``order:P:S``  cubes on the order fields of that guest
``supply:P``   cubes in player P's supply
``lemons:P``, ``flowers:P``, ``served:P``  counts (decimal text)
``hand``       face-down guest cards taken by the welcoming player and not yet revealed
``revealed``   the revealed guest card waiting to be given ("" = none)

The bag, the face-down guest pile and the box are hidden and never observed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..common import require_dict, require_field
from ..errors import InvalidInput
from .catalogue import COLOURS, FIELDS, SLOTS, cubes_label
from .state import State

UNKNOWN = "?"
_WHERE = re.compile(r"^(market:(\d+)|(slot|order):(\d+):(\d+)|(supply|lemons|flowers|served):(\d+)|hand|revealed)$")
_COUNT_PLACES = ("lemons", "flowers", "served", "hand")
_CUBE_PLACES = ("market", "order", "supply")


@dataclass(frozen=True)
class Item:
    where: str
    label: str
    confidence: float = 1.0

    def __post_init__(self) -> None:
        if not isinstance(self.where, str) or not _WHERE.match(self.where):
            raise InvalidInput(f"observation item place {self.where!r} is not one of market:F, slot:P:S, "
                               "order:P:S, supply:P, lemons:P, flowers:P, served:P, hand, revealed")
        if not isinstance(self.label, str):
            raise InvalidInput(f"observation item {self.where}: label must be text, got {self.label!r}")
        conf = self.confidence
        if isinstance(conf, bool) or not isinstance(conf, (int, float)) or not 0.0 <= conf <= 1.0:
            raise InvalidInput(f"observation item {self.where}: confidence must be a number in [0, 1], got {conf!r}")
        object.__setattr__(self, "confidence", float(conf))
        kind = self.where.split(":")[0]
        if self.label == UNKNOWN:
            return
        if kind in _CUBE_PLACES:
            bad = [x for x in self.label.split(",") if x and x not in COLOURS]
            if bad:
                raise InvalidInput(f"observation item {self.where}: unknown cube colour(s) {bad}; "
                                   f"expected a comma list of {', '.join(COLOURS)}")
        elif kind in _COUNT_PLACES and not self.label.isdigit():
            raise InvalidInput(f"observation item {self.where}: label must be a count, got {self.label!r}")

    @property
    def kind(self) -> str:
        return self.where.split(":")[0]

    def to_json(self) -> dict:
        return {"where": self.where, "label": self.label, "confidence": self.confidence}


@dataclass(frozen=True)
class Observation:
    """Items seen at one moment (at most one per place)."""

    items: tuple[Item, ...]

    def __post_init__(self) -> None:
        places = [it.where for it in self.items]
        dupes = sorted({w for w in places if places.count(w) > 1})
        if dupes:
            raise InvalidInput(f"observation names these places more than once: {dupes}")

    def by_place(self) -> dict[str, Item]:
        return {it.where: it for it in self.items}

    def check_players(self, players: int) -> None:
        for it in self.items:
            parts = it.where.split(":")
            if parts[0] == "market" and int(parts[1]) >= FIELDS:
                raise InvalidInput(f"observation item {it.where}: fields run 0 to {FIELDS - 1}")
            if parts[0] in ("slot", "order", "supply", "lemons", "flowers", "served") and int(parts[1]) >= players:
                raise InvalidInput(f"observation item {it.where}: this game has players 0 to {players - 1}")
            if parts[0] in ("slot", "order") and int(parts[2]) >= SLOTS:
                raise InvalidInput(f"observation item {it.where}: strip slots run 0 to {SLOTS - 1}")

    def to_json(self) -> dict:
        return {"game": "daluigi", "items": [it.to_json() for it in self.items]}

    @classmethod
    def from_json(cls, data) -> "Observation":
        d = require_dict(data, "observation")
        if d.get("game", "daluigi") != "daluigi":
            raise InvalidInput(f"observation is for game {d.get('game')!r}, not 'daluigi'")
        items = []
        for i, raw in enumerate(require_field(d, "items", list, "observation")):
            r = require_dict(raw, f"observation item #{i}")
            conf = r.get("confidence", 1.0)
            items.append(Item(require_field(r, "where", str, f"observation item #{i}"),
                              require_field(r, "label", str, f"observation item #{i}"), conf))
        return cls(tuple(items))


def expected_labels(state: State) -> dict[str, str]:
    """The label a perfect camera reads at each visible place of ``state``."""
    return dict(labels_of(state))


def labels_of(state: State) -> dict[str, str]:
    """:func:`expected_labels`, made once per state and kept with it (the referee's search scores
    each state it reaches against the reading, then again when it judges the best): not to be
    changed by the caller."""
    cached = state.__dict__.get("_labels")
    if cached is None:
        cached = _labels(state)
        object.__setattr__(state, "_labels", cached)
    return cached


def _labels(state: State) -> dict[str, str]:
    out = {f"market:{f}": cubes_label(cubes) for f, cubes in enumerate(state.market)}
    for p in range(state.players):
        for s, guest in enumerate(state.strips[p]):
            out[f"slot:{p}:{s}"] = guest.card if guest else ""
            if guest:
                out[f"order:{p}:{s}"] = cubes_label(guest.cubes)
        out[f"supply:{p}"] = cubes_label(state.supply[p])
        out[f"lemons:{p}"] = str(max(0, -state.tiles[p]))
        out[f"flowers:{p}"] = str(max(0, state.tiles[p]))
        out[f"served:{p}"] = str(len(state.served[p]))
    out["hand"] = str(state.hand)
    out["revealed"] = state.revealed or ""
    return out


def observe(state: State) -> Observation:
    """What a perfect camera sees of ``state`` (every item with confidence 1)."""
    return Observation(tuple(Item(w, label, 1.0) for w, label in expected_labels(state).items()))


def disagreements(state: State, observation: Observation) -> list[Item]:
    """Observed items (not "?") whose label differs from what ``state`` shows there."""
    expected = expected_labels(state)
    return [it for it in observation.items if it.label != UNKNOWN and expected.get(it.where, "") != it.label]


def mismatch(expected: dict[str, str], items: tuple[Item, ...]) -> float:
    """Summed confidence of the items that disagree with ``expected``."""
    return sum(it.confidence for it in items if it.label != UNKNOWN and expected.get(it.where, "") != it.label)
