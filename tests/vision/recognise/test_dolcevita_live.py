"""Dolce Vita in the live referee: the recogniser object the session uses, and its drawing."""

from __future__ import annotations

import numpy as np
import pytest

from tableref.live.recognition import Recogniser, recogniser_for
from tableref.rules.common import Violation
from tableref.vision.recognise.dolcevita_live import FLAG_BGR, LiveDolceVita, is_flagged
from tableref.vision.synthetic.dataset import sample


@pytest.mark.parametrize("where, label, pieces, expected", [
    ("column:3:slot:2", "car:300000", ["column:3"], True),
    ("column:3:slot:2", "car:300000", ["column:3:slot:2:car:300000"], True),
    ("column:3:slot:2", "car:300000", ["card:car:300000"], True),
    ("column:3:slot:2", "car:300000", ["column:4"], False),
    ("column:3:slot:2", "car:300000", ["column:31"], False),
    ("column:3:under", "red:2", ["column:3:under"], True),
    ("player:1", "money:100000", ["player:1"], True),
    ("player:1", "money:100000", ["player:10"], False),
    ("column:0:slot:5", "empty", ["card:empty"], False),
    ("column:0:slot:5", "unknown", [], False),
])
def test_a_place_is_flagged_when_a_piece_names_it(where, label, pieces, expected):
    assert is_flagged(where, label, pieces) is expected


@pytest.fixture(scope="module")
def live_reading():
    s = sample("dolcevita", 3_200_001)
    live = LiveDolceVita()
    return s, live, live.recognise(s.image, None)


def test_the_builtin_recogniser_is_the_live_dolce_vita():
    assert isinstance(recogniser_for("dolcevita"), LiveDolceVita)
    assert isinstance(LiveDolceVita(), Recogniser)


def test_a_flagged_card_is_drawn_red_where_it_lies(live_reading):
    s, live, observation = live_reading
    card = next(item for item in observation.items if ":slot:" in item.where and item.label not in ("empty", "unknown"))
    plain = live.annotate(s.image, observation, [])
    flagged = live.annotate(s.image, observation, [Violation("dolcevita.not_your_turn", 0, (card.where,), "a test flag")])
    red = np.all(flagged == FLAG_BGR, axis=2) & ~np.all(plain == FLAG_BGR, axis=2)
    assert red.sum() > 20
    assert plain.shape == s.image.shape and not np.shares_memory(plain, s.image)
