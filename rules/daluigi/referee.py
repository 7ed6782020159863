"""The referee: which legal move sequences explain what the camera saw.

A beam search from the previous state over legal moves, chance events included; each state
reached is scored by :func:`~.observation.mismatch` (summed confidence of the observed items
that disagree).  Chance is guided by what became visible: a die drawn onto a market field
takes a colour that field now shows more of, a card drawn is one now seen on the table.
One explanation holds at most one turn action (shop, welcome or pass) and what follows it.

The cheapest legal explanation that stands is taken. It stands when the items that disagree with
it are doubtful, or when the sure ones (confidence at least :data:`DOUBT`) sum to less than :data:`MISREAD_ALLOWANCE`: one sure
reading that is not certain may be the camera's mistake (the verdict's note names it), two sure
readings or a certain one are what the table shows. An order field that shows fewer of the dice
the explanation has there, and no other, does not count: dice leave a guest card only with it,
so those dice went unseen. A change seen in one sure item alone (a die put on a field of another
colour while the supply it came from is hidden), or a die taken back off a guest card, is then
taken for a misreading; docs/rules.md says so.

The setup of a game started without a seed is chance too, read from the table: a start card
that the setup's dice fulfilled may already lie in its owner's served pile when the camera
first sees the table (:func:`_served_since`). What the camera never reads is made to agree with
what it does before the search: a guest served unseen is a stand-in, swapped back when the table
shows it (:func:`_unserved`); the used dice go back in the bag when the table shows dice the bag
held lacks (:func:`_refilled_bag`). A change no legal sequence explains, seen while the turn's end
was still due, is judged as the next player's turn when it shows a purchase (:func:`_turn_base`).
"""

from __future__ import annotations

from ..common import CHANCE, Explanation, Verdict, check_turns
from ..errors import IllegalMove
from .catalogue import COLOUR_INDEX, COLOURS, cubes_from_label
from .actions import perform
from .engine import apply, legal_moves
from .moves import Move
from .observation import UNKNOWN, Item, Observation, labels_of, mismatch
from .overlay import overlay
from .resume import continue_from, fields_taken, purchase_base
from .rulebook import card_of, dice_in_sight
from .state import State, evolve
from .tasks import advance
from .violations import change_violations

#: States kept per search depth.
BEAM = 48
#: States kept per depth when the search starts from the game's setup (read once per game; the
#: setup's chance is long, and start cards served before the camera saw them are not told apart
#: by any reading until their serving).
SETUP_BEAM = 192
#: Longest move sequence tried (a turn with two rows refilled needs about 30).
MAX_DEPTH = 64
#: Moves tried per search at most (bounds the time of a hopeless search to a few seconds).
MAX_APPLIES = 8_000
#: Depths searched without a better match before giving up (the setup's draws aside).
PATIENCE = 8
#: Items below this confidence may disagree with a legal explanation.
DOUBT = 0.5
#: Sure items (at least DOUBT) that disagree with a legal explanation may sum to less than this
#: and be taken as misread: one sure reading, not certain (0.99 or more); not two (measured on
#: the demo's placements, docs/benchmarks.md: a legal placement's misreading is mostly one item
#: at 0.5-0.95, an illegal placement shows in a certain item, mostly with more).
MISREAD_ALLOWANCE = 0.99
#: Explanations reported (best first).
KEEP = 5
ACTIONS = ("shop", "welcome", "pass")
#: Moves of a turn's end that a reading may not have shown: dice and cards drawn, the jokers' "done".
UNSEEN_ENDS = ("cube", "card", "done")


