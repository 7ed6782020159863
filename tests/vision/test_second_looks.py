"""Second looks: moved windows, and unsure spots read as the geometric mean of every look."""

from __future__ import annotations

import numpy as np
import pytest

from tableref.models.card import Preprocessing
from tableref.vision.crop import CropError, crop_patches
from tableref.vision.second_looks import View, with_second_looks

SQUARE = np.array([[10.0, 20.0], [30.0, 20.0], [30.0, 40.0], [10.0, 40.0]])


@pytest.mark.parametrize("view,expected", [
    (View(), SQUARE),
    (View(1.1), [[9, 19], [31, 19], [31, 41], [9, 41]]),
    (View(0.9), [[11, 21], [29, 21], [29, 39], [11, 39]]),
    (View(shift=(0.05, 0.0)), SQUARE + [1, 0]),
    (View(shift=(0.0, -0.1)), SQUARE + [0, -2]),
    (View(0.5, (0.5, 0.5)), [[25, 35], [35, 35], [35, 45], [25, 45]]),  # shifted by halves of the whole sides
    (View(turns=1), [[30, 20], [30, 40], [10, 40], [10, 20]]),  # the top edge now the right one
    (View(turns=2), [[30, 40], [10, 40], [10, 20], [30, 20]]),
    (View(shift=(0.05, 0.0), turns=3), [[11, 40], [11, 20], [31, 20], [31, 40]]),  # shifted, then turned
])
def test_a_view_scales_about_the_centre_and_shifts_along_the_sides(view, expected):
    assert np.allclose(view.apply(SQUARE), expected)
    # many quads at once, each as one alone (a turned and scaled one beside the square)
    other = np.roll(SQUARE * 1.5 + [3.0, -2.0], 1, axis=0)
    assert np.allclose(view.apply_many(np.stack([SQUARE, other])), [view.apply(SQUARE), view.apply(other)])


@pytest.mark.parametrize("kwargs", [{"scale": 0.0}, {"scale": 3}, {"scale": float("nan")}, {"scale": True},
                                    {"shift": (0.6, 0.0)}, {"shift": (0.1,)}, {"shift": [0.1, 0.1]},
                                    {"shift": (0.0, float("inf"))}, {"turns": 4}, {"turns": -1}, {"turns": 1.0},
                                    {"turns": True}])
def test_bad_views_are_refused(kwargs):
    with pytest.raises(CropError):
        View(**kwargs)


@pytest.mark.parametrize("turns", [1, 2, 3])
def test_a_turned_view_crops_the_same_pixels_turned_anticlockwise(turns):
    image = np.random.default_rng(turns).integers(0, 256, (60, 60, 3), dtype=np.uint8)
    prep = Preprocessing((20, 20), "rgb", (0.5,) * 3, (0.25,) * 3)
    upright = crop_patches(image, [SQUARE], prep)[0]
    turned = crop_patches(image, [View(turns=turns).apply(SQUARE)], prep)[0]
    assert np.array_equal(turned, np.rot90(upright, turns))


class Scripted:
    """A stand-in look (crop and classify): each quad's probabilities depend on where its first corner lies
    (the first look at x=10; a look moved right sees another label)."""

    labels = ("a", "b", "c")

    def __init__(self, table):
        self.table, self.calls = table, []

    def __call__(self, quads):
        self.calls.append(len(quads))
        return np.array([self.table(q) for q in quads], np.float32).reshape(-1, 3)


def _quad(x: float) -> np.ndarray:
    return SQUARE + [x - 10, 0]


def test_sure_spots_are_read_once_and_unsure_ones_from_every_look():
    def table(q):
        x = round(float(q[0][0]), 3)
        if x == 110:  # a sure spot: no second look
            return [0.95, 0.03, 0.02]
        return [0.5, 0.4, 0.1] if x == 10 else [0.1, 0.8, 0.1]  # unsure: the moved windows see "b"
    look = Scripted(table)
    probs = with_second_looks(look, [_quad(10), _quad(110)], [View(shift=(0.5, 0.0))], 0.9)
    assert look.calls == [2, 1]
    assert np.allclose(probs[1], [0.95, 0.03, 0.02])
    expected = np.sqrt(np.array([0.5 * 0.1, 0.4 * 0.8, 0.1 * 0.1]))
    assert np.allclose(probs[0], expected / expected.sum(), atol=1e-6)
    assert probs[0].argmax() == 1 and np.isclose(probs[0].sum(), 1.0)


