"""The benchmark's shares and their 95 % intervals (``tableref.bench``): a rate measured on a
few hundred scenes is given with the range where the rate over all scenes like them lies."""

from __future__ import annotations

import math
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tableref.bench import Z95, interval_figures, percent, percent_interval, rate
from tableref.bench import recognition as dolcevita
from tableref.bench import recognition_daluigi as daluigi
from tableref.bench import recognition_ligretto as ligretto


@pytest.mark.parametrize("part, whole, expected", [
    (0, 4, 0.0), (1, 4, 25.0), (289, 300, 289 / 3), (300, 300, 100.0),
])
def test_percent(part, whole, expected):
    assert percent(part, whole) == pytest.approx(expected)


def test_a_rate_per_any_number():
    assert rate(3, 600, 200) == pytest.approx(1.0)  # false flags per 200 legal placements
    assert rate(1, 4, 100.0) == percent(1, 4)


def test_percent_of_nothing_is_not_a_number():
    assert math.isnan(percent(0, 0)) and math.isnan(rate(0, 0, 200))
    assert all(math.isnan(x) for x in percent_interval(0, 0))


@pytest.mark.parametrize("part, whole", [(8, 10), (285, 300), (289, 300), (4294, 4500), (1, 1000), (999, 1000)])
def test_each_end_lies_z_standard_errors_from_the_share(part, whole):
    """Wilson's interval is defined by its ends: the rates p from which the measured share lies
    z * sqrt(p (1 - p) / n) away."""
    share = part / whole
    for end in percent_interval(part, whole):
        p = end / 100.0
        assert abs(share - p) == pytest.approx(Z95 * math.sqrt(p * (1 - p) / whole), rel=1e-9)


@pytest.mark.parametrize("part, whole, low, high", [
    (8, 10, 49.02, 94.33),  # the textbook example of 8 in 10
    (0, 10, 0.0, 100 * Z95 ** 2 / (10 + Z95 ** 2)),  # none in n: the upper end in closed form, z^2 / (n + z^2)
])
def test_known_intervals(part, whole, low, high):
    assert percent_interval(part, whole) == pytest.approx((low, high), abs=0.01)


@pytest.mark.parametrize("whole", [1, 7, 300])
def test_the_ends_are_exact_at_none_and_all(whole):
    assert percent_interval(0, whole)[0] == 0.0
    assert percent_interval(whole, whole)[1] == 100.0
    assert percent_interval(0, whole)[1] > 0.0  # never an empty interval, as the normal approximation's
    assert percent_interval(whole, whole)[0] < 100.0


@pytest.mark.parametrize("part, whole", [(-1, 10), (11, 10)])
def test_a_share_beyond_its_whole_is_refused(part, whole):
    with pytest.raises(ValueError, match="part <= whole"):
        percent_interval(part, whole)


@given(st.integers(1, 100_000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))), st.integers(2, 50))
def test_the_interval_holds_the_share_and_narrows_with_more_trials(share, times):
    part, whole = share
    low, high = percent_interval(part, whole)
    assert 0.0 <= low <= percent(part, whole) <= high <= 100.0
    more_low, more_high = percent_interval(part * times, whole * times)
    assert more_high - more_low < high - low


def test_interval_figures_name_their_count():
    low, high = interval_figures("recognition", "ligretto: boards read exactly right", 289, 300, "300 renders")
    assert (low.name, high.name) == ("ligretto: boards read exactly right, 95 % interval, low",
                                     "ligretto: boards read exactly right, 95 % interval, high")
    assert (low.value, high.value) == percent_interval(289, 300)
    assert low.unit == high.unit == "%"
    assert "289 of 300" in low.measured_on and low.measured_on.startswith("300 renders")


def _by_name(figures):
    return {f.name: f for f in figures}


def test_each_game_reports_its_exact_scenes_with_their_interval():
    runs = (("dolcevita: scenes read exactly right", 249,
             dolcevita._figures(Counter({("all", "exact"): 249}), [0.1], [0.1], 300, 0)),
            ("daluigi: scenes read exactly right", 213, daluigi.figures(Counter({"exact": 213}), [0.1], 300, 0, [0.1])),
            ("ligretto: boards read exactly right", 289,
             ligretto.figures(Counter({("all", "exact"): 289}), [0.1], [0.1], 300, 0)))
    for name, exact, figures in runs:
        by_name = _by_name(figures)
        assert by_name[name].value == pytest.approx(percent(exact, 300))
        assert (by_name[f"{name}, 95 % interval, low"].value,
                by_name[f"{name}, 95 % interval, high"].value) == percent_interval(exact, 300)