def _guided(state: State, seen: dict[str, Item], narrow: bool, first_card: bool) -> list[Move]:
    """Legal moves, chance narrowed to what the observation shows: a card drawn is one seen on the
    table (when none is: any card for the first draw, which may have come and gone, then one
    stand-in; a start card may be any, once its player's served pile grew); a die drawn has a
    colour seen more of where it went (a player's: of what they hold and their guests served
    unseen ordered; a market field's seen empty: of what the players hold, :func:`_arrived`),
    unless ``narrow`` is false."""
    moves = legal_moves(state)
    if state.to_move != CHANCE:
        if state.phase == "jokers":
            return _guided_jokers(state, moves, seen)
        return moves
    head = state.tasks[0]
    if head[0] == "draw" and not narrow:
        return moves
    if head[0] == "draw":
        want = _seen_cubes(state, seen, head)
        if want is not None:
            have = (state.market[head[2]] if head[1] == "field" else _held(state, head[2]))
            if head[1] == "field" and not any(want):  # taken at once: the dice went to a player
                want = _arrived(state, seen)
            narrowed = [m for m in moves if want[COLOUR_INDEX[m.colour]] > have[COLOUR_INDEX[m.colour]]]
            if narrowed:
                return narrowed
        return moves
    shown = _cards_shown(seen)
    narrowed = [m for m in moves if m.card in shown]
    if head[0] == "start" and _served_since(state, seen, head[1]):
        return narrowed + [m for m in moves if m.card not in shown]
    return narrowed or (moves if first_card else moves[:1])


def _cards_shown(seen: dict[str, Item]) -> set[str]:
    return {it.label for it in seen.values() if it.kind in ("slot", "revealed") and it.label}


def _served_since(state: State, seen: dict[str, Item], player: int) -> bool:
    """Does ``player``'s served pile show more cards than ``state`` has there? Then a start card
    may have been served before the camera saw it ("Food dice that match the guests' orders must
    be placed immediately on the matching colored fields of the guest cards"; once its order is
    fulfilled, "The card is cleared away"), so a start card drawn need not lie on the table any
    more."""
    item = seen.get(f"served:{player}")
    return item is not None and item.label.isdigit() and int(item.label) > len(state.served[player])


def _unseen_orders(state: State, seen: dict[str, Item], player: int) -> tuple[int, ...]:
    """The dishes of ``player``'s guests that the table does not show (served before it was seen):
    the dice drawn for them went with them."""
    shown = _cards_shown(seen)
    total = (0,) * len(COLOURS)
    for g in state.strips[player]:
        if g is not None and g.card not in shown:
            total = tuple(a + b for a, b in zip(total, card_of(state, g.card).order))
    return total


def _held(state: State, player: int) -> tuple[int, ...]:
    """Cubes a player holds: supply and order fields (made once per state and kept with it)."""
    cached = state.__dict__.get("_held")
    if cached is None:
        cached = tuple(_holding(state, p) for p in range(state.players))
        object.__setattr__(state, "_held", cached)
    return cached[player]


def _holding(state: State, player: int) -> tuple[int, ...]:
    held = state.supply[player]
    for g in state.strips[player]:
        if g is not None:
            held = tuple(a + b for a, b in zip(held, g.cubes))
    return held


def _seen_cubes(state: State, seen: dict[str, Item], head: tuple) -> tuple[int, ...] | None:
    """The cubes seen where a draw goes: the market field, or all a player holds."""
    if head[1] == "field":
        item = seen.get(f"market:{head[2]}")
        return None if item is None or item.label == UNKNOWN else cubes_from_label(item.label, "observation")
    p = head[2]
    places = [f"supply:{p}"] + [f"order:{p}:{s}" for s in range(len(state.strips[p]))]
    total = list(_unseen_orders(state, seen, p)) if _served_since(state, seen, p) else [0] * len(COLOURS)
    for place in places:
        item = seen.get(place)
        if item is None and place.startswith("order:"):
            slot = seen.get("slot:" + place[len("order:"):])
            if slot is not None and slot.label == "":
                continue
        if item is None or item.label == UNKNOWN:
            return None
        for c, n in enumerate(cubes_from_label(item.label, "observation")):
            total[c] += n
    return tuple(total)


def _arrived(state: State, seen: dict[str, Item]) -> tuple[int, ...]:
    """The dice of each colour that the players now show more of than they hold, summed: where
    the dice drawn onto a market field went when the field is seen empty again (the refill of a
    row, then the next player's purchase of that field, seen in one reading)."""
    total = [0] * len(COLOURS)
    for p, want in _wanted(state, seen).items():
        for c, (w, h) in enumerate(zip(want, _held(state, p))):
            total[c] += max(0, w - h)
    return tuple(total)


