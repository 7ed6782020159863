"""What each move does, after checking it against the rules (raises IllegalMove with a reason)."""

from __future__ import annotations

from .state import evolve as replace

from ..common import player_name
from ..errors import IllegalMove
from .catalogue import (ANY_JOKER, BROWN, BROWN_JOKER, COLOUR_INDEX, NO_CUBES, SLOTS, SUPPLY_LIMIT, clocks_of,
                        cubes_from_names, row_of)
from .moves import Move
from .reasons import REASONS
from .rulebook import (add, card_of, collect_payment, deck_of, find_guest, gain_flower, has_guest, missing_of, need_of,
                       one, push_chain, push_right, return_tile, set_at, sub, tiles_available)
from .state import Guest, State
from .tasks import can_place, chooser, joker_candidates, joker_feasible

#: Which move types each phase accepts.
PHASE_MOVES: dict[str, tuple[str, ...]] = {
    "action": ("shop", "welcome", "pass"), "assign": ("give",), "serve": ("serve",), "jokers": ("joker", "done"),
    "arrow": ("arrow",), "discard": ("discard",), "flower": ("flower",), "return": ("return",),
    "draw": ("cube",), "start": ("card",), "reveal": ("card",), "guest": ("card",),
}


def illegal(code: str, player: int | None, pieces, detail: str = "") -> IllegalMove:
    assert code in REASONS, code
    return IllegalMove(code, player, tuple(pieces), (detail or REASONS[code]))


def check_turn(state: State, move: Move) -> None:
    if state.over:
        raise illegal("daluigi.game_over", move.player, (), "The game is over: no more moves.")
    who = chooser(state)
    if move.player != who:
        raise illegal("daluigi.not_your_turn", move.player, (f"player:{move.player}",),
                      f"It is {player_name(who)}'s move now ({state.phase}), not {player_name(move.player)}'s.")
    if move.type not in PHASE_MOVES.get(state.phase, ()):
        raise illegal("daluigi.wrong_phase", move.player, (f"move:{move.type}",),
                      f"The game waits for {'/'.join(PHASE_MOVES[state.phase])}, not {move.type}.")


def perform(state: State, move: Move) -> State:
    """Check ``move`` and return the state right after it (before the task queue runs)."""
    check_turn(state, move)
    return HANDLERS[move.type](state, move)


# --- the turn's action -----------------------------------------------------------------------

def pay_time(state: State, player: int, pushes: tuple[str, ...], clocks: int) -> State:
    """'For every clock shown, the player must push a guest in their ristorante 1 field to the right.
    ... The field the guest is pushed onto must be free! ... If a player cannot pay in full for a
    purchase, they may not carry it out.'  Pushing past "10" is allowed and costs a lemon."""
    paying = 0
    present = {g.card for g in state.strips[player] if g is not None}
    for card_id in pushes:
        slot = find_guest(state, player, card_id)
        if slot is None and card_id in present:
            raise illegal("daluigi.unpaid", player, (f"guest:{card_id}", f"clocks:{clocks}"),
                          f"Guest {card_id} has already left the ristorante: the purchase cannot be paid in full.")
        if slot is None:
            raise illegal("daluigi.unknown_guest", player, (f"guest:{card_id}",),
                          f"Guest {card_id} is not in {player_name(player)}'s ristorante.")
        if slot < SLOTS - 1 and state.strips[player][slot + 1] is not None:
            blocker = state.strips[player][slot + 1].card
            raise illegal("daluigi.field_not_free", player, (f"guest:{card_id}", f"guest:{blocker}"),
                          f"Guest {card_id} cannot move right: guest {blocker} occupies that field.")
        if slot < SLOTS - 1:
            paying += 1
        state = push_right(state, player, slot)
    free_outs = len(pushes) - paying
    extra = state.options.voluntary_push_out == "extra"
    if len(pushes) < clocks or (not extra and len(pushes) > clocks) or (extra and paying > clocks):
        if len(pushes) < clocks:
            raise illegal("daluigi.unpaid", player, (f"clocks:{clocks}",),
                          f"This row costs {clocks} clock(s) but only {len(pushes)} push(es) were made.")
        raise illegal("daluigi.overpaid", player, (f"clocks:{clocks}",),
                      f"This row costs {clocks} clock(s) but {len(pushes)} pushes were made "
                      f"({free_outs} of them push-outs).")
    return state


def shop_allowed_without_guest(state: State, field: int) -> bool:
    """Option final_round_without_guest=top_row: a guest-less player may take a top-row field."""
    return (state.final_round and state.options.final_round_without_guest == "top_row" and row_of(field) == 1)


