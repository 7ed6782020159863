"""Dolce Vita rules engine (Hans im Glück 1999, Reiner Stockhausen).

Players place number cards under seven columns of luxury cards (the rulebook's "rows"); each
column is handed out from the bottom card up to the highest totals, ties cancelled; one card of
each good per player; the richest player wins.  The modules: ``catalogue`` (components),
``options`` (every ambiguity), ``state`` (state and moves), ``engine`` (setup, legal moves,
apply), ``distribution`` (handing out a column), ``scoring``, ``observation`` and ``referee``.
"""

from __future__ import annotations

from .engine import apply, legal_moves, new_game, sample_chance
from .observation import Item, Observation, observation_from_json, observe
from .options import DEFAULT_OPTIONS, OPTION_DOCS
from .reasons import REASONS
from .referee import referee
from .scoring import is_over, score, violations
from .state import (MAX_PLAYERS, MIN_PLAYERS, NAME, Collect, Deal, Place, Resolve, State, move_from_json,
                    state_from_json)

__all__ = [
    "NAME", "MIN_PLAYERS", "MAX_PLAYERS", "DEFAULT_OPTIONS", "OPTION_DOCS", "REASONS",
    "new_game", "legal_moves", "apply", "sample_chance", "violations", "score", "is_over",
    "referee", "observe", "state_from_json", "move_from_json", "observation_from_json",
    "State", "Deal", "Place", "Resolve", "Collect", "Observation", "Item",
]
