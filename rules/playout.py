"""Random legal games, played to their end: for the command line, the tests and the benchmark."""

from __future__ import annotations

import random
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Callable

from .common import CHANCE, Score
from .errors import RulesError

#: A game longer than this is taken to be stuck (no real game comes near it).
MAX_MOVES = 20_000


@dataclass(frozen=True)
class Record:
    """A whole game: its setup, every move in order, the final state and the score."""

    game: str
    players: int
    seed: int
    options: dict
    moves: tuple[Any, ...]
    final: Any
    score: Score

    def to_json(self) -> dict:
        return {"game": self.game, "players": self.players, "seed": self.seed, "options": self.options,
                "moves": [m.to_json() for m in self.moves], "final_state": self.final.to_json(),
                "score": self.score.to_json()}


def random_playout(rules: ModuleType, players: int, seed: int, options: dict | None = None,
                   on_move: Callable[[Any, Any, Any], None] | None = None,
                   max_moves: int = MAX_MOVES) -> Record:
    """Play one random legal game of ``rules`` from ``new_game(players, options, seed)``.

    Chance events come from ``rules.sample_chance``; a player's move is drawn uniformly from
    ``rules.legal_moves``.  ``on_move(before, move, after)`` is called after every move (the
    tests check their invariants there).  Deterministic for a given seed.
    """
    rng = random.Random(seed)
    state = rules.new_game(players, options, seed)
    moves = []
    while not rules.is_over(state):
        if len(moves) >= max_moves:
            raise RulesError(f"{rules.NAME}: the game did not end within {max_moves} moves (seed {seed})")
        if state.to_move == CHANCE:
            move = rules.sample_chance(state, rng)
        else:
            legal = rules.legal_moves(state)
            if not legal:
                raise RulesError(f"{rules.NAME}: no legal move in a game that is not over (seed {seed})")
            move = legal[rng.randrange(len(legal))]
        after = rules.apply(state, move)
        if on_move is not None:
            on_move(state, move, after)
        moves.append(move)
        state = after
    return Record(game=rules.NAME, players=players, seed=seed, options=dict(options or {}),
                  moves=tuple(moves), final=state, score=rules.score(state))
