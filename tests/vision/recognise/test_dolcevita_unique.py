"""A luxury good or number card exists once: a second reading of it is resolved (no model needed)."""

from __future__ import annotations

import numpy as np
import pytest

from tableref.vision.recognise.dolcevita import Reading, once_each

QUAD = np.array([[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]])
MIN_CONFIDENCE = 0.6


def reading(where: str, label: str, confidence: float, *alternatives: tuple[str, float]) -> Reading:
    group = "under" if where.endswith("under") else "slot"
    return Reading(where, group, 0, QUAD, label, confidence, ((label, confidence),) + alternatives)


def unsure(where: str, *alternatives: tuple[str, float]) -> Reading:
    """A spot left unknown for want of confidence: its faces kept as alternatives."""
    return Reading(where, "slot", 0, QUAD, "unknown", 0.0, alternatives)


@pytest.mark.parametrize("readings, expected", [
    # different cards: nothing changes
    ([reading("a", "car:100000", 0.9), reading("b", "car:200000", 0.8)], ["car:100000", "car:200000"]),
    # money is many of a kind
    ([reading("a", "money:100000", 0.9), reading("b", "money:100000", 0.8)], ["money:100000", "money:100000"]),
    # the surer reading keeps the card; the other takes its clear second face
    ([reading("a", "car:300000", 0.7, ("car:500000", 0.28)), reading("b", "car:300000", 0.95)],
     ["car:500000", "car:300000"]),
    # ... or becomes unknown when its second face is not clear given the first is ruled out
    ([reading("a", "car:300000", 0.7, ("car:500000", 0.15), ("car:600000", 0.14)),
      reading("b", "car:300000", 0.95)], ["unknown", "car:300000"]),
    # number cards are unique too
    ([reading("x:under", "red:3", 0.99), reading("y:under", "red:3", 0.61)], ["red:3", "unknown"]),
    # empty and unknown are no cards
    ([reading("a", "empty", 0.9), reading("b", "empty", 0.9), reading("c", "unknown", 0.0)],
     ["empty", "empty", "unknown"]),
    # an unsure spot whose rival face is read elsewhere: 0.5 / (1 - 0.45) = 0.91 is read
    ([unsure("a", ("car:300000", 0.5), ("car:500000", 0.45)), reading("b", "car:500000", 0.9)],
     ["car:300000", "car:500000"]),
    # ... but 0.4 / (1 - 0.45) = 0.73 stays below 0.8: unknown
    ([unsure("a", ("car:300000", 0.4), ("car:500000", 0.45)), reading("b", "car:500000", 0.9)],
     ["unknown", "car:500000"]),
    # nothing ruled out: an unsure spot stays unknown
    ([unsure("a", ("car:300000", 0.55), ("car:500000", 0.4)), reading("b", "car:600000", 0.9)],
     ["unknown", "car:600000"]),
    # two unsure spots wanting the same card: the surer one gets it
    ([unsure("a", ("car:300000", 0.5), ("car:500000", 0.45)), unsure("c", ("car:300000", 0.55), ("car:500000", 0.4)),
      reading("b", "car:500000", 0.9)], ["unknown", "car:300000", "car:500000"]),
    # a spot the structure ruled unknown keeps no faces and stays unknown
    ([unsure("a"), reading("b", "car:500000", 0.9)], ["unknown", "car:500000"]),
])
def test_each_card_is_read_once(readings, expected):
    out = once_each(readings, MIN_CONFIDENCE)
    assert [r.label for r in out] == expected
    assert [r.where for r in out] == [r.where for r in readings]
    assert all(r.confidence == 0.0 for r in out if r.label == "unknown")


def test_a_face_left_alone_by_the_cards_ruled_out_is_at_most_certain():
    """float32 probabilities summing a hair over 1: the face left, renormalised, stays <= 1
    (the observation refuses confidences above 1; the demo's flags saw 1.0000000214)."""
    rival = np.float32(0.7000001)
    out = once_each([unsure("a", ("car:300000", float(np.float32(0.3000001))), ("car:500000", float(rival))),
                     reading("b", "car:500000", 0.95)], MIN_CONFIDENCE)
    assert out[0].label == "car:300000" and 0.99 < out[0].confidence <= 1.0
