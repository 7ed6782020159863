"""Card halves paired: the cheapest matching, each half once, pale seams never paired."""

from __future__ import annotations

import pytest

from tableref.vision.recognise.ligretto_pairs import ALONE_COST, match


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
