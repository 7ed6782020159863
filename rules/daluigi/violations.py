"""What is wrong in a position as it lies, and in a change seen by the camera."""

from __future__ import annotations

from ..common import Violation, player_name
from .catalogue import COLOURS, CUBE_COUNTS, SEGMENTS, SLOTS, clocks_of, row_of, slot_of_wait
from .observation import UNKNOWN, Observation
from .reasons import REASONS
from .rulebook import card_of, dice_in_sight, missing_of, unordered_of
from .state import State
from .tasks import can_place


def _v(code: str, player: int | None, pieces, rule: str, sentence: str = "") -> Violation:
    return Violation(code=code, player=player, pieces=tuple(pieces), sentence=sentence or REASONS[code], rule=rule)


def cube_count(state: State) -> list[Violation]:
    """'90 food dice (10 dessert, 12 pasta, 14 pizza, 16 salad, 18 wine, 20 water)'."""
    vectors = dice_in_sight(state) + [state.bag, state.used]
    out = []
    for c, colour in enumerate(COLOURS):
        total = sum(v[c] for v in vectors)
        if total > CUBE_COUNTS[c]:
            out.append(_v("daluigi.cube_count", None, (f"cube:{colour}",), "cube_count",
                          f"{total} {colour} dice are in play but the game has {CUBE_COUNTS[c]}."))
    return out


def market_overfull(state: State) -> list[Violation]:
    """'The fields in the top row each receive 1 food die, the fields in the 2nd row each receive 2, the
    3rd row each receive 3, and the fields in the bottom row each receive 4 food dice.'"""
    return [_v("daluigi.market_overfull", None, (f"field:{f}",), "market_overfull",
               f"Market field {f} holds {sum(cubes)} dice; row {row_of(f)} is filled with {row_of(f)}.")
            for f, cubes in enumerate(state.market) if sum(cubes) > row_of(f)]


def wrong_dish(state: State) -> list[Violation]:
    """'place them on the matching open fields of their orders' (a die only on a field of its colour)."""
    out = []
    for p, strip in enumerate(state.strips):
        for g in strip:
            if g is None:
                continue
            for c, n in enumerate(unordered_of(card_of(state, g.card), g)):
                if n > 0:
                    colour = COLOURS[c]
                    a_die = f"{'an' if colour[0] in 'aeiou' else 'a'} {colour} die"
                    out.append(_v("daluigi.wrong_dish", p, (f"guest:{g.card}", f"cube:{colour}"), "wrong_dish",
                                  f"Guest {g.card} of {player_name(p)} has {a_die} it did not order."))
    return out


def order_not_collected(state: State) -> list[Violation]:
    """'Once the player has placed all the desired food dice on a guest card, that order counts as
    fulfilled ... The card is then placed face down on the pile of fulfilled orders.'"""
    return [_v("daluigi.order_not_collected", p, (f"guest:{g.card}",), "order_not_collected",
               f"Guest {g.card} of {player_name(p)} is fulfilled but still lies on the strip.")
            for p, strip in enumerate(state.strips) for g in strip
            if g is not None and missing_of(card_of(state, g.card), g) <= 0 and not wrong_dish_of(state, g)]


def wrong_dish_of(state: State, g) -> bool:
    return any(unordered_of(card_of(state, g.card), g))


def must_serve(state: State, players=None) -> list[Violation]:
    """'After shopping, the player must assign all the food dice in their supply to their guests ...
    Only food dice that are not needed ... remain in the player's supply.'  Checked between turns
    (where option ability_dice=end_of_turn makes it hold for every player)."""
    if players is None:
        if state.phase != "action" or state.options.ability_dice != "end_of_turn":
            return []
        players = range(state.players)
    return [_v("daluigi.must_serve", p, (f"player:{p}",), "must_serve",
               f"{player_name(p, capital=True)} keeps a food die in the supply that an open order field wants.")
            for p in players if can_place(state, p)]


def violations(state: State) -> list[Violation]:
    """Every rule the position breaks as it lies."""
    return cube_count(state) + market_overfull(state) + wrong_dish(state) + order_not_collected(state) \
        + must_serve(state)


# --- changes seen ----------------------------------------------------------------------------

def _slots(state: State) -> dict[str, tuple[int, int]]:
    return {g.card: (p, s) for p, strip in enumerate(state.strips) for s, g in enumerate(strip) if g is not None}


def lemons_and_flowers(observation: Observation, doubt: float) -> list[Violation]:
    """'A player can have either only lemons or only flower bouquets in front of them.'"""
    seen = {it.where: it.label for it in observation.items if it.label != UNKNOWN and it.confidence >= doubt}
    players = {int(w.split(":")[1]) for w in seen if w.startswith("lemons:")}
    return [_v("daluigi.lemons_and_flowers", p, (f"player:{p}",), "lemons_and_flowers")
            for p in sorted(players)
            if int(seen[f"lemons:{p}"]) > 0 and int(seen.get(f"flowers:{p}", "0")) > 0]


def one_field(before: State, after: State) -> list[Violation]:
    """'The player takes all the food dice from one market field.'"""
    taken = [f for f, (a, b) in enumerate(zip(before.market, after.market)) if any(y < x for x, y in zip(a, b))]
    if len(taken) > 1:
        return [_v("daluigi.one_field", before.active, tuple(f"field:{f}" for f in taken), "one_field",
                   f"Dice were taken from {len(taken)} market fields ({', '.join(map(str, taken))}); one is allowed.")]
    return []


