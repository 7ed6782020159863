"""The placements a token offers a player, computed once per state and carried across a placement.

``card_offers(state, p, t)`` and ``joker_offers(state, p, t)`` are the cards and jokers player
``p`` may put down at token ``t``, before the rules that depend on locks and owed relocations
pick which tokens ``p`` may use (``engine.player_moves``).  A placement changes the board only
near the piece it puts down, so :func:`carry` hands the offers of tokens far from it on to the
next state instead of working them out again.
"""

from __future__ import annotations

from typing import Iterable

from .catalogue import TOKENS, card_colours
from .geometry import bare_token_cells, guarded_cells, hand_classes, is_free, token_pairs, token_targets
from .moves import Place, PlaceJoker
from .placement import can_follow
from .state import FREE, State
from .tables import tables

#: How far (in spaces along rows and columns) a token's card offers look from its target spaces:
#: the first half of a card next to a target, the second half next to that (``pairs_at``).
CARD_REACH = 2
#: How far a joker's offer looks with no joker left after it: the joker next to a target, then
#: a card of two spaces next to the joker (``can_follow``); each joker left reaches one further.
JOKER_REACH = 3


def card_offers(state: State, p: int, t: int) -> tuple[Place, ...]:
    """Player ``p``'s cards that fit next to token ``t``: per free pair of spaces the lowest card
    of its colours (both ways round under ``wrong_way_round="allowed"``), the token going to the
    farther half.  Spaces next to another player's joker are left out."""
    key = ("cards", p, t)
    out = state.memo.get(key)
    if out is not None:
        return out
    tab = tables(state)
    rc = tab.rc
    classes = hand_classes(state, p)
    guarded = guarded_cells(state, p)
    colours = state.board.colours
    wrong_ok = state.opts["wrong_way_round"] == "allowed"
    ro, co = rc[state.tokens[t]]
    found = []
    for a, b, pair in token_pairs(state, t):
        card = classes.get(pair)
        if card is None or a in guarded or b in guarded:
            continue
        straight = (a, b) if card_colours(card) == (colours[a], colours[b]) else (b, a)
        for x, y in (straight, straight[::-1]) if wrong_ok and colours[a] != colours[b] else (straight,):
            (rx, cx), (ry, cy) = rc[x], rc[y]
            # the half farther from the token's space (``geometry.farther``)
            to = 0 if (rx - ro) ** 2 + (cx - co) ** 2 > (ry - ro) ** 2 + (cy - co) ** 2 else 1
            found.append(tab.place(p, card, x, y, t, to))
    out = state.memo[key] = tuple(found)
    return out


def joker_offers(state: State, p: int, t: int) -> tuple[PlaceJoker, ...]:
    """Player ``p``'s next joker on each free space next to token ``t``'s targets from which
    ``p`` can go on with a card (``can_follow``); none when ``p`` has no joker left or (option
    ``joker_from_start=False``) the token stands on a bare space."""
    key = ("jokers", p, t)
    out = state.memo.get(key)
    if out is not None:
        return out
    found = []
    jokers = state.jokers[p]
    if jokers and (state.opts["joker_from_start"] or state.cover[state.tokens[t]] != FREE):
        tab, edges, bare = tables(state), state.board.edges, bare_token_cells(state)
        guarded = guarded_cells(state, p)
        targets = token_targets(state, t)
        left = len(jokers) - 1
        for target in targets:
            for a in edges[target]:
                if (a not in targets and a not in guarded and is_free(state, a, bare)
                        and can_follow(state, p, a, frozenset({a}), left)):
                    found.append(tab.joker(p, jokers[0], a, t))
    out = state.memo[key] = tuple(found)
    return out


def carry(old: State, new: State, changed: Iterable[int]) -> None:
    """Put into ``new.memo`` the token pairs and offers of ``old.memo`` that a placement leaves as
    they were.  ``new`` is ``old`` after one piece went down on the spaces ``changed`` (plus the
    space a token left), with at most one player's hand, jokers and locks changed.

    A token's pairs stay when the token did not move and no changed space lies within
    ``CARD_REACH`` of its targets.  A player's card offers there stay when, besides, their hand
    offers the same card for every pair and no space of a pair became guarded or unguarded
    (``guarded_cells``).  Joker offers stay when the player's jokers and the colour pairs in
    their hand are the same and no changed space, nor one that became guarded or unguarded, lies
    within ``JOKER_REACH`` plus the jokers left after the one played.
    """
    memo_old, memo_new = old.memo, new.memo
    if "tables" not in memo_old:
        return  # nothing was computed for ``old``
    rc = memo_old["tables"].rc
    spots = [rc[c] for c in changed]
    regards: dict[int, _Regard] = {}
    for t in range(TOKENS):
        pairs = memo_old.get(("pairs", t))
        if pairs is None or new.tokens[t] != old.tokens[t]:
            continue
        aims = [rc[x] for x in token_targets(old, t)]
        near = _distance(spots, aims)
        if near <= CARD_REACH:
            continue
        memo_new[("pairs", t)] = pairs
        for p in range(old.players):
            cards, jokers = memo_old.get(("cards", p, t)), memo_old.get(("jokers", p, t))
            if cards is None and jokers is None:
                continue
            regard = regards.get(p)
            if regard is None:
                regard = regards[p] = _Regard(old, new, p)
            if cards is not None and regard.same_cards(pairs):
                memo_new[("cards", p, t)] = cards
            if jokers is not None and regard.same_jokers(jokers, near, aims, rc):
                memo_new[("jokers", p, t)] = jokers


def _distance(spots: list[tuple[int, int]], aims: list[tuple[int, int]]) -> int:
    """The least row-plus-column distance between a space of ``spots`` and one of ``aims``."""
    best = 1 << 30
    for r, c in spots:
        for ar, ac in aims:
            d = abs(r - ar) + abs(c - ac)
            if d < best:
                best = d
    return best


class _Regard:
    """How one player's position changed from ``old`` to ``new``, for :func:`carry`."""

    def __init__(self, old: State, new: State, p: int) -> None:
        self.old, self.new, self.p = old, new, p
        self.same_hand = new.hands[p] is old.hands[p]
        self.guard_diff = guarded_cells(new, p) ^ guarded_cells(old, p)
        self.jokers = new.jokers[p]
        self.same_jokers_held = self.jokers is old.jokers[p]

    def same_cards(self, pairs) -> bool:
        """True when the card offers at a token with ``pairs`` (carried) are the same."""
        diff = self.guard_diff
        if diff and any(a in diff or b in diff for a, b, _ in pairs):
            return False
        if self.same_hand:
            return True
        before, after = hand_classes(self.old, self.p), hand_classes(self.new, self.p)
        return all(before.get(pair) == after.get(pair) for _, _, pair in pairs)

    def same_jokers(self, offers: tuple, near: int, aims, rc) -> bool:
        """True when the joker offers ``offers`` at a token ``near`` the change are the same."""
        if not self.same_jokers_held:
            return False
        if not offers and not self.jokers:
            return True
        reach = JOKER_REACH + len(self.jokers) - 1
        if near <= reach:
            return False
        if self.guard_diff and _distance([rc[c] for c in self.guard_diff], aims) <= reach:
            return False
        return self.same_hand or hand_classes(self.old, self.p).keys() == hand_classes(self.new, self.p).keys()