def _guided_jokers(state: State, moves: list[Move], seen: dict[str, Item]) -> list[Move]:
    """Joker payments drawn from the dice that left the supply."""
    item = seen.get(f"supply:{state.to_move}")
    if item is None or item.label == UNKNOWN:
        return moves
    after = cubes_from_label(item.label, "observation")
    gone = tuple(max(0, h - a) for h, a in zip(state.supply[state.to_move], after))
    out = []
    for m in moves:
        if m.type != "joker":
            out.append(m)
            continue
        pay = [0] * len(COLOURS)
        for c in m.pay:
            pay[COLOUR_INDEX[c]] += 1
        if all(x <= g for x, g in zip(pay, gone)):
            out.append(m)
    return out


def _distance(state: State, wanted: dict[int, tuple[int, ...]]) -> int:
    """How many cubes each player holds too many or too few, against what is seen (a tie-break)."""
    return sum(sum(abs(a - b) for a, b in zip(_held(state, p), want)) for p, want in wanted.items())


def _wanted(state: State, seen: dict[str, Item]) -> dict[int, tuple[int, ...]]:
    out = {}
    for p in range(state.players):
        want = _seen_cubes(state, seen, ("draw", "supply", p))
        if want is not None:
            out[p] = want
    return out


def _before_serving(state: State, move: Move, after: State) -> State | None:
    """The table right after a purchase whose serving has only one way (the engine makes that serving
    at once; the players still place the dice by hand): the dice in the supply, the serving due."""
    if move.type != "shop":
        return None
    bought = advance(perform(state, move))
    return bought if bought.phase == "serve" and bought != after else None


def _setting_up(state: State) -> bool:
    """Chance of the game's setup (or of the first turn's refill): a long run of draws, each of
    which may match nothing seen until the serving at its end (a start card served before the
    camera saw it), so it does not use up the search's patience."""
    return state.to_move == CHANCE and state.turn == 0


def search(state: State, observation: Observation, narrow: bool = True,
           turns: int = 1) -> list[tuple[float, tuple, State]]:
    """Candidate explanations as (cost, moves, state), best first, each with at most ``turns`` turn
    actions.  With ``narrow``, dice drawn are limited to colours seen more of where they went
    (fast); without, every colour is tried."""
    items = observation.items
    seen = observation.by_place()
    wanted = _wanted(state, seen)
    start = (mismatch(labels_of(state), items), (), state, 0)
    found = [start]
    frontier = [start]
    visited = {state}
    beam = SETUP_BEAM if state.phase == "start" else BEAM
    best, stale, budget = start[0], 0, MAX_APPLIES * beam // BEAM
    for _ in range(MAX_DEPTH if start[0] > 0 else 0):
        children = []
        for _, moves, s, _ in frontier:
            acted = sum(m.type in ACTIONS for m in moves) >= turns
            if s.over or (acted and s.to_move == s.active and not s.tasks):
                continue
            first_card = not any(m.type == "card" for m in moves)
            for move in _guided(s, seen, narrow, first_card):
                if acted and move.type in ACTIONS:
                    continue
                budget -= 1
                try:
                    t = apply(s, move)
                except IllegalMove:
                    continue
                for t in (t, _before_serving(s, move, t)):
                    if t is None or t in visited:
                        continue
                    visited.add(t)
                    children.append((mismatch(labels_of(t), items), moves + (move,), t, _distance(t, wanted)))
        if not children:
            break
        children.sort(key=lambda c: (round(c[0], 9), c[3], len(c[1])))
        frontier = children[:beam]
        found.extend(frontier)
        if frontier[0][0] == 0.0:
            break
        if frontier[0][0] < best or _setting_up(frontier[0][2]):
            stale = 0
        elif frontier[0][2].to_move != CHANCE:  # a row's refill in progress, each die may match nothing yet
            stale += 1
        best = min(best, frontier[0][0])
        if stale > PATIENCE or budget <= 0:
            break
    found.sort(key=lambda c: (round(c[0], 9), len(c[1])))
    return [c[:3] for c in found]


