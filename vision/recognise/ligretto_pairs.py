"""Which neighbouring card halves are one card: a matching over the board's card halves.

Every card has two halves, so each half belongs to at most one pair, and a half with a
neighbour of the same owner nearly always has its partner among them. Between two halves the
cost of pairing them is how likely they are two pieces (the recogniser's seam classifier, else
how pale the strip along their shared edge is, :func:`~.ligretto_cells.seam_pale`: one card's
halves meet at a thin white split, two pieces side by side at a wide pale band); a half left
alone costs :data:`ALONE_COST`. The cheapest
matching of each group of touching halves is found exactly (the groups are small).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

#: Cost of a half without a partner (its partner hidden, or two pieces side by side); pairs
#: paler than this are never made.
ALONE_COST = 0.6
#: Groups larger than this are matched greedily (cheapest pair first) instead of exactly.
EXACT_LIMIT = 18


def match(nodes: list[Hashable], pair_cost: Callable[[Hashable, Hashable], float | None]) -> list[tuple]:
    """The cheapest set of disjoint pairs of ``nodes``; ``pair_cost(a, b)`` is None where
    ``a`` and ``b`` cannot pair (not neighbours, different owners)."""
    costs: dict[tuple, float] = {}
    for i, a in enumerate(nodes):
        for b in nodes[i + 1:]:
            c = pair_cost(a, b)
            if c is not None and c < ALONE_COST:
                costs[a, b] = costs[b, a] = c
    pairs: list[tuple] = []
    for group in _groups(nodes, costs):
        pairs += _exact(group, costs) if len(group) <= EXACT_LIMIT else _greedy(group, costs)
    return pairs


def _groups(nodes: list[Hashable], costs: dict) -> list[list[Hashable]]:
    seen, groups = set(), []
    for n in nodes:
        if n in seen:
            continue
        stack, group = [n], []
        seen.add(n)
        while stack:
            x = stack.pop()
            group.append(x)
            for y in nodes:
                if y not in seen and (x, y) in costs:
                    seen.add(y)
                    stack.append(y)
        groups.append(group)
    return groups


def _exact(group: list[Hashable], costs: dict) -> list[tuple]:
    memo: dict[frozenset, tuple[float, list[tuple]]] = {}

    def best(left: frozenset) -> tuple[float, list[tuple]]:
        if not left:
            return 0.0, []
        if left in memo:
            return memo[left]
        first = min(left, key=group.index)
        rest = left - {first}
        cost, pairs = best(rest)
        result = (cost + ALONE_COST, pairs)
        for other in rest:
            if (first, other) in costs:
                c, p = best(rest - {other})
                if c + costs[first, other] < result[0]:
                    result = (c + costs[first, other], p + [(first, other)])
        memo[left] = result
        return result

    return best(frozenset(group))[1]


def _greedy(group: list[Hashable], costs: dict) -> list[tuple]:
    used: set = set()
    out = []
    for (a, b), _ in sorted(((k, v) for k, v in costs.items() if k[0] in group), key=lambda kv: kv[1]):
        if a not in used and b not in used:
            used |= {a, b}
            out.append((a, b))
    return out


def lone_halves(cover: dict[Hashable, str | None], paired: set, neighbours: Callable[[Hashable], list],
                card_odds: Callable[[Hashable, Hashable], float], min_odds: float = 1.0) -> tuple[list[tuple], list]:
    """What the card halves left without a partner can be, since every card covers two spaces.

    ``cover`` maps each space to what it reads as (``card``, ``joker``, ``none``, None for
    unknown); ``paired`` holds the halves already paired; ``neighbours(space)`` gives the
    spaces beside it on the board. A lone half beside an unknown space, or beside another
    lone half, is left as it is (its other half may be hidden, or the two lie side by side).
    Otherwise its other half can only be a joker read beside it: with ``card_odds(half,
    joker)`` (how much likelier the two are one card than two jokers) above ``min_odds`` they
    are one card; else, or with no joker beside it, the half is no card.

    Returns (pairs (half, space read as a joker) that are one card, halves that are no card).
    """
    joined, not_cards, taken = [], [], set(paired)
    for half in sorted(s for s, c in cover.items() if c == "card" and s not in paired):
        if half in taken:
            continue
        around = [n for n in neighbours(half) if n in cover]
        if any(cover[n] is None or (cover[n] == "card" and n not in taken) for n in around):
            continue
        jokers = [n for n in around if cover[n] == "joker" and n not in taken]
        best = max(jokers, key=lambda n: card_odds(half, n), default=None)
        if best is not None and card_odds(half, best) > min_odds:
            joined.append((half, best))
            taken |= {half, best}
        else:
            not_cards.append(half)
    return joined, not_cards


def unsure_halves(cover: dict[Hashable, str | None], paired: set, neighbours: Callable[[Hashable], list],
                  unsure: list, agree: Callable[[Hashable, Hashable], float]) -> tuple[list[tuple], list]:
    """What the spaces read between a card's half and a free space can be, since every card
    covers two spaces.

    ``unsure`` lists such spaces (unknown in ``cover``, which maps each space to what it reads
    as, as for :func:`lone_halves`); ``paired`` holds the halves already paired. One beside
    card halves left without a partner is the other half of the one whose border agrees with
    it best (``agree(space, half)``, higher is better); one whose every neighbour is known and
    none of them a lone half or a joker (which may be its other half, misread) is free;
    otherwise (an unknown space beside it, another unsure one included) it stays unknown.

    Returns (pairs (unsure space, lone half) that are one card, spaces that are free).
    """
    joined, free, taken = [], [], set(paired)
    for space in sorted(unsure):
        around = [n for n in neighbours(space) if n in cover]
        halves = [n for n in around if cover[n] == "card" and n not in taken]
        if halves:
            best = max(halves, key=lambda n: agree(space, n))
            joined.append((space, best))
            taken |= {space, best}
        elif all(cover[n] is not None and cover[n] != "joker" for n in around):
            free.append(space)
    return joined, free
