"""How a Ligretto card becomes the card classifier's input: its corners lengthwise and
clockwise, from its own polygon or from the two spaces it covers; and how that classifier's
answer joins the two halves' in deciding the owner."""

from __future__ import annotations

import numpy as np
import pytest

from tableref.vision.recognise.ligretto_decide import joint_border
from tableref.vision.recognise.ligretto_labels import card_quad, lengthwise

#: A card 60 x 30 px lying lengthwise, clockwise on the image from its top-left corner.
FLAT = np.array([[0, 0], [60, 0], [60, 30], [0, 30]], float)
#: The same card standing up (30 x 60 px).
STANDING = np.array([[0, 0], [30, 0], [30, 60], [0, 60]], float)


def _same_corners_in_turn(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether ``b`` lists ``a``'s corners in the same turning order from some corner."""
    return any(np.allclose(np.roll(a, k, axis=0), b) for k in range(4))


def _long_side_first_clockwise(q: np.ndarray) -> bool:
    sides = np.linalg.norm(np.roll(q, -1, axis=0) - q, axis=1)
    x, y = q[:, 0], q[:, 1]
    clockwise = float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y)) > 0
    return clockwise and sides[0] > sides[1]


@pytest.mark.parametrize("quad", [
    FLAT, np.roll(FLAT, 1, axis=0), FLAT[::-1], np.roll(FLAT[::-1], 1, axis=0),
    STANDING, np.roll(STANDING, 1, axis=0), STANDING[::-1],
])
def test_lengthwise_puts_a_long_side_first_clockwise(quad):
    out = lengthwise(quad)
    assert _long_side_first_clockwise(out)
    clockwise = quad if _same_corners_in_turn(quad, out) else quad[::-1]
    assert _same_corners_in_turn(clockwise, out)


#: Two neighbouring spaces' quads (crop order: top-left first, clockwise), 30 px each.
LEFT = np.array([[0, 0], [30, 0], [30, 30], [0, 30]], float)
RIGHT, BELOW = LEFT + [30, 0], LEFT + [0, 30]


@pytest.mark.parametrize("a, b, a_cell, b_cell, corners", [
    (LEFT, RIGHT, (2, 3), (2, 4), FLAT),
    (RIGHT, LEFT, (2, 4), (2, 3), FLAT),  # either half first
    (LEFT, BELOW, (2, 3), (3, 3), STANDING),
    (BELOW, LEFT, (3, 3), (2, 3), STANDING),
])
def test_card_quad_covers_both_spaces(a, b, a_cell, b_cell, corners):
    out = card_quad(a, b, a_cell, b_cell)
    assert _long_side_first_clockwise(out)
    assert _same_corners_in_turn(corners, out)


@pytest.mark.parametrize("b_cell", [(2, 5), (3, 4), (2, 3)])
def test_card_quad_refuses_spaces_that_are_not_neighbours(b_cell):
    with pytest.raises(ValueError, match="not neighbours"):
        card_quad(LEFT, RIGHT, (2, 3), b_cell)


@pytest.mark.parametrize("a, b, whole, best", [
    # the halves alone: one sure half outweighs the other
    ([0.0, 0.997, 0.0, 0.003], [0.0, 0.27, 0.0, 0.73], None, 1),
    # the whole card's look joins in: it does not always win ...
    ([0.0, 0.997, 0.0, 0.003], [0.0, 0.27, 0.0, 0.73], [0.0, 0.085, 0.0, 0.915], 1),
    # ... but it settles halves that disagree
    ([0.0, 0.6, 0.0, 0.4], [0.0, 0.3, 0.0, 0.7], [0.0, 0.1, 0.0, 0.9], 3),
    ([0.7, 0.3, 0.0, 0.0], [0.7, 0.3, 0.0, 0.0], [0.05, 0.95, 0.0, 0.0], 1),
    # halves that agree unsurely: the whole look, counted as much as both, settles them
    # (validation render 2000843; counted once, double 0.61)
    ([0.0, 0.65, 0.0, 0.35], [0.0, 0.74, 0.0, 0.26], [0.0, 0.23, 0.0, 0.77], 3),
])
def test_joint_border(a, b, whole, best):
    a, b = np.array(a), np.array(b)
    got, p, agree = joint_border(a, b, None if whole is None else np.array(whole))
    assert got == best and 0.5 < p <= 1.0
    assert agree == pytest.approx(float((a * b).sum()))  # the halves' own agreement, whatever the whole says
