"""The components of Da Luigi: food cubes, marketplace, ristorante strip, tiles, guest deck.

The guest deck's per-card list is not published.  The deck shipped in ``data/guests.json``
is ASSUMED (plausible, made for tableref); a user replaces it with their own file through
the option ``deck`` (a path), validated here on load.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..errors import InvalidInput

#: Cube colours in a fixed order; every count vector in the state follows it.
COLOURS: tuple[str, ...] = ("brown", "orange", "yellow", "green", "red", "blue")
COLOUR_INDEX: dict[str, int] = {c: i for i, c in enumerate(COLOURS)}
#: The dish each colour stands for (rulebook "Components").
DISHES: dict[str, str] = {"brown": "dessert", "orange": "pasta", "yellow": "pizza", "green": "salad",
                          "red": "wine", "blue": "water"}
#: "90 food dice (10 dessert, 12 pasta, 14 pizza, 16 salad, 18 wine, 20 water)".
CUBE_COUNTS: tuple[int, ...] = (10, 12, 14, 16, 18, 20)
BROWN = COLOUR_INDEX["brown"]
NO_CUBES: tuple[int, ...] = (0,) * len(COLOURS)

#: Marketplace: 4 rows of 3 fields, field index = 3 * (row - 1) + column.
ROWS = 4
FIELDS_PER_ROW = 3
FIELDS = ROWS * FIELDS_PER_ROW

#: Ristorante strip: the time segments from left to right (slot 0 is "60", slot 5 is "10").
SEGMENTS: tuple[int, ...] = (60, 50, 40, 30, 20, 10)
SLOTS = len(SEGMENTS)

#: "35 flower/lemon tiles".
TILES = 35
#: "Each player receives ... 2 starting guest cards" and "count out 12 cards per player".
CARDS_PER_PLAYER = 12
#: "every player who has more than 10 food dice in their supply must place dice ... back".
SUPPLY_LIMIT = 10
#: Jokers: "2 brown food dice" or "4 food dice of any colour" stand for one missing die.
BROWN_JOKER = 2
ANY_JOKER = 4

ABILITIES: tuple[str, ...] = ("die", "two_dice", "lemon", "flower", "arrow", "discard", "guest")
MAX_DISHES = 4
POINTS_RANGE = (1, 5)

DEFAULT_DECK = Path(__file__).with_name("data") / "guests.json"


def row_of(field: int) -> int:
    """Row 1..4 of a market field (row r holds r cubes when filled)."""
    return field // FIELDS_PER_ROW + 1


def clocks_of(field: int) -> int:
    """'The time needed ... is shown on the left side of the corresponding row (0, 1, 2, or 3 clocks).'"""
    return row_of(field) - 1


def slot_of_wait(wait: int) -> int:
    """The strip slot under the time segment equal to a guest's waiting time."""
    return SEGMENTS.index(wait)


def cubes_label(counts: tuple[int, ...]) -> str:
    """Canonical text of a cube multiset: colour names, repeated, in :data:`COLOURS` order."""
    counts = tuple(counts)
    label = _LABELS.get(counts)
    if label is None:
        label = ",".join(c for c, n in zip(COLOURS, counts) for _ in range(n))
        if len(_LABELS) < _LABELS_KEPT:
            _LABELS[counts] = label
    return label


#: Labels made so far (the referee's search asks for the same few hundred, millions of times).
_LABELS: dict[tuple[int, ...], str] = {}
_LABELS_KEPT = 100_000


def cubes_from_names(names, what: str) -> tuple[int, ...]:
    """Count vector from a list of colour names (checked)."""
    counts = [0] * len(COLOURS)
    for name in names:
        if name not in COLOUR_INDEX:
            raise InvalidInput(f"{what}: unknown cube colour {name!r}; expected one of {', '.join(COLOURS)}")
        counts[COLOUR_INDEX[name]] += 1
    return tuple(counts)


def cubes_from_label(label: str, what: str) -> tuple[int, ...]:
    return cubes_from_names([x for x in label.split(",") if x], what)


@dataclass(frozen=True)
class GuestCard:
    """One guest card: its order (dish colours), points, waiting time (minutes) and ability."""

    id: str
    order: tuple[int, ...]  # count per colour
    points: int
    wait: int
    ability: str
    start: bool = False

    @property
    def dishes(self) -> int:
        return sum(self.order)


