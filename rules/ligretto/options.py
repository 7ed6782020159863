"""Table options: every ambiguity of the rulebook is one, with the rulebook's reading as default.

See docs/rules.md for the rulebook's words behind each option.
"""

from __future__ import annotations

from typing import Any

from ..common import with_defaults
from ..errors import InvalidInput

#: Option -> default.
DEFAULT_OPTIONS: dict[str, Any] = {
    # "Before playing, the players determine how many rounds ... we recommend playing six rounds."
    "rounds": 6,
    # Board: "auto" (2 players: two_player; 3-4: three_four_player, or the 9-section board when
    # "sections" is 9), a preset name, or a board JSON object.
    "board": "auto",
    # Component list "9 board sections" vs setup "all 10 board sections" (3-4 players).
    "sections": 10,
    # "Those playing decide whether it counts as a mistake or to turn a blind eye."
    "wrong_way_round": "mistake",
    # "touch ... the edges of a space with a Ligretto token" vs "the space or card of the token".
    "touch": "space",
    # "Only the player who used the joker is allowed to put a card next to it": for the
    # follow-up card only, or for the rest of the round.
    "joker_lock": "follow_up",
    # "one of the three free ... spaces next to the Ligretto token": a token on a bare start
    # space has four; allow a joker there too (True) or only next to a token on a card.
    "joker_from_start": True,
    # The player who called stop made a mistake: the two-point chip goes to nobody, or to the
    # participating player(s) with the fewest cards left.
    "stop_mistake": "nobody",
    # Nobody can play: "The player who was able to put down the most cards wins the round."
    "blocked_winner": "most_put_down",
    # A tie for the most cards put down: every tied player takes two points, or nobody does.
    "blocked_tie": "all",
    # Whether jokers count as cards put down.
    "jokers_count": False,
    # Game end tie: all tied players win ("shared") or most rounds won decides.
    "game_tie": "shared",
    # Cul-de-sac: a dead end of the geometry, or a token next to which no card still held fits.
    "cul_de_sac": "geometry",
    # One card blocks two tokens: the player relocates each of them ("all") or only one.
    "relocate": "all",
    # Whether a playable card must be played: a player who owes a relocation and holds a card
    # that fits a free place must put it there next (True), or may play on elsewhere (False).
    "must_play": True,
    # Two players: the other player "is allowed to put two of their cards on their player board".
    "two_player_board": "optional",
}

#: Option -> allowed values (None: see the validator).
CHOICES: dict[str, tuple] = {
    "sections": (9, 10),
    "wrong_way_round": ("mistake", "allowed"),
    "touch": ("space", "card"),
    "joker_lock": ("follow_up", "round"),
    "joker_from_start": (True, False),
    "stop_mistake": ("nobody", "fewest"),
    "blocked_winner": ("most_put_down", "fewest_left"),
    "blocked_tie": ("all", "nobody"),
    "jokers_count": (True, False),
    "game_tie": ("shared", "rounds_won"),
    "cul_de_sac": ("geometry", "colours"),
    "relocate": ("all", "one"),
    "must_play": (True, False),
    "two_player_board": ("optional", "mandatory"),
}

#: The most rounds a game may have (a sanity bound for bad input).
MAX_ROUNDS = 100


def resolve_options(options: dict | None) -> dict[str, Any]:
    """Defaults overlaid with ``options``, each checked; raises InvalidInput naming the option."""
    out = with_defaults("Ligretto", DEFAULT_OPTIONS, options)
    rounds = out["rounds"]
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
        raise InvalidInput(f"option 'rounds' must be an integer 1..{MAX_ROUNDS}, got {rounds!r}")
    if not isinstance(out["board"], (str, dict)):
        raise InvalidInput(f"option 'board' must be 'auto', a preset name or a board object, got {out['board']!r}")
    for key, allowed in CHOICES.items():
        value = out[key]
        if not any(value == a and type(value) is type(a) for a in allowed):
            raise InvalidInput(f"option {key!r} must be one of {list(allowed)}, got {value!r}")
    return out
