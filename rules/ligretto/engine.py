"""Play: a new game, the legal moves, ``apply``, and the end of a round.

All players play at once (``state.to_move == ANYONE``); a move names its player.
"""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import combinations
from typing import Iterator, Sequence

from ..common import Violation, player_name, players_problem
from ..errors import IllegalMove, InvalidInput
from .board import Board, preset
from .catalogue import JOKERS_PER_PLAYER, TOKENS, card_colours, player_cards, player_jokers
from .geometry import (bare_token_cells, class_key, free_pairs, guarded_cells, hand_classes, held_classes,
                       is_blocked, token_targets)
from .offers import card_offers, carry, joker_offers
from .moves import Move, NextRound, Place, PlaceJoker, SetTokens, ToPlayerBoard
from .options import resolve_options
from .placement import HARD, PREFIX, card_faults, joker_faults, cells_of
from .scoring import PLAYER_BOARD_CARDS, round_points
from .state import MAX_PLAYERS, MIN_PLAYERS, Piece, State, evolve
from .tables import tables


def _board_for(players: int, opts: dict) -> Board:
    choice = opts["board"]
    if isinstance(choice, dict):
        return Board.from_json(choice)
    if choice == "auto":
        if players == 2:
            return preset("two_player")
        return preset("three_four_player" if opts["sections"] == 10 else "three_four_player_9")
    return preset(choice)


def new_game(players: int, options: dict | None = None, seed: int | None = None) -> State:
    """The first round, ready to play: every player holds their 15 cards and 2 jokers, the four
    tokens stand on the board's start spaces.

    ``seed`` is accepted for the common surface; the setup has no hidden order to shuffle (the
    order of a player's face-down pile is not tracked), so every seed gives the same state.
    """
    problem = players_problem("Ligretto", players, MIN_PLAYERS, MAX_PLAYERS)
    if problem:
        raise InvalidInput(problem)
    opts = resolve_options(options)
    board = _board_for(players, opts)
    if isinstance(opts["board"], dict):
        opts["board"] = board.name
    state = State(players=players, options=tuple(sorted(opts.items())), board=board, round=1, phase="play",
                  hands=tuple(player_cards(p) for p in range(players)), player_boards=((),) * players,
                  jokers=tuple(player_jokers(p) for p in range(players)), pieces=(), tokens=board.starts)
    return _check_round_end(state)


# -- legal moves -----------------------------------------------------------------------------

def _rc(state: State, cells) -> tuple:
    return tuple(state.board.cell(c) for c in cells)


def player_moves(state: State, p: int) -> Iterator[Move]:
    """Every legal placement (cards, jokers, relocations) of player ``p`` while the round is on."""
    for chunk in _move_chunks(state, p):
        yield from chunk


def _move_chunks(state: State, p: int) -> Iterator[Sequence[Move]]:
    """``player_moves(state, p)`` in consecutive runs (the offers of one token, the relocations)."""
    if state.phase != "play" or not state.hands[p]:
        return
    lock = next((t for t, q in state.locks if q == p), None)
    owed = tuple(t for q, t in state.relocations if q == p)
    if lock is None and owed:
        moves = _relocations(state, p, owed)
        yield moves
        if moves and state.opts["must_play"]:
            return
    for t in ((lock,) if lock is not None else range(TOKENS)):
        if any(tt == t and q != p for tt, q in state.locks):
            continue
        yield card_offers(state, p, t)
        yield joker_offers(state, p, t)


def _relocations(state: State, p: int, owed: tuple[int, ...]) -> tuple[Place, ...]:
    """Player ``p``'s cards on any free place, each moving one of the blocked tokens ``owed``."""
    key = ("relocations", p, owed)
    found = state.memo.get(key)
    if found is not None:
        return found
    tab = tables(state)
    classes = hand_classes(state, p)
    guarded = guarded_cells(state, p)
    colours = state.board.colours
    wrong_ok = state.opts["wrong_way_round"] == "allowed"
    moves = []
    for a, b, pair in free_pairs(state):
        card = classes.get(pair)
        if card is None or a in guarded or b in guarded:
            continue
        straight = (a, b) if card_colours(card) == (colours[a], colours[b]) else (b, a)
        for x, y in (straight, straight[::-1]) if wrong_ok and colours[a] != colours[b] else (straight,):
            for t in owed:
                for to in (0, 1):
                    moves.append(tab.place(p, card, x, y, t, to, True))
    found = state.memo[key] = tuple(moves)
    return found


