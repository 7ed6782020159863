"""The referee: which moves explain what the camera saw, and which rules a placement broke.

Between two observations several players may have placed cards (all play at once).  The
referee searches sequences of placements built from what newly appeared on the board, in
every order, and ranks them by the summed confidence of the observed items that disagree
with the state they lead to.  When no legal sequence explains every sure item, it searches
again allowing broken rules: each misplaced card stays on the board marked with its faults,
and every broken rule is reported with the player (the card's border), the rule and the
spaces; such an explanation wins only when it disagrees with less than the best legal one
does, each broken rule counted as :data:`VIOLATION_COST` of disagreement.  Two cards placed
at once on a shared space: "The card that is placed on the board first is allowed to stay on
the board" -- the one lying on top is taken back (``contested``).
After a round the cards put on a player board are read from the colours seen there, with and
without the removal rule.  A legal verdict whose best explanation still disagrees with sure items
says so: its note begins with ``NOT_EXPLAINED`` and names them.  A new card's half whose
neighbour the camera could not read (a hand over it) is explained by a card lying on both, so
an unreadable half is never taken for a broken rule; nor is a new card whose two halves were
read in different borders, or one half as a joker (one card of either border is tried). A half
of a known card seen in another border is that card misread (:func:`_border_misread`).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..common import ANYONE, Explanation, Verdict, Violation, check_turns, player_name, players_named
from ..errors import IllegalMove
from .catalogue import TOKENS, card_colours, card_name
from .engine import _board_choices, _end_round, apply, place_anyway
from .geometry import class_key, farther, hand_classes, token_targets
from .moves import NextRound, Place, PlaceJoker, SetTokens, ToPlayerBoard
from .observation import SURE, CellSeen, Observation, PlayerSeen, cell_view, cost, disagreements, validate_for
from .placement import PREFIX
from .scoring import PLAYER_BOARD_CARDS
from .state import FREE, State

#: Most search nodes per search (bounds the referee's time on a wildly different observation).
NODE_BUDGET = 4000
#: Most moves in one explanation.
MAX_DEPTH = 16
#: Explanations kept in a verdict.
KEEP = 5
#: Unexplained sure items named in a verdict's note.
NAMED = 6
#: What each broken rule adds to an illegal explanation's cost, in summed confidence of
#: disagreeing items: a player breaking a rule is rarer than the camera misreading a border, so
#: an illegal explanation wins only when it explains more than half a sure item better per
#: rule it breaks (a new card with one half misread as a joker is not "a joker put on a card
#: just laid, and the token on the nearer half").
VIOLATION_COST = 0.5
#: How the note of a legal verdict that leaves sure items unexplained begins.
NOT_EXPLAINED = "observation not fully explained"
CONTESTED = PREFIX + "contested"
COVERS_CARD = PREFIX + "covers_card"
ROUND_CLEARED = PREFIX + "round_cleared"
#: Share of the spaces under the cards on the board that must be seen surely bare before the
#: board counts as cleared (a hand or an arm over it is not a cleared board).
CLEARED_SHARE = 0.8


@dataclass(frozen=True)
class RoundCleared:
    """The referee's reading of a board cleared while the game has the round still running: the
    round taken as ended by ``stopper`` (the player with the fewest cards left), so that the game
    goes on from the next round; reported as :data:`ROUND_CLEARED`. Not a move of the rules."""

    stopper: int
    player: int = ANYONE

    def to_json(self) -> dict:
        return {"type": "round_cleared", "player": self.player, "stopper": self.stopper}


@dataclass
class _Found:
    total: float
    sure: int
    moves: tuple
    state: State
    violations: tuple[Violation, ...]

    def key(self) -> tuple:
        return (round(self.total, 9), len(self.violations), len(self.moves))

    def weighed(self) -> tuple:
        """The key with each broken rule's :data:`VIOLATION_COST` added to the total."""
        return (round(self.total + VIOLATION_COST * len(self.violations), 9),) + self.key()[1:]


def _new_cells(node: State, items: list[tuple[int, CellSeen]]):
    """Observed cards ``{index: (owner, colour)}`` and jokers ``{index: owner}`` that ``node``
    does not show there. A card half of the colour that ``node``'s card there shows, in another
    border or as a joker, is that card misread (:func:`_border_misread`), not a new one."""
    cards, jokers = {}, {}
    for i, item in items:
        if item.cover not in ("card", "joker") or item.owner is None:
            continue
        if cell_view(node, i) == item.expected() or _border_misread(node, i, item):
            continue
        if item.cover == "card" and item.colour is not None:
            cards[i] = (item.owner, item.colour)
        elif item.cover == "joker":
            jokers[i] = item.owner
    return cards, jokers


