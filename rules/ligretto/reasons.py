"""Reason codes of Ligretto, each with one line a player understands."""

from __future__ import annotations

REASONS: dict[str, str] = {
    "ligretto.colours_mismatch": "The card's colours do not match the spaces it covers.",
    "ligretto.wrong_way_round": "The card's colours match the spaces but lie the wrong way round "
                                "(a mistake under option wrong_way_round='mistake').",
    "ligretto.touches_no_token": "The card does not touch the space of a Ligretto token along an edge.",
    "ligretto.corner_only": "The card touches the Ligretto token's space only at a corner.",
    "ligretto.covers_card": "The card conceals a card (or joker) already on the board.",
    "ligretto.covers_token": "The card covers the space a Ligretto token stands on.",
    "ligretto.token_not_farther": "The Ligretto token was put on the nearer half of the card, not the farther one.",
    "ligretto.joker_other_player": "A card was put next to another player's joker.",
    "ligretto.joker_not_followed": "A joker was not followed at once by its owner's card next to it.",
    "ligretto.joker_space": "A joker was played next to a token on a bare space (option joker_from_start=false).",
    "ligretto.relocation_skipped": "The player owes a card that moves a blocked token and played elsewhere.",
    "ligretto.not_blocked": "A card moved a token to a free place although it is not a blocked token of that player.",
    "ligretto.not_in_hand": "The card or joker is not in that player's hand.",
    "ligretto.off_board": "The card or joker lies off the board's spaces.",
    "ligretto.round_over": "A card was put down after the round was over.",
    "ligretto.round_cleared": "The board was cleared while every player still held cards as the game has it.",
    "ligretto.contested": "Two cards were put on the same space at once: the first stays, the other is taken back.",
    "ligretto.player_board": "Only players who scored nothing put cards on their player board, exactly two.",
    "ligretto.token_setup": "The four tokens go on four different spaces, before the first card of a round.",
    "ligretto.not_now": "That move is not allowed at this point of the round.",
}