def guest_moved_left(before: State, after: State) -> list[Violation]:
    """'Whenever "time passes," a guest is moved one or more time segments to the right.'"""
    old, new = _slots(before), _slots(after)
    return [_v("daluigi.guest_moved_left", p, (f"guest:{c}",), "guest_moved_left",
               f"Guest {c} of {player_name(p)} moved left, from segment {s} to segment {new[c][1]}.")
            for c, (p, s) in old.items() if c in new and new[c][0] == p and new[c][1] < s]


def field_not_free(before: State, after: State) -> list[Violation]:
    """'The field the guest is pushed onto must be free!' (so guests never pass each other)."""
    old, new = _slots(before), _slots(after)
    out = []
    for p in range(before.players):
        kept = [c for c, (q, s) in sorted(old.items(), key=lambda kv: kv[1]) if q == p and new.get(c, (-1,))[0] == p]
        order = sorted(kept, key=lambda c: new[c][1])
        if order != kept:
            passed = [c for c, d in zip(kept, order) if c != d]
            out.append(_v("daluigi.field_not_free", p, tuple(f"guest:{c}" for c in passed), "field_not_free",
                          f"Guests {', '.join(passed)} of {player_name(p)} passed each other: a guest moved onto "
                          "or over a field that was not free."))
    return out


def wrong_segment(before: State, after: State) -> list[Violation]:
    """'The player who receives a guest must place it on the field below the time segment of their
    ristorante strip that matches the guest's waiting time.'"""
    old, new = _slots(before), _slots(after)
    out = []
    for c, (p, s) in new.items():
        if c in old:
            continue
        want = slot_of_wait(card_of(after, c).wait)
        if s < want or (s > want and after.strips[p][want] is None):
            out.append(_v("daluigi.wrong_segment", p, (f"guest:{c}", f"segment:{s}"), "wrong_segment",
                          f"Guest {c} waits {card_of(after, c).wait} minutes but lies under segment "
                          f"{SEGMENTS[s]}."))
    return out


def unpaid(before: State, after: State) -> list[Violation]:
    """'For every clock shown, the player must push a guest in their ristorante 1 field to the right ...
    If a player cannot pay in full for a purchase, they may not carry it out.'"""
    taken = [f for f, (a, b) in enumerate(zip(before.market, after.market)) if any(y < x for x, y in zip(a, b))]
    if len(taken) != 1 or set(_slots(after)) - set(_slots(before)):
        return []
    p, clocks = before.active, clocks_of(taken[0])
    old, new = _slots(before), _slots(after)
    paid = 0
    for c, (q, s) in old.items():
        if q != p:
            continue
        if c in new:
            paid += max(0, new[c][1] - s)
        elif c not in after.served[p]:
            paid += SLOTS - s
    if paid < clocks:
        return [_v("daluigi.unpaid", p, (f"field:{taken[0]}", f"clocks:{clocks}"), "unpaid",
                   f"{player_name(p, capital=True)} took field {taken[0]} ({clocks} clocks) but pushed guests only "
                   f"{paid} field(s).")]
    return []


def turn_seen_over(before: State, after: State, player: int) -> bool:
    """Does the change show that ``player``'s turn is over: a market field refilled ('If, at the end of
    a turn, all the fields of one row of the marketplace are empty, those fields are refilled'), or
    another player's supply, guests, served pile or tiles changed?"""
    if any(sum(b) > sum(a) for a, b in zip(before.market, after.market)):
        return True
    return any(before.supply[q] != after.supply[q] or before.strips[q] != after.strips[q]
               or before.served[q] != after.served[q] or before.tiles[q] != after.tiles[q]
               for q in range(before.players) if q != player)


def must_serve_after_shop(before: State, after: State) -> list[Violation]:
    """'After shopping, the player must assign all the food dice in their supply to their guests.'
    Serving follows the purchase, so a needed die in the supply is a fault only once the turn is seen
    to be over; before that the player is still serving (the state continued from waits for it)."""
    p = before.active
    taken = [f for f, (a, b) in enumerate(zip(before.market, after.market)) if any(y < x for x, y in zip(a, b))]
    if not (taken or ("serve", p) in before.tasks) or not turn_seen_over(before, after, p):
        return []
    return must_serve(after, [p])


def change_violations(before: State, after: State, observation: Observation, doubt: float) -> list[Violation]:
    """The rules broken by the change from ``before`` to the position seen (``after``)."""
    found = (lemons_and_flowers(observation, doubt) + one_field(before, after) + unpaid(before, after)
             + guest_moved_left(before, after) + field_not_free(before, after) + wrong_segment(before, after)
             + cube_count(after) + market_overfull(after) + wrong_dish(after) + order_not_collected(after)
             + must_serve_after_shop(before, after))
    out, keys = [], set()
    for v in found:
        key = (v.code, v.player, v.pieces)
        if key not in keys:
            keys.add(key)
            out.append(v)
    if not out:
        out.append(_v("daluigi.unexplained", before.active, (), "unexplained"))
    return out