def _shop(state: State, move: Move) -> State:
    """'The player takes all the food dice from one market field and places them in their supply.'"""
    p = move.player
    if not has_guest(state, p) and not shop_allowed_without_guest(state, move.field):
        raise illegal("daluigi.no_guest", p, (f"player:{p}",))
    cubes = state.market[move.field]
    if sum(cubes) == 0:
        raise illegal("daluigi.field_empty", p, (f"field:{move.field}",))
    state = pay_time(state, p, move.pushes, clocks_of(move.field))
    state = replace(state, market=set_at(state.market, move.field, NO_CUBES),
                    supply=set_at(state.supply, p, add(state.supply[p], cubes)))
    return replace(state, tasks=(("serve", p), ("end_turn",)))


def _welcome(state: State, move: Move) -> State:
    """'The player takes 1 more guest card than there are players from the guest card pile'; 'As soon
    as the guest card pile is used up during the "Welcome New Guests" action, the end of the game is
    triggered' (missing cards come from the box)."""
    p = move.player
    if state.end_triggered:
        raise illegal("daluigi.final_round_serve_only", p, (f"player:{p}",))
    count = state.players + 1
    pile = max(0, state.pile - count)
    others = tuple(("serve", (p + k) % state.players) for k in range(1, state.players)) \
        if state.options.ability_dice == "end_of_turn" else ()
    tasks = (("reveal",),) * count + (("serve", p),) + others + (("end_turn",),)
    return replace(state, pile=pile, hand=count, end_triggered=pile == 0, tasks=tasks)


def _pass(state: State, move: Move) -> State:
    """'every player ... gets exactly one more turn to acquire food dice and fulfill any remaining open
    orders during the "Serve Guests" action': a player who cannot shop then passes (option
    final_round_without_guest)."""
    from .legal import shop_moves  # the only legal pass is one without a possible purchase
    if not state.final_round or shop_moves(state, move.player):
        raise illegal("daluigi.pass_not_allowed", move.player, (f"player:{move.player}",))
    return replace(state, tasks=(("end_turn",),))


def _give(state: State, move: Move) -> State:
    """'The player must give 1 guest to each other player; they themselves must take 2 guests.'"""
    to, a = move.to, state.active
    if not 0 <= to < state.players or state.given[to] >= (2 if to == a else 1):
        raise illegal("daluigi.give_rule", a, (f"guest:{state.revealed}", f"player:{to}"),
                      f"{player_name(to, capital=True)} cannot receive guest {state.revealed}: each other player "
                      "gets exactly 1 "
                      "guest and the welcoming player keeps 2.")
    card = state.revealed
    return replace(state, given=set_at(state.given, to, state.given[to] + 1), revealed=None,
                   tasks=(("place", to, card),) + state.tasks[1:])


# --- serving ---------------------------------------------------------------------------------

def _serve(state: State, move: Move) -> State:
    """'After shopping, the player must assign all the food dice in their supply to their guests ...
    The player decides which food die goes to which guest. Only food dice that are not needed ...
    remain in the player's supply.'"""
    p = move.player
    strip = list(state.strips[p])
    supply = state.supply[p]
    for card_id, colour in move.place:
        slot = find_guest(state, p, card_id)
        if slot is None:
            raise illegal("daluigi.unknown_guest", p, (f"guest:{card_id}",),
                          f"Guest {card_id} is not in {player_name(p)}'s ristorante.")
        c = COLOUR_INDEX[colour]
        if supply[c] == 0:
            raise illegal("daluigi.cube_not_in_supply", p, (f"cube:{colour}",),
                          f"{player_name(p, capital=True)} has no more {colour} dice in the supply.")
        guest = strip[slot]
        if need_of(card_of(state, card_id), guest)[c] <= 0:
            raise illegal("daluigi.wrong_dish", p, (f"guest:{card_id}", f"cube:{colour}"),
                          f"Guest {card_id} has no open {colour} order field.")
        strip[slot] = Guest(guest.card, add(guest.cubes, one(c)), guest.jokers)
        supply = sub(supply, one(c))
    state = replace(state, strips=set_at(state.strips, p, tuple(strip)), supply=set_at(state.supply, p, supply))
    if can_place(state, p):
        raise illegal("daluigi.must_serve", p, (f"player:{p}",),
                      "A food die in the supply still matches an open order field; all must be placed.")
    state = collect_payment(state, p)
    return replace(state, tasks=(("jokers", p),) + state.tasks[1:])


