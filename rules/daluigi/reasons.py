"""Reason codes of Da Luigi: each names one rule a move or a position can break."""

from __future__ import annotations

REASONS: dict[str, str] = {
    # moves (apply raises IllegalMove with these)
    "daluigi.game_over": "The game is over: no more moves.",
    "daluigi.not_your_turn": "Another player (or chance) is to move now.",
    "daluigi.wrong_phase": "This kind of move is not what the game waits for now.",
    "daluigi.no_guest": "Serving guests needs at least one guest in the ristorante.",
    "daluigi.field_empty": "Shopping takes all the food dice of one market field; this field is empty.",
    "daluigi.unpaid": "Every clock of the row must be paid by pushing guests; no partial payment.",
    "daluigi.overpaid": "More pushes than the row's clocks (a free push-out needs option voluntary_push_out=extra).",
    "daluigi.field_not_free": "A guest may only be pushed onto a free field.",
    "daluigi.unknown_guest": "No such guest lies in this player's ristorante.",
    "daluigi.final_round_serve_only": "In the final round every player may only serve guests.",
    "daluigi.pass_not_allowed": "Passing is only allowed in the final round when no shopping is possible.",
    "daluigi.wrong_dish": "A food die may only lie on an open order field of its own colour.",
    "daluigi.cube_not_in_supply": "The player does not have these food dice in the supply.",
    "daluigi.must_serve": "All food dice that match an open order field must be placed on the guests.",
    "daluigi.joker_incomplete": "A joker may only be used when it fulfils the guest's order.",
    "daluigi.joker_payment": "A joker is paid with exactly 2 brown dice or 4 dice of any colour.",
    "daluigi.give_rule": "The welcoming player gives 1 guest to each other player and keeps 2.",
    "daluigi.wrong_card": "That guest card cannot be drawn now (already seen, or not a start card of this kind).",
    "daluigi.cube_not_in_bag": "No food die of that colour is left in the bag.",
    "daluigi.nothing_to_discard": "The player does not have what they discard.",
    "daluigi.flower_unavailable": "No flower tile can be taken.",
    "daluigi.return_count": "Return exactly the dice above 10, from the supply, into the bag.",
    # positions and observed changes (violations and the referee report these)
    "daluigi.wrong_segment": "A new guest must lie under the time segment of its waiting time.",
    "daluigi.one_field": "Shopping takes the dice of one single market field.",
    "daluigi.guest_moved_left": "Guests only ever move to the right on the strip.",
    "daluigi.lemons_and_flowers": "A player has either only lemons or only flower bouquets.",
    "daluigi.market_overfull": "A market field holds more food dice than its row is filled with.",
    "daluigi.cube_count": "More food dice of a colour are in play than the game has.",
    "daluigi.order_not_collected": "A fulfilled order must be cleared to the served pile.",
    "daluigi.unexplained": "The change seen cannot be explained by legal moves.",
}
