"""The labels of the Dolce Vita card classifier, and which of them each spot allows."""

from __future__ import annotations

from ...rules.dolcevita.catalogue import (COLOURS, EMPTY, GOOD_VALUES, GOODS, MONEY_HIGH, MONEY_LOW, NUMBER_VALUES,
                                          UNKNOWN, good_label, money_label)
from .dolcevita_zones import GOODS as GOODS_ROW
from .dolcevita_zones import MONEY as MONEY_ROW
from .dolcevita_zones import SLOT, UNDER

GOOD_LABELS: tuple[str, ...] = tuple(good_label(g, v) for g in GOODS for v in GOOD_VALUES)
MONEY_LABELS: tuple[str, ...] = (money_label(MONEY_LOW), money_label(MONEY_HIGH))
NUMBER_LABELS: tuple[str, ...] = tuple(f"{c}:{v}" for c in COLOURS for v in NUMBER_VALUES)
#: The classifier's outputs, in order: every card face, "empty" (no card starts at the spot)
#: and "unknown" (the spot is covered by a hand or an object).
LABELS: tuple[str, ...] = GOOD_LABELS + MONEY_LABELS + NUMBER_LABELS + (EMPTY, UNKNOWN)

#: Which labels each group of spots may take.
ALLOWED: dict[str, tuple[str, ...]] = {
    SLOT: GOOD_LABELS + MONEY_LABELS + (EMPTY, UNKNOWN),
    UNDER: NUMBER_LABELS + (EMPTY, UNKNOWN),
    GOODS_ROW: GOOD_LABELS + (EMPTY, UNKNOWN),
    MONEY_ROW: MONEY_LABELS + (EMPTY, UNKNOWN),
}