def _board_choices(state: State, p: int, mandatory: bool) -> list[ToPlayerBoard]:
    hand = state.hands[p]
    need = min(PLAYER_BOARD_CARDS, len(hand))
    seen, out = set(), [] if mandatory else [ToPlayerBoard(p, ())]
    for combo in combinations(hand, need):
        key = tuple(sorted(class_key(*card_colours(c)) for c in combo))
        if key not in seen:
            seen.add(key)
            out.append(ToPlayerBoard(p, combo))
    return out


def legal_moves(state: State) -> list[Move]:
    if state.phase == "play":
        out: list[Move] = []
        memo, locks = state.memo, state.locks
        for p, hand in enumerate(state.hands):
            if not hand:
                continue
            if any(q == p for q, _ in state.relocations) or any(q == p for _, q in locks):
                for chunk in _move_chunks(state, p):
                    out.extend(chunk)
                continue
            for t in range(TOKENS):  # as ``_move_chunks`` for a player with no lock and no relocation
                if any(tt == t for tt, _ in locks):
                    continue
                cards, jokers = memo.get(("cards", p, t)), memo.get(("jokers", p, t))
                out.extend(card_offers(state, p, t) if cards is None else cards)
                out.extend(joker_offers(state, p, t) if jokers is None else jokers)
        return out
    if state.phase == "player_boards":
        return [m for p, mandatory in state.owes for m in _board_choices(state, p, mandatory)]
    if state.phase == "next_round":
        return [NextRound(_rc(state, state.board.starts))]
    return []


def anyone_can_play(state: State) -> bool:
    return any(chunk for p in range(state.players) for chunk in _move_chunks(state, p))


# -- apply -----------------------------------------------------------------------------------

def _raise(v: Violation) -> None:
    raise IllegalMove(v.code, v.player, v.pieces, v.sentence)


def _illegal(code: str, player: int | None, pieces, sentence: str) -> IllegalMove:
    return IllegalMove(PREFIX + code, player, tuple(pieces), sentence)


def apply(state: State, move: Move) -> State:
    """The state after ``move``; raises IllegalMove (with a reason code) or InvalidInput."""
    if isinstance(move, Place):
        faults = card_faults(state, move)
        if faults:
            _raise(faults[0])
        return _place_card(state, move, ())
    if isinstance(move, PlaceJoker):
        faults = joker_faults(state, move)
        if faults:
            _raise(faults[0])
        return _place_joker(state, move, ())
    if isinstance(move, ToPlayerBoard):
        return _to_player_board(state, move)
    if isinstance(move, NextRound):
        return _next_round(state, move)
    if isinstance(move, SetTokens):
        return _set_tokens(state, move)
    raise InvalidInput(f"not a Ligretto move: {move!r}")


def place_anyway(state: State, move: Place | PlaceJoker) -> tuple[State, list[Violation]]:
    """Put the piece down even if it breaks rules: it stays on the board marked with the codes of
    the rules it breaks (the referee's view of a misplaced card).  Raises IllegalMove when the
    piece cannot lie on the board at all (round over, not the player's, off the board)."""
    if isinstance(move, Place):
        faults = card_faults(state, move)
        place = _place_card
    elif isinstance(move, PlaceJoker):
        faults = joker_faults(state, move)
        place = _place_joker
    else:
        raise InvalidInput(f"place_anyway takes a card or joker placement, got {move!r}")
    hard = [f for f in faults if f.code in HARD]
    if hard:
        _raise(hard[0])
    return place(state, move, tuple(f.code for f in faults)), faults


def _resolve_token(state: State, cells, token: int | None) -> int | None:
    if token is not None:
        return token
    edges = state.board.edges
    return next((t for t in range(TOKENS) if any(a in edges[c] for c in cells for a in token_targets(state, t))), None)