def _border_misread(node: State, i: int, item: CellSeen) -> bool:
    """Whether ``item`` shows the card ``node`` has on space ``i``, but for its owner (or as
    a joker).

    Every card matches the board's colours under it, so a card put down exactly on another
    shows the same colours there; the border style (a line 1 mm wide, solid, double, dashed
    or dotted) is what a camera reads least surely. Taking such a half for the old card keeps
    one misread border from becoming a card that "conceals" it. A card covering only part of
    another still shows a new half elsewhere and is flagged; one laid exactly on a card of the
    same colours in the same places is still told by its token: every placement moves a token
    onto the card, so a half whose token came or went is new."""
    cover, owner, colour = cell_view(node, i)
    if cover != "card" or item.token is None or item.token != (i in node.tokens):
        return False
    if item.cover == "joker":  # a card's half taken for a joker (its colour half hidden by a hand)
        return True
    return item.cover == "card" and colour == item.colour and owner != item.owner


def _card_variants(node: State, p: int, card: int, cells: tuple[int, int], lenient: bool):
    rc = tuple(node.board.cell(c) for c in cells)
    owed = [t for q, t in node.relocations if q == p]
    for t in owed:
        for to in (0, 1):
            yield Place(p, card, rc, t, to, True)
    if not lenient:
        for t in range(TOKENS):
            yield Place(p, card, rc, t, farther(node, node.tokens[t], cells))
        return
    edges, corners = node.board.edges, node.board.corners
    near = [t for t in range(TOKENS) if any(a in edges[c] or a in corners[c]
                                            for c in cells for a in token_targets(node, t))]
    for t in near:
        for to in (0, 1):
            yield Place(p, card, rc, t, to)
    yield Place(p, card, rc, None, 1)


def _card_at(node: State, p: int, a: int, x: str, b: int, y: str, lenient: bool):
    """Every variant of player ``p``'s card showing ``x`` on space ``a`` and ``y`` on ``b``
    put down there; none when ``p`` holds no card of those colours."""
    card = hand_classes(node, p).get(class_key(x, y))
    if card is None:
        return
    cells = (a, b) if card_colours(card) == (x, y) else (b, a)
    yield from _card_variants(node, p, card, cells, lenient)


def _placements(node: State, items, lenient: bool):
    cards, jokers = _new_cells(node, items)
    edges = node.board.edges
    paired: set[int] = set()
    for a, (p, x) in cards.items():
        for b in edges[a]:
            if b <= a or cards.get(b, (None,))[0] != p:
                continue
            moves = list(_card_at(node, p, a, x, b, cards[b][1], lenient))
            if moves:
                paired.update((a, b))
                yield from moves
    # a new half alone: its other half on a space the camera could not read (a hand, a blur),
    # or, where rules may be broken, on a half looking unchanged or hidden under another card
    if lenient:
        seen = {i: (item.owner, item.colour) for i, item in items if item.cover == "card"}

        def partner(b: int, p: int) -> str | None:
            if cards.get(b, (None,))[0] == p:
                return None
            return seen[b][1] if seen.get(b, (None,))[0] == p and seen[b][1] else node.board.colours[b]
    else:
        # spaces that could be a new card's other half: unreadable, or a card half whose border
        # is unread (a free space of the state: a card lying there would be new)
        unknown = {i for i, item in items if node.cover[i] == FREE and (
            item.cover is None or (item.cover == "card" and item.owner is None))}

        def partner(b: int, p: int) -> str | None:
            if b in unknown:
                return node.board.colours[b]  # a legal card matches the board
            if b in cards and b not in paired and cards[b][0] != p:
                return cards[b][1]  # one card whose two halves' borders were read differently
            if b in jokers:
                return node.board.colours[b]  # a card's half taken for a joker
            return None

    for a, (p, x) in cards.items():
        if a in paired:
            continue
        for b in edges[a]:
            y = partner(b, p)
            if y is not None:
                yield from _card_at(node, p, a, x, b, y, lenient)
    for cell, p in jokers.items():
        if node.jokers[p]:
            for t in list(range(TOKENS)) + ([None] if lenient else []):
                yield PlaceJoker(p, node.jokers[p][0], node.board.cell(cell), t)


def _sure_tokens(items) -> list[int]:
    return sorted(i for i, item in items if item.token and item.token_confidence >= SURE)


