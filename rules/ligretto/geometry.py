"""Where cards can go: the spaces a token offers, free spaces, blocked tokens, fitting cards.

All functions are pure and work on space indices of ``state.board``.  A state never changes,
so what these functions derive from it alone is computed once and kept in ``state.memo``
(keys named after the function); the values handed out are shared: callers must not modify them.
"""

from __future__ import annotations

from .catalogue import CARD_COLOURS
from .state import FREE, State


def token_targets(state: State, token: int) -> tuple[int, ...]:
    """The spaces a new card must touch along an edge to be played at ``token``.

    Option ``touch``: ``"space"`` -- the token's space; ``"card"`` -- every space of the card
    (or joker) the token stands on.
    """
    cell = state.tokens[token]
    if state.opts["touch"] == "card" and state.cover[cell] != FREE:
        return state.pieces[state.cover[cell]].cells
    return (cell,)


def bare_token_cells(state: State) -> frozenset[int]:
    """Spaces on which a token stands with no card under it (they are not free)."""
    out = state.memo.get("bare")
    if out is None:
        cover = state.cover
        out = state.memo["bare"] = frozenset(c for c in state.tokens if cover[c] == FREE)
    return out


def guarded_cells(state: State, player: int) -> frozenset[int]:
    """Spaces next to (along an edge) a joker on which ``player`` may not put a card.

    Option ``joker_lock``: ``"follow_up"`` -- jokers whose owner still has to play next to
    them; ``"round"`` -- every joker of another player, for the whole round.
    """
    key = ("guarded", player)
    found = state.memo.get(key)
    if found is not None:
        return found
    out: set[int] = set()
    edges = state.board.edges
    if state.opts["joker_lock"] == "round":
        for piece in state.pieces:
            if piece.kind == "joker" and piece.player != player:
                out.update(edges[piece.cells[0]])
    for token, owner in state.locks:
        if owner != player:
            out.update(edges[state.tokens[token]])
    found = state.memo[key] = frozenset(out)
    return found


def is_free(state: State, cell: int, bare: frozenset[int]) -> bool:
    return state.cover[cell] == FREE and cell not in bare and state.board.colours[cell] is not None


def class_key(a: str, b: str) -> tuple[str, str]:
    """The colours of a card regardless of which way round it lies."""
    return (a, b) if a <= b else (b, a)


#: The colour class of card ``k`` of every player (``catalogue.CARD_COLOURS`` order).
CARD_CLASSES: tuple[tuple[str, str], ...] = tuple(class_key(a, b) for a, b in CARD_COLOURS)


def hand_classes(state: State, player: int) -> dict[tuple[str, str], int]:
    """Colour pair -> the lowest card id of that pair in ``player``'s hand (equal cards are
    interchangeable for the camera)."""
    key = ("classes", player)
    out = state.memo.get(key)
    if out is None:
        out = {}
        n = len(CARD_CLASSES)
        for card in state.hands[player]:
            pair = CARD_CLASSES[card % n]
            if pair not in out:
                out[pair] = card
        state.memo[key] = out
    return out


def pairs_at(state: State, token: int, bare: frozenset[int]) -> list[tuple[int, int]]:
    """Free space pairs ``(a, b)`` sharing an edge, ``a`` touching the token's targets along an
    edge; each unordered pair once."""
    edges, colours, cover = state.board.edges, state.board.colours, state.cover
    targets = token_targets(state, token)
    seen: set[tuple[int, int]] = set()
    out = []
    for t in targets:
        for a in edges[t]:
            if a in targets or cover[a] != FREE or a in bare or colours[a] is None:
                continue
            for b in edges[a]:
                if b in targets or cover[b] != FREE or b in bare or colours[b] is None:
                    continue
                key = (a, b) if a < b else (b, a)
                if key not in seen:
                    seen.add(key)
                    out.append((a, b))
    return out


def token_pairs(state: State, token: int) -> tuple[tuple[int, int, tuple[str, str]], ...]:
    """``pairs_at(state, token, bare_token_cells(state))``, each pair with its colour class."""
    key = ("pairs", token)
    out = state.memo.get(key)
    if out is None:
        colours = state.board.colours
        out = state.memo[key] = tuple((a, b, class_key(colours[a], colours[b]))
                                      for a, b in pairs_at(state, token, bare_token_cells(state)))
    return out


def all_free_pairs(state: State, bare: frozenset[int]) -> list[tuple[int, int]]:
    """Every free pair of spaces sharing an edge, each once (``a < b``)."""
    edges, colours, cover = state.board.edges, state.board.colours, state.cover
    out = []
    for a in range(len(cover)):
        if cover[a] == FREE and a not in bare and colours[a] is not None:
            for b in edges[a]:
                if b > a and cover[b] == FREE and b not in bare and colours[b] is not None:
                    out.append((a, b))
    return out


def free_pairs(state: State) -> tuple[tuple[int, int, tuple[str, str]], ...]:
    """``all_free_pairs(state, bare_token_cells(state))``, each pair with its colour class."""
    out = state.memo.get("free_pairs")
    if out is None:
        colours = state.board.colours
        out = state.memo["free_pairs"] = tuple((a, b, class_key(colours[a], colours[b]))
                                               for a, b in all_free_pairs(state, bare_token_cells(state)))
    return out


def farther(state: State, origin: int, cells: tuple[int, int]) -> int:
    """Index (0 or 1) of the half of ``cells`` farther from ``origin`` (never a tie: the two
    halves share an edge, so their squared distances differ by an odd number)."""
    board = state.board
    return 0 if board.distance2(origin, cells[0]) > board.distance2(origin, cells[1]) else 1


def is_blocked(state: State, token: int, bare: frozenset[int], held: set[tuple[str, str]] | None) -> bool:
    """True when ``token`` offers no place for a card (a cul-de-sac).

    ``held`` is None for the geometric reading (option ``cul_de_sac="geometry"``); otherwise
    the colour pairs still held by any player, and a place counts only if one of them fits.
    """
    if bare == bare_token_cells(state):
        pairs = token_pairs(state, token)
        return not pairs if held is None else not any(key in held for _, _, key in pairs)
    colours = state.board.colours
    for a, b in pairs_at(state, token, bare):
        if held is None or class_key(colours[a], colours[b]) in held:
            return False
    return True


def held_classes(state: State) -> set[tuple[str, str]] | None:
    """The colour pairs still in any hand, or None under the geometric cul-de-sac reading."""
    if state.opts["cul_de_sac"] == "geometry":
        return None
    out = state.memo.get("held")
    if out is None:
        n = len(CARD_CLASSES)
        out = state.memo["held"] = {CARD_CLASSES[c % n] for hand in state.hands for c in hand}
    return out
