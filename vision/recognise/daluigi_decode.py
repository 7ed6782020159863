"""From the spot classifier's probabilities to Da Luigi's observation labels (pure numpy).

Every function takes, per spot, the probabilities of the labels its group allows
(:data:`~.daluigi_labels.ALLOWED`, ``blank`` and ``unknown`` last) and returns a label with a
confidence, or ``None`` where something needed is covered (the place is then unknown). The
rules' structure is used, never guessed past: cubes and tiles lie in a row from its first
place, so a row is read up to its first blank place; a guest card is the catalogue card that
best explains its dish fields and marks (:func:`decode_card`), and a card partly covered is
read only when what shows of it decides it (the cubes on a covered field stay unknown).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...rules.daluigi.catalogue import (ABILITIES, COLOURS, MAX_DISHES, POINTS_RANGE, SEGMENTS, Deck, cubes_label,
                                        slot_of_wait)
from .rows import fill_scores

#: A spot counts as covered when ``unknown`` is at least this probable.
UNKNOWN_AT = 0.7
#: Smallest probability used in a logarithm.
TINY = 1e-9
#: Weight of a cube of another colour lying on a dish field, against the field's own colour
#: (the twin and the rules allow it, as a flagged placement; it is rare).
OTHER_CUBE_WEIGHT = 0.05
#: Weight of a guest card lying left of the time segment of its waiting time: guests are laid
#: under that segment and only ever pushed right ("The cards are placed on the guest fields
#: below the players' ristorante strips so that the time matches the guest's waiting time";
#: "a guest is moved one or more time segments to the right"). Such a card is a flagged
#: placement, rare, so it weighs as little as a cube on a field of another colour.
EARLY_GUEST_WEIGHT = 0.05
#: How much each printed mark counts in telling cards apart (its log-probability's weight):
#: the points digit is 4-5 px high in a 1280x720 view of the whole table and read least
#: surely; the dish colours count fully.
MARK_WEIGHTS = {"points": 0.5, "wait": 1.0, "ability": 1.0}
#: A card place with covered spots is read only when at least this many of its spots show
#: (of MAX_DISHES dish fields and 3 marks) ...
MIN_SPOTS_SHOWN = 5
#: ... and what shows makes one reading at least this probable (dish colours and ability tell
#: 80 of the 90 catalogue cards apart, so a covered points or waiting-time mark often leaves
#: one card; two covered dish fields seldom do).
COVERED_POSTERIOR = 0.9


@dataclass(frozen=True)
class Read:
    """One place read: its label (None: unknown) and confidence in [0, 1]."""

    label: str | None
    confidence: float


UNREAD = Read(None, 0.0)


def _renormed(p: np.ndarray) -> np.ndarray:
    """Rows without the ``unknown`` column, renormalised."""
    q = p[:, :-1]
    return q / np.maximum(q.sum(axis=1, keepdims=True), TINY)


def _fill_count(p: np.ndarray, thing: np.ndarray) -> tuple[int, float] | None:
    """How many things lie in a row filled from its first place: the n whose "things before n,
    none from n on" best explains every place read (:func:`.rows.fill_scores`; ``thing``: each
    place's share of a thing against blank, ``p``'s last column ``unknown``; a place read
    covered is left out), with its probability among all counts; None when a place up to the
    count's end is covered."""
    covered = p[:, -1] >= UNKNOWN_AT
    scores = np.array(fill_scores([None if c else float(t) for c, t in zip(covered, thing)]))
    n = int(scores.argmax())
    if covered[:n + 1].any():
        return None
    return n, float(1.0 / np.exp(scores - scores.max()).sum())


def _die_share(p: np.ndarray) -> np.ndarray:
    """(N,) each cube place's likeliest colour's probability against blank's (``p``: colours,
    blank, unknown)."""
    die = p[:, :len(COLOURS)].max(axis=1)
    return die / np.maximum(die + p[:, len(COLOURS)], TINY)


def row_ends(p: np.ndarray) -> bool:
    """Whether a row of cube places' count (:func:`cube_row`) ends within these places, or is
    unknown: its places after them are then not read (they would change the count only where
    more dice lie after a place read blank than places read blank before them)."""
    counted = _fill_count(p, _die_share(p))
    return counted is None or counted[0] < len(p)


def cube_row(p: np.ndarray) -> Read:
    """A row of cube places (market field, supply) -> a cube label (colours in rules order).

    Cubes lie in a row from its first place: the count is the n that best explains every place
    read, each die as its likeliest colour against blank (:func:`_fill_count`: the likeliest
    count and colours together), not the places up to the first one read blank: a brown die on
    a dark red table read blank at 0.55 cut a supply of four to none, though the three places
    after it read dice at 0.96-1.0 (validation render 2000563). The colours are the first n
    places' likeliest; the confidence is the least of the count's probability and each place's
    reading (its colour, and the blank place after the last die) among all its labels,
    ``unknown`` too: a place read though leaning to covered (a sleeve across a market field
    reads as an empty field, surely among the other labels) is read unsurely, and
    :func:`~.daluigi.beside_the_covered` leaves it unknown."""
    colours = len(COLOURS)
    counted = _fill_count(p, _die_share(p))
    if counted is None:
        return UNREAD
    n, conf = counted
    share = p / np.maximum(p.sum(axis=1, keepdims=True), TINY)
    counts = [0] * colours
    for k in range(n):
        best = int(p[k, :colours].argmax())
        counts[best] += 1
        conf = min(conf, float(share[k, best]))
    if n < len(p):
        conf = min(conf, float(share[n, colours]))
    return Read(cubes_label(tuple(counts)), conf)


