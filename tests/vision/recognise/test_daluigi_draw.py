"""Da Luigi: which places a flag names, the short labels drawn, and the white balance."""

from __future__ import annotations

import numpy as np
import pytest

from tableref.vision.recognise.common import ZonesError
from tableref.vision.recognise.daluigi_colour import TARGET_WHITE, balance, white_from_profile
from tableref.vision.recognise.daluigi_draw import is_flagged, short

CARDS = {"slot:1:2": "G05", "slot:0:0": "S1"}


@pytest.mark.parametrize("where, label, pieces, flagged", [
    ("market:3", "red", ["field:3"], True),
    ("market:3", "red", ["field:4"], False),
    ("slot:1:2", "G05", ["guest:G05"], True),
    ("order:1:2", "red", ["guest:G05"], True),
    ("order:0:0", "red", ["guest:G05"], False),
    ("supply:1", "", ["player:1"], True),
    ("supply:0", "", ["player:1"], False),
    ("hand", "2", ["player:1"], False),
    ("lemons:2", "1", ["player:2"], True),
    ("served:0", "3", ["served:0"], True),
    ("slot:0:0", "S1", [], False),
])
def test_is_flagged(where, label, pieces, flagged):
    assert is_flagged(where, label, pieces, CARDS) is flagged


@pytest.mark.parametrize("where, label, text", [
    ("market:0", "red,red,blue", "rrb"),
    ("order:0:1", "", ""),
    ("slot:0:1", "G12", "G12"),
    ("lemons:0", "0", ""),
    ("served:1", "4", "s4"),
    ("supply:0", "?", "?"),
])
def test_short(where, label, text):
    assert short(where, label) == text


@pytest.mark.parametrize("references, expected", [
    (None, None),
    ({}, None),
    ({"white_bgr": [200, 210, 220]}, (200.0, 210.0, 220.0)),
    ({"white_bgr": [200, 210]}, ZonesError),
    ({"white_bgr": [0, 210, 220]}, ZonesError),
    ({"white_bgr": "white"}, ZonesError),
])
def test_white_from_profile(references, expected):
    if expected is ZonesError:
        with pytest.raises(ZonesError):
            white_from_profile(references)
    elif expected is None:
        assert white_from_profile(references) is None
    else:
        assert tuple(white_from_profile(references)) == expected


@pytest.mark.parametrize("white", [(180.0, 200.0, 240.0), (250.0, 230.0, 200.0)])
def test_balance_makes_the_white_neutral(white):
    patch = np.broadcast_to(np.array(white, np.float32).round().astype(np.uint8), (4, 4, 3))
    out = balance(patch, TARGET_WHITE / np.array(white, np.float32))
    assert np.all(np.abs(out.astype(int) - TARGET_WHITE) <= 1)
