"""Random illegal placements of a requested kind (the demo mixes them into its games).

:func:`illegal_placement` returns a move that :func:`~.engine.place_anyway` can put on the
board and whose first broken rule is the requested one; the referee must then report it.
"""

from __future__ import annotations

import random
from dataclasses import replace

from ..errors import InvalidInput
from .catalogue import TOKENS, card_colours
from .engine import player_moves
from .geometry import class_key, farther, hand_classes
from .moves import Place, PlaceJoker
from .placement import PREFIX, card_faults, joker_faults
from .state import FREE, State

#: Kinds :func:`illegal_placement` can make (reason codes without the ``ligretto.`` prefix).
ILLEGAL_KINDS = ("colours_mismatch", "wrong_way_round", "touches_no_token", "corner_only", "covers_card",
                 "token_not_farther", "joker_other_player", "joker_not_followed")
#: Candidates tried before giving up.
MAX_TRIES = 400


def _pairs_everywhere(state: State, rng: random.Random, include_covered: bool) -> list[tuple[int, int]]:
    board = state.board
    out = []
    for a in board.spaces():
        for b in board.edges[a]:
            if b > a and (include_covered or (state.cover[a] == FREE and state.cover[b] == FREE)):
                out.append((a, b))
    rng.shuffle(out)
    return out


def _candidates(state: State, rng: random.Random, kind: str):
    board = state.board
    players = [p for p in range(state.players) if state.hands[p]]
    rng.shuffle(players)
    pairs = _pairs_everywhere(state, rng, kind == "covers_card")
    for p in players:
        if kind == "token_not_farther":
            moves = [m for m in player_moves(state, p) if isinstance(m, Place) and not m.relocate]
            rng.shuffle(moves)
            for m in moves:
                yield Place(p, m.card, m.cells, m.token, 1 - m.to)
            continue
        if kind in ("joker_other_player", "joker_not_followed"):
            yield from _joker_misuse(state, rng, p, kind)
            continue
        hand = list(state.hands[p])
        rng.shuffle(hand)
        classes = hand_classes(state, p)
        for a, b in pairs:
            key = class_key(board.colours[a], board.colours[b])
            if kind == "colours_mismatch":
                cards = [c for c in hand if class_key(*card_colours(c)) != key][:1]
            else:
                cards = [classes[key]] if key in classes else []
            for card in cards:
                cells = (a, b) if card_colours(card)[0] == board.colours[a] else (b, a)
                if kind == "wrong_way_round":
                    cells = cells[::-1]
                rc = (board.cell(cells[0]), board.cell(cells[1]))
                if kind in ("touches_no_token", "corner_only"):
                    yield Place(p, card, rc, None, 1)
                    continue
                for t in range(TOKENS):
                    yield Place(p, card, rc, t, farther(state, state.tokens[t], cells))


def _joker_misuse(state: State, rng: random.Random, p: int, kind: str):
    """Another player's card next to a joker whose owner must follow up, or a joker owner who
    plays elsewhere first."""
    for t, owner in state.locks:
        if (kind == "joker_other_player") == (owner != p):
            others = [m for q in range(state.players) if q != owner
                      for m in player_moves(_unlocked(state, t), q)] if kind == "joker_other_player" else []
            if kind == "joker_other_player":
                rng.shuffle(others)
                yield from (m for m in others if m.token == t)
            else:
                moves = list(player_moves(_unlocked(state, t, owner), p))
                rng.shuffle(moves)
                yield from (m for m in moves if m.token != t)


def _unlocked(state: State, token: int, keep_out: int | None = None) -> State:
    """``state`` as if the joker at ``token`` (and, for ``keep_out``, all its locks) were free."""
    locks = tuple(lk for lk in state.locks if lk[0] != token and lk[1] != keep_out)
    return replace(state, locks=locks)


def illegal_placement(state: State, rng: random.Random, kind: str) -> Place | PlaceJoker | None:
    """A random placement in ``state`` whose first broken rule is ``kind`` (one of ILLEGAL_KINDS),
    or None when ``state`` offers no such placement (e.g. no joker is waiting for its follow-up).
    """
    if kind not in ILLEGAL_KINDS:
        raise InvalidInput(f"unknown illegal placement kind {kind!r}; choose one of {', '.join(ILLEGAL_KINDS)}")
    if state.phase != "play":
        return None
    code = PREFIX + kind
    for n, move in enumerate(_candidates(state, rng, kind)):
        if n >= MAX_TRIES:
            break
        faults = card_faults(state, move) if isinstance(move, Place) else joker_faults(state, move)
        if faults and faults[0].code == code and len({f.code for f in faults}) == 1 and _visible(state, move):
            return move
    return None


def _visible(state: State, move: Place | PlaceJoker) -> bool:
    """True when the camera can see the piece: some space it covers looks different afterwards (a
    card exactly on an equal card of the same player cannot be seen)."""
    if isinstance(move, PlaceJoker):
        return True
    for cell, colour in zip(move.cells, card_colours(move.card)):
        n = state.cover[state.board.index(cell)]
        if n == FREE:
            return True
        under = state.pieces[n]
        if under.player != move.player or under.colour_at(state.board.index(cell)) != colour:
            return True
    return False