def tile_row(p: np.ndarray) -> tuple[Read, Read]:
    """A player's tile places -> (lemons, flowers) counts; tiles are all of one side.

    Tiles fill the places from the first, so the count is the n whose "tiles before n, none from
    n on" best explains every place read (each place's tile against blank share, a place read
    covered left out: :func:`.rows.fill_scores`, as Dolce Vita's columns and fans are counted),
    not the places up to the first one read blank: a place at a column's head read blank (0.21
    against 0.18 for a lemon, the rest covered) cut a row of six lemons to four, though the
    place after it read a lemon at 0.83 (validation render 2000693). Unknown when a place up to
    the count's end is covered; the confidence is the count's probability among all counts, and
    the side's."""
    counted = _fill_count(p, (p[:, 0] + p[:, 1]) / np.maximum(p[:, :3].sum(axis=1), TINY))
    if counted is None:
        return UNREAD, UNREAD
    n, conf = counted
    lemons = flowers = 0
    if n:
        known = p[:n, :2] / np.maximum(p[:n, :2].sum(axis=1, keepdims=True), TINY)
        flower = float(np.exp(np.log(known[:, 0] + TINY).sum()))
        lemon = float(np.exp(np.log(known[:, 1] + TINY).sum()))
        conf = min(conf, max(flower, lemon) / max(flower + lemon, TINY))
        lemons, flowers = (0, n) if flower > lemon else (n, 0)
    return Read(str(lemons), conf), Read(str(flowers), conf)


def pile_score(p: np.ndarray, n: int) -> float:
    """Mean log-likelihood that spots ``p`` (edge, blank, unknown) show ``n`` card edges then none."""
    known = p[:, :2] / np.maximum(p[:, :2].sum(axis=1, keepdims=True), TINY)
    score = float(np.log(known[:n, 0] + TINY).sum())
    if n < len(known):
        score += float(np.log(known[n, 1] + TINY))
    return score / (min(n, len(known) - 1) + 1)


@dataclass(frozen=True)
class CardTable:
    """The catalogue as arrays, for scoring every card at once.

    Attributes
    ----------
    ids : tuple of str
    dishes : ndarray (cards, MAX_DISHES) int
        Colour index of each dish field (in rules order), -1 where the card has none.
    points, wait, ability : ndarray (cards,) int
        Index of each card's mark among the points, waiting times and abilities.
    layout : ndarray (cards,) int
        Which of the catalogue's different rows of dish fields each card has (cards of one
        layout take their cubes alike, however their marks differ).
    first_slot : ndarray (cards,) int
        The strip slot under each card's waiting time: the leftmost it may lie in.
    """

    ids: tuple[str, ...]
    dishes: np.ndarray
    points: np.ndarray
    wait: np.ndarray
    ability: np.ndarray
    layout: np.ndarray
    first_slot: np.ndarray

    @classmethod
    def of(cls, deck: Deck) -> CardTable:
        ids = tuple(sorted(deck.cards))
        dishes = np.full((len(ids), MAX_DISHES), -1, np.int64)
        for i, cid in enumerate(ids):
            card = deck.card(cid)
            colours = [k for k, n in enumerate(card.order) for _ in range(n)]
            dishes[i, :len(colours)] = colours
        cards = [deck.card(cid) for cid in ids]
        layout = np.unique(dishes, axis=0, return_inverse=True)[1].reshape(-1)
        return cls(ids, dishes, np.array([c.points - POINTS_RANGE[0] for c in cards]),
                   np.array([SEGMENTS.index(c.wait) for c in cards]),
                   np.array([ABILITIES.index(c.ability) for c in cards]), layout,
                   np.array([slot_of_wait(c.wait) for c in cards]))


def _log(q: np.ndarray, shown: bool | np.ndarray) -> np.ndarray:
    """log(q), or 0 where the spot is covered (it tells nothing)."""
    return np.where(shown, np.log(q + TINY), 0.0)


