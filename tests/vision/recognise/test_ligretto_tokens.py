"""No more spaces keep a token than the game has tokens: the surest keep theirs."""

from __future__ import annotations

import pytest

from tableref.vision.recognise.ligretto import MIN_CONFIDENCE, SpaceReading
from tableref.vision.recognise.ligretto_counts import at_most_tokens

QUAD = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))


def board(tokens: list[float | None]) -> dict:
    """One free space per entry: a token read at that confidence, or none read (None)."""
    return {(0, c): SpaceReading((0, c), "none", None, "red", 0.99, None, conf is not None,
                                 conf if conf is not None else 0.99, QUAD) for c, conf in enumerate(tokens)}


@pytest.mark.parametrize("confidences, limit, kept, floor", [
    ([0.99, 0.98, 0.97, 0.96], 4, [0, 1, 2, 3], None),
    ([0.99, None, 0.97], 4, [0, 2], None),
    # a fifth token read: the least sure is read free, as surely as the fourth surest token
    ([0.95, 0.99, 0.98, 0.97, 0.999], 4, [1, 2, 3, 4], 0.97),
    ([0.7, 0.99, 0.8, 0.97, 0.999, 0.9], 4, [1, 3, 4, 5], 0.9),
    ([0.9, 0.8, 0.95], 2, [0, 2], 0.9),
])
def test_the_surest_tokens_are_kept(confidences, limit, kept, floor):
    got = at_most_tokens(board(confidences), MIN_CONFIDENCE, limit)
    assert sorted(c for (_, c), s in got.items() if s.token) == kept
    dropped = [s for (_, c), s in got.items() if confidences[c] is not None and c not in kept]
    assert all(s.token is False and s.token_confidence == floor for s in dropped)
    assert all(got[(0, c)] == s for (_, c), s in board(confidences).items() if c in kept or confidences[c] is None)


def test_the_floor_below_the_confidence_floor_leaves_the_space_unknown():
    # the least sure kept token is below MIN_CONFIDENCE only when tokens were read that unsure
    spaces = board([0.55, 0.5, 0.52])
    got = at_most_tokens(spaces, MIN_CONFIDENCE, 2)
    assert got[(0, 1)].token is None and got[(0, 1)].token_confidence == 0.0
