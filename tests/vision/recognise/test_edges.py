"""Places read unsurely beside a covered place (vision/recognise/edges.py), and the Da Luigi
marketplace's grid they are judged on."""

from __future__ import annotations

import pytest

from tableref.vision.recognise.daluigi import beside_the_covered
from tableref.vision.recognise.daluigi_decode import Read
from tableref.vision.recognise.daluigi_zones import zones_for
from tableref.vision.recognise.edges import beside, unsure_beside_covered


def test_the_four_places_sharing_an_edge():
    assert sorted(beside((2, 5))) == [(1, 5), (2, 4), (2, 6), (3, 5)]


@pytest.mark.parametrize("read, covered, below, expected", [
    ({(0, 0): 0.5}, set(), 0.9, set()),                           # nothing covered
    ({(0, 0): 0.5}, {(0, 1)}, 0.9, {(0, 0)}),                     # beside, unsure
    ({(0, 0): 0.95}, {(0, 1)}, 0.9, set()),                       # beside, sure
    ({(0, 0): 0.9}, {(0, 1)}, 0.9, set()),                        # at the bound: kept
    ({(0, 0): 0.5}, {(1, 1)}, 0.9, set()),                        # only a corner touches
    ({(0, 0): 0.5, (0, 2): 0.1, (2, 1): 0.2}, {(0, 1), (3, 1)}, 0.9, {(0, 0), (0, 2), (2, 1)}),
    ({(0, 0): 0.5, (0, 1): 0.5}, {(0, 2)}, 0.9, {(0, 1)}),        # no cascade along the row
    ({(0, 1): 0.3}, {(0, 1)}, 0.9, set()),                         # a covered cell is not returned
])
def test_unsure_readings_beside_a_covered_place(read, covered, below, expected):
    assert unsure_beside_covered(read, covered, below) == expected


def test_the_marketplace_grid_of_the_shipped_zones():
    grid = zones_for(None).market_grid()
    # four rows of three fields, numbered along each row from the top row down
    assert grid == tuple((f // 3, f % 3) for f in range(12))


def test_the_marketplace_grid_follows_the_zones():
    zones = zones_for(None)
    fields = [list(f) for f in zones.data["market_fields"]]
    fields[0], fields[11] = fields[11], fields[0]  # the first field listed now lies bottom right
    moved = type(zones)({**zones.data, "market_fields": fields})
    grid = moved.market_grid()
    assert grid[0] == (3, 2) and grid[11] == (0, 0)


@pytest.mark.parametrize("reads, expected", [
    # (label or None for unknown, confidence) per field of the top row; the rest read surely empty
    ([(None, 0.0), ("", 0.6), ("", 0.95)], [None, None, ""]),             # unsure beside covered
    ([(None, 0.0), ("red", 0.99), ("", 0.5)], [None, "red", ""]),         # sure beside; the third not beside
    ([("", 0.5), ("blue", 0.5), ("", 0.5)], ["", "blue", ""]),            # nothing covered
])
def test_a_market_field_beside_a_covered_one_is_read_only_when_sure(reads, expected):
    grid = zones_for(None).market_grid()
    fields = [Read(label, conf) for label, conf in reads] + [Read("", 1.0)] * 9
    out = beside_the_covered(fields, grid)
    assert [r.label for r in out[:3]] == expected and all(r.label == "" for r in out[3:])
    assert all(r.confidence == 0.0 for r in out if r.label is None)
