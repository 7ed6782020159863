"""Card halves paired: the cheapest matching, each half once, pale seams never paired; halves
left alone settled by what lies beside them."""

from __future__ import annotations

import pytest

from tableref.vision.recognise.ligretto_pairs import ALONE_COST, lone_halves, match


def chain_cost(costs):
    def cost(a, b):
        return costs.get((a, b), costs.get((b, a)))
    return cost


@pytest.mark.parametrize("nodes, costs, expected", [
    ("ab", {("a", "b"): 0.1}, [("a", "b")]),
    ("ab", {("a", "b"): ALONE_COST + 0.1}, []),
    # a chain a-b-c-d: the middle seam is the cheapest, but pairing it strands two halves
    ("abcd", {("a", "b"): 0.3, ("b", "c"): 0.05, ("c", "d"): 0.3}, [("a", "b"), ("c", "d")]),
    # three halves in a row: the cheaper pair wins, one is left alone
    ("abc", {("a", "b"): 0.4, ("b", "c"): 0.1}, [("b", "c")]),
    ("ab", {}, []),
])
def test_cheapest_matching(nodes, costs, expected):
    got = match(list(nodes), chain_cost(costs))
    assert sorted(tuple(sorted(p)) for p in got) == expected


def _row(text: str) -> dict:
    """A one-row board: c card half, j joker, n free space, ? unknown; spaces 0, 1, ..."""
    kinds = {"c": "card", "j": "joker", "n": "none", "?": None}
    return {i: kinds[ch] for i, ch in enumerate(text)}


def _beside(i: int) -> list[int]:
    return [i - 1, i + 1]


@pytest.mark.parametrize("row, paired, odds, expected", [
    ("ncn", set(), 2.0, ([], [1])),            # nothing beside it can be its other half: no card
    ("cc", {0, 1}, 2.0, ([], [])),             # paired already
    ("?cn", set(), 2.0, ([], [])),             # its other half may be under the hand
    ("ncc", set(), 2.0, ([], [])),             # two lone halves side by side: left alone
    ("ncjn", set(), 2.0, ([(1, 2)], [])),      # beside a joker that is likelier its other half
    ("ncjn", set(), 0.5, ([], [1])),           # beside a joker likelier a joker: the half is none
    ("cccj", {0, 1}, 2.0, ([(2, 3)], [])),     # the paired card beside it is no candidate
    ("cjc", set(), 2.0, ([(0, 1)], [2])),       # one joker, two halves: the first takes it
])
def test_lone_halves(row, paired, odds, expected):
    got = lone_halves(_row(row), paired, _beside, lambda half, joker: odds, min_odds=1.5)
    assert got == expected
