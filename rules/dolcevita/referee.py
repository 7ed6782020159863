"""The referee: which legal move sequences turn a state into what the camera saw.

The search follows the observation rather than trying every move: a deal lays the card seen in
the next slot, a player places only a number card seen under a column and not yet there (or
any card there when what is seen is unknown or doubtful), the columns are handed out in order,
and the number cards are collected when the camera sees them gone.  So a whole turn (several
placements) or a round's distribution between two observations is explained in one call.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from ..common import Explanation, Verdict, Violation, check_turns, player_name
from ..errors import IllegalMove, InvalidInput
from .catalogue import (COLUMNS, EMPTY, SLOTS, UNKNOWN, card_sort_key, deck_counter, number_label, parse_card,
                        parse_number)
from .engine import apply, next_slot, place_card
from .observation import (MISREAD_LIMIT, Disagreement, Item, Observation, cost, disagreements, expected_items,
                          explains, player_where, slot_where, under_where)
from .reasons import RULES
from .state import COLLECT, DEAL, DISTRIBUTE, OVER, PLACE, Collect, Deal, Move, Place, Resolve, State

#: States the search may visit for one observation (a full round is a few dozen).
MAX_NODES = 4000
#: Explanations reported, best first.
MAX_EXPLANATIONS = 5


def referee(state: State, observation: Observation, turns: int = 1) -> Verdict:
    """Rank the legal move sequences that explain ``observation`` from ``state``; when none does,
    name the rules broken and give a state to continue from. Any number of placements is
    explained (``turns`` is the common surface's and changes nothing here)."""
    if not isinstance(observation, Observation):
        raise InvalidInput(f"referee needs a Dolce Vita Observation, got {type(observation).__name__}")
    check_turns(turns)
    seen = observation.grouped()
    known = expected_items(state)
    held = _places_of(known)
    found: list[tuple[int, float, int, int, Explanation]] = []
    best: tuple[tuple[int, float, int], State, tuple[Move, ...], list[Disagreement]] | None = None
    stack: list[tuple[State, tuple[Move, ...]]] = [(state, ())]
    visited = {state}
    nodes = 0
    while stack and nodes < MAX_NODES:
        node, moves = stack.pop()
        nodes += 1
        diffs = disagreements(node, seen)
        c = cost(diffs)
        miscounted = sum(1 for d in diffs if not (d.expected and d.seen))
        if explains([d for d in diffs if not _value_misread(d, known, held)]):
            found.append((miscounted, c, _label_distance(diffs), len(moves), Explanation(moves, node, c)))
        if best is None or (miscounted, c, len(moves)) < best[0]:
            best = ((miscounted, c, len(moves)), node, moves, diffs)
        for move in reversed(_candidates(node, seen)):  # the likeliest is tried first
            try:
                after = apply(node, move)
            except IllegalMove:
                continue
            if after not in visited:
                visited.add(after)
                stack.append((after, moves + (move,)))
    if found:
        # A card too many or too few (not a misread label) weighs more than any doubt.
        found.sort(key=lambda entry: entry[:4])
        ranked = tuple(entry[4] for entry in found[:MAX_EXPLANATIONS])
        note = "no change" if not ranked[0].moves else f"{len(ranked[0].moves)} move(s) explain what was seen"
        misread = [d for d in disagreements(ranked[0].state, seen) if d.confidence >= MISREAD_LIMIT]
        if misread:
            note += "; values taken as misread: " + ", ".join(
                f"{_where_named(d.where)} shows {d.seen} where {d.expected} lies" for d in misread)
        return Verdict(explanations=ranked, violations=(), state=ranked[0].state, note=note)
    assert best is not None
    _, node, moves, diffs = best
    dealt = _deal_misreads(state, diffs)
    if dealt is not None:
        return Verdict(explanations=(Explanation(moves, node, cost(diffs)),), violations=(), state=node,
                       note=f"{len(moves)} move(s) explain what was seen; dealt cards taken as misread: " + ", ".join(
                           f"{d.where} shows {d.seen} where {d.expected} was dealt" for d in dealt))
    broken, after = _diagnose(node, moves, seen, diffs)
    return Verdict(explanations=(), violations=tuple(broken), state=after,
                   note=f"no legal sequence explains what was seen; {len(moves)} legal move(s) before the "
                        f"first disagreement")


def _deal_misreads(state: State, diffs: list[Disagreement]) -> list[Disagreement] | None:
    """The sure disagreements left after a deal seen from ``state``, when they all lie in slots
    dealt in this observation; None otherwise.  The deal is chance, no player's move: a dealt card
    read as another one already dealt, or as a gap with cards beyond it, is the camera's misread
    (the card there is one the display does not show elsewhere), never a rule broken."""
    if state.phase != DEAL:
        return None
    dealt = {slot_where(c, s) for c in range(COLUMNS) for s in range(len(state.columns[c]), SLOTS)}
    sure = [d for d in diffs if d.confidence >= MISREAD_LIMIT]
    return sure if all(d.where in dealt for d in sure) else None


def _places_of(known: dict[str, list[str]]) -> dict[str, set[str]]:
    """The places each label lies at in ``known`` (place -> labels)."""
    held: dict[str, set[str]] = {}
    for where, labels in known.items():
        for label in labels:
            held.setdefault(label, set()).add(where)
    return held


def _value_misread(d: Disagreement, known: dict[str, list[str]], held: dict[str, set[str]]) -> bool:
    """Whether ``d`` is a card the state already had at that place before this observation, read
    with another value of the same kind or colour (``house:400000`` seen as ``house:500000``,
    ``yellow:5`` as ``yellow:6``): the camera misreading a printed value, not a card moved or
    swapped. A card that came or went, or changed kind or colour, is no such misread, nor is a
    label the state has at another place (every card is one of a kind: two cards trading
    places show each other's labels). ``held``: :func:`_places_of` ``known``."""
    if not (d.expected and d.seen) or d.expected not in known.get(d.where, ()):
        return False
    if held.get(d.seen, set()) - {d.where}:
        return False
    (kind, sep, value), (seen_kind, seen_sep, seen_value) = d.expected.partition(":"), d.seen.partition(":")
    return bool(sep and seen_sep) and kind == seen_kind and value != seen_value


def _label_distance(diffs: list[Disagreement]) -> int:
    """How many parts (kind or colour, value) of the misread labels differ: among equally doubtful
    explanations, the one whose cards look most like what was seen comes first."""
    return sum((a != b) + (x != y) for d in diffs if d.expected and d.seen
               for (a, _, x), (b, _, y) in [(d.expected.partition(":"), d.seen.partition(":"))])


# --------------------------------------------------------------------------------------------
# Candidate moves, guided by what was seen


def _known(items: list[Item]) -> Counter:
    return Counter(i.label for i in items if i.label != UNKNOWN)


def _candidates(state: State, seen: dict[str, list[Item]]) -> list[Move]:
    if state.phase == DEAL:
        return _deal_candidates(state, seen)
    if state.phase == PLACE:
        return _place_candidates(state, seen)
    if state.phase == DISTRIBUTE:
        return [Resolve(state.next_column)]
    if state.phase == COLLECT and _numbers_differ(state, seen):
        return [Collect()]
    return []


def _sure_labels(seen: dict[str, list[Item]], where: str) -> list[str]:
    return [i.label for i in seen.get(where, []) if i.label != UNKNOWN and i.confidence >= MISREAD_LIMIT]


def _deal_candidates(state: State, seen: dict[str, list[Item]]) -> list[Move]:
    """'The luxury cards are shuffled and laid out face up in a grid of 7 rows of 9 cards each.'
    The card seen in the next slot; a gap seen there ends the deal unless cards are seen in later
    slots (then the gap, like an unreadable card or one already dealt, is a misread)."""
    column, slot = next_slot(state)
    here = slot_where(column, slot)
    later = [slot_where(c, s) for c in range(column, COLUMNS) for s in range(SLOTS) if (c, s) > (column, slot)]
    labels = _sure_labels(seen, here)
    later_sure = [_sure_labels(seen, w) for w in later]
    if EMPTY in labels and not any(set(sure) - {EMPTY} for sure in later_sure):
        return []
    confidence = max((i.confidence for i in seen.get(here, []) if i.label in labels), default=0.0)
    surer = Counter(i.label for w in later for i in seen.get(w, [])[:1] if i.confidence > confidence)
    for label in labels:
        if state.box.count(label) > surer[label]:  # not a card that later slots show more surely
            return [Deal(label)]
    # Unreadable: a card of the box that no slot still to be dealt shows (the cost says so).
    shown = Counter(sure[0] for sure in later_sure if sure)
    unseen = Counter(state.box) - shown
    return [Deal(min(unseen.elements() if unseen else state.box, key=card_sort_key))]


def _place_candidates(state: State, seen: dict[str, list[Item]]) -> list[Move]:
    p = state.to_move
    confident: list[Move] = []
    moves: dict[Move, None] = {}
    for c in range(COLUMNS):
        items = seen.get(under_where(c), [])
        if len(items) <= len(state.under[c]):
            continue
        now = Counter(number_label(q, v) for q, v in state.under[c])
        doubtful = False
        for label, count in sorted(_known(items).items()):
            number = parse_number(label)
            if number is None:
                continue
            q, v = number
            if q == p and count > now[label] and v in state.hands[p] and not confident:
                confident.append(Place(p, v, c))
        for item in items:
            if item.label == UNKNOWN or item.confidence < MISREAD_LIMIT:
                doubtful = True
        if doubtful:
            for v in state.hands[p]:
                moves[Place(p, v, c)] = None
    # One clearly seen card is enough: the order in which a player's cards went down changes
    # nothing, so trying each would only revisit the same states.
    return confident[:1] + [m for m in moves if m not in confident]


def _numbers_differ(state: State, seen: dict[str, list[Item]]) -> bool:
    """True when the camera sees number cards other than the state's under some column."""
    for c in range(COLUMNS):
        items = seen.get(under_where(c), [])
        want = Counter(number_label(p, v) for p, v in state.under[c])
        known = _known(items)
        unknown = len(items) - sum(known.values())
        if sum((want - known).values()) > unknown or sum((known - want).values()) > 0:
            return True
    return False


# --------------------------------------------------------------------------------------------
# When nothing explains it


def _violation(error: IllegalMove) -> Violation:
    return Violation(error.code, error.player, error.pieces, error.sentence, rule=RULES.get(error.code, ""))


def _diagnose(state: State, moves: tuple[Move, ...], seen: dict[str, list[Item]],
              diffs: list[Disagreement]) -> tuple[list[Violation], State]:
    """The rules broken between ``state`` (the closest legal state) and what was seen, and the
    state to continue from: ``state`` with the seen change applied as far as it can be."""
    broken: list[Violation] = []
    after = state
    confident = [d for d in diffs if d.confidence >= MISREAD_LIMIT]
    for c in range(COLUMNS):
        items = [i for i in seen.get(under_where(c), []) if i.confidence >= MISREAD_LIMIT]
        want = Counter(number_label(p, v) for p, v in state.under[c])
        known = _known(items)
        for label in sorted((known - want).elements()):
            number = parse_number(label)
            if number is None:
                continue
            player, value = number
            try:
                if player >= state.players:
                    raise IllegalMove("dolcevita.not_in_hand", None, (label,),
                                      f"no player plays {label.split(':')[0]} in this {state.players}-player game")
                apply(after, Place(player, value, c))
                continue  # placeable now: another disagreement stands in the way
            except IllegalMove as error:
                broken.append(_violation(error))
            if after.phase == PLACE and player < after.players and value in after.hands[player]:
                after = place_card(after, player, value, c)
        gone = want - known
        unknown = len(items) - sum(known.values())
        if sum(gone.values()) > unknown:
            broken.append(Violation("dolcevita.number_card_removed", None, tuple(sorted(gone.elements())),
                                    f"number cards {sorted(gone.elements())} left column {c} before all columns "
                                    f"were handed out", rule=RULES["dolcevita.number_card_removed"]))
    luxury = [d for d in confident if not d.where.endswith(":under")]
    if luxury:
        handing_out = state.phase in (DISTRIBUTE, COLLECT, OVER) or any(isinstance(m, Resolve) for m in moves)
        code = "dolcevita.wrong_distribution" if handing_out else "dolcevita.card_moved"
        gainers = sorted({int(d.where.split(":")[1]) for d in luxury if d.where.startswith("player:") and d.seen})
        player = gainers[0] if len(gainers) == 1 else None
        pieces = tuple(f"{d.where}:{d.seen or 'nothing'}" for d in luxury)
        what = "were not handed out as the rules say" if handing_out else "moved while no cards were handed out"
        details = ", ".join(f"{_where_named(d.where)} shows {d.seen or 'nothing'} where {d.expected or 'nothing'} belongs"
                            for d in luxury[:3])
        broken.append(Violation(code, player, pieces, f"luxury cards {what}: {details}", rule=RULES[code]))
        after = _adopt_luxury(after, seen)
    return broken, after


def _where_named(where: str) -> str:
    """A place in a sentence: ``player:P`` becomes ``player P+1``, other places keep their label."""
    return player_name(int(where.split(":")[1])) if where.startswith("player:") else where


def _adopt_luxury(state: State, seen: dict[str, list[Item]]) -> State:
    """``state`` with the luxury cards where the camera saw them, when it saw all of them clearly
    and they still add up to the deck; otherwise ``state`` unchanged."""
    columns = []
    for c in range(COLUMNS):
        labels = []
        for s in range(SLOTS):
            items = seen.get(slot_where(c, s), [])
            if len(items) != 1 or items[0].label == UNKNOWN:
                return state
            labels.append(items[0].label)
        cards = [label for label in labels if label != EMPTY]
        if labels[:len(cards)] != cards:
            return state  # gaps in the column: not representable
        columns.append(tuple(cards))
    goods, money = [], []
    for p in range(state.players):
        labels = [i.label for i in seen.get(player_where(p), [])]
        if UNKNOWN in labels:
            return state
        goods.append(tuple(sorted((x for x in labels if parse_card(x)[0] != "money"), key=card_sort_key)))
        money.append(tuple(sorted(parse_card(x)[1] for x in labels if parse_card(x)[0] == "money")))
    candidate = replace(state, columns=tuple(columns), goods=tuple(goods), money=tuple(money))
    total = Counter(card for column in candidate.columns for card in column) + Counter(candidate.box)
    for p in range(state.players):
        total.update(candidate.goods[p])
        total.update(f"money:{v}" for v in candidate.money[p])
    if total != deck_counter(state.opts["money_low_cards"]):
        return state
    return candidate

