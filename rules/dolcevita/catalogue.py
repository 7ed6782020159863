"""The components of Dolce Vita, read from ``data/catalogue.json``.

Luxury cards are named by a label ``"<kind>:<value>"``: ``"car:400000"`` is the car worth
400,000, ``"money:100000"`` a money card of 100,000.  The 49 goods cards are all different;
money cards of one value are alike, so the deck is a multiset of labels.  Number cards are
named ``"<colour>:<value>"`` (``"red:4"``); player ``i`` plays colour ``COLOURS[i]``.
"""

from __future__ import annotations

import json
from collections import Counter
from functools import lru_cache
from pathlib import Path

from ..errors import InvalidInput

_DATA = json.loads((Path(__file__).parent / "data" / "catalogue.json").read_text(encoding="utf-8"))

#: The seven luxury goods, in the order the engine lists a player's goods.
GOODS: tuple[str, ...] = tuple(_DATA["goods"])
#: Every good has one card of each of these values (currency units).
GOOD_VALUES: tuple[int, ...] = tuple(_DATA["good_values"])
#: The two money card values, low first.
MONEY_LOW, MONEY_HIGH = _DATA["money_values"]
MONEY = "money"
#: How many money cards the game has, and how many of them are assumed to be the low value.
MONEY_CARDS: int = _DATA["money_cards"]
MONEY_LOW_CARDS: int = _DATA["money_low_cards"]
#: Values of one player's number cards.
NUMBER_VALUES: tuple[int, ...] = tuple(_DATA["number_values"])
#: Player colours; player i plays COLOURS[i].
COLOURS: tuple[str, ...] = tuple(_DATA["colours"])
#: The grid: COLUMNS columns (the rulebook's "rows") of SLOTS cards; BOX cards go back to the box.
COLUMNS: int = _DATA["columns"]
SLOTS: int = _DATA["slots"]
BOX: int = _DATA["box"]
#: Observation labels of an empty slot and of an item the camera could not read.
EMPTY = "empty"
UNKNOWN = "unknown"

_KIND_ORDER = {kind: i for i, kind in enumerate(GOODS + (MONEY,))}


def good_label(kind: str, value: int) -> str:
    return f"{kind}:{value}"


def money_label(value: int) -> str:
    return f"{MONEY}:{value}"


@lru_cache(maxsize=None)
def parse_card(label: str) -> tuple[str, int]:
    """``(kind, value)`` of a luxury card label; InvalidInput when it names no card."""
    kind, sep, value = label.partition(":") if isinstance(label, str) else ("", "", "")
    if sep and kind == MONEY and value in (str(MONEY_LOW), str(MONEY_HIGH)):
        return kind, int(value)
    if sep and kind in GOODS and value.isdigit() and int(value) in GOOD_VALUES:
        return kind, int(value)
    raise InvalidInput(f"{label!r} is not a Dolce Vita luxury card; expected e.g. 'car:400000' or "
                       f"'money:100000' (goods {', '.join(GOODS)}; values {GOOD_VALUES[0]}..{GOOD_VALUES[-1]})")


def card_sort_key(label: str) -> tuple[int, int]:
    kind, value = parse_card(label)
    return _KIND_ORDER[kind], value


def number_label(player: int, value: int) -> str:
    return f"{COLOURS[player]}:{value}"


@lru_cache(maxsize=None)
def parse_number(label: str) -> tuple[int, int] | None:
    """``(player, value)`` of a number card label, or None when the label is no number card."""
    colour, sep, value = label.partition(":")
    if sep and colour in COLOURS and value.isdigit() and int(value) in NUMBER_VALUES:
        return COLOURS.index(colour), int(value)
    return None


@lru_cache(maxsize=None)
def deck(money_low_cards: int = MONEY_LOW_CARDS) -> tuple[str, ...]:
    """All 66 luxury cards as sorted labels, with ``money_low_cards`` money cards of the low value."""
    if not 0 <= money_low_cards <= MONEY_CARDS:
        raise InvalidInput(f"money_low_cards must lie in 0..{MONEY_CARDS}, got {money_low_cards}")
    cards = [good_label(kind, value) for kind in GOODS for value in GOOD_VALUES]
    cards += [money_label(MONEY_LOW)] * money_low_cards
    cards += [money_label(MONEY_HIGH)] * (MONEY_CARDS - money_low_cards)
    return tuple(sorted(cards, key=card_sort_key))


def deck_counter(money_low_cards: int = MONEY_LOW_CARDS) -> Counter:
    return Counter(deck(money_low_cards))
