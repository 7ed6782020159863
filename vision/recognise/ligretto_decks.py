"""No player holds more cards of one pair of colours than a deck has.

"Every player receives 15 cards with the same border" (the rulebook's set-up), and every
player's 15 cards have the same colours: each pair of colours on as many cards in every
deck (the catalogue, ``rules/ligretto/data/catalogue.json``; the rulebook does not list them,
so a set whose cards differ needs its own catalogue, or the bound switched off:
``deck_limits`` in the zones). Cards of one pair read with more of one owner's border than a
deck holds cannot all be right: of those cards, the likeliest owners within the bound are
taken, as the jokers' are (:func:`~.ligretto_decide.owners_within`).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from ...rules.ligretto.catalogue import CARD_COLOURS
from .ligretto_decide import owners_within

#: How many of one player's cards show each pair of colours, either way round.
DECK: Counter = Counter(frozenset(pair) for pair in CARD_COLOURS)


def within_decks(cards: Sequence[Any], spaces: Mapping[tuple[int, int], Any], min_confidence: float,
                 deck: Mapping[frozenset, int] = DECK) -> tuple[list, dict]:
    """``cards`` (card readings: ``cells``, ``colours``, ``owner``, ``confidence`` and
    ``borders``, each owner's probability) and ``spaces`` (cell -> space reading, with
    ``owner`` and ``confidence``) with no owner holding more cards of one pair of colours than
    ``deck`` gives each player. Where more are read, the cards of that pair take the likeliest
    owners within the bound; a card so placed below ``min_confidence`` has no sure owner: it
    leaves the cards and its spaces' owner is unknown. Cards whose colours or border
    probabilities are unknown, and pairs no deck holds (a colour misread), are left as read.
    """
    groups: dict[frozenset, list[int]] = defaultdict(list)
    for i, card in enumerate(cards):
        if None not in card.colours and card.borders:
            groups[frozenset(card.colours)].append(i)
    out_cards, out_spaces, dropped = list(cards), dict(spaces), set()
    for pair, members in groups.items():
        limit = deck.get(pair, 0)
        owners = len(cards[members[0]].borders)
        most = max(Counter(cards[i].owner for i in members).values())
        if not limit or len(members) > limit * owners or most <= limit:
            continue
        placed, sure = owners_within(np.array([cards[i].borders for i in members]), limit)
        for i, owner, p in zip(members, placed, sure):
            card = cards[i]
            if owner == card.owner:
                continue
            if p < min_confidence:
                dropped.add(i)
                owner = None
            for cell in card.cells:
                out_spaces[cell] = replace(out_spaces[cell], owner=owner)
            if owner is not None:
                shown = min(out_spaces[cell].confidence for cell in card.cells)
                out_cards[i] = replace(card, owner=owner, confidence=min(p, shown))
    return [card for i, card in enumerate(out_cards) if i not in dropped], out_spaces
