"""What the set holds bounds what is read: four tokens, two jokers and one deck a player.

No more spaces keep a token than the game has tokens (:func:`at_most_tokens`), no player keeps
more jokers than the set gives each (:func:`at_most_jokers`), and no player holds more cards of
one pair of colours than a deck has (:func:`within_decks`). Each takes the space readings of
:mod:`.ligretto` (``cell``, ``cover``, ``owner``, ``confidence``, ``token``,
``token_confidence``) and returns them amended; a reading so amended below the recogniser's
confidence floor is unknown.

The decks: "Every player receives 15 cards with the same border" (the rulebook's set-up), and every
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

from ...rules.ligretto.catalogue import BORDERS, CARD_COLOURS, JOKERS_PER_PLAYER, TOKENS
from .ligretto_decide import owners_within
from .ligretto_labels import JOKER

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


def at_most_tokens(spaces: Mapping[tuple[int, int], Any], min_confidence: float,
                   tokens: int = TOKENS) -> dict[tuple[int, int], Any]:
    """``spaces`` with at most ``tokens`` of them read as holding a token: the game has four
    ("4 Ligretto tokens", the rulebook's contents). When more are read, the surest keep theirs
    and the others are read free of one, as surely as the least sure token kept (unknown when
    that is below ``min_confidence``). On validation renders 2000000..2000299 (four tokens
    on every board) five were read on 10 boards, and on each the least sure was a false one.
    """
    held = sorted((s for s in spaces.values() if s.token), key=lambda s: -s.token_confidence)
    if len(held) <= tokens:
        return dict(spaces)
    floor = held[tokens - 1].token_confidence if tokens else 1.0
    out = dict(spaces)
    for s in held[tokens:]:
        out[s.cell] = (replace(s, token=False, token_confidence=floor) if floor >= min_confidence
                       else replace(s, token=None, token_confidence=0.0))
    return out


def at_most_jokers(spaces: Mapping[tuple[int, int], Any], index: Mapping[tuple[int, int], int],
                   borders: np.ndarray, min_confidence: float,
                   per_player: int = JOKERS_PER_PLAYER) -> dict[tuple[int, int], Any]:
    """``spaces`` with no owner holding more than ``per_player`` of the jokers read: each
    player has two ("2 joker tiles that also have matching borders", the rulebook's set-up).
    The jokers' owners are the likeliest under that limit (:func:`~.ligretto_decide.owners_within`,
    on ``borders``: each space's joker border probabilities by flat ``index``), those read
    without an owner included: a joker read as much double as dashed is dashed where two double
    ones are read surely (validation render 2000718). An owner so placed below
    ``min_confidence`` is unknown.
    """
    jokers = [s for s in spaces.values() if s.cover == JOKER]
    if not jokers or len(jokers) > per_player * len(BORDERS):
        return dict(spaces)
    owners, sure = owners_within(np.array([borders[index[s.cell]] for s in jokers]), per_player)
    out = dict(spaces)
    for s, owner, p in zip(jokers, owners, sure):
        placed = owner if p >= min_confidence else None
        if placed != s.owner:
            out[s.cell] = replace(s, owner=placed)
    return out