def _hidden_draws(state: State, moves: tuple) -> bool:
    """Did the best try welcome guests (whose cards may have come and gone unseen)?"""
    return state.phase not in ("action", "serve", "jokers") or any(m.type in ("welcome", "card") for m in moves)


def _dice_unseen(item: Item, expected: str) -> bool:
    """An order field read with some of the dice ``expected`` there and no other: the rest unseen.

    Dice leave a guest card only with the card: "The used food dice are placed next to the
    marketplace" when the order is fulfilled, and "If there are still food dice on the card, they
    are placed next to the marketplace" when the guest leaves. A die on a field printed in its own
    colour is what the camera most often misses (docs/daluigi-recognition.md)."""
    if item.kind != "order":
        return False
    seen, want = (cubes_from_label(label, "observation") for label in (item.label, expected))
    return all(a <= b for a, b in zip(seen, want)) and sum(seen) < sum(want)


def _disagreeing(cost_state: State, observation: Observation) -> tuple[list[Item], list[Item]]:
    """The sure items (confidence at least :data:`DOUBT`) that disagree with ``cost_state``: those
    that count against it, and those that do not: an order field that shows fewer of the dice the
    state has there (:func:`_dice_unseen`), and the order fields of a guest card read as another
    card (the recogniser reads a card's dice by that card's fields: one misreading with it)."""
    expected = labels_of(cost_state)
    sure = [it for it in observation.items
            if it.label != UNKNOWN and it.confidence >= DOUBT and expected.get(it.where, "") != it.label]
    cards = {it.where.split(":", 1)[1] for it in sure if it.kind == "slot"}
    count: list[Item] = []
    excused: list[Item] = []
    for it in sure:
        with_card = it.kind == "order" and it.where.split(":", 1)[1] in cards
        (excused if with_card or _dice_unseen(it, expected.get(it.where, "")) else count).append(it)
    return count, excused


def _acceptable(cost_state: State, observation: Observation) -> bool:
    """The sure items that count against ``cost_state`` sum to less than :data:`MISREAD_ALLOWANCE`."""
    return sum(it.confidence for it in _disagreeing(cost_state, observation)[0]) < MISREAD_ALLOWANCE


def _note(explanation: Explanation, observation: Observation) -> str:
    """What a legal verdict says: how many moves, and every sure item taken as misread."""
    note = f"{len(explanation.moves)} move(s) explain the change"
    count, excused = _disagreeing(explanation.state, observation)
    if count or excused:
        note += "; taken as misread: " + ", ".join(f"{it.where} read {it.label!r} ({it.confidence:.2f})"
                                                   for it in count + excused)
    return note


def _unserved(state: State, observation: Observation) -> State:
    """``state`` with each guest card that the table surely shows (on a strip, or revealed) taken
    out of the served pile it lies in, swapped for a card not yet seen (of the same points where
    one is).

    Fulfilled orders are "collected face down in a pile", so a guest drawn and served where the
    camera did not see it (under a hand) is put in the served pile as a stand-in, one card among
    those not yet seen (:func:`_guided`). A card seen later on the table was not that one: left
    served, the card could not be drawn, and its arrival would read as no legal change. Start
    cards are left as they are."""
    shown = {it.label for it in observation.items
             if it.kind in ("slot", "revealed") and it.label not in ("", UNKNOWN) and it.confidence >= DOUBT}
    unseen, served = list(state.unseen), [list(pile) for pile in state.served]
    for pile in served:
        for i, card in enumerate(pile):
            if card not in shown or card_of(state, card).start:
                continue
            spare = [c for c in unseen if c not in shown]
            if not spare:
                continue
            points = card_of(state, card).points
            swap = next((c for c in spare if card_of(state, c).points == points), spare[0])
            pile[i], unseen[unseen.index(swap)] = swap, card
    if unseen == list(state.unseen):
        return state
    return evolve(state, unseen=tuple(unseen), served=tuple(tuple(pile) for pile in served))


