"""From the cover classifier's probabilities to what a space shows, one question at a time.

The classifier gives one probability per label (``empty``, ``start``, ``card:solid``...).
Reading them as a whole would leave a card unknown whenever the border style is uncertain;
instead the kind comes first (nothing, a card, a joker, hidden, no space: the labels' summed
probabilities), then, given the kind, the border style (a card's two halves decide it
together, once paired) and the start mark. Each answer has its own confidence; an answer
below the recogniser's threshold is unknown, the others stand.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ...rules.ligretto.catalogue import BORDERS
from .ligretto_labels import CARD, EMPTY, HIDDEN, JOKER, NO_TOKEN, OFF, START, TOKEN

#: The kinds of what a place shows, in order; ``none`` is a free space.
KINDS = ("none", CARD, JOKER, HIDDEN, OFF)
#: Probability floor used when multiplying the halves' border probabilities.
FLOOR = 1e-6


def kind_of(label: str) -> str:
    """The kind of a classifier label."""
    if label in (EMPTY, START):
        return "none"
    return label.partition(":")[0]


def kinds(probabilities: np.ndarray, labels: Sequence[str]) -> np.ndarray:
    """Summed probabilities (N, len(KINDS)) of each kind."""
    index = np.array([KINDS.index(kind_of(label)) for label in labels])
    out = np.zeros((len(probabilities), len(KINDS)), np.float64)
    np.add.at(out.T, index, probabilities.T.astype(np.float64))
    return np.clip(out, 0.0, 1.0)  # float32 softmax rows may sum a hair above 1


def borders(probabilities: np.ndarray, labels: Sequence[str], kind: str) -> np.ndarray:
    """Probabilities (N, len(BORDERS)) of each border style given ``kind`` (card or joker)."""
    columns = [labels.index(f"{kind}:{b}") for b in BORDERS]
    p = probabilities[:, columns].astype(np.float64)
    return p / np.maximum(p.sum(axis=1, keepdims=True), FLOOR)


def among_players(probabilities: np.ndarray, labels: Sequence[str], players: int | None) -> np.ndarray:
    """``probabilities`` (N, len(labels)) with the border styles no one of ``players`` plays
    ruled out, each row scaled to sum to 1 again (None: every style is in play).

    "Every player receives 15 cards with the same border (with solid lines, double lines,
    dashes or dots), the matching player board and 2 joker tiles that also have matching
    borders" (rulebook, setup), and player p plays border ``BORDERS[p]`` (docs/rules.md), so
    with two players no dashed or dotted card or joker lies on the board. A label names a
    style as itself (``solid``) or after its kind (``card:solid``); the other labels stay. The
    labels left keep their odds against each other; a row left with less than :data:`FLOOR`
    is scaled by 1 / FLOOR only, stays far below 1 and reads unknown."""
    if players is None:
        return probabilities
    out = np.array(probabilities, np.float64)
    out[:, [i for i, label in enumerate(labels) if label.rpartition(":")[2] in BORDERS[players:]]] = 0.0
    return out / np.maximum(out.sum(axis=1, keepdims=True), FLOOR)


def start_probability(probabilities: np.ndarray, labels: Sequence[str]) -> np.ndarray:
    """Probability (N,) that a free space shows a start mark, given that it is free."""
    p_start, p_empty = probabilities[:, labels.index(START)], probabilities[:, labels.index(EMPTY)]
    return p_start / np.maximum(p_start + p_empty, FLOOR)


#: The whole card's look counts as much as the two halves' together: the halves are read by
#: one classifier from crops of the same card, blur and light, and err together (validation
#: render 2000843: halves read double 0.65 and 0.74, the whole card dotted 0.77; it is dotted).
#: On validation renders 2000450..2000749 and 2000750..2000999, boards exactly right 286 -> 287
#: and 229 -> 230, spaces misread 19 -> 15 and 54 -> 53; weighed 3 times, the same boards.
WHOLE_WEIGHT = 2


def shared_border(a: np.ndarray, b: np.ndarray, whole: np.ndarray | None = None) -> np.ndarray:
    """Probabilities (len(BORDERS),) of the border style two halves of one card share, given
    that they share one (their border probabilities ``a`` and ``b``). ``whole``, the whole
    card's border probabilities from another classifier (an independent look), joins them,
    counted twice (:data:`WHOLE_WEIGHT`)."""
    joint = a * b if whole is None else a * b * whole ** WHOLE_WEIGHT
    return joint / max(float(joint.sum()), FLOOR)


def joint_border(a: np.ndarray, b: np.ndarray, whole: np.ndarray | None = None) -> tuple[int, float, float]:
    """The border style two halves of one card share: (index, its probability given that
    they share one, :func:`shared_border`, the probability that they share one at all, by the
    halves alone)."""
    shared = shared_border(a, b, whole)
    best = int(np.argmax(shared))
    return best, float(shared[best]), float((a * b).sum())


def token_probability(probabilities: np.ndarray, labels: Sequence[str]) -> np.ndarray:
    """Probability (N,) that a token stands on a space, given that the space shows."""
    p_token, p_none = probabilities[:, labels.index(TOKEN)], probabilities[:, labels.index(NO_TOKEN)]
    return p_token / np.maximum(p_token + p_none, FLOOR)


def owners_within(borders: np.ndarray, capacity: int) -> tuple[list[int], list[float]]:
    """The likeliest owners of pieces whose border probabilities are ``borders`` (N,
    len(BORDERS)) when no owner has more than ``capacity`` of them, with each owner's
    probability among the owners left room for it once the others are placed.

    Exact: a walk over the pieces keeping, for every count of pieces per owner, the likeliest
    assignment so far (at most ``(capacity + 1) ** len(BORDERS)`` of them). Raises ValueError
    when the pieces cannot fit (more than ``capacity`` times the owners)."""
    p = np.maximum(np.asarray(borders, np.float64), FLOOR)
    n, owners = p.shape
    if n > capacity * owners:
        raise ValueError(f"{n} pieces cannot go to {owners} owners of at most {capacity} each")
    logs = np.log(p)
    best: dict[tuple[int, ...], tuple[float, tuple[int, ...]]] = {(0,) * owners: (0.0, ())}
    for i in range(n):
        step: dict[tuple[int, ...], tuple[float, tuple[int, ...]]] = {}
        for counts, (score, chosen) in best.items():
            for o in range(owners):
                if counts[o] < capacity:
                    key = counts[:o] + (counts[o] + 1,) + counts[o + 1:]
                    value = score + float(logs[i, o])
                    if key not in step or value > step[key][0]:
                        step[key] = (value, chosen + (o,))
        best = step
    chosen = list(max(best.values())[1])
    counts = np.bincount(chosen, minlength=owners)
    sure = []
    for i, o in enumerate(chosen):
        others = counts - (np.arange(owners) == o)  # the pieces each owner holds besides this one
        room = p[i] * (others < capacity)
        sure.append(float(room[o] / room.sum()))
    return chosen, sure
