"""Layout records: good ones are normalised, bad ones raise LayoutError naming the problem."""

from __future__ import annotations

import pytest

from tableref.vision.synthetic import KINDS, Layout, LayoutError, Placed, anchors

GUEST = {"dishes": ["pasta", "wine"], "points": 3, "wait": 40, "ability": "arrow"}


@pytest.mark.parametrize("kind, params, fields, message", [
    ("daluigi.nope", {}, {}, "unknown component kind"),
    ("daluigi.cube", {}, {}, "parameter 'colour' is missing"),
    ("daluigi.cube", {"colour": "purple"}, {}, "'colour' must be one of dessert"),
    ("daluigi.cube", {"colour": "wine", "size": 3}, {}, "unknown parameter"),
    ("daluigi.guest", {**GUEST, "dishes": []}, {}, "1 to 4 dishes"),
    ("daluigi.guest", {**GUEST, "dishes": ["pasta"] * 5}, {}, "1 to 4 dishes"),
    ("daluigi.guest", {**GUEST, "points": 6}, {}, "'points' must be a whole number 1..5"),
    ("daluigi.guest", {**GUEST, "points": True}, {}, "'points' must be"),
    ("daluigi.guest", {**GUEST, "wait": 45}, {}, "'wait' must be one of 60"),
    ("daluigi.guest", {**GUEST, "ability": "sing"}, {}, "'ability' must be one of"),
    ("dolcevita.luxury", {"good": "yacht", "value": 100_000}, {}, "'good' must be one of"),
    ("dolcevita.luxury", {"good": "boat", "value": 150_000}, {}, "'value' must be 100000"),
    ("dolcevita.money", {"value": 300_000}, {}, "100000 or 200000"),
    ("dolcevita.number", {"colour": "red", "value": 7}, {}, "1..6"),
    ("ligretto.card", {"colours": ["red"], "border": "solid"}, {}, "two of red"),
    ("ligretto.card", {"colours": ["red", "pink"], "border": "solid"}, {}, "two of red"),
    ("ligretto.card", {"colours": ["red", "blue"], "border": "wavy"}, {}, "one of solid"),
    ("ligretto.section", {"cells": ["ry", "g"]}, {}, "rows of equal length"),
    ("ligretto.section", {"cells": ["rx"]}, {}, "rows of equal length"),
    ("ligretto.section", {"cells": ["r."], "starts": [[0, 1]]}, {}, "not on a space"),
    ("daluigi.cube", {"colour": "wine"}, {"x_mm": float("nan")}, "x_mm must be a finite number"),
    ("daluigi.cube", {"colour": "wine"}, {"rotation_deg": "90"}, "rotation_deg must be a finite number"),
    ("daluigi.cube", {"colour": "wine"}, {"height_mm": -1.0}, "height_mm must be 0..200"),
    ("daluigi.cube", {"colour": "wine"}, {"z_order": 1.5}, "z_order must be a whole number"),
    ("daluigi.cube", "wine", {}, "params must be a mapping"),
])
def test_bad_component_raises(kind, params, fields, message):
    with pytest.raises(LayoutError, match=message):
        Placed(kind, params, **fields)


def _cube(**fields) -> Placed:
    return Placed("daluigi.cube", {"colour": "water"}, **fields)


@pytest.mark.parametrize("table, components, marker, message", [
    ((100, 600), (), 40, "table_mm must lie in 200..3000"),
    ((600,), (), 40, r"table_mm must be \(width, depth\)"),
    ((600, "a"), (), 40, r"table_mm must be \(width, depth\)"),
    ((600, 600), (), 5, "marker_mm must be 10 mm"),
    ((600, 600), (), 200, "marker_mm must be 10 mm"),
    ((600, 600), (_cube(x_mm=700, y_mm=10),), 40, "outside the play area"),
    ((600, 600), (_cube(x_mm=10, y_mm=-1),), 40, "outside the play area"),
    ((600, 600), ("cube",), 40, "must be a Placed record"),
    ((600, 600), (_cube(x_mm=10, y_mm=10, ident="a"), _cube(x_mm=20, y_mm=10, ident="a")), 40, "unique"),
])
def test_bad_layout_raises(table, components, marker, message):
    with pytest.raises(LayoutError, match=message):
        Layout(table, components, marker)


def test_good_records_are_normalised():
    card = Placed("daluigi.guest", GUEST, 100, 200.5, ident="g")
    assert card.param["dishes"] == ("pasta", "wine")
    assert card.param["start"] is False and card.param["back"] is False
    assert card.x_mm == 100.0 and isinstance(card.x_mm, float)
    layout = Layout([700, 500], [card])
    assert layout.table_mm == (700.0, 500.0) and layout.components == (card,)
    assert card == Placed("daluigi.guest", dict(reversed(list(GUEST.items()))), 100, 200.5, ident="g")


def test_markers_sit_in_the_corners_in_aruco_order():
    corners = Layout((800, 600), marker_mm=50).marker_corners_mm()
    assert corners[0] == ((0, 50), (50, 50), (50, 0), (0, 0))
    assert corners[2][1] == (800, 600)
    assert corners[1][2] == (800, 0) and corners[3][0] == (0, 600)


@pytest.mark.parametrize("kind, params, name, expected", [
    ("daluigi.marketplace", {}, "field11", None),
    ("daluigi.strip", {}, "guest60", None),
    ("daluigi.guest", GUEST, "dish1", None),
    ("ligretto.section", {"cells": ["ry", "gb"]}, "cell00", (-15.0, 15.0)),
])
def test_anchors_lie_on_the_part(kind, params, name, expected):
    places = anchors(kind, params)
    w, d, _ = KINDS[kind].size(dict(Placed(kind, params).params))
    x, y = places[name]
    assert abs(x) < w / 2 and abs(y) < d / 2
    if expected is not None:
        assert (x, y) == pytest.approx(expected)
