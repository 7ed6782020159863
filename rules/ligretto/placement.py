"""The rules a card or joker placement must keep, one short function each.

Each ``rule_*`` function returns a :class:`Violation` when its rule is broken, else None.
:func:`card_faults` and :func:`joker_faults` run them in a fixed order and return every
broken rule; ``apply`` raises the first, the referee records them all.
"""

from __future__ import annotations

from ..common import Violation, player_name
from ..errors import InvalidInput
from .catalogue import CARDS_PER_PLAYER, TOKENS, card_colours, card_name, joker_name, joker_owner
from .geometry import (bare_token_cells, class_key, farther, free_pairs, guarded_cells, hand_classes, pairs_at,
                       token_targets)
from .moves import Place, PlaceJoker
from .state import FREE, State

PREFIX = "ligretto."
#: Codes a placement cannot be shown with on the board (the piece cannot lie there).
HARD = frozenset({PREFIX + "round_over", PREFIX + "not_in_hand", PREFIX + "off_board"})


def _v(code: str, player: int, pieces, sentence: str, rule: str) -> Violation:
    return Violation(PREFIX + code, player, tuple(pieces), sentence, rule)


def _where(state: State, cells) -> list[str]:
    return [f"cell:{r},{c}" for r, c in (state.board.cell(i) for i in cells)]


def cells_of(state: State, cells) -> tuple[int, ...]:
    """Space indices of ``(row, column)`` cells (InvalidInput outside the grid)."""
    return tuple(state.board.index(c) for c in cells)


def check_token(token) -> None:
    if token is not None and not (isinstance(token, int) and 0 <= token < TOKENS):
        raise InvalidInput(f"token must be 0..{TOKENS - 1} or null, got {token!r}")


# -- rules shared by cards and jokers --------------------------------------------------------

def rule_round_not_over(state: State, player: int, piece: str) -> Violation | None:
    """"As soon as a player has put all of their cards on the board ... the round is over. The
    other players are no longer allowed to put down cards." """
    if state.phase != "play":
        return _v("round_over", player, [piece],
                  f"{player_name(player, capital=True)} put down {piece} after the round was over.",
                  "rule_round_not_over")
    return None


def rule_on_the_board(state: State, player: int, piece: str, cells) -> Violation | None:
    """"The player puts down the card so the colours match" -- on spaces of the game board."""
    off = [c for c in cells if state.board.colours[c] is None]
    if off:
        return _v("off_board", player, [piece, *_where(state, off)],
                  f"{player_name(player, capital=True)}'s {piece} lies off the board's spaces.", "rule_on_the_board")
    return None


def rule_covers_no_card(state: State, player: int, piece: str, cells) -> Violation | None:
    """"Players are not allowed to put down a card that would conceal a card that is already on
    the board." """
    hidden = [c for c in cells if state.cover[c] != FREE]
    if hidden:
        under = sorted({state.pieces[state.cover[c]] for c in hidden}, key=lambda p: p.cells)
        names = [card_name(p.id) if p.kind == "card" else joker_name(p.id) for p in under]
        return _v("covers_card", player, [piece, *names, *_where(state, hidden)],
                  f"{player_name(player, capital=True)}'s {piece} conceals {', '.join(names)} already on the board.",
                  "rule_covers_no_card")
    return None


def rule_covers_no_token(state: State, player: int, piece: str, cells) -> Violation | None:
    """"A card matches if it has the same colours as the free spaces next to a Ligretto token"
    -- next to the token, not on the space it stands on."""
    bare = bare_token_cells(state)
    hit = [c for c in cells if c in bare]
    if hit:
        return _v("covers_token", player, [piece, *_where(state, hit)],
                  f"{player_name(player, capital=True)}'s {piece} covers the space a Ligretto token stands on.",
                  "rule_covers_no_token")
    return None


