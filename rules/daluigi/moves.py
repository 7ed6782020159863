"""Moves of Da Luigi: one record type, its fields used according to ``type``.

Player moves: ``shop`` (field, pushes: guest card ids pushed one field each, in order),
``welcome``, ``pass``, ``give`` (to: who receives the revealed guest), ``serve`` (place:
[guest, colour] pairs), ``joker`` (guest, pay: cube colours), ``done`` (end of jokers),
``arrow`` (guest), ``discard`` (what: cube/flower/lemon; colour; guest or null for the
supply), ``flower`` (take: bool), ``return`` (cubes back into the bag).
Chance moves (player -1): ``cube`` (colour drawn from the bag), ``card`` (card drawn).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..common import CHANCE, player_name, require_dict, require_field
from ..errors import InvalidInput
from .catalogue import COLOURS, FIELDS

#: The fields each move type carries besides type and player.
SCHEMA: dict[str, tuple[str, ...]] = {
    "shop": ("field", "pushes"), "welcome": (), "pass": (), "give": ("to",), "serve": ("place",),
    "joker": ("guest", "pay"), "done": (), "arrow": ("guest",), "discard": ("what", "colour", "guest"),
    "flower": ("take",), "return": ("cubes",), "cube": ("colour",), "card": ("card",),
}
CHANCE_TYPES = ("cube", "card")
DISCARD_WHAT = ("cube", "flower", "lemon")


@dataclass(frozen=True)
class Move:
    type: str
    player: int
    field: int | None = None
    pushes: tuple[str, ...] = ()
    to: int | None = None
    place: tuple[tuple[str, str], ...] = ()
    guest: str | None = None
    pay: tuple[str, ...] = ()
    what: str | None = None
    colour: str | None = None
    take: bool | None = None
    cubes: tuple[str, ...] = ()
    card: str | None = None

    def to_json(self) -> dict:
        out = {"type": self.type, "player": self.player}
        for key in SCHEMA[self.type]:
            value = getattr(self, key)
            if isinstance(value, tuple):
                value = [list(v) if isinstance(v, tuple) else v for v in value]
            out[key] = value
        return out

    def __str__(self) -> str:
        parts = [f"{k}={v}" for k, v in self.to_json().items() if k not in ("type", "player")]
        return f"{player_name(self.player)}: {self.type} " + " ".join(parts)


def _str_list(d: dict, key: str, what: str, allowed: tuple[str, ...] | None = None) -> tuple[str, ...]:
    v = require_field(d, key, list, what)
    if any(not isinstance(x, str) for x in v):
        raise InvalidInput(f"{what} field {key!r} must be a list of strings, got {v!r}")
    if allowed is not None:
        bad = [x for x in v if x not in allowed]
        if bad:
            raise InvalidInput(f"{what} field {key!r}: unknown colour(s) {bad}; expected {', '.join(allowed)}")
    return tuple(v)


def move_from_json(data) -> Move:
    """Parse and check a move's JSON (raises :class:`InvalidInput` when malformed)."""
    d = require_dict(data, "move")
    kind = require_field(d, "type", str, "move")
    if kind not in SCHEMA:
        raise InvalidInput(f"unknown move type {kind!r}; expected one of {', '.join(SCHEMA)}")
    what = f"{kind} move"
    player = require_field(d, "player", int, what)
    if kind in CHANCE_TYPES and player != CHANCE:
        raise InvalidInput(f"a {kind} move is a chance event: its 'player' must be {CHANCE}, got {player}")
    if kind not in CHANCE_TYPES and player < 0:
        raise InvalidInput(f"a {kind} move needs a player index 0 or more, got {player}")
    extra = sorted(set(d) - {"type", "player", *SCHEMA[kind]})
    if extra:
        raise InvalidInput(f"{what} has unexpected field(s) {extra}; it takes {list(SCHEMA[kind])}")
    args: dict = {}
    if kind == "shop":
        field = require_field(d, "field", int, what)
        if not 0 <= field < FIELDS:
            raise InvalidInput(f"{what}: field must be 0 to {FIELDS - 1}, got {field}")
        args = {"field": field, "pushes": _str_list(d, "pushes", what)}
    elif kind == "give":
        args = {"to": require_field(d, "to", int, what)}
    elif kind == "serve":
        place = require_field(d, "place", list, what)
        pairs = []
        for p in place:
            if not (isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p)) or p[1] not in COLOURS:
                raise InvalidInput(f"{what}: each placement is [guest card id, colour], got {p!r}")
            pairs.append((p[0], p[1]))
        args = {"place": tuple(sorted(pairs))}
    elif kind == "joker":
        args = {"guest": require_field(d, "guest", str, what),
                "pay": tuple(sorted(_str_list(d, "pay", what, COLOURS), key=COLOURS.index))}
    elif kind == "arrow":
        args = {"guest": require_field(d, "guest", str, what)}
    elif kind == "discard":
        item = require_field(d, "what", str, what)
        if item not in DISCARD_WHAT:
            raise InvalidInput(f"{what}: 'what' must be one of {', '.join(DISCARD_WHAT)}, got {item!r}")
        colour = d.get("colour")
        guest = d.get("guest")
        if item == "cube" and colour not in COLOURS:
            raise InvalidInput(f"{what}: discarding a cube needs its colour, one of {', '.join(COLOURS)}")
        if item != "cube" and (colour is not None or guest is not None):
            raise InvalidInput(f"{what}: a discarded {item} takes no colour and no guest")
        if guest is not None and not isinstance(guest, str):
            raise InvalidInput(f"{what}: guest must be a card id or null, got {guest!r}")
        args = {"what": item, "colour": colour, "guest": guest}
    elif kind == "flower":
        args = {"take": require_field(d, "take", bool, what)}
    elif kind == "return":
        args = {"cubes": tuple(sorted(_str_list(d, "cubes", what, COLOURS), key=COLOURS.index))}
    elif kind == "cube":
        colour = require_field(d, "colour", str, what)
        if colour not in COLOURS:
            raise InvalidInput(f"{what}: colour must be one of {', '.join(COLOURS)}, got {colour!r}")
        args = {"colour": colour}
    elif kind == "card":
        args = {"card": require_field(d, "card", str, what)}
    return Move(kind, player, **args)
