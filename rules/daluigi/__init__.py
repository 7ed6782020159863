"""Da Luigi (Kosmos 2015): the rules engine.

Rulebook: /work/shared/rulebooks/da-luigi.txt (in the repository's shared material).  The guest
deck is ASSUMED (the per-card list is not published): see ``data/guests.json`` and the option
``deck`` to use one's own.
"""

from __future__ import annotations

from .catalogue import load_deck
from .engine import MAX_PLAYERS, MIN_PLAYERS, NAME, apply, is_over, legal_moves, new_game, sample_chance
from .moves import Move, move_from_json
from .observation import Item, Observation, observe
from .options import DEFAULT_OPTIONS, Options
from .reasons import REASONS
from .scoring import score
from .referee import referee
from .state import Guest, State
from .violations import violations


def state_from_json(data) -> State:
    return State.from_json(data)


def observation_from_json(data) -> Observation:
    return Observation.from_json(data)


__all__ = ["NAME", "MIN_PLAYERS", "MAX_PLAYERS", "DEFAULT_OPTIONS", "REASONS", "new_game", "legal_moves",
           "apply", "sample_chance", "score", "is_over", "state_from_json", "move_from_json",
           "observation_from_json", "observe", "referee", "violations", "Move", "State", "Guest", "Options",
           "Observation", "Item", "load_deck"]
