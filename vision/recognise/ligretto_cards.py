"""Ligretto's card halves paired into cards, and the halves left unsure or alone settled by
what lies beside them: pure functions of the space readings (:mod:`.ligretto_reading`), the
classifiers' evidence and the looks at whole cards. Each card's owner is the border style its
halves and the look at the whole card most probably share (:func:`card_of`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import numpy as np

from . import ligretto_cells as cells
from . import ligretto_decide as decide
from .edges import beside
from .ligretto_labels import CARD, JOKER
from .ligretto_pairs import lone_halves, match, unsure_halves
from .ligretto_reading import MIN_CONFIDENCE, CardReading, Evidence, without

#: A look at pairs of neighbouring cells, each cut as one card: pairs -> (pairs, the model's
#: labels) probabilities (the card model's border styles, the seam model's one or two pieces).
WholeLook = Callable[[list[tuple]], np.ndarray]


#: Pairing: the cost of two halves whose border styles disagree (times the probability that
#: they do), added to their seam's paleness.
DISAGREE_COST = 0.2


def pair_cards(spaces: dict, index: dict, borders: np.ndarray, rect_quads: np.ndarray,
                rect: np.ndarray, whole: WholeLook | None = None,
                apart: Callable[[list[tuple]], np.ndarray] | None = None) -> tuple[list[CardReading], set]:
    """Neighbouring card halves paired into cards (:mod:`.ligretto_pairs`); each pair's owner is
    the border style both halves most probably share (with ``whole``, a look at the whole card,
    pairs -> border probabilities, joining them), written back into ``spaces``. How far apart two
    halves lie is ``apart`` (neighbouring pairs -> the seam classifier's probability that they
    are two pieces) where given, else how pale the strip between them is
    (:func:`~.ligretto_cells.seam_pale`). Returns the cards whose owner is sure, and every half
    paired."""
    halves = sorted(cell for cell, s in spaces.items() if s.cover == CARD)
    touching = [(a, b) for a in halves for b in ((a[0] + 1, a[1]), (a[0], a[1] + 1))
                if b in spaces and spaces[b].cover == CARD]
    split = (dict(zip(touching, apart(touching))) if apart is not None else
             {(a, b): cells.seam_pale(rect, rect_quads[a], rect_quads[b]) for a, b in touching})

    def cost(a: tuple[int, int], b: tuple[int, int]) -> float | None:
        if (a, b) not in split:
            return None
        _, _, agree = decide.joint_border(borders[index[a]], borders[index[b]])
        return float(split[a, b]) + DISAGREE_COST * (1.0 - agree)

    pairs = match(halves, cost)
    looks = whole(pairs) if whole is not None else [None] * len(pairs)
    cards = [card_of(spaces, index, borders, a, b, w) for (a, b), w in zip(pairs, looks)]
    return sorted((c for c in cards if c is not None), key=lambda c: c.cells), {cell for p in pairs for cell in p}


#: Two halves paired whose owner is unsure, each read at least this surely with a border of
#: its own, different ones, are halves of two cards (their partners hidden, as by a pen over
#: both, or paired elsewhere): each keeps the owner its border reads, and no card is reported.
#: On validation renders 2000300..2000449, 2000450..2000749 and 2000750..2000999 (boards exactly
#: right 132, 261, 215 before): 132, 263, 216, wrong spaces 146, 98, 121 -> 143, 94, 119; the 9
#: owners so read (of 29 left unknown on spaces shown whole) all right; 0.9 read the same.
TWO_CARDS_SURE = 0.99


def card_of(spaces: dict, index: dict, borders: np.ndarray, a: tuple[int, int], b: tuple[int, int],
          whole: np.ndarray | None = None) -> CardReading | None:
    """Halves ``a`` and ``b`` as one card: its owner, the border style both most probably share
    (``whole``: the whole card's border probabilities, joining in), written back into
    ``spaces``; None when that owner is unsure (then halves each sure of another border keep
    their own owners: :data:`TWO_CARDS_SURE`)."""
    a, b = sorted((a, b))
    pa, pb = borders[index[a]], borders[index[b]]
    shared = decide.shared_border(pa, pb, whole)
    best, p = int(np.argmax(shared)), float(shared.max())
    owner = best if p >= MIN_CONFIDENCE else None
    owners = (owner, owner)
    if owner is None and min(pa.max(), pb.max()) >= TWO_CARDS_SURE and pa.argmax() != pb.argmax():
        owners = (int(pa.argmax()), int(pb.argmax()))  # halves of two cards: each its own owner
    for cell, own in zip((a, b), owners):
        spaces[cell] = replace(spaces[cell], owner=own)
    sa, sb = spaces[a], spaces[b]
    if owner is None:
        return None
    return CardReading((a, b), (sa.colour, sb.colour), owner, min(sa.confidence, sb.confidence, p),
                       tuple(float(x) for x in shared))


#: Settling lone card halves: probabilities below ODDS_FLOOR count as ODDS_FLOOR (the
#: classifier's answers mean nothing finer), and a half read a card at least SURE_HALF keeps
#: its reading when nothing beside it can complete it (the space beside it that is its other
#: half is then the one misread). Chosen on validation renders 2000150..2000449.
ODDS_FLOOR, SURE_HALF = 1e-3, 0.98


#: A space the cover classifier leaves between a card's half and a free space (the two
#: together at least CARD_OR_FREE, neither :data:`MIN_CONFIDENCE`) is settled by the board
#: (:func:`settle_unsure`). Chosen on validation renders 2000300..2000449, 2000450..2000749
#: and 2000750..2000999: the 8 spaces read so unknown that their neighbours could settle
#: fell into two groups, 4 read 0.90-1.0 card or free (all shown whole; 3 settled right and one
#: joined its card's half rightly but left the owner unsure) and 4 read 0.49-0.56 (the rest
#: hidden: spaces 51-56 % shown, which the board would have misread).
CARD_OR_FREE = 0.8


def settle_unsure(spaces: dict, index: dict, ev: Evidence, paired: set, again,
                   whole: WholeLook | None = None) -> tuple[list[CardReading], set]:
    """Spaces read unknown between a card's half and a free space (:data:`CARD_OR_FREE`),
    settled by what lies beside them (:func:`~.ligretto_pairs.unsure_halves`): one beside a
    card's half left without a partner is its other half (read a card at least
    :data:`MIN_CONFIDENCE`, its owner the two halves' and ``whole``'s, as a card paired); one
    that nothing beside it can complete is read again without the card (a free space). Returns
    the cards made and the halves now paired (``spaces`` updated)."""
    card_k, none_k = decide.KINDS.index(CARD), decide.KINDS.index("none")
    unsure = [cell for cell, s in spaces.items() if s.cover is None
              and max(ev.kinds[index[cell], card_k], ev.kinds[index[cell], none_k]) < MIN_CONFIDENCE
              and ev.kinds[index[cell], card_k] + ev.kinds[index[cell], none_k] >= CARD_OR_FREE]
    if not unsure:
        return [], paired

    def agree(space: tuple[int, int], half: tuple[int, int]) -> float:
        return decide.joint_border(ev.card_borders[index[space]], ev.card_borders[index[half]])[2]

    joined, free = unsure_halves({cell: s.cover for cell, s in spaces.items()}, paired, beside, unsure, agree)
    pairs = [tuple(sorted(pair)) for pair in joined]
    looks = whole(pairs) if whole is not None else [None] * len(pairs)
    cards = []
    for (space, _), pair, look in zip(joined, pairs, looks):
        k = ev.kinds[index[space]]
        spaces[space] = again(space, CARD, max(MIN_CONFIDENCE, float(k[card_k] / (k[card_k] + k[none_k]))))
        card = card_of(spaces, index, ev.card_borders, *pair, look)
        if card is not None:
            cards.append(card)
    for space in free:
        spaces[space] = again(space, *without(ev.kinds[index[space]], CARD))
    return cards, set(paired) | {cell for pair in joined for cell in pair}


def settle_lone(spaces: dict, index: dict, ev: Evidence, paired: set, again) -> list[CardReading]:
    """Card halves left without a partner, settled (:func:`~.ligretto_pairs.lone_halves`): one
    beside a space read as a joker joins it when the two are likelier one card than two
    jokers; one that no space beside it can complete is, unless read at least
    :data:`SURE_HALF`, read again without the card (a joker, a free space, or unknown below
    :data:`MIN_CONFIDENCE`). ``again(cell, kind, confidence)`` reads a space anew with a kind
    decided; ``paired``: the halves already paired. Returns the cards joined (``spaces``
    updated)."""
    card_k, joker_k = decide.KINDS.index(CARD), decide.KINDS.index(JOKER)

    def odds(half: tuple[int, int], joker: tuple[int, int]) -> float:
        h, j = (np.maximum(ev.kinds[index[cell]], ODDS_FLOOR) for cell in (half, joker))
        return float(h[card_k] * j[card_k] / (h[joker_k] * j[joker_k]))

    # joined only where the card they make is read at least MIN_CONFIDENCE
    joined, not_cards = lone_halves({cell: s.cover for cell, s in spaces.items()}, paired, beside, odds,
                                    MIN_CONFIDENCE / (1.0 - MIN_CONFIDENCE))
    out = []
    for half, joker in joined:
        o = odds(half, joker)
        spaces[joker] = again(joker, CARD, o / (1.0 + o))
        card = card_of(spaces, index, ev.card_borders, half, joker)
        if card is not None:
            out.append(card)
    for half in not_cards:
        if ev.kinds[index[half], card_k] >= SURE_HALF:
            continue
        spaces[half] = again(half, *without(ev.kinds[index[half]], CARD))
    return out
