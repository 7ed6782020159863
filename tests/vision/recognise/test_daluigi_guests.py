"""Each guest card is read at one place at most: the game's 90 guest cards are all different."""

from __future__ import annotations

import pytest

from tableref.rules.daluigi.observation import UNKNOWN, Item
from tableref.vision.recognise.daluigi import each_guest_once


@pytest.mark.parametrize("read, kept", [
    # all different: as read
    ([("slot:0:0", "G01", 0.9), ("slot:0:1", "G51", 0.8), ("revealed", "S3", 0.99)], ["G01", "G51", "S3"]),
    # one card at two places: the surer keeps it
    ([("slot:2:0", "G69", 1.0), ("slot:3:1", "G69", 0.978)], ["G69", UNKNOWN]),
    ([("slot:0:0", "G07", 0.7), ("revealed", "G07", 0.95), ("slot:1:2", "G07", 0.8)], [UNKNOWN, "G07", UNKNOWN]),
    # empty places, unknown places and other places are no cards
    ([("slot:0:0", "", 0.99), ("slot:0:1", "", 0.98), ("slot:0:2", UNKNOWN, 0.0), ("slot:0:3", UNKNOWN, 0.0),
      ("order:0:4", "red", 0.9), ("order:0:5", "red", 0.8), ("hand", "2", 0.9), ("served:0", "2", 0.9)],
     ["", "", UNKNOWN, UNKNOWN, "red", "red", "2", "2"]),
])
def test_a_guest_card_read_twice_is_kept_where_surest(read, kept):
    items = [Item(w, label, c) for w, label, c in read]
    got = each_guest_once(items)
    assert [it.label for it in got] == kept
    assert [it.where for it in got] == [it.where for it in items]
    assert all(g == it for g, it in zip(got, items) if g.label == it.label)
    assert all(g.confidence == 0.0 for g, it in zip(got, items) if g.label != it.label)
