"""The components of Ligretto: Das Brettspiel, loaded from ``data/catalogue.json``.

A card is two colours plus an owner.  Card ``id`` runs over all players: the card ``k``
(0..14) of player ``p`` has id ``p * CARDS_PER_PLAYER + k``; a card's ``colours[0]`` is the
colour of the half that a placement puts on its first space.  Jokers are numbered the same
way: joker ``j`` (0..1) of player ``p`` has id ``p * JOKERS_PER_PLAYER + j``.
"""

from __future__ import annotations

import json
from importlib import resources

from ..errors import InvalidInput


def _load() -> dict:
    text = resources.files(__package__).joinpath("data/catalogue.json").read_text(encoding="utf-8")
    return json.loads(text)


_DATA = _load()

#: One-letter codes of the colours as used in board JSON, mapped to colour names.
COLOUR_LETTERS: dict[str, str] = dict(_DATA["colours"])
#: The colour names, in catalogue order.
COLOURS: tuple[str, ...] = tuple(COLOUR_LETTERS.values())
#: Border style of each player's cards, jokers and player board (player 0 first).
BORDERS: tuple[str, ...] = tuple(_DATA["borders"])
#: Ligretto tokens on the board (always all four, whatever the player count).
TOKENS: int = int(_DATA["tokens"])
JOKERS_PER_PLAYER: int = int(_DATA["jokers_per_player"])
#: The colours of one player's cards, card k first (the same for every player).
CARD_COLOURS: tuple[tuple[str, str], ...] = tuple((a, b) for a, b in _DATA["cards"])
CARDS_PER_PLAYER: int = len(CARD_COLOURS)
#: What the catalogue assumes where the rulebook is silent.
ASSUMED: str = _DATA["assumed"]

if any(c not in COLOURS for pair in CARD_COLOURS for c in pair):
    raise InvalidInput("data/catalogue.json: a card names a colour missing from 'colours'")


def card_owner(card: int) -> int:
    """The player whose border the card has."""
    return card // CARDS_PER_PLAYER


def card_colours(card: int) -> tuple[str, str]:
    """The card's two colours: ``colours[0]`` lies on a placement's first space."""
    return CARD_COLOURS[card % CARDS_PER_PLAYER]


def joker_owner(joker: int) -> int:
    return joker // JOKERS_PER_PLAYER


def player_cards(player: int) -> tuple[int, ...]:
    """The ids of all cards with ``player``'s border."""
    return tuple(range(player * CARDS_PER_PLAYER, (player + 1) * CARDS_PER_PLAYER))


def player_jokers(player: int) -> tuple[int, ...]:
    return tuple(range(player * JOKERS_PER_PLAYER, (player + 1) * JOKERS_PER_PLAYER))


def card_name(card: int) -> str:
    """A name for messages and violation pieces, e.g. ``card:P1#07(red/blue)``."""
    a, b = card_colours(card)
    return f"card:P{card_owner(card)}#{card % CARDS_PER_PLAYER:02d}({a}/{b})"


def joker_name(joker: int) -> str:
    return f"joker:P{joker_owner(joker)}#{joker % JOKERS_PER_PLAYER}"
