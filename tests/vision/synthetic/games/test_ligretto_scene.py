"""Ligretto's board turned on the table or off its middle: the board and all on it turn about
the board's middle and move with it, the table and the players' areas stay."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from tableref.vision.synthetic.dataset import sample
from tableref.vision.synthetic.errors import LayoutError
from tableref.vision.synthetic.games import random_state, scene_for
from tableref.vision.synthetic.games.ligretto import layout


def _turned(points: np.ndarray, middle: tuple[float, float], deg: float) -> np.ndarray:
    c, s = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    d = points[..., :2] - middle
    return np.stack([middle[0] + d[..., 0] * c - d[..., 1] * s, middle[1] + d[..., 0] * s + d[..., 1] * c], axis=-1)


@pytest.mark.parametrize("seed, deg", [(6, 10.0), (9, -4.0)])  # 23 and 20 cards on the board
def test_the_board_and_what_lies_on_it_turn_about_the_tables_middle(seed, deg):
    state = random_state("ligretto", seed)
    (flat, flat_regions), (lay, regions) = layout(state), layout(state, deg)
    assert lay.table_mm == flat.table_mm
    middle = (lay.table_mm[0] / 2, lay.table_mm[1] / 2)
    for name, corners in flat_regions.items():
        np.testing.assert_allclose(regions[name][:, :2], _turned(corners, middle, deg), atol=1e-9)
        np.testing.assert_allclose(regions[name][:, 2], corners[:, 2])
    on_board = ("lig.section.", "lig.card.", "lig.joker.", "lig.token.")
    turned = Counter()
    for before, after in zip(flat.components, lay.components):
        assert after.ident == before.ident and after.kind == before.kind
        if after.ident.startswith(on_board):
            turned[after.ident.split(".")[1]] += 1
            np.testing.assert_allclose((after.x_mm, after.y_mm),
                                       _turned(np.array([before.x_mm, before.y_mm]), middle, deg), atol=1e-9)
            if not after.ident.startswith("lig.token."):  # a token is round
                assert (after.rotation_deg - before.rotation_deg - deg + 180) % 360 == pytest.approx(180)
        else:  # the players' areas lie along the table's edges as before
            assert after == before
    assert turned["section"] and turned["token"] == 4 and turned["card"] >= 20 and turned["joker"] >= 4


@pytest.mark.parametrize("shift, deg", [((40.0, 0.0), 0.0), ((-25.0, 30.0), 6.0)])
def test_the_board_and_what_lies_on_it_move_off_the_middle(shift, deg):
    state = random_state("ligretto", 6)
    (flat, flat_regions), (lay, regions) = layout(state), layout(state, deg, shift)
    assert lay.table_mm == flat.table_mm
    middle = (flat.table_mm[0] / 2, flat.table_mm[1] / 2)
    for name, corners in flat_regions.items():
        moved = _turned(corners, middle, deg) + shift  # turned about the board's middle, which moved
        np.testing.assert_allclose(regions[name][:, :2], moved, atol=1e-9)
    for before, after in zip(flat.components, lay.components):
        if not after.ident.startswith(("lig.section.", "lig.card.", "lig.joker.", "lig.token.")):
            assert after == before


def test_a_board_turned_further_than_an_eighth_of_a_turn_or_by_no_number_is_refused():
    state = random_state("ligretto", 5)
    for deg in (46.0, -90.0, float("nan")):
        with pytest.raises(LayoutError, match="board_turn_deg"):
            layout(state, deg)


def test_a_board_further_off_the_middle_than_the_players_areas_allow_is_refused():
    state = random_state("ligretto", 5)
    for shift in ((61.0, 0.0), (0.0, float("inf")), (1.0,), "left"):
        with pytest.raises(LayoutError, match="board_shift_mm"):
            layout(state, 0.0, shift)


def test_only_ligretto_scenes_take_a_board_turn():
    with pytest.raises(LayoutError, match="dolcevita scenes take no option board_turn_deg"):
        scene_for("dolcevita", random_state("dolcevita", 1), board_turn_deg=3.0)
    turned = sample("ligretto", 7, board_turn_deg=6.0)
    assert not np.array_equal(turned.image, sample("ligretto", 7).image)
    assert turned.scene.state == random_state("ligretto", 7)  # the same state, only laid turned
