"""Card halves paired: the cheapest matching, each half once, pale seams never paired; halves
left alone settled by what lies beside them."""

from __future__ import annotations

import pytest

from tableref.vision.recognise.ligretto_pairs import ALONE_COST, lone_halves, match, unsure_halves


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
    """A one-row board: c card half, j joker, n free space, ? or u unknown; spaces 0, 1, ..."""
    kinds = {"c": "card", "j": "joker", "n": "none", "?": None, "u": None}
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


@pytest.mark.parametrize("row, paired, expected", [
    ("nun", set(), ([], [1])),                  # nothing beside it can be its other half: free
    ("cucn", {2, 3}, ([(1, 0)], [])),           # beside a lone half: its other half
    ("ccun", {0, 1}, ([], [2])),                # the card beside it is paired already: free
    ("?un", set(), ([], [])),                   # beside a hidden space: left unknown
    ("nuun", set(), ([], [])),                  # two unsure side by side: both left unknown
    ("jun", set(), ([], [])),                   # beside a joker, perhaps its misread other half
    ("cuc", set(), ([(1, 2)], [])),             # two lone halves: the one whose border agrees better
    ("cucun", set(), ([(1, 2)], [3])),          # the first takes it; nothing then beside the second
])
def test_unsure_halves(row, paired, expected):
    cover = _row(row)
    unsure = [i for i, ch in enumerate(row) if ch == "u"]
    got = unsure_halves(cover, paired, _beside, unsure, lambda space, half: float(half))
    assert got == expected