def rule_touches_token(state: State, player: int, piece: str, cells, token: int | None) -> Violation | None:
    """"A card that has just been played has to always touch at least one of the edges of a space
    with a Ligretto token." and "Players are not allowed to put down a card that would only touch
    the space or card of the Ligretto token with one of its corners." """
    board = state.board
    tokens = range(TOKENS) if token is None else (token,)
    corner = False
    for t in tokens:
        targets = token_targets(state, t)
        if any(a in board.edges[c] for c in cells for a in targets):
            return None
        corner = corner or any(a in board.corners[c] for c in cells for a in targets)
    which = "a Ligretto token" if token is None else f"Ligretto token {token}"
    if corner:
        return _v("corner_only", player, [piece, *_where(state, cells)],
                  f"{player_name(player, capital=True)}'s {piece} touches {which} only at a corner.",
                  "rule_touches_token")
    return _v("touches_no_token", player, [piece, *_where(state, cells)],
              f"{player_name(player, capital=True)}'s {piece} does not touch the space of {which} along an edge.",
              "rule_touches_token")


def rule_joker_owner_only(state: State, player: int, piece: str, cells, token: int | None) -> Violation | None:
    """"Only the player who used the joker is allowed to put a card next to it." """
    locked_by = [p for t, p in state.locks if t == token and p != player]
    if locked_by or any(c in guarded_cells(state, player) for c in cells):
        return _v("joker_other_player", player, [piece, *_where(state, cells)],
                  f"{player_name(player, capital=True)} put {piece} next to another player's joker.",
                  "rule_joker_owner_only")
    return None


def rule_joker_followed_at_once(state: State, player: int, piece: str, token: int | None,
                                relocate: bool = False, cells=()) -> Violation | None:
    """"That card needs to be played immediately after playing the joker." """
    for t, p in state.locks:
        if p == player and (t != token or relocate):
            return _v("joker_not_followed", player, [piece, f"token:{t}", *_where(state, cells)],
                      f"{player_name(player, capital=True)} played {piece} elsewhere instead of next to their joker "
                      f"at token {t}.",
                      "rule_joker_followed_at_once")
    return None


# -- card rules ------------------------------------------------------------------------------

def rule_own_card(state: State, move: Place) -> Violation | None:
    """"Every player receives 15 cards with the same border" -- a player puts down their own
    cards, each once."""
    if not 0 <= move.card < state.players * CARDS_PER_PLAYER or move.card not in state.hands[move.player]:
        name = card_name(move.card) if 0 <= move.card < state.players * CARDS_PER_PLAYER else f"card:{move.card}"
        return _v("not_in_hand", move.player, [name],
                  f"{player_name(move.player, capital=True)} does not hold {name} (another player's, on the board or "
                  "on a player board).",
                  "rule_own_card")
    return None


def rule_colours_match(state: State, move: Place, cells) -> Violation | None:
    """"A card matches if it has the same colours as the free spaces next to a Ligretto token."
    and "If a player puts a card on the board incorrectly (the colours match those on the spaces
    but are the wrong way around), those playing decide whether it counts as a mistake." """
    card = card_colours(move.card)
    board = tuple(state.board.colours[c] for c in cells)
    if card == board:
        return None
    name = card_name(move.card)
    spaces = f"{board[0]} and {board[1]}"
    if card == board[::-1]:
        if state.opts["wrong_way_round"] == "allowed":
            return None
        return _v("wrong_way_round", move.player, [name, *_where(state, cells)],
                  f"{player_name(move.player, capital=True)}'s {name} lies the wrong way round on {spaces} spaces.",
                  "rule_colours_match")
    return _v("colours_mismatch", move.player, [name, *_where(state, cells)],
              f"{player_name(move.player, capital=True)}'s {name} does not match the {spaces} spaces under it.",
              "rule_colours_match")


def rule_token_to_farther(state: State, move: Place, cells, token: int) -> Violation | None:
    """"The Ligretto token is always placed on the colour that is further away from the previous
    position of the Ligretto token." """
    if move.to != farther(state, state.tokens[token], cells):
        return _v("token_not_farther", move.player, [card_name(move.card), f"token:{token}", *_where(state, cells)],
                  f"Ligretto token {token} was put on the nearer half of {card_name(move.card)}.",
                  "rule_token_to_farther")
    return None


