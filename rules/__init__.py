"""Pure, deterministic game logic: one subpackage per game, one common surface.

Nothing here imports OpenCV, onnxruntime, Flask or any other part of tableref.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from .errors import IllegalMove, InvalidInput, RulesError

#: Game names as used on the command line and in JSON, mapped to their subpackage.
GAMES: dict[str, str] = {
    "daluigi": "tableref.rules.daluigi",
    "dolcevita": "tableref.rules.dolcevita",
    "ligretto": "tableref.rules.ligretto",
}


def game(name: str) -> ModuleType:
    """The rules module of the game ``name`` (one of :data:`GAMES`)."""
    if name not in GAMES:
        raise InvalidInput(f"unknown game {name!r}; choose one of {', '.join(sorted(GAMES))}")
    return importlib.import_module(GAMES[name])


__all__ = ["GAMES", "game", "IllegalMove", "InvalidInput", "RulesError"]
