"""The game's surface: new_game, legal_moves, apply, sample_chance, is_over (and resume).

A decision with exactly one legal move (a forced serving, the last guest to give away, an
arrow with one guest) is taken by the engine itself: every state handed out waits for
chance, for a real choice, or is over.
"""

from __future__ import annotations

import random

from ..common import CHANCE, player_name, players_problem
from ..errors import InvalidInput
from .actions import perform
from .catalogue import CARDS_PER_PLAYER, COLOURS, CUBE_COUNTS, FIELDS, NO_CUBES, SLOTS, TILES, load_deck
from .legal import enumerate_moves
from .moves import Move
from .options import Options
from .state import State
from .tasks import advance, setup_tasks

NAME = "daluigi"
MIN_PLAYERS = 2
MAX_PLAYERS = 4


def new_game(players: int, options: dict | None = None, seed: int | None = None) -> State:
    """A new game after setup.  With a ``seed`` the setup's chance (start cards, dice) is drawn from
    ``random.Random(seed)``; without one the state waits for those chance events (a camera gives them)."""
    problem = players_problem("Da Luigi", players, MIN_PLAYERS, MAX_PLAYERS)
    if problem:
        raise InvalidInput(problem)
    opts = Options.from_json(options)
    deck = load_deck(opts.deck)
    state = State(
        players=players, options=opts, to_move=CHANCE, active=0, market=(NO_CUBES,) * FIELDS, bag=CUBE_COUNTS,
        used=NO_CUBES, supply=(NO_CUBES,) * players, strips=((None,) * SLOTS,) * players, tiles=(0,) * players,
        market_flowers=opts.flower_tiles, market_lemons=TILES - opts.flower_tiles, box_tiles=0,
        served=((),) * players, discard=(), unseen=deck.guests, starts=deck.starts_short + deck.starts_long,
        pile=CARDS_PER_PLAYER * players, hand=0, revealed=None, given=(0,) * players, tasks=setup_tasks(players))
    state = _settle(advance(state))
    if seed is not None:
        rng = random.Random(seed)
        while state.to_move == CHANCE:
            state = apply(state, sample_chance(state, rng))
    return state


def legal_moves(state: State) -> list[Move]:
    """Every legal move (at a chance node: every possible event).  A finished game has none."""
    cached = state.__dict__.get("_legal")
    if cached is None:
        cached = tuple(enumerate_moves(state))
        object.__setattr__(state, "_legal", cached)
    return list(cached)


def _settle(state: State) -> State:
    while not state.over and state.to_move != CHANCE:
        moves = legal_moves(state)
        if len(moves) != 1:
            break
        state = advance(perform(state, moves[0]))
    return state


def resume(state: State) -> State:
    """Run the task queue and the forced moves of a state made outside the engine (the position as
    seen), as after any move: the state returned waits for chance, for a real choice, or is over."""
    return _settle(advance(state))


def apply(state: State, move: Move) -> State:
    """The state after ``move`` (raises IllegalMove with a reason code; never changes ``state``)."""
    if not isinstance(move, Move):
        raise InvalidInput(f"a move must be a daluigi Move, got {type(move).__name__}")
    return _settle(advance(perform(state, move)))


def sample_chance(state: State, rng: random.Random) -> Move:
    """Draw the chance event due now: a die from the bag (weighted by what it holds) or a card."""
    if state.to_move != CHANCE:
        raise InvalidInput(f"no chance event is due: {player_name(state.to_move)} is to move")
    if state.tasks[0][0] == "draw":
        pick = rng.randrange(sum(state.bag))
        for colour, n in zip(COLOURS, state.bag):
            if pick < n:
                return Move("cube", CHANCE, colour=colour)
            pick -= n
    moves = enumerate_moves(state)
    return moves[rng.randrange(len(moves))]


def is_over(state: State) -> bool:
    return state.over