def _joker(state: State, move: Move) -> State:
    """'2 brown food dice (= dessert) can be used as a joker for 1 food die of any color. 4 food dice
    of any color can likewise be used ... These jokers are only assigned to a guest when doing so
    fulfills that guest's order.'"""
    p = move.player
    slot = find_guest(state, p, move.guest)
    if slot is None:
        raise illegal("daluigi.unknown_guest", p, (f"guest:{move.guest}",),
                      f"Guest {move.guest} is not in {player_name(p)}'s ristorante.")
    pay = cubes_from_names(move.pay, "joker payment")
    if not (sum(pay) == ANY_JOKER or (sum(pay) == BROWN_JOKER and pay[BROWN] == BROWN_JOKER)):
        raise illegal("daluigi.joker_payment", p, tuple(f"cube:{c}" for c in move.pay))
    supply = state.supply[p]
    if any(x > s for x, s in zip(pay, supply)):
        raise illegal("daluigi.cube_not_in_supply", p, tuple(f"cube:{c}" for c in move.pay),
                      f"{player_name(p, capital=True)} does not have {', '.join(move.pay)} in the supply.")
    if slot not in joker_candidates(state, p):
        raise illegal("daluigi.joker_incomplete", p, (f"guest:{move.guest}",),
                      f"A joker for guest {move.guest} would not fulfil its order.")
    guest = state.strips[p][slot]
    rest = sub(supply, pay)
    if not joker_feasible(rest, missing_of(card_of(state, guest.card), guest) - 1):
        raise illegal("daluigi.joker_incomplete", p, (f"guest:{move.guest}",),
                      f"After this payment the other missing fields of guest {move.guest} cannot be paid.")
    guest = Guest(guest.card, guest.cubes, guest.jokers + 1)
    state = replace(state, supply=set_at(state.supply, p, rest), used=add(state.used, pay),
                    strips=set_at(state.strips, p, set_at(state.strips[p], slot, guest)))
    return collect_payment(state, p)


def _done(state: State, move: Move) -> State:
    """Serving ends; 'Only food dice that are not needed — and later also brown dice (jokers) — remain
    in the player's supply.'"""
    p = move.player
    if any(g is not None and g.jokers for g in state.strips[p]):
        raise illegal("daluigi.joker_incomplete", p, (f"player:{p}",),
                      "A guest with jokers on it must be fulfilled before serving ends.")
    return replace(state, tasks=state.tasks[1:])


# --- abilities -------------------------------------------------------------------------------

def _arrow(state: State, move: Move) -> State:
    """'Arrow symbol: The player must push one of their guests 1 field to the right. This can also be
    the new guest with this special ability.' (option arrow_target: onto a free field, or a chain)."""
    p = move.player
    slot = find_guest(state, p, move.guest)
    if slot is None:
        raise illegal("daluigi.unknown_guest", p, (f"guest:{move.guest}",),
                      f"Guest {move.guest} is not in {player_name(p)}'s ristorante.")
    strip = state.strips[p]
    if slot < SLOTS - 1 and strip[slot + 1] is not None:
        if state.options.arrow_target == "free":
            raise illegal("daluigi.field_not_free", p, (f"guest:{move.guest}", f"guest:{strip[slot + 1].card}"),
                          f"Guest {move.guest} cannot move right: guest {strip[slot + 1].card} is there.")
        state = push_chain(state, p, slot + 1)
    state = push_right(state, p, slot)
    return replace(state, tasks=state.tasks[1:])


def _discard(state: State, move: Move) -> State:
    """'Discard symbol: The player must discard something: either 1 food die (from their supply or from
    one of their guests), 1 flower bouquet, or 1 lemon.' (option discarded_cube: where the die goes)."""
    p = move.player
    if move.what in ("flower", "lemon"):
        have = state.tiles[p]
        if (move.what == "flower" and have <= 0) or (move.what == "lemon" and have >= 0):
            raise illegal("daluigi.nothing_to_discard", p, (f"tile:{move.what}",),
                          f"{player_name(p, capital=True)} has no {move.what} to discard.")
        state = return_tile(state, flower=move.what == "flower")
        state = replace(state, tiles=set_at(state.tiles, p, have - 1 if have > 0 else have + 1))
        return replace(state, tasks=state.tasks[1:])
    c = COLOUR_INDEX[move.colour]
    if move.guest is None:
        if state.supply[p][c] == 0:
            raise illegal("daluigi.nothing_to_discard", p, (f"cube:{move.colour}",),
                          f"{player_name(p, capital=True)} has no {move.colour} die in the supply.")
        state = replace(state, supply=set_at(state.supply, p, sub(state.supply[p], one(c))))
    else:
        slot = find_guest(state, p, move.guest)
        if slot is None or state.strips[p][slot].cubes[c] == 0:
            raise illegal("daluigi.nothing_to_discard", p, (f"guest:{move.guest}", f"cube:{move.colour}"),
                          f"Guest {move.guest} of {player_name(p)} has no {move.colour} die on it.")
        g = state.strips[p][slot]
        g = Guest(g.card, sub(g.cubes, one(c)), g.jokers)
        state = replace(state, strips=set_at(state.strips, p, set_at(state.strips[p], slot, g)))
    if state.options.discarded_cube == "bag":
        state = replace(state, bag=add(state.bag, one(c)))
    else:
        state = replace(state, used=add(state.used, one(c)))
    return replace(state, tasks=state.tasks[1:])


