"""Typed errors of the rules engines.

A *malformed* move or state (bad JSON, unknown move type, a field of the wrong type) is an
:class:`InvalidInput`; a well-formed move that the rules forbid is an :class:`IllegalMove`,
which carries a stable reason code, the player, the pieces involved and one plain sentence.
"""

from __future__ import annotations


class RulesError(Exception):
    """Base of every error raised by :mod:`tableref.rules`."""


class InvalidInput(RulesError, ValueError):
    """A state, move, observation or option that is malformed (not merely illegal)."""


class IllegalMove(RulesError):
    """A well-formed move that the rules forbid.

    Attributes
    ----------
    code : str
        Stable reason code, e.g. ``"daluigi.field_not_free"``. Tests and the dashboard key on it.
    player : int or None
        Index of the player who made the move (``None`` for chance events).
    pieces : tuple of str
        Human-readable names of the pieces involved, e.g. ``("guest:G17", "field:2")``.
    sentence : str
        One plain sentence a player understands.
    """

    def __init__(self, code: str, player: int | None, pieces: tuple[str, ...] | list[str], sentence: str):
        super().__init__(f"{code}: {sentence}")
        self.code = code
        self.player = player
        self.pieces = tuple(pieces)
        self.sentence = sentence

    def to_json(self) -> dict:
        return {"code": self.code, "player": self.player, "pieces": list(self.pieces), "sentence": self.sentence}
