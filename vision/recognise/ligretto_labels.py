"""The labels of Ligretto's two space classifiers, and how a space becomes their input.

``ligretto-cells`` says what covers a space: nothing (``empty``, or ``start`` when the
space shows a token's start mark), a card or a joker with the player's border style, a hand
or an object (``hidden``), or that the place is no space of the board at all (``off``).
``ligretto-tokens`` says whether a black Ligretto token stands on it. Both read the same crop.
"""

from __future__ import annotations

from ...models.card import CropSettings, Preprocessing
from ...rules.ligretto.catalogue import BORDERS

CELLS_MODEL, TOKENS_MODEL = "ligretto-cells", "ligretto-tokens"
#: The second cover classifier (the same recipe on other renders): a second opinion on unsure spaces.
SECOND_CELLS_MODEL = "ligretto-cells-b"
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