def _place_card(state: State, move: Place, faults: tuple[str, ...]) -> State:
    p = move.player
    cells = cells_of(state, move.cells)
    token = _resolve_token(state, cells, move.token)
    hands = list(state.hands)
    hands[p] = tuple(c for c in hands[p] if c != move.card)
    tokens, locks, relocations = list(state.tokens), state.locks, state.relocations
    if token is not None:
        tokens[token] = cells[move.to]
        locks = tuple(lk for lk in locks if lk[0] != token)
    if move.relocate and (p, token) in relocations:
        i = relocations.index((p, token))
        relocations = relocations[:i] + relocations[i + 1:]
    new = _put(state, Piece("card", move.card, cells, faults), hands=tuple(hands), tokens=tuple(tokens), locks=locks,
               relocations=relocations)
    return _settle(state, new, p, token)


def _place_joker(state: State, move: PlaceJoker, faults: tuple[str, ...]) -> State:
    p = move.player
    cell = state.board.index(move.cell)
    token = _resolve_token(state, (cell,), move.token)
    jokers = list(state.jokers)
    jokers[p] = tuple(j for j in jokers[p] if j != move.joker)
    tokens, locks = list(state.tokens), state.locks
    if token is not None:
        tokens[token] = cell
        # a new joker replaces the player's own earlier lock: a legal game never has two (the
        # first must be followed at once); one placed anyway after a flag leaves only the new one
        locks = tuple(lk for lk in locks if lk[0] != token and lk[1] != p) + ((token, p),)
    new = _put(state, Piece("joker", move.joker, (cell,), faults), jokers=tuple(jokers), tokens=tuple(tokens),
               locks=locks)
    return _settle(state, new, p, token)


def _put(state: State, piece: Piece, **changes) -> State:
    """``state`` with ``piece`` on top of the board and ``changes``; what the piece leaves as it was
    is carried over (``offers.carry``)."""
    cover = list(state.cover)
    for c in piece.cells:
        cover[c] = len(state.pieces)
    new = evolve(state, tuple(cover), pieces=state.pieces + (piece,), **changes)
    carry(state, new, set(piece.cells) | {old for old, now in zip(state.tokens, new.tokens) if old != now})
    return new


def _settle(old: State, new: State, player: int, token: int | None) -> State:
    """Blocked tokens and the end of the round after ``player`` put a piece down at ``token``.

    "If by playing a card a player blocks another Ligretto token on the board, the player proceeds
    with the blocked Ligretto token as if they had just placed the token on a cul-de-sac."
    """
    bare_old, bare_new = bare_token_cells(old), bare_token_cells(new)
    held_old, held_new = held_classes(old), held_classes(new)
    owed = {t for _, t in new.relocations}
    locked = {t for t, _ in new.locks}
    order = ([token] if token is not None else []) + [t for t in range(TOKENS) if t != token]
    newly = [t for t in order if t not in owed and t not in locked and is_blocked(new, t, bare_new, held_new)
             and (t == token or not is_blocked(old, t, bare_old, held_old))]
    if newly and new.opts["relocate"] == "one":
        newly = newly[:1]
    if newly:
        new = evolve(new, memo=new.memo, relocations=new.relocations + tuple((player, t) for t in newly))
    return _check_round_end(new, player)


def _check_round_end(state: State, player: int | None = None) -> State:
    """"As soon as a player has put all of their cards on the board ... the round is over." and
    "If it is not possible for any of the players to put down a card, the round ends immediately." """
    if state.phase != "play":
        return state
    if player is not None and not state.hands[player]:
        return _end_round(state, "stop", player)
    empty = [p for p in range(state.players) if not state.hands[p]]
    if empty:
        return _end_round(state, "stop", empty[0])
    if not anyone_can_play(state):
        return _end_round(state, "blocked", None)
    return state


def _end_round(state: State, how: str, stopper: int | None) -> State:
    s = replace(state, ended=how, stopper=stopper, locks=(), relocations=())
    points, owes = round_points(s)
    s = replace(s, results=s.results + (points,), owes=owes, phase="player_boards")
    return s if owes else _after_player_boards(s)