def decode_card(dish: np.ndarray, points: np.ndarray, wait: np.ndarray, ability: np.ndarray,
                table: CardTable, min_posterior: float = 0.0, slot: int | None = None) -> tuple[Read, Read]:
    """A guest card's place -> (card id or "" for none, the cubes on its order fields).

    A covered spot (``unknown`` at least :data:`UNKNOWN_AT`) counts for no reading. With spots
    covered, the place is read only when at least :data:`MIN_SPOTS_SHOWN` show and the best
    reading's posterior reaches :data:`COVERED_POSTERIOR`. The cubes are read for the likeliest
    row of dish fields (the posterior of every card with that row together: two cards that
    differ only in a mark the camera cannot tell apart take their cubes alike) when that
    posterior reaches ``min_posterior`` and none of those fields is covered; their confidence
    is at most that posterior; a cube is of its field's printed colour unless plainly of another
    (:data:`OTHER_COLOUR_SURE`). The card comes with its own posterior, for the caller to weigh.
    A card on a strip's ``slot`` left of its waiting time's segment weighs
    :data:`EARLY_GUEST_WEIGHT` (None: a place off the strips, where any card may lie).

    Parameters
    ----------
    dish : ndarray (MAX_DISHES, 14)
        Per dish field: cube colours (6), printed field colours (6), blank, unknown.
    points, wait, ability : ndarray (labels + 2,)
        The marks' probabilities (their labels, blank, unknown).
    """
    marks = (points, wait, ability)
    shown = np.array([row[-1] < UNKNOWN_AT for row in (*dish, *marks)])
    covered = not shown.all()
    if covered and shown.sum() < MIN_SPOTS_SHOWN:
        return UNREAD, UNREAD
    d = _renormed(dish)
    pts, wt, ab = (_renormed(m[None])[0] for m in marks)
    dish_shown, (pts_shown, wt_shown, ab_shown) = shown[:MAX_DISHES], shown[MAX_DISHES:]
    colours = len(COLOURS)
    cube, field, blank = d[:, :colours], d[:, colours:2 * colours], d[:, 2 * colours]
    log_blank = _log(blank, dish_shown)
    w_pts, w_wt, w_ab = (MARK_WEIGHTS[k] for k in ("points", "wait", "ability"))
    # empty place: everything blank
    empty = float(log_blank.sum() + w_pts * _log(pts[-1], pts_shown) + w_wt * _log(wt[-1], wt_shown)
                  + w_ab * _log(ab[-1], ab_shown))
    # every card: its marks and, per dish field, its colour printed or covered by a cube
    other = cube.sum(axis=1, keepdims=True) - cube
    fits = _log(field + cube + OTHER_CUBE_WEIGHT * other, dish_shown[:, None])  # (MAX_DISHES, colours)
    has = table.dishes >= 0
    per_field = np.where(has, fits[np.arange(MAX_DISHES)[None, :], np.maximum(table.dishes, 0)], log_blank[None, :])
    scores = (per_field.sum(axis=1) + w_pts * _log(pts[table.points], pts_shown)
              + w_wt * _log(wt[table.wait], wt_shown) + w_ab * _log(ab[table.ability], ab_shown))
    if slot is not None:
        scores = scores + np.where(table.first_slot > slot, np.log(EARLY_GUEST_WEIGHT), 0.0)
    every = np.concatenate([[empty], scores])
    post = np.exp(every - every.max())
    post /= post.sum()
    best = int(post.argmax())
    card = Read("" if best == 0 else table.ids[best - 1], float(post[best]))
    if covered and card.confidence < COVERED_POSTERIOR:
        card = UNREAD
    layouts = np.bincount(table.layout, weights=post[1:])
    layout, layout_post = int(layouts.argmax()), float(layouts.max())
    if layout_post <= post[0] or layout_post < min_posterior:  # no card likely enough
        return card, UNREAD
    k = int(np.flatnonzero(table.layout == layout)[0])  # a card of that layout
    mine = table.dishes[k] >= 0
    if not dish_shown[mine].all() or (covered and layout_post < COVERED_POSTERIOR):
        return card, UNREAD  # a field covered: its cubes unknown
    counts = [0] * colours
    for j in np.flatnonzero(mine):
        if cube[j].sum() > field[j, table.dishes[k, j]]:
            counts[_cube_colour(cube[j], int(table.dishes[k, j]))] += 1
    cube_conf = min([layout_post] + [float(max(cube[j].sum(), field[j].sum())) for j in np.flatnonzero(mine)])
    return card, Read(cubes_label(tuple(counts)), cube_conf)


#: A cube on an order field is taken to be of the field's printed colour (the rules place a
#: die only on a field of its colour) unless another colour holds at least this share of the
#: cube's probability: a die of another colour on a field, which the referee flags, is read
#: when plain. On validation renders 2000450..2000749 three of the 11 cubes read in a wrong
#: colour lay on order fields (a blue die read yellow at 0.68, a yellow one blue at 0.83):
#: cube colour error 0.147 -> 0.107 %, scenes exactly right 192 -> 193 (0.99 read the same);
#: 2000750..2000899 unchanged.
OTHER_COLOUR_SURE = 0.9


def _cube_colour(cube: np.ndarray, printed: int) -> int:
    """The colour (index) of the cube on an order field printed ``printed``, from its
    probabilities per colour ``cube``."""
    best = int(cube.argmax())
    if best != printed and cube[best] < OTHER_COLOUR_SURE * max(float(cube.sum()), TINY):
        return printed
    return best