@dataclass(frozen=True)
class Deck:
    """The guest cards of one deck file, by id; ``starts`` are the 8 start cards."""

    path: str
    cards: dict
    starts_short: tuple[str, ...]
    starts_long: tuple[str, ...]
    guests: tuple[str, ...]
    assumed: bool

    def card(self, card_id: str) -> GuestCard:
        return self.cards[card_id]


def _card_from_json(entry, index: int, where: str) -> GuestCard:
    what = f"{where}: card #{index}"
    if not isinstance(entry, dict):
        raise InvalidInput(f"{what} must be an object, got {type(entry).__name__}")
    for key in ("id", "dishes", "points", "wait", "ability"):
        if key not in entry:
            raise InvalidInput(f"{what} is missing {key!r} (needs id, dishes, points, wait, ability)")
    cid = entry["id"]
    if not isinstance(cid, str) or not cid or "," in cid or cid == "?":
        raise InvalidInput(f"{what}: id must be a non-empty string without ',' and not '?', got {cid!r}")
    dishes = entry["dishes"]
    if not isinstance(dishes, list) or not 1 <= len(dishes) <= MAX_DISHES:
        raise InvalidInput(f"{what} ({cid}): dishes must be a list of 1 to {MAX_DISHES} colours, got {dishes!r}")
    order = cubes_from_names(dishes, f"{what} ({cid})")
    points = entry["points"]
    if isinstance(points, bool) or not isinstance(points, int) or not POINTS_RANGE[0] <= points <= POINTS_RANGE[1]:
        raise InvalidInput(f"{what} ({cid}): points must be an integer 1 to 5, got {points!r}")
    wait = entry["wait"]
    if wait not in SEGMENTS or isinstance(wait, bool):
        raise InvalidInput(f"{what} ({cid}): wait must be one of {SEGMENTS}, got {wait!r}")
    ability = entry["ability"]
    if ability not in ABILITIES:
        raise InvalidInput(f"{what} ({cid}): ability must be one of {', '.join(ABILITIES)}, got {ability!r}")
    start = entry.get("start", False)
    if not isinstance(start, bool):
        raise InvalidInput(f"{what} ({cid}): start must be true or false, got {start!r}")
    return GuestCard(cid, order, points, wait, ability, start)


def parse_deck(data, where: str) -> Deck:
    """Check a deck document and build the :class:`Deck` (raises :class:`InvalidInput`)."""
    if not isinstance(data, dict) or not isinstance(data.get("cards"), list):
        raise InvalidInput(f"{where}: a deck file is an object with a list 'cards'")
    cards = {}
    for i, entry in enumerate(data["cards"]):
        card = _card_from_json(entry, i, where)
        if card.id in cards:
            raise InvalidInput(f"{where}: card id {card.id!r} appears twice")
        cards[card.id] = card
    starts = [c for c in cards.values() if c.start]
    short = tuple(sorted(c.id for c in starts if c.dishes == 2))
    long_ = tuple(sorted(c.id for c in starts if c.dishes == 4))
    if len(short) != 4 or len(long_) != 4 or len(starts) != 8:
        raise InvalidInput(f"{where}: needs 8 start cards, 4 with 2 dishes and 4 with 4 dishes; "
                           f"found {len(short)} and {len(long_)} of {len(starts)}")
    guests = tuple(sorted(c.id for c in cards.values() if not c.start))
    if len(guests) < CARDS_PER_PLAYER * 4 + 10:
        raise InvalidInput(f"{where}: needs at least {CARDS_PER_PLAYER * 4 + 10} guest cards besides the start "
                           f"cards (12 per player for 4 players, and some for the box), found {len(guests)}")
    return Deck(where, cards, short, long_, guests, bool(data.get("assumed", False)))


@lru_cache(maxsize=8)
def load_deck(path: str = "") -> Deck:
    """The deck at ``path`` ('' for the shipped, assumed deck)."""
    where = path or str(DEFAULT_DECK)
    try:
        text = Path(where).read_text(encoding="utf-8")
    except OSError as err:
        raise InvalidInput(f"cannot read the guest deck file {where!r}: {err.strerror or err}; "
                           "give the option 'deck' a readable JSON file") from err
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise InvalidInput(f"the guest deck file {where!r} is not JSON: {err.msg} at line {err.lineno}") from err
    return parse_deck(data, where)