def _after_player_boards(state: State) -> State:
    """"If every player has cards on their player board, then all of the players take exactly two
    cards off their player boards." (the two put there first)."""
    hands, boards = state.hands, state.player_boards
    if all(boards):
        hands = tuple(tuple(sorted(h + b[:PLAYER_BOARD_CARDS])) for h, b in zip(hands, boards))
        boards = tuple(b[PLAYER_BOARD_CARDS:] for b in boards)
    phase = "over" if state.round >= state.opts["rounds"] else "next_round"
    return replace(state, hands=hands, player_boards=boards, phase=phase)


def _to_player_board(state: State, move: ToPlayerBoard) -> State:
    """"The remaining players do not score any points. Instead, they each put two of their cards on
    their player boards." """
    p = move.player
    if state.phase != "player_boards":
        raise _illegal("not_now", p, [], "Cards go on a player board only after a round has been scored.")
    entry = next((e for e in state.owes if e[0] == p), None)
    if entry is None:
        raise _illegal("player_board", p, [],
                       f"{player_name(p, capital=True)} does not put cards on their player board this round.")
    hand = state.hands[p]
    need = min(PLAYER_BOARD_CARDS, len(hand))
    if (len(set(move.cards)) != len(move.cards) or any(c not in hand for c in move.cards)
            or not (len(move.cards) == need or (not entry[1] and not move.cards))):
        raise _illegal("player_board", p, [f"card:{c}" for c in move.cards],
                       f"{player_name(p, capital=True)} puts exactly {need} different cards from their hand on their "
                       "player board"
                       + ("" if entry[1] else " (or none)") + f", not {list(move.cards)}.")
    hands, boards = list(state.hands), list(state.player_boards)
    hands[p] = tuple(c for c in hand if c not in move.cards)
    boards[p] = boards[p] + tuple(move.cards)
    owes = tuple(e for e in state.owes if e[0] != p)
    s = replace(state, hands=tuple(hands), player_boards=tuple(boards), owes=owes)
    return s if owes else _after_player_boards(s)


def _token_cells(state: State, cells, player: int) -> tuple[int, ...]:
    idx = tuple(state.board.index(c, "token cell") for c in cells)
    if len(idx) != TOKENS or len(set(idx)) != TOKENS or any(not state.board.is_space(i) for i in idx):
        raise _illegal("token_setup", player, [f"cell:{r},{c}" for r, c in cells],
                       f"The players put all {TOKENS} Ligretto tokens on {TOKENS} different spaces of the board.")
    return idx


def _next_round(state: State, move: NextRound) -> State:
    """"All of the players take their cards off the board, add these to the cards they took off their
    player boards along with the cards that are left in their hands ... Now a new round can start."
    and "Before every round, the players put all four of the Ligretto tokens on the game board on the
    square spaces of their choice." """
    if state.phase != "next_round":
        raise _illegal("not_now", move.player, [], "A new round starts only after the last one has been scored"
                       " and the player boards are done.")
    tokens = _token_cells(state, move.tokens, move.player)
    back = [[] for _ in range(state.players)]
    for piece in state.pieces:
        if piece.kind == "card":
            back[piece.player].append(piece.id)
    hands = tuple(tuple(sorted(h + tuple(b))) for h, b in zip(state.hands, back))
    s = replace(state, round=state.round + 1, phase="play", hands=hands,
                jokers=tuple(player_jokers(p) for p in range(state.players)), pieces=(), tokens=tokens,
                locks=(), relocations=(), ended="", stopper=None, owes=())
    return _check_round_end(s)


def _set_tokens(state: State, move: SetTokens) -> State:
    if state.phase != "play" or state.pieces:
        raise _illegal("token_setup", move.player, [], "The tokens are set before the first card of a round.")
    return _check_round_end(replace(state, tokens=_token_cells(state, move.tokens, move.player)))


def sample_chance(state: State, rng: random.Random):
    """Ligretto has no chance events the rules track (the face-down piles' order is not tracked)."""
    raise InvalidInput("Ligretto has no chance events: state.to_move is never CHANCE")


def is_over(state: State) -> bool:
    return state.phase == "over"


__all__ = ["new_game", "legal_moves", "apply", "place_anyway", "sample_chance", "is_over", "player_moves",
           "anyone_can_play", "JOKERS_PER_PLAYER"]
