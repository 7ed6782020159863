"""Ligretto: Das Brettspiel -- the rules engine.

All players place cards at once on a board of coloured squares, next to four Ligretto tokens;
the first to put down all their cards calls "Ligretto stop".  See docs/rules.md.
"""

from __future__ import annotations

from ..common import Violation, player_name
from .board import PRESETS, Board, preset
from .catalogue import card_name, joker_name
from .engine import apply, is_over, legal_moves, new_game, place_anyway, sample_chance
from .illegal import ILLEGAL_KINDS, illegal_placement
from .moves import Move, NextRound, Place, PlaceJoker, SetTokens, ToPlayerBoard, move_from_json
from .observation import CellSeen, Observation, PlayerSeen, observe
from .options import DEFAULT_OPTIONS
from .reasons import REASONS
from .referee import NOT_EXPLAINED, referee
from .scoring import score
from .state import MAX_PLAYERS, MIN_PLAYERS, NAME, Piece, State


def violations(state: State) -> list[Violation]:
    """What is wrong on the board as it lies: every misplaced card or joker, one violation per
    broken rule, with its owner and its spaces."""
    out = []
    for piece in state.pieces:
        name = card_name(piece.id) if piece.kind == "card" else joker_name(piece.id)
        cells = [f"cell:{r},{c}" for r, c in (state.board.cell(i) for i in piece.cells)]
        for code in piece.faults:
            out.append(Violation(code, piece.player, (name, *cells),
                                 f"{player_name(piece.player, capital=True)}: {REASONS[code]}"))
    return out


def state_from_json(data: dict) -> State:
    return State.from_json(data)


def observation_from_json(data: dict) -> Observation:
    return Observation.from_json(data)


__all__ = ["NAME", "MIN_PLAYERS", "MAX_PLAYERS", "DEFAULT_OPTIONS", "REASONS", "new_game", "legal_moves",
           "apply", "sample_chance", "violations", "score", "is_over", "referee", "NOT_EXPLAINED", "observe",
           "state_from_json", "move_from_json", "observation_from_json", "place_anyway", "illegal_placement",
           "ILLEGAL_KINDS", "State", "Piece", "Board", "PRESETS", "preset", "Move", "Place", "PlaceJoker",
           "ToPlayerBoard", "NextRound", "SetTokens", "Observation", "CellSeen", "PlayerSeen"]
