"""The owners of jokers and card halves: no player holds more jokers than the set gives each,
and halves sure of different borders keep their own owners."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tableref.vision.recognise import ligretto_decide as decide
from tableref.vision.recognise.ligretto import MIN_CONFIDENCE, SpaceReading
from tableref.vision.recognise.ligretto_counts import at_most_jokers
from tableref.vision.recognise.ligretto_labels import CELL_LABELS

QUAD = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))


def jokers(rows: list[list[float]]) -> tuple[dict, dict, np.ndarray]:
    """One joker per row of border probabilities, read with its likeliest owner (None below
    MIN_CONFIDENCE), beside one free space; (spaces, index, borders)."""
    borders = np.array(rows + [[0.25] * 4], np.float64)
    spaces = {(0, c): SpaceReading((0, c), "joker", int(np.argmax(p)) if max(p) >= MIN_CONFIDENCE else None,
                                   None, 0.99, None, False, 0.99, QUAD) for c, p in enumerate(rows)}
    spaces[(1, 0)] = SpaceReading((1, 0), "none", None, "red", 0.99, None, False, 0.99, QUAD)
    index = {cell: i for i, cell in enumerate(sorted(c for c in spaces if c[0] == 0))} | {(1, 0): len(rows)}
    return spaces, index, borders


@pytest.mark.parametrize("rows, owners", [
    # two of one border: as read
    ([[0, 0.99, 0.01, 0], [0, 0.98, 0.02, 0], [0.9, 0.1, 0, 0]], [1, 1, 0]),
    # three read double: the one likeliest dashed is dashed
    ([[0, 0.99, 0.01, 0], [0, 0.9, 0.1, 0], [0, 0.999, 0.001, 0]], [1, 2, 1]),
    # three read double, solid and dashed full: the least sure double goes to the dotted left over
    ([[0, 0.999, 0, 0.001], [0.99, 0.01, 0, 0], [0, 0.97, 0, 0.03], [0.98, 0.02, 0, 0],
      [0, 0.02, 0.98, 0], [0, 0.01, 0.99, 0], [0, 0.999, 0, 0.001]], [1, 0, 3, 0, 2, 2, 1]),
    # an unsure joker (no owner read) counts for no one
    ([[0, 0.99, 0.01, 0], [0.3, 0.3, 0.2, 0.2], [0, 0.999, 0.001, 0]], [1, None, 1]),
    # one read as much double as dashed, two double read surely: dashed (validation render 2000718)
    ([[0, 0.99, 0.01, 0], [0, 0.5, 0.48, 0.02], [0, 0.999, 0.001, 0]], [1, 2, 1]),
    # ... but with double not full it stays unknown
    ([[0, 0.99, 0.01, 0], [0, 0.5, 0.48, 0.02], [0.999, 0, 0.001, 0]], [1, None, 0]),
])
def test_no_owner_keeps_more_than_two_jokers(rows, owners):
    spaces, index, borders = jokers(rows)
    got = at_most_jokers(spaces, index, borders, MIN_CONFIDENCE)
    assert [got[(0, c)].owner for c in range(len(rows))] == owners
    assert got[(1, 0)] == spaces[(1, 0)]
    # only the owner moves
    assert all(got[cell] == spaces[cell] or (got[cell].cover, got[cell].confidence) == ("joker", 0.99) for cell in got)


def test_a_joker_moved_to_an_unlikely_owner_is_unknown():
    # a third double whose other borders are alike: no owner is sure once double is full
    rows = [[0, 0.99, 0.01, 0], [0.05, 0.9, 0.05, 0.0], [0, 0.999, 0.001, 0]]
    got = at_most_jokers(*jokers(rows), MIN_CONFIDENCE)
    assert [got[(0, c)].owner for c in range(3)] == [1, None, 1]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2 ** 32 - 1), st.integers(1, 7))
def test_owners_within_is_the_likeliest_assignment_under_the_limit(seed, n):
    rng = np.random.default_rng(seed)
    p = rng.dirichlet(np.full(4, 0.3), size=n)
    owners, sure = decide.owners_within(p, 2)
    assert max(np.bincount(owners, minlength=4)) <= 2
    logs = np.log(np.maximum(p, decide.FLOOR))
    best = max(sum(logs[i, o] for i, o in enumerate(a)) for a in itertools.product(range(4), repeat=n)
               if max(np.bincount(a, minlength=4)) <= 2)
    assert sum(logs[i, o] for i, o in enumerate(owners)) == pytest.approx(best)
    assert all(0.0 < s <= 1.0 for s in sure)


def test_more_pieces_than_room_is_refused():
    with pytest.raises(ValueError, match="cannot go"):
        decide.owners_within(np.full((9, 4), 0.25), 2)


# --- two halves paired whose owner is unsure ---------------------------------------------------

def _halves(pa: list[float], pb: list[float]) -> tuple[dict, dict, np.ndarray]:
    spaces = {(0, c): SpaceReading((0, c), "card", None, "red", 0.99, None, False, 0.99, QUAD) for c in (0, 1)}
    return spaces, {(0, 0): 0, (0, 1): 1}, np.array([pa, pb], np.float64)


@pytest.mark.parametrize("pa, pb, owners, card", [
    # halves agree: one card of that owner
    ([0, 0.99, 0.01, 0], [0, 0.98, 0.02, 0], (1, 1), 1),
    # each sure of another border: two cards' halves, each its own owner, no card
    ([0.995, 0.005, 0, 0], [0, 0, 0.999, 0.001], (0, 2), None),
    # not sure enough of either: both unknown, no card
    ([0.9, 0, 0.1, 0], [0.1, 0, 0.9, 0], (None, None), None),
])
def test_halves_sure_of_different_borders_keep_their_own_owners(pa, pb, owners, card):
    from tableref.vision.recognise.ligretto_cards import card_of

    spaces, index, borders = _halves(pa, pb)
    got = card_of(spaces, index, borders, (0, 0), (0, 1))
    assert (spaces[(0, 0)].owner, spaces[(0, 1)].owner) == owners
    assert (got.owner if got is not None else None) == card


# --- the border styles of the players at the table ---------------------------------------------

@pytest.mark.parametrize("labels, players, ruled_out", [
    (CELL_LABELS, 2, ("card:dashed", "card:dotted", "joker:dashed", "joker:dotted")),
    (CELL_LABELS, 3, ("card:dotted", "joker:dotted")),
    (CELL_LABELS, 4, ()),
    (("solid", "double", "dashed", "dotted"), 2, ("dashed", "dotted")),
    (("solid", "double", "dashed", "dotted"), 3, ("dotted",)),
])
def test_only_the_styles_of_the_players_at_the_table_are_read(labels, players, ruled_out):
    p = np.random.default_rng(players).dirichlet(np.ones(len(labels)), size=20)
    got = decide.among_players(p, labels, players)
    out = [labels.index(label) for label in ruled_out]
    kept = [i for i in range(len(labels)) if i not in out]
    assert np.all(got[:, out] == 0.0)
    assert np.allclose(got.sum(axis=1), 1.0)
    # the styles in play keep their odds against each other and against the other labels
    assert np.allclose(got[:, kept] * p[:, kept].sum(axis=1, keepdims=True), p[:, kept])


def test_untold_every_style_stays():
    p = np.random.default_rng(0).dirichlet(np.ones(len(CELL_LABELS)), size=5)
    assert decide.among_players(p, CELL_LABELS, None) is p


def test_a_space_read_only_as_styles_no_one_plays_reads_unknown():
    p = np.zeros((1, len(CELL_LABELS)))
    p[0, CELL_LABELS.index("card:dotted")] = 1.0 - 1e-8
    p[0, CELL_LABELS.index("card:solid")] = 1e-8
    kinds = decide.kinds(decide.among_players(p, CELL_LABELS, 2), CELL_LABELS)
    assert kinds.max() < MIN_CONFIDENCE
