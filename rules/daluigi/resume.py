"""The state a game continues from when no legal sequence explains what the camera saw.

The referee never stops a game: it flags the rules broken and hands the players a state the
engine can play on.  That state is the position as seen (:func:`~.overlay.overlay`), with the
turn's bookkeeping set as the rules would have it, and with what the players put right after
the flag already put right:

- a purchase seen while the game waited for the turn's action is a purchase: the player then
  serves and the turn ends as after any purchase (``("serve", p), ("end_turn",)``);
- a food die on an order field of another colour goes back to the owner's supply;
- then the task queue runs as after any move (serving that has only one way, skipped
  decisions, the refill of empty rows).
"""

from __future__ import annotations

from .catalogue import FIELDS
from .engine import resume
from .rulebook import add, card_of, set_at, sub, unordered_of
from .state import Guest, State
from .state import evolve as replace


def fields_taken(before: State, after: State) -> list[int]:
    """Market fields that lost dice from ``before`` to ``after``."""
    return [f for f in range(FIELDS) if any(y < x for x, y in zip(before.market[f], after.market[f]))]


def purchase_base(before: State, after: State) -> State | None:
    """``before`` as it is right after its active player's purchase, when ``after`` shows one made
    while the game waited for the turn's action ('The player takes all the food dice from one
    market field ... Afterward, all food dice for which there is a need must be placed on the
    matching guest cards'); None otherwise."""
    if before.over or before.phase != "action" or not fields_taken(before, after):
        return None
    return replace(before, tasks=(("serve", before.active), ("end_turn",)))


def wrong_dice_back(state: State) -> State:
    """Dice lying on a guest beyond its order go to the owner's supply: 'Food dice for which a player
    has no free field on their guest cards are placed in their supply'.  (The referee reports each
    as ``daluigi.wrong_dish``; putting the die back is what the players do about it.)"""
    strips, supply = list(state.strips), list(state.supply)
    for p, strip in enumerate(state.strips):
        for s, g in enumerate(strip):
            if g is None:
                continue
            extra = unordered_of(card_of(state, g.card), g)
            if any(extra):
                strips[p] = set_at(strips[p], s, Guest(g.card, sub(g.cubes, extra), g.jokers))
                supply[p] = add(supply[p], extra)
    if strips == list(state.strips):
        return state
    return replace(state, strips=tuple(strips), supply=tuple(supply))


def continue_from(seen: State) -> State:
    """The state the verdict hands on: the position as seen, wrong dice back, the tasks run."""
    return resume(wrong_dice_back(seen))