def rule_relocation_owed(state: State, move: Place) -> Violation | None:
    """"If a player has put their card on a cul-de-sac ... that player puts their next card on any
    free space ... and immediately puts the blocked Ligretto token on one of the two new spaces." """
    if (move.player, move.token) not in state.relocations:
        return _v("not_blocked", move.player, [card_name(move.card), f"token:{move.token}"],
                  f"{player_name(move.player, capital=True)} moved Ligretto token {move.token} to a free place, but "
                  "it is not a "
                  "blocked token of theirs.", "rule_relocation_owed")
    return None


def rule_relocation_first(state: State, move: Place) -> Violation | None:
    """"That player puts their next card on any free space on the board that matches the colours on
    their card." (option ``must_play``: the next card must do so when one fits)."""
    if move.relocate or not state.opts["must_play"] or not any(p == move.player for p, _ in state.relocations):
        return None
    if any(p == move.player for _, p in state.locks):
        return None  # the joker's follow-up card comes first
    if can_relocate(state, move.player):
        tokens = [t for p, t in state.relocations if p == move.player]
        return _v("relocation_skipped", move.player, [card_name(move.card), *(f"token:{t}" for t in tokens)],
                  f"{player_name(move.player, capital=True)} must first use a card to move blocked Ligretto token "
                  f"{tokens[0]}.",
                  "rule_relocation_first")
    return None


def can_relocate(state: State, player: int) -> bool:
    """True when some card of ``player`` fits some free place anywhere (colours, no guarded joker)."""
    key = ("can_relocate", player)
    found = state.memo.get(key)
    if found is None:
        classes = hand_classes(state, player)
        guarded = guarded_cells(state, player)
        found = state.memo[key] = any(pair in classes and a not in guarded and b not in guarded
                                      for a, b, pair in free_pairs(state))
    return found


def card_faults(state: State, move: Place) -> list[Violation]:
    """Every rule ``move`` breaks, in the order ``apply`` reports them."""
    check_token(move.token)
    cells = cells_of(state, move.cells)
    p = move.player
    if not 0 <= p < state.players:
        raise InvalidInput(f"player must be 0..{state.players - 1}, got {p}")
    if move.relocate and move.token is None:
        raise InvalidInput("a relocating card names the blocked token it moves")
    name = card_name(move.card) if 0 <= move.card < state.players * CARDS_PER_PLAYER else f"card:{move.card}"
    faults = [rule_round_not_over(state, p, name), rule_own_card(state, move),
              rule_on_the_board(state, p, name, cells)]
    if any(faults):
        return [f for f in faults if f]
    token = move.token
    if token is None:
        token = next((t for t in range(TOKENS)
                      if any(a in state.board.edges[c] for c in cells for a in token_targets(state, t))), None)
    faults += [rule_covers_no_card(state, p, name, cells), rule_covers_no_token(state, p, name, cells)]
    if move.relocate:
        faults.append(rule_relocation_owed(state, move))
    else:
        faults.append(rule_touches_token(state, p, name, cells, token))
    faults += [rule_joker_owner_only(state, p, name, cells, None if move.relocate else token),
               rule_joker_followed_at_once(state, p, name, token, move.relocate, cells),
               rule_relocation_first(state, move), rule_colours_match(state, move, cells)]
    if not move.relocate and token is not None:
        faults.append(rule_token_to_farther(state, move, cells, token))
    return [f for f in faults if f]


# -- joker rules -----------------------------------------------------------------------------

def rule_own_joker(state: State, move: PlaceJoker) -> Violation | None:
    """"Every player receives ... 2 joker tiles that also have matching borders." """
    if move.joker not in state.jokers[move.player]:
        return _v("not_in_hand", move.player, [f"joker:{move.joker}"],
                  f"{player_name(move.player, capital=True)} has no unused joker {move.joker}.", "rule_own_joker")
    return None