def _cleared(node: State, items) -> bool:
    """Whether the board is seen cleared of the cards and jokers ``node`` has on it: no card or
    joker seen surely, and most of the spaces under them seen surely bare."""
    if not node.pieces or any(it.cover in ("card", "joker") and it.confidence >= SURE for _, it in items):
        return False
    under = {c for piece in node.pieces for c in piece.cells}
    bare = sum(1 for i, it in items if i in under and it.cover == "none" and it.confidence >= SURE)
    return bare >= CLEARED_SHARE * len(under)


def _round_cleared(node: State, move: RoundCleared) -> tuple[State, list[Violation]]:
    """"As soon as a player has put all of their cards on the board ... the round is over." The
    table shows the round over (the board cleared) while the game has every player still holding
    cards: a card the camera missed, or a round stopped early. The round is scored as the game
    has it, with the player with the fewest cards left as the one who stopped."""
    left = ", ".join(f"{player_name(p)} {len(h)}" for p, h in enumerate(node.hands))
    violation = Violation(ROUND_CLEARED, move.stopper, (f"player:{move.stopper}",),
                          f"The board was cleared, but no player had put down all of their cards as the game has "
                          f"it (cards left: {left}); the round is scored as if {player_name(move.stopper)} had "
                          "stopped.", "rule_round_not_over")
    return _end_round(node, "stop", move.stopper), [violation]


def _candidates(node: State, items, players, lenient: bool):
    """Moves suggested by what the observation shows and ``node`` does not."""
    if node.phase == "play":
        yield from _placements(node, items, lenient)
        tokens = _sure_tokens(items)
        if not node.pieces and len(tokens) == TOKENS and tokens != sorted(node.tokens):
            yield SetTokens(tuple(node.board.cell(i) for i in tokens))
        if lenient and _cleared(node, items):
            yield RoundCleared(min(range(node.players), key=lambda p: (len(node.hands[p]), p)))
    elif node.phase == "player_boards":
        seen = {p.player: p for p in players}
        for p, mandatory in node.owes:
            yield from _board_moves(node, p, mandatory, seen.get(p))
    elif node.phase == "next_round":
        if not any(item.cover in ("card", "joker") and item.confidence >= SURE for _, item in items):
            tokens = _sure_tokens(items)
            if len(tokens) != TOKENS:
                tokens = list(node.board.starts)
            yield NextRound(tuple(node.board.cell(i) for i in tokens))


def _pairs(cards) -> list[tuple[str, str]]:
    return sorted(class_key(*card_colours(c)) for c in cards)


def _mismatch(seen: tuple, cards) -> int:
    """How many colour pairs differ between the player board seen and ``cards`` (multisets)."""
    left = list(seen)
    extra = 0
    for key in _pairs(cards):
        if key in left:
            left.remove(key)
        else:
            extra += 1
    return extra + len(left)


def _board_moves(node: State, p: int, mandatory: bool, seen: PlayerSeen | None):
    """Player ``p``'s player-board moves that fit what is seen of that player best: one that keeps
    the cards on the board, one for the removal rule ("If every player has cards on their player
    board, then all of the players take exactly two cards off their player boards" -- the two put
    there first, so a card put on an empty board may go straight back to the hand, unseen).
    Choices that look alike differ only in cards nobody can see; the first stands for them all."""
    choices = _board_choices(node, p, mandatory)
    if seen is None or seen.board is None:
        yield choices[0]
        return
    board, held = node.player_boards[p], len(node.hands[p])

    def misfit(m: ToPlayerBoard, off: int) -> int:
        after = board + m.cards
        hand = held - len(m.cards) + min(off, len(after))
        return _mismatch(seen.board, after[off:]) + (seen.hand is not None and seen.hand != hand)

    ordered = list(_both_orders(choices))
    keep = min(ordered, key=lambda m: misfit(m, 0))
    yield keep
    emptied = [m for m in ordered if board + m.cards]  # the removal rule needs cards on every board
    if emptied:
        removed = min(emptied, key=lambda m: misfit(m, PLAYER_BOARD_CARDS))
        if removed != keep:
            yield removed


def _both_orders(choices: list[ToPlayerBoard]):
    """Each choice, and its two cards the other way round when they differ in colours (the card put
    first is the first taken off again)."""
    for m in choices:
        yield m
        if len(set(_pairs(m.cards))) == 2:
            yield ToPlayerBoard(m.player, m.cards[::-1])


def _step(node: State, move, lenient: bool):
    """``(next state, violations)`` or None when the move cannot be made (legally, if not lenient)."""
    try:
        if isinstance(move, RoundCleared):
            return _round_cleared(node, move)
        if lenient and isinstance(move, (Place, PlaceJoker)):
            return place_anyway(node, move)
        return apply(node, move), []
    except IllegalMove:
        return None