def _flower(state: State, move: Move) -> State:
    """'Flower symbol: The player may take 1 tile from the marketplace and place it flower-side up.'"""
    p = move.player
    if move.take:
        if state.tiles[p] >= 0 and not tiles_available(state, flower=True):
            raise illegal("daluigi.flower_unavailable", p, ("tile:flower",))
        state = gain_flower(state, p)
    return replace(state, tasks=state.tasks[1:])


def _return(state: State, move: Move) -> State:
    """'every player who has more than 10 food dice in their supply must place dice of their choice back
    in the bag until they have only 10 left.'"""
    p = move.player
    cubes = cubes_from_names(move.cubes, "returned dice")
    supply = state.supply[p]
    if sum(cubes) != sum(supply) - SUPPLY_LIMIT or any(x > s for x, s in zip(cubes, supply)):
        raise illegal("daluigi.return_count", p, tuple(f"cube:{c}" for c in move.cubes),
                      f"{player_name(p, capital=True)} must return exactly {sum(supply) - SUPPLY_LIMIT} dice from "
                      "the supply.")
    return replace(state, supply=set_at(state.supply, p, sub(supply, cubes)), bag=add(state.bag, cubes),
                   tasks=state.tasks[1:])


# --- chance ----------------------------------------------------------------------------------

def _cube(state: State, move: Move) -> State:
    """A food die drawn from the bag to where the rules send it (a market field or a supply)."""
    c = COLOUR_INDEX[move.colour]
    if state.bag[c] == 0:
        raise illegal("daluigi.cube_not_in_bag", None, (f"cube:{move.colour}",),
                      f"No {move.colour} die is left in the bag.")
    head = state.tasks[0]
    state = replace(state, bag=sub(state.bag, one(c)), tasks=state.tasks[1:])
    if head[1] == "field":
        return replace(state, market=set_at(state.market, head[2], add(state.market[head[2]], one(c))))
    return replace(state, supply=set_at(state.supply, head[2], add(state.supply[head[2]], one(c))))


def card_pool(state: State) -> tuple[str, ...]:
    """Cards the head chance task may draw."""
    head = state.tasks[0]
    if head[0] == "start":
        kind = deck_of(state).starts_short if head[2] == 0 else deck_of(state).starts_long
        return tuple(c for c in state.starts if c in kind)
    return state.unseen


def _card(state: State, move: Move) -> State:
    """A guest card drawn: a start card at setup, a card revealed while welcoming, or one drawn by the
    guest ability ('draw 1 (additional) guest from the face-down guest card pile')."""
    if move.card not in card_pool(state):
        raise illegal("daluigi.wrong_card", None, (f"guest:{move.card}",),
                      f"Guest card {move.card} cannot be drawn now.")
    head, rest = state.tasks[0], state.tasks[1:]
    if head[0] == "start":
        return replace(state, starts=tuple(c for c in state.starts if c != move.card),
                       tasks=(("place", head[1], move.card),) + rest)
    unseen = tuple(c for c in state.unseen if c != move.card)
    if head[0] == "reveal":
        return replace(state, unseen=unseen, hand=state.hand - 1, revealed=move.card,
                       tasks=(("assign",),) + rest)
    pile = max(0, state.pile - 1)
    return replace(state, unseen=unseen, pile=pile, end_triggered=state.end_triggered or pile == 0,
                   tasks=(("place", head[1], move.card),) + rest)


HANDLERS = {"shop": _shop, "welcome": _welcome, "pass": _pass, "give": _give, "serve": _serve, "joker": _joker,
            "done": _done, "arrow": _arrow, "discard": _discard, "flower": _flower, "return": _return,
            "cube": _cube, "card": _card}
