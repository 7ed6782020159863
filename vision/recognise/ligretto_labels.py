"""The labels of Ligretto's classifiers, and how a space or a card becomes their input.

``ligretto-cells`` says what covers a space: nothing (``empty``, or ``start`` when the
space shows a token's start mark), a card or a joker with the player's border style, a hand
or an object (``hidden``), or that the place is no space of the board at all (``off``).
``ligretto-tokens`` says whether a black Ligretto token stands on it. Both read the same crop.
``ligretto-borders`` says a whole card's border style (its owner), from the card laid lengthwise.
``ligretto-hidden`` says whether a hand or an object lies over part of a space (same crop).
``ligretto-seams`` says whether two neighbouring card halves are one card or two pieces side by
side, from the two spaces cut as ``ligretto-borders`` cuts a card.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ...models.card import CropSettings, Preprocessing
from ...rules.ligretto.catalogue import BORDERS

CELLS_MODEL, TOKENS_MODEL = "ligretto-cells", "ligretto-tokens"
#: The second cover classifier (the same recipe on other renders): a second opinion on unsure spaces.
SECOND_CELLS_MODEL = "ligretto-cells-b"
#: The card classifier: a whole card's border style.
BORDERS_MODEL = "ligretto-borders"
#: The second card model: the same recipe on other training renders, its answer averaged with the first's.
SECOND_BORDERS_MODEL = "ligretto-borders-b"
#: The seam classifier: whether two neighbouring card halves are one card (its labels).
SEAMS_MODEL = "ligretto-seams"
ONE_CARD, TWO_PIECES = "one", "two"
SEAM_LABELS: tuple[str, ...] = (ONE_CARD, TWO_PIECES)
#: The partly-hidden model: whether a hand or an object lies over part of a space (:mod:`.cover`).
HIDDEN_MODEL = "ligretto-hidden"
EMPTY, START, HIDDEN, OFF = "empty", "start", "hidden", "off"
CARD, JOKER = "card", "joker"
TOKEN, NO_TOKEN = "token", "none"


def card_label(border: str) -> str:
    return f"{CARD}:{border}"


def joker_label(border: str) -> str:
    return f"{JOKER}:{border}"


#: The cover classifier's outputs, in order.
CELL_LABELS: tuple[str, ...] = ((EMPTY, START) + tuple(card_label(b) for b in BORDERS)
                                + tuple(joker_label(b) for b in BORDERS) + (HIDDEN, OFF))
#: The token classifier's outputs, in order.
TOKEN_LABELS: tuple[str, ...] = (NO_TOKEN, TOKEN, HIDDEN)

#: A space and a fifth of a space around it (its neighbours' edges, a card's margin), upright.
PREPROCESSING = Preprocessing(input_size=(40, 40), colour="rgb", mean=(0.5, 0.5, 0.5), std=(0.25, 0.25, 0.25),
                              crop=CropSettings(region="quad", margin=0.2))

#: A whole card lengthwise, and a tenth of its size around it (its border's whole run): the
#: second card model's and the seam model's input.
BORDERS_PREPROCESSING = Preprocessing(input_size=(40, 80), colour="rgb", mean=(0.5, 0.5, 0.5), std=(0.25, 0.25, 0.25),
                                      crop=CropSettings(region="quad", margin=0.1))
#: The first card model's input: the same cut at about the size the renders show a card (28 x
#: 56 px), whose training steps cost 0.6 of those at 40 x 80 (84 against 137 ms a step of 64 on
#: 2026-12-07's machine), so that it learns from half as many renders again in the same time.
BORDERS_SMALL_PREPROCESSING = replace(BORDERS_PREPROCESSING, input_size=(32, 64))


#: Each corner's next one, clockwise (``np.roll(q, -1, axis=0)``, without its overhead: a
#: card's quad is turned about a hundred times an image).
_NEXT = [1, 2, 3, 0]


def lengthwise(quad: np.ndarray) -> np.ndarray:
    """A card's four corners (image px, in either turning order) in the crop's order for
    :data:`BORDERS_PREPROCESSING`: clockwise on the image, a long side first."""
    q = np.asarray(quad, np.float64).reshape(4, 2)
    x, y = q[:, 0], q[:, 1]
    if float(np.dot(x, y[_NEXT]) - np.dot(x[_NEXT], y)) < 0:  # anticlockwise on the image
        q = q[::-1]
    sides = np.linalg.norm(q[_NEXT] - q, axis=1)
    return q if sides[0] + sides[2] >= sides[1] + sides[3] else q[_NEXT]


def card_quad(a: np.ndarray, b: np.ndarray, a_cell: tuple[int, int], b_cell: tuple[int, int]) -> np.ndarray:
    """The corners (image px, crop order, lengthwise) of the card covering neighbouring spaces
    ``a_cell`` and ``b_cell``, whose quads ``a`` and ``b`` are in the crop's order (top-left
    first, clockwise, row 0 away from the camera)."""
    if abs(a_cell[0] - b_cell[0]) + abs(a_cell[1] - b_cell[1]) != 1:
        raise ValueError(f"spaces {a_cell} and {b_cell} are not neighbours: no card covers both")
    if b_cell < a_cell:
        a, b = b, a
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    side_by_side = a_cell[0] == b_cell[0]
    quad = np.array([a[0], b[1], b[2], a[3]] if side_by_side else [a[0], a[1], b[2], b[3]])
    return lengthwise(quad)