def _refilled_bag(state: State, observation: Observation) -> State:
    """``state`` with the used dice put back in the bag when the table surely shows more dice of a
    colour than the state has in sight and in the bag together.

    "When the bag is empty, all food dice collected next to the marketplace are placed back in the
    bag." Neither the bag nor the used dice beside the market are read, and a die the session took
    for another colour, or one it missed, leaves the bag's count off by a die or two: the table's
    bag was emptied and refilled while the state's still holds a die, and the dice drawn since
    cannot come from it. Which dice are drawn stays guided by the reading (:func:`_guided`)."""
    shown = [0] * len(COLOURS)
    for it in observation.items:
        if it.kind in ("market", "supply", "order") and it.label != UNKNOWN and it.confidence >= DOUBT:
            for c, n in enumerate(cubes_from_label(it.label, "observation")):
                shown[c] += n
    held = [sum(v) for v in zip(*dice_in_sight(state))]
    short = any(n > h + b and h + b + u >= n for n, h, b, u in zip(shown, held, state.bag, state.used))
    if not short:
        return state
    return evolve(state, bag=tuple(map(sum, zip(state.bag, state.used))), used=(0,) * len(COLOURS))


def _turn_base(state: State, found: list[tuple[float, tuple, State]], observation: Observation) -> State:
    """What a change no legal sequence explains is judged from: ``state``, or, when ``state`` is past
    its turn's action and only the turn's end is still due (the refill, or the jokers' "done": the
    reading before did not show the refill whole, a row under a hand, and "done" shows nothing),
    and the reading shows a purchase from the cheapest state of ``found`` that the end alone
    (:data:`UNSEEN_ENDS`) brings to the next player's action, that state. The purchase is then
    that player's, and so are its flags. A serving still due is not skipped: a needed die left in
    the supply is the serving player's fault (``must_serve``)."""
    if state.phase == "action":
        return state
    for _, moves, s in found:
        if s.phase == "action" and s.to_move == s.active and all(m.type in UNSEEN_ENDS for m in moves):
            return s if fields_taken(s, overlay(s, observation, DOUBT)) else state
    return state


def referee(state: State, observation: Observation, turns: int = 1) -> Verdict:
    """Rank the legal move sequences that explain ``observation`` from ``state``; when none does, list
    the rules broken and give the observed position to continue from (see :mod:`.resume`).
    ``turns``: the turn actions (shop, welcome, pass) one explanation may hold, each with what
    follows it; more than one where the change spans several readings (a live session looking
    back over a flag)."""
    if not isinstance(observation, Observation):
        observation = Observation.from_json(observation)
    observation.check_players(state.players)
    check_turns(turns)
    state = _refilled_bag(_unserved(state, observation), observation)
    found = search(state, observation, turns=turns)
    if not _acceptable(found[0][2], observation) and _hidden_draws(state, found[0][1]):
        found = sorted(found + search(state, observation, narrow=False, turns=turns),
                       key=lambda c: (round(c[0], 9), len(c[1])))
    best = found[0]
    explanations, tried = [], set()
    for cost, moves, s in found:  # the first KEEP distinct acceptable states, cheapest first
        if s in tried:
            continue
        tried.add(s)
        if _acceptable(s, observation):
            explanations.append(Explanation(moves=moves, state=s, cost=cost))
            if len(explanations) == KEEP:
                break
    if explanations:
        return Verdict(explanations=tuple(explanations), violations=(), state=explanations[0].state,
                       note=_note(explanations[0], observation))
    base = _turn_base(state, found, observation)
    seen_state = overlay(best[2], observation, DOUBT)
    bought = purchase_base(base, seen_state)
    if bought is not None:
        seen_state = overlay(bought, observation, DOUBT)
    found_v = change_violations(base, seen_state, observation, DOUBT)
    return Verdict(explanations=(), violations=tuple(found_v), state=continue_from(seen_state),
                   note="no legal sequence of moves explains the change; the position seen is kept")
