"""Reason codes of Dolce Vita: what each means, and the rule function that checks it."""

from __future__ import annotations

#: reason code -> one-line description
REASONS: dict[str, str] = {
    "dolcevita.game_over": "The game is over after the stated number of rounds: no more moves.",
    "dolcevita.wrong_phase": "The move does not fit this moment of the game (e.g. laying out cards after the start).",
    "dolcevita.not_in_box": "A card laid out at the start must be one still in the deck.",
    "dolcevita.not_your_turn": "Players place number cards in turn, clockwise from the start player.",
    "dolcevita.not_in_hand": "A player can only place a number card of their colour that they still hold.",
    "dolcevita.placing_over": "Placing ends when every player has only one number card left.",
    "dolcevita.column_closed": "With short_column = 'closed', no number card goes under a column without cards.",
    "dolcevita.still_placing": "Cards are handed out only when every player has one number card left.",
    "dolcevita.wrong_column": "The columns are handed out one after the other, from left to right.",
    "dolcevita.not_sorted": "The number cards are taken back only when all columns are handed out.",
    "dolcevita.number_card_removed": "A number card left its column before all columns were handed out.",
    "dolcevita.card_moved": "A luxury card moved while no cards were being handed out.",
    "dolcevita.wrong_distribution": "The cards were not handed out as the rules say (highest total gets the bottom card...).",
    "dolcevita.two_of_a_kind": "A player may only own one card of each luxury good.",
    "dolcevita.card_count": "The 66 luxury cards must each lie in exactly one place.",
    "dolcevita.number_cards": "Each player has the six number cards 1-6 of one colour, in hand or under a column.",
}

#: reason code -> name of the rule function that implements it
RULES: dict[str, str] = {
    "dolcevita.game_over": "end_of_round",
    "dolcevita.wrong_phase": "apply",
    "dolcevita.not_in_box": "_deal",
    "dolcevita.not_your_turn": "next_placer",
    "dolcevita.not_in_hand": "_place",
    "dolcevita.placing_over": "place_card",
    "dolcevita.column_closed": "column_is_open",
    "dolcevita.still_placing": "_resolve",
    "dolcevita.wrong_column": "_resolve",
    "dolcevita.not_sorted": "_collect",
    "dolcevita.number_card_removed": "_collect",
    "dolcevita.card_moved": "hand_out",
    "dolcevita.wrong_distribution": "hand_out",
    "dolcevita.two_of_a_kind": "one_of_each",
    "dolcevita.card_count": "all_luxury_cards",
    "dolcevita.number_cards": "all_number_cards",
}
