"""The rules of Da Luigi that change a state, one short function each.

Every function takes a state and returns a new one; none checks whose turn it is (the move
handlers in :mod:`.actions` do).  Cube collections are count vectors.
"""

from __future__ import annotations

from .state import evolve as replace

from .catalogue import COLOURS, SLOTS, SUPPLY_LIMIT, GuestCard, load_deck, slot_of_wait
from .state import Guest, State


def deck_of(state: State):
    return load_deck(state.options.deck)


def card_of(state: State, card_id: str) -> GuestCard:
    return load_deck(state.options.deck).cards[card_id]


def dice_in_sight(state: State) -> list[tuple[int, ...]]:
    """The dice a camera can see, as count vectors: each market field, each supply, each guest's
    order fields (not the bag, not the used dice beside the market)."""
    return list(state.market) + list(state.supply) + [g.cubes for strip in state.strips for g in strip
                                                      if g is not None]


def add(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(x + y for x, y in zip(a, b))


def sub(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(x - y for x, y in zip(a, b))


def one(colour: int) -> tuple[int, ...]:
    return tuple(1 if i == colour else 0 for i in range(len(COLOURS)))


def set_at(seq: tuple, index: int, value) -> tuple:
    return seq[:index] + (value,) + seq[index + 1:]


def need_of(card: GuestCard, guest: Guest) -> tuple[int, ...]:
    """Open order fields of a guest, per colour (never negative: a die the guest did not order, put
    there against the rules, opens or fills no field)."""
    return tuple(o - c if o > c else 0 for o, c in zip(card.order, guest.cubes))


def unordered_of(card: GuestCard, guest: Guest) -> tuple[int, ...]:
    """Dice lying on a guest beyond its order, per colour ('place them on the matching open fields of
    their orders': these lie on a field of another colour)."""
    return tuple(c - o if c > o else 0 for o, c in zip(card.order, guest.cubes))


def missing_of(card: GuestCard, guest: Guest) -> int:
    """Order fields still empty (jokers fill fields of any colour; a die of a colour not ordered fills
    none)."""
    return sum(need_of(card, guest)) - guest.jokers


def find_guest(state: State, player: int, card_id: str) -> int | None:
    """Slot of a guest card in a player's ristorante, or None."""
    for slot, guest in enumerate(state.strips[player]):
        if guest is not None and guest.card == card_id:
            return slot
    return None


def has_guest(state: State, player: int) -> bool:
    return any(g is not None for g in state.strips[player])


# --- tiles -----------------------------------------------------------------------------------

def return_tile(state: State, flower: bool) -> State:
    """'1 lemon is instead returned to the supply' (option tile_return: marketplace or box)."""
    if state.options.tile_return == "box":
        return replace(state, box_tiles=state.box_tiles + 1)
    if flower:
        return replace(state, market_flowers=state.market_flowers + 1)
    return replace(state, market_lemons=state.market_lemons + 1)


def take_tile(state: State, flower: bool) -> State | None:
    """Take a tile from its marketplace field (with shared piles a tile is flipped when its side's field is empty)."""
    own, other = ("market_flowers", "market_lemons") if flower else ("market_lemons", "market_flowers")
    if getattr(state, own) > 0:
        return replace(state, **{own: getattr(state, own) - 1})
    if state.options.tile_piles == "shared" and getattr(state, other) > 0:
        return replace(state, **{other: getattr(state, other) - 1})
    return None


def tiles_available(state: State, flower: bool) -> bool:
    if state.options.tile_piles == "shared":
        return state.market_flowers + state.market_lemons > 0
    return (state.market_flowers if flower else state.market_lemons) > 0


def gain_lemon(state: State, player: int) -> State:
    """'The owner of the ristorante must take 1 tile and place it lemon-side up'; a flower cancels it
    ('A player can have either only lemons or only flower bouquets in front of them')."""
    have = state.tiles[player]
    if have > 0:
        state = return_tile(state, flower=True)
        return replace(state, tiles=set_at(state.tiles, player, have - 1))
    taken = take_tile(state, flower=False)
    if taken is None:
        return state
    return replace(taken, tiles=set_at(taken.tiles, player, have - 1))


def gain_flower(state: State, player: int) -> State:
    """'If a player already has, for example, 2 lemons and would receive 1 flower bouquet, 1 lemon is
    instead returned to the supply.'"""
    have = state.tiles[player]
    if have < 0:
        state = return_tile(state, flower=False)
        return replace(state, tiles=set_at(state.tiles, player, have + 1))
    taken = take_tile(state, flower=True)
    if taken is None:
        return state
    return replace(taken, tiles=set_at(taken.tiles, player, have + 1))


# --- guests on the strip ---------------------------------------------------------------------

def guest_leaves(state: State, player: int, slot: int) -> State:
    """'Whenever a guest is pushed past time segment "10," they leave the ristorante. ... If there are
    still food dice on the card, they are placed next to the marketplace. The card is then placed on
    the blue discard field ... The owner of the ristorante must take 1 tile and place it lemon-side up'
    (a flower-bouquet guest gives a flower instead: option flower_guest_out)."""
    guest = state.strips[player][slot]
    card = card_of(state, guest.card)
    strip = set_at(state.strips[player], slot, None)
    state = replace(state, strips=set_at(state.strips, player, strip), used=add(state.used, guest.cubes),
                    discard=state.discard + (guest.card,))
    if card.ability == "flower" and state.options.flower_guest_out == "flower":
        return gain_flower(state, player)
    return gain_lemon(state, player)


def push_right(state: State, player: int, slot: int) -> State:
    """'For every clock shown, the player must push a guest in their ristorante 1 field to the right.'
    From the last slot the guest leaves (the caller checks that the target field is free)."""
    if slot == SLOTS - 1:
        return guest_leaves(state, player, slot)
    strip = state.strips[player]
    strip = strip[:slot] + (None, strip[slot]) + strip[slot + 2:]
    return replace(state, strips=set_at(state.strips, player, strip))


def push_chain(state: State, player: int, slot: int) -> State:
    """'If a guest is already there, it must be pushed 1 field to the right ... If a guest is already on
    that field too, it must likewise be pushed, and so on.'"""
    strip = state.strips[player]
    end = slot
    while end < SLOTS and strip[end] is not None:
        end += 1
    if end == SLOTS:
        state = guest_leaves(state, player, SLOTS - 1)
        strip = state.strips[player]
        end = SLOTS - 1
    strip = strip[:slot] + (None,) + strip[slot:end] + strip[end + 1:]
    return replace(state, strips=set_at(state.strips, player, strip))


def place_guest(state: State, player: int, card_id: str) -> State:
    """'The player who receives a guest must place it on the field below the time segment of their
    ristorante strip that matches the guest's waiting time.'"""
    slot = slot_of_wait(card_of(state, card_id).wait)
    if state.strips[player][slot] is not None:
        state = push_chain(state, player, slot)
    strip = set_at(state.strips[player], slot, Guest(card_id, (0,) * len(COLOURS)))
    return replace(state, strips=set_at(state.strips, player, strip))


def collect_payment(state: State, player: int) -> State:
    """'Once the player has placed all the desired food dice on a guest card, that order counts as
    fulfilled. ... The used food dice are placed next to the marketplace. They do not go back into the
    bag! The card is then placed face down on the pile of fulfilled orders.'"""
    strip = state.strips[player]
    for slot, guest in enumerate(strip):
        if guest is not None and missing_of(card_of(state, guest.card), guest) == 0:
            state = replace(state, used=add(state.used, guest.cubes),
                            served=set_at(state.served, player, state.served[player] + (guest.card,)))
            strip = set_at(strip, slot, None)
    return replace(state, strips=set_at(state.strips, player, strip))


def over_limit(state: State) -> list[int]:
    """'every player who has more than 10 food dice in their supply must place dice of their choice
    back in the bag until they have only 10 left' (players in turn order from the active one)."""
    order = [(state.active + k) % state.players for k in range(state.players)]
    return [p for p in order if sum(state.supply[p]) > SUPPLY_LIMIT]