def rule_joker_space(state: State, move: PlaceJoker, token: int) -> Violation | None:
    """"To play a joker, put it on one of the three free and permitted spaces next to the Ligretto
    token" (option ``joker_from_start=False``: three, so not next to a token on a bare space)."""
    if not state.opts["joker_from_start"] and state.cover[state.tokens[token]] == FREE:
        return _v("joker_space", move.player, [joker_name(move.joker), f"token:{token}"],
                  f"{player_name(move.player, capital=True)} played a joker next to token {token}, which stands on a "
                  "bare space.",
                  "rule_joker_space")
    return None


def rule_joker_can_follow(state: State, move: PlaceJoker, cell: int) -> Violation | None:
    """"A joker is used as a bridge" and "That card needs to be played immediately after playing the
    joker": its owner must hold a card that fits next to it."""
    if not can_follow(state, move.player, cell, frozenset({cell}), len(state.jokers[move.player]) - 1):
        return _v("joker_not_followed", move.player, [joker_name(move.joker), *_where(state, [cell])],
                  f"{player_name(move.player, capital=True)} holds no card that fits next to their joker.",
                  "rule_joker_can_follow")
    return None


def can_follow(state: State, player: int, cell: int, covered: frozenset[int], jokers_left: int) -> bool:
    """True when ``player`` can put a card (or, with a joker left, a joker and then a card) next to
    a joker on ``cell``; ``covered`` are spaces taken by the jokers just played."""
    key = ("can_follow", player, cell, covered, jokers_left)
    found = state.memo.get(key)
    if found is None:
        found = state.memo[key] = _can_follow(state, player, cell, covered, jokers_left)
    return found


def _can_follow(state: State, player: int, cell: int, covered: frozenset[int], jokers_left: int) -> bool:
    edges, colours, cover = state.board.edges, state.board.colours, state.cover
    bare = bare_token_cells(state)
    classes = hand_classes(state, player)
    guarded = guarded_cells(state, player)
    for a in edges[cell]:
        if a in covered or a in guarded or cover[a] != FREE or a in bare or colours[a] is None:
            continue
        for b in edges[a]:
            if (b not in covered and b not in guarded and cover[b] == FREE and b not in bare
                    and colours[b] is not None and class_key(colours[a], colours[b]) in classes):
                return True
        if jokers_left > 0 and can_follow(state, player, a, covered | {a}, jokers_left - 1):
            return True
    return False


def joker_faults(state: State, move: PlaceJoker) -> list[Violation]:
    check_token(move.token)
    p = move.player
    if not 0 <= p < state.players:
        raise InvalidInput(f"player must be 0..{state.players - 1}, got {p}")
    cell = state.board.index(move.cell)
    name = joker_name(move.joker) if joker_owner(move.joker) < state.players else f"joker:{move.joker}"
    faults = [rule_round_not_over(state, p, name), rule_own_joker(state, move),
              rule_on_the_board(state, p, name, (cell,))]
    if any(faults):
        return [f for f in faults if f]
    token = move.token
    if token is None:
        token = next((t for t in range(TOKENS) if any(a in state.board.edges[cell] for a in token_targets(state, t))),
                     None)
    faults += [rule_covers_no_card(state, p, name, (cell,)), rule_covers_no_token(state, p, name, (cell,)),
               rule_touches_token(state, p, name, (cell,), token),
               rule_joker_owner_only(state, p, name, (cell,), token),
               rule_joker_followed_at_once(state, p, name, token, False, (cell,))]
    if token is not None:
        faults.append(rule_joker_space(state, move, token))
    if not any(faults):
        faults.append(rule_joker_can_follow(state, move, cell))
    return [f for f in faults if f]


__all__ = ["card_faults", "joker_faults", "can_follow", "can_relocate", "cells_of", "HARD", "pairs_at"]
