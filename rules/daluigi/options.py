"""Table options: every ambiguity of the rulebook, with the rulebook's reading as default."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from ..common import with_defaults
from ..errors import InvalidInput
from .catalogue import TILES

#: Allowed values of each text option (the first is the default).
CHOICES: dict[str, tuple[str, ...]] = {
    "voluntary_push_out": ("paying", "extra"),
    "flower_guest_out": ("flower", "lemon"),
    "arrow_target": ("free", "chain"),
    "ability_dice": ("end_of_turn", "immediately", "own_turn"),
    "jokers": ("together", "each"),
    "final_round_without_guest": ("pass", "top_row"),
    "discarded_cube": ("used", "bag"),
    "ten_dice_check": ("when_short", "end_of_turn"),
    "tile_return": ("market", "box"),
    "tile_piles": ("shared", "separate"),
}
#: Flower-side tiles at setup; the other 18 of the 35 lie lemon side up.
DEFAULT_FLOWER_TILES = 17


@dataclass(frozen=True)
class Options:
    """Validated table options (see docs/rules.md for each one's rulebook words)."""

    deck: str = ""
    voluntary_push_out: str = "paying"
    flower_guest_out: str = "flower"
    arrow_target: str = "free"
    ability_dice: str = "end_of_turn"
    jokers: str = "together"
    final_round_without_guest: str = "pass"
    discarded_cube: str = "used"
    ten_dice_check: str = "when_short"
    tile_return: str = "market"
    tile_piles: str = "shared"
    flower_tiles: int = DEFAULT_FLOWER_TILES

    def __post_init__(self) -> None:
        for name, allowed in CHOICES.items():
            value = getattr(self, name)
            if value not in allowed:
                raise InvalidInput(f"option {name!r} must be one of {', '.join(allowed)}, got {value!r}")
        if not isinstance(self.deck, str):
            raise InvalidInput(f"option 'deck' must be a path (a string, '' for the shipped deck), got {self.deck!r}")
        if isinstance(self.flower_tiles, bool) or not isinstance(self.flower_tiles, int) \
                or not 0 <= self.flower_tiles <= TILES:
            raise InvalidInput(f"option 'flower_tiles' must be an integer 0 to {TILES}, got {self.flower_tiles!r}")

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data) -> "Options":
        return cls(**with_defaults("Da Luigi", cls().to_json(), data))


DEFAULT_OPTIONS: dict = Options().to_json()