def _search(state: State, gen_items, items, players, lenient: bool) -> list[_Found]:
    found: list[_Found] = []
    visited = {state}
    budget = [NODE_BUDGET]

    def visit(node: State, moves: tuple, viols: tuple) -> None:
        total, sure = cost(node, items, players)
        found.append(_Found(total, sure, moves, node, viols))
        if len(moves) >= MAX_DEPTH:
            return
        for move in _candidates(node, gen_items, players, lenient):
            if budget[0] <= 0:
                return
            result = _step(node, move, lenient)
            if result is None or result[0] in visited:
                continue
            visited.add(result[0])
            budget[0] -= 1
            visit(result[0], moves + (move,), viols + tuple(result[1]))

    visit(state, (), ())
    return found


def _contested(state: State, found: _Found) -> _Found:
    """Reclassify a card covering a card placed in the same interval as ``contested``: the card
    underneath was first and stays; the one on top goes back to its owner's hand."""
    base = len(state.pieces)
    node, viols, moves, late = state, [], [], []
    for move in found.moves:
        if isinstance(move, (Place, PlaceJoker)):
            nxt, faults = place_anyway(node, move)
            top = nxt.pieces[-1]
            covered = [node.cover[c] for c in top.cells if node.cover[c] >= base]
            if any(f.code == COVERS_CARD for f in faults) and covered:
                first = node.pieces[covered[0]]
                late.append(Violation(CONTESTED, move.player, (card_name(move.card) if isinstance(move, Place)
                                                                else f"joker:{move.joker}",
                                                                f"first:{card_name(first.id)}"),
                                      f"{players_named([first.player, move.player], capital=True)} played on the "
                                      f"same space at once: {player_name(first.player)}'s card was first and stays; "
                                      f"{player_name(move.player)} takes theirs back.", "rule_first_card_stays"))
                continue
            node, faults = nxt, faults
            viols += faults
        else:
            node = _step(node, move, False)[0]  # replaying a found move: it was made once already
        moves.append(move)
    if not late:
        return found
    return _Found(found.total, found.sure, tuple(moves), node, tuple(viols) + tuple(late))


def referee(state: State, observation: Observation, turns: int = 1) -> Verdict:
    """Rank the legal move sequences that explain ``observation``; else report broken rules. The
    players play at once, so any number of placements is explained (``turns`` is the common
    surface's and changes nothing here)."""
    check_turns(turns)
    items = validate_for(state, observation)
    players = observation.players
    sure_items = [(i, it) for i, it in items if it.confidence >= SURE]
    legal = _search(state, items, items, players, False)
    if len(sure_items) != len(items):
        legal += _search(state, sure_items, items, players, False)
    legal.sort(key=_Found.key)
    best = legal[0]
    explanations = _explanations(legal)
    if best.sure == 0:
        return Verdict(explanations, (), best.state, _note(best, items, players))
    illegal = [f for f in _search(state, items, items, players, True) if f.violations]
    illegal.sort(key=_Found.weighed)
    if illegal and illegal[0].weighed()[0] < best.total:
        chosen = _contested(state, illegal[0])
        codes = ", ".join(sorted({v.code for v in chosen.violations}))
        return Verdict((), chosen.violations, chosen.state,
                       f"no legal sequence explains the observation; broken: {codes}")
    return Verdict(explanations, (), best.state, _note(best, items, players))


def _explanations(found: list[_Found]) -> tuple[Explanation, ...]:
    out, seen = [], set()
    for f in found:
        if f.state in seen:
            continue
        seen.add(f.state)
        out.append(Explanation(f.moves, f.state, f.total))
        if len(out) == KEEP:
            break
    return tuple(out)


def _note(best: _Found, items, players) -> str:
    """Empty when the best explanation agrees with everything seen; else what it leaves unexplained.
    A legal verdict that leaves sure items unexplained says so first: the change was not understood."""
    if best.total == 0:
        return ""
    if not best.sure:
        return f"doubtful items with summed confidence {best.total:.3f} disagree with the best explanation"
    sure = [what for what, c in disagreements(best.state, items, players) if c >= SURE]
    named = ", ".join(sure[:NAMED]) + (f" and {len(sure) - NAMED} more" if len(sure) > NAMED else "")
    return (f"{NOT_EXPLAINED}: {best.sure} sure item(s) disagree with the best legal explanation ({named}; "
            f"summed confidence {best.total:.3f})")


__all__ = ["referee"]