def test_a_label_one_look_rules_out_stays_finite():
    look = Scripted(lambda q: [0.99, 0.0, 0.01] if round(float(q[0][0])) == 10 else [0.0, 1.0, 0.0])
    probs = with_second_looks(look, [_quad(10)], [View(shift=(0.5, 0.0))], 1.0)
    assert np.all(np.isfinite(probs)) and np.isclose(probs.sum(), 1.0)


@pytest.mark.parametrize("quads,views,below,calls", [
    ([], [View(1.1)], 0.9, [0]),            # nothing to read
    ([_quad(10)], [], 0.9, [1]),            # no views: the first look only
    ([_quad(10)], [View(1.1)], 0.0, [1]),   # nothing is unsure
])
def test_nothing_more_is_looked_at_than_needed(quads, views, below, calls):
    look = Scripted(lambda q: [0.5, 0.3, 0.2])
    probs = with_second_looks(look, quads, views, below)
    assert look.calls == calls and len(probs) == len(quads)


def test_a_bad_bound_is_refused():
    with pytest.raises(CropError):
        with_second_looks(Scripted(lambda q: [1, 0, 0]), [_quad(10)], [View()], 1.5)


def test_a_first_look_already_made_is_not_made_again():
    look = Scripted(lambda q: [0.1, 0.8, 0.1])
    first = np.array([[0.5, 0.4, 0.1], [0.95, 0.03, 0.02]], np.float32)
    probs = with_second_looks(look, [_quad(10), _quad(110)], [View(1.1)], 0.9, first=first)
    assert look.calls == [1]  # only the unsure spot, through the one view
    assert np.allclose(probs[1], first[1]) and probs[0].argmax() == 1


def test_another_model_is_asked_about_unsure_spots_at_the_quad():
    look = Scripted(lambda q: [0.5, 0.4, 0.1] if round(float(q[0][0])) == 10 else [0.9, 0.05, 0.05])
    other = Scripted(lambda q: [0.2, 0.7, 0.1])
    sure = Scripted(lambda q: [0.99, 0.005, 0.005])
    probs = with_second_looks(look, [_quad(10), _quad(110)], [View(shift=(0.5, 0.0))], 0.9, others=[other])
    assert look.calls == [2, 1] and other.calls == [1]  # the other model: the unsure quad itself
    expected = np.cbrt(np.array([0.5 * 0.9 * 0.2, 0.4 * 0.05 * 0.7, 0.1 * 0.05 * 0.1]))
    assert np.allclose(probs[0], expected / expected.sum(), atol=1e-6)
    assert np.allclose(probs[1], [0.9, 0.05, 0.05])
    # with no view, the other model alone gives the second look
    probs = with_second_looks(look, [_quad(10)], [], 0.9, others=[sure])
    assert sure.calls == [1] and probs[0].argmax() == 0


def test_every_view_of_every_unsure_spot_is_read_in_one_batch():
    # two unsure spots, three views: one call of 6 windows, in view-major order, each spot's
    # probabilities the geometric mean of its own four looks
    def table(q):
        x = round(float(q[0][0]), 3)
        return {10: [0.5, 0.4, 0.1], 210: [0.4, 0.5, 0.1]}.get(x, [0.2, 0.2, 0.6] if x < 150 else [0.6, 0.2, 0.2])
    look = Scripted(table)
    views = [View(1.1), View(0.9), View(shift=(0.25, 0.0))]
    probs = with_second_looks(look, [_quad(10), _quad(210)], views, 0.9)
    assert look.calls == [2, 6]
    for spot, first, moved in ((0, [0.5, 0.4, 0.1], [0.2, 0.2, 0.6]), (1, [0.4, 0.5, 0.1], [0.6, 0.2, 0.2])):
        expected = (np.array(first) * np.array(moved) ** 3) ** 0.25
        assert np.allclose(probs[spot], expected / expected.sum(), atol=1e-6)
