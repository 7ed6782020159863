"""What happens in a refereed game, as records committed to the game log before they are shown.

An :class:`EventDraft` is what the session wants to record; :meth:`GameLog.append
<tableref.gamelog.GameLog.append>` commits it and returns the :class:`Event`, numbered within
its game. Kinds (:data:`KINDS`):

``game_started``    a game began (data: game, players, options, seed)
``move_accepted``   a legal change was seen (data: moves, score)
``illegal_flagged`` a change no legal move explains (data: violations with player, code, rule and
                    sentence, moves, score; snapshot: the frame with the offending piece outlined)
``flag_accepted``   the players let a flagged change stand (data: flag = the flagged event's seq)
``flag_undone``     the players took a flagged change back (data: flag; state: the state before it)
``flag_withdrawn``  the camera's flag closed by itself: a later reading, legal from the state before
                    it, plainly showed what it saw gone (a misreading, or the piece taken back);
                    data: flag; state: the state before it
``move_revised``    moves accepted last revised: a later reading plainly shows what they saw gone and
                    is explained better from the state before them (a misreading taken in); data:
                    moves = their events' seqs, places; state: the state before them
``state_corrected`` a player corrected a misread item or the state on the dashboard (data: how =
                    reading or state, moves, violations, score), or put the table back as the game
                    has it (data: how = table, changes)
``unexplained_change`` the table changed but no move explains it (data: changes, each place with
                    what it held and holds; differs_from_state; snapshot: the frame as read)
``round_end``       a round was scored (data: round, score)
``game_end``        the game is over (data: score with the winners)
``game_stopped``    the game was stopped from the dashboard before its end
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

from .input import InputError

KINDS = ("game_started", "move_accepted", "illegal_flagged", "flag_accepted", "flag_undone", "flag_withdrawn",
         "move_revised", "state_corrected", "unexplained_change", "round_end", "game_end", "game_stopped")
#: Kinds that may leave a decision open (accept or undo) when they carry violations.
FLAGGING_KINDS = ("illegal_flagged", "state_corrected")
#: Kinds that close a flag.
DECISION_KINDS = ("flag_accepted", "flag_undone", "flag_withdrawn")
#: Longest one-line summary stored (characters).
MAX_SUMMARY = 300


class EventError(InputError):
    """An event record that is malformed."""


def _check_json(value: Any, what: str) -> None:
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise EventError(f"event {what} must be plain JSON, got {type(value).__name__}: {exc}") from None


@dataclass(frozen=True, eq=False)
class EventDraft:
    """An event not yet committed.

    Attributes
    ----------
    kind : str
        One of :data:`KINDS`.
    summary : str
        One line for the event log, naming the player and what happened.
    player : int or None
        The player concerned (index from 0), None when it concerns no one player.
    data : dict
        Kind-specific JSON (see the module docstring).
    state : dict or None
        The game state after the event (its JSON), None when the event does not change it.
    snapshot : bytes or None
        A JPEG of the frame, for flags: the offending piece outlined.
    """

    kind: str
    summary: str
    player: int | None = None
    data: dict = field(default_factory=dict)
    state: dict | None = None
    snapshot: bytes | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise EventError(f"unknown event kind {self.kind!r}; expected one of {', '.join(KINDS)}")
        if not isinstance(self.summary, str) or not self.summary.strip():
            raise EventError(f"event {self.kind} needs a one-line summary, got {self.summary!r}")
        object.__setattr__(self, "summary", " ".join(self.summary.split())[:MAX_SUMMARY])
        if self.player is not None and (isinstance(self.player, bool) or not isinstance(self.player, int)
                                        or self.player < 0):
            raise EventError(f"event player must be a player index >= 0 or None, got {self.player!r}")
        if not isinstance(self.data, dict):
            raise EventError(f"event data must be a JSON object, got {type(self.data).__name__}")
        _check_json(self.data, "data")
        if self.state is not None:
            if not isinstance(self.state, dict):
                raise EventError(f"event state must be a state's JSON object or None, got {type(self.state).__name__}")
            _check_json(self.state, "state")
        if self.snapshot is not None and not isinstance(self.snapshot, (bytes, bytearray)):
            raise EventError(f"event snapshot must be JPEG bytes or None, got {type(self.snapshot).__name__}")


@dataclass(frozen=True, eq=False)
class Event:
    """A committed event: a draft with its game, number and time.

    Attributes
    ----------
    game_id : str
    seq : int
        Number of the event within its game, from 1, without gaps.
    at : float
        When it was committed, seconds since the Unix epoch.
    kind, summary, player, data, state, snapshot
        As in :class:`EventDraft`.
    """

    game_id: str
    seq: int
    at: float
    kind: str
    summary: str
    player: int | None
    data: dict
    state: dict | None
    snapshot: bytes | None = None

    def __post_init__(self) -> None:
        if isinstance(self.seq, bool) or not isinstance(self.seq, int) or self.seq < 1:
            raise EventError(f"event seq counts from 1, got {self.seq!r}")
        if not isinstance(self.at, (int, float)) or not math.isfinite(self.at):
            raise EventError(f"event time must be a finite number of seconds, got {self.at!r}")

    @property
    def flag_open_candidate(self) -> bool:
        """True for an event the players may still accept or undo (it carries violations)."""
        return self.kind in FLAGGING_KINDS and bool(self.data.get("violations"))

    def to_json(self, *, with_state: bool = False) -> dict[str, Any]:
        """The event as JSON (the snapshot only as ``has_snapshot``; the state on request)."""
        out: dict[str, Any] = {"game_id": self.game_id, "seq": self.seq, "at": self.at, "kind": self.kind,
                               "summary": self.summary, "player": self.player, "data": self.data,
                               "has_snapshot": self.snapshot is not None}
        if with_state:
            out["state"] = self.state
        return out


def open_flags(events: list[Event]) -> list[Event]:
    """The flagged events of one game not yet accepted, undone or withdrawn, oldest first."""
    decided = {e.data.get("flag") for e in events if e.kind in DECISION_KINDS}
    return [e for e in events if e.flag_open_candidate and e.seq not in decided]


def standing_flags(events: list[Event]) -> list[Event]:
    """The camera's open flags (``illegal_flagged``, neither accepted, undone nor withdrawn) that
    the state now stands on: the run of them since the last other change of state, latest first.

    A flag raised before a move was accepted, or before a correction, belongs to an earlier
    position: a new flag that names the same rule and pieces is news, not a repeat.
    """
    still_open = {e.seq for e in open_flags(events)}
    out = []
    for event in reversed([e for e in events if e.state is not None]):
        if event.kind != "illegal_flagged" or event.seq not in still_open:
            break
        out.append(event)
    return out
