"""Table options: every point where the rulebook is silent or contradicts itself.

Each option's default is the rulebook's reading where there is one; ``OPTION_DOCS`` quotes the
words behind it (docs/rules.md lists them all).
"""

from __future__ import annotations

from typing import Any

from ..common import with_defaults
from ..errors import InvalidInput
from .catalogue import MONEY_CARDS, MONEY_LOW_CARDS

#: Rounds by player count: "one round per player with 4 or 5 players but 6 rounds if there
#: are only 3 players".  Two players are not covered: see the option ``two_player_rounds``.
ROUNDS_BY_PLAYERS = {3: 6, 4: 4, 5: 5}

TRADE_IN_TOP = "top"
TRADE_IN_PLACE = "place"
SHORT_NOTHING = "nothing"
SHORT_CLOSED = "closed"
TIE_SHARED = "shared"
TIE_MONEY = "most_money"
TIE_GOODS = "most_goods"

DEFAULT_OPTIONS: dict[str, Any] = {
    "trade_in": TRADE_IN_TOP,
    "one_of_each_in_round_one": True,
    "all_tie_turns_column": False,
    "rounds": None,
    "two_player_rounds": 6,
    "short_column": SHORT_NOTHING,
    "tiebreak": TIE_SHARED,
    "money_low_cards": MONEY_LOW_CARDS,
}

#: option -> the rulebook's words and the reading taken by default
OPTION_DOCS: dict[str, str] = {
    "trade_in": ("Where a traded-in good goes. Note: 'we suggest that the card being exchanged should be "
                 "placed at the TOP of the row' (default 'top'); main text: 'he puts the card ... into the "
                 "row from which he has gotten his new car' ('place': into the slot the new card left)."),
    "one_of_each_in_round_one": ("'now there is a special rule when collecting. Players may only ever possess "
                                 "one piece of each luxury property': true (default) applies it from the "
                                 "first round ('only ever'), false from the second ('now')."),
    "all_tie_turns_column": ("All players under a column tie, so nobody gets a card: does 'If no number cards "
                             "are placed under a row the bottom card is removed and placed at the top' apply? "
                             "Default false: cards were placed there."),
    "rounds": ("Number of rounds; null (default) takes 'one round per player with 4 or 5 players but 6 rounds "
               "if there are only 3 players'."),
    "two_player_rounds": ("Rounds with 2 players, which the rulebook does not cover. Default 6: as with 3 "
                          "players, every player starts the same number of rounds."),
    "short_column": ("A column that runs out of cards is not covered. 'nothing' (default): players ranked "
                     "beyond its last card get nothing. 'closed': no number card may be placed under a "
                     "column without cards."),
    "tiebreak": ("'The richest player wins' gives no tie-break. 'shared' (default): tied players share the "
                 "win; 'most_money': more money wins; 'most_goods': more goods value wins."),
    "money_low_cards": (f"How many of the {MONEY_CARDS} money cards are worth 100,000 (the rest 200,000); "
                        f"not published, {MONEY_LOW_CARDS} assumed."),
}

_CHOICES: dict[str, tuple[Any, ...]] = {
    "trade_in": (TRADE_IN_TOP, TRADE_IN_PLACE),
    "one_of_each_in_round_one": (True, False),
    "all_tie_turns_column": (True, False),
    "short_column": (SHORT_NOTHING, SHORT_CLOSED),
    "tiebreak": (TIE_SHARED, TIE_MONEY, TIE_GOODS),
}


def _positive_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def check_options(options: dict | None) -> tuple[tuple[str, Any], ...]:
    """All options with defaults filled in, as sorted ``(name, value)`` pairs; InvalidInput when wrong."""
    merged = with_defaults("Dolce Vita", DEFAULT_OPTIONS, options)
    for name, choices in _CHOICES.items():
        value = merged[name]
        if not any(value == c and type(value) is type(c) for c in choices):
            raise InvalidInput(f"option {name!r} must be one of {list(choices)}, got {value!r}")
    if merged["rounds"] is not None and not _positive_int(merged["rounds"]):
        raise InvalidInput(f"option 'rounds' must be null or a positive integer, got {merged['rounds']!r}")
    if not _positive_int(merged["two_player_rounds"]):
        raise InvalidInput(f"option 'two_player_rounds' must be a positive integer, got {merged['two_player_rounds']!r}")
    low = merged["money_low_cards"]
    if not (isinstance(low, int) and not isinstance(low, bool) and 0 <= low <= MONEY_CARDS):
        raise InvalidInput(f"option 'money_low_cards' must be an integer in 0..{MONEY_CARDS}, got {low!r}")
    return tuple(sorted(merged.items()))


def rounds_for(players: int, options: dict) -> int:
    """How many rounds a game of ``players`` lasts under ``options``."""
    if options["rounds"] is not None:
        return options["rounds"]
    if players == 2:
        return options["two_player_rounds"]
    return ROUNDS_BY_PLAYERS[players]
