"""One Ligretto space's reading, and a card's: what the classifiers' answers for a place of the
board (:class:`Evidence`) say of it, each answer on its own and unknown below
:data:`MIN_CONFIDENCE` (:func:`space_reading`). The recogniser (:mod:`.ligretto`) reads every
space so, and pairs the card halves into cards (:mod:`.ligretto_cards`)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...rules.ligretto.catalogue import BORDERS
from . import ligretto_decide as decide
from .ligretto_labels import CARD, HIDDEN, JOKER, OFF

#: A reading below this probability is reported unknown.
MIN_CONFIDENCE = 0.6
#: A colour is read when at least this share of a space's coloured ring agrees.
MIN_COLOUR_SHARE = 0.6


@dataclass(frozen=True)
class SpaceReading:
    """What one space of the board shows.

    ``cover``: ``none``, ``card``, ``joker`` or None (unknown); ``owner``: the player whose
    border the card or joker has; ``colour``: the colour that shows (the card's half on a
    card, the board's own colour on a free space; None on a joker or when unknown);
    ``start``: whether the board shows a token's start mark (None when covered or unknown).
    """

    cell: tuple[int, int]
    cover: str | None
    owner: int | None
    colour: str | None
    confidence: float
    start: bool | None
    token: bool | None
    token_confidence: float
    quad_px: tuple[tuple[float, float], ...]

    def to_json(self) -> dict:
        return {"cell": list(self.cell), "cover": self.cover, "owner": self.owner, "colour": self.colour,
                "confidence": round(self.confidence, 4), "start": self.start, "token": self.token,
                "token_confidence": round(self.token_confidence, 4),
                "quad_px": [[round(x, 1), round(y, 1)] for x, y in self.quad_px]}

    @classmethod
    def unknown(cls, cell: tuple[int, int], quad_px: tuple[tuple[float, float], ...]) -> SpaceReading:
        """A space left unknown: nothing about it read, confidence 0."""
        return cls(cell, None, None, None, 0.0, None, None, 0.0, quad_px)


@dataclass(frozen=True)
class CardReading:
    """A two-colour card: the two spaces it covers (reading order), its colours on them, its
    owner, and how probable each owner is by its borders (``borders``, one per style; empty when
    not given)."""

    cells: tuple[tuple[int, int], tuple[int, int]]
    colours: tuple[str | None, str | None]
    owner: int
    confidence: float
    borders: tuple[float, ...] = ()

    def to_json(self) -> dict:
        return {"cells": [list(c) for c in self.cells], "colours": list(self.colours), "owner": self.owner,
                "border": BORDERS[self.owner], "confidence": round(self.confidence, 4)}


@dataclass(frozen=True, eq=False)
class Evidence:
    """The classifiers' answers for every place of the grid (flat index)."""

    kind: np.ndarray
    kinds: np.ndarray  # (N, len(decide.KINDS)): each kind's probability
    card_borders: np.ndarray
    joker_borders: np.ndarray
    start: np.ndarray
    token_present: np.ndarray


#: A joker shows the four colours around its star; a space whose coloured ring agrees on one
#: colour this much is no joker, whatever the classifier says (a card's half under a token,
#: its border hard to see, is read as a joker), and is read as the likeliest of the other
#: kinds, as surely as among them. On validation renders 2000100..2000299 the rings of 684
#: jokers read as such agreed at most 0.82 (median 0.34), those of the cards misread as jokers
#: 0.0 (a token over the ring), 0.83 and 0.89. Until 2026-12-04 (evening) only a space read
#: as a joker was so read again; a card's half under a token read as a card at 0.83-0.92 (the
#: rest a joker) was then left unknown beside a space left unknown (``_beside_the_hidden``).
#: Every space so: boards exactly right 132 -> 133 of 2000300..2000449, 263 of
#: 2000450..2000749, 209 -> 211 of 2000750..2000999 (wrong spaces 144 -> 143, 93, 119 -> 117).
ONE_COLOUR_SHARE = 0.85
#: Where the classifier cannot tell a card from a joker (together at least
#: :data:`CARD_OR_JOKER`, neither :data:`MIN_CONFIDENCE`: a token over a joker's star), a ring
#: of several colours (below :data:`MIXED_SHARE`) makes it a joker, with the pair's joint
#: probability (one colour makes it a card: :data:`ONE_COLOUR_SHARE`). Chosen on validation
#: renders 2000300..2000449, 2000450..2000749 and 2000750..2000999: of the 14 spaces so
#: undecided, 8 jokers shown whole rang 0.36-0.71 and 2 such cards 0.98 and 1.0 (all unknown
#: before); 3 cards partly under a hand 0.50-0.56 (unknown before, now misread) and a joker
#: partly covered 0.68.
CARD_OR_JOKER, MIXED_SHARE = 0.9, 0.75


def without(kinds: np.ndarray, kind: str) -> tuple[str, float]:
    """The likeliest kind other than ``kind`` among probabilities ``kinds`` (decide.KINDS), and
    its probability among those others."""
    rest = kinds.copy()
    rest[decide.KINDS.index(kind)] = 0.0
    k = int(rest.argmax())
    return decide.KINDS[k], float(rest[k] / max(rest.sum(), decide.FLOOR))


def _card_or_joker(kinds: np.ndarray, kind: str, confidence: float, colour_share: float) -> tuple[str, float]:
    """(kind, confidence) of a space the classifier leaves between a card and a joker: a
    joker where its ring shows several colours (:data:`CARD_OR_JOKER`); as given elsewhere."""
    either = float(kinds[decide.KINDS.index(CARD)] + kinds[decide.KINDS.index(JOKER)])
    if either >= CARD_OR_JOKER and colour_share < MIXED_SHARE:
        return JOKER, either
    return kind, confidence


def space_reading(cell: tuple[int, int], i: int, ev: Evidence, colour: str | None, colour_share: float,
           quad: np.ndarray, kind: str | None = None, confidence: float = 0.0) -> SpaceReading:
    """One space's reading from the evidence at flat index ``i``: unknown below
    :data:`MIN_CONFIDENCE`, each answer on its own (kind, then owner, colour, start mark);
    ``kind`` with its ``confidence`` where the board decided it (:func:`~.ligretto_cards.settle_lone`)."""
    quad_t = tuple((float(x), float(y)) for x, y in quad)
    if kind is None:
        kind, confidence = str(ev.kind[i]), float(ev.kinds[i].max())
        if colour_share >= ONE_COLOUR_SHARE and ev.kinds[i][decide.KINDS.index(JOKER)] > 0.0:
            kind, confidence = without(ev.kinds[i], JOKER)
        elif kind in (CARD, JOKER) and confidence < MIN_CONFIDENCE:
            kind, confidence = _card_or_joker(ev.kinds[i], kind, confidence, colour_share)
    if kind in (HIDDEN, OFF) or confidence < MIN_CONFIDENCE:
        return SpaceReading.unknown(cell, quad_t)
    owner = None
    if kind in (CARD, JOKER):
        p = (ev.card_borders if kind == CARD else ev.joker_borders)[i]
        owner = int(np.argmax(p)) if p.max() >= MIN_CONFIDENCE else None
    shown = colour if (kind != JOKER and colour_share >= MIN_COLOUR_SHARE) else None
    start = None
    if kind == "none" and max(ev.start[i], 1.0 - ev.start[i]) >= MIN_CONFIDENCE:
        start = bool(ev.start[i] >= 0.5)
    # the space shows (its kind is sure): whether a token stands on it, leaving "hidden" aside
    token: bool | None = None
    p_token = float(ev.token_present[i])
    token_confidence = max(p_token, 1.0 - p_token)
    if token_confidence >= MIN_CONFIDENCE:
        token = p_token >= 0.5
    else:
        token_confidence = 0.0
    return SpaceReading(cell, kind, owner, shown, confidence, start, token, token_confidence, quad_t)
