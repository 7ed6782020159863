"""The live session: a frame source through the motion gate and a game's recogniser to the
referee, every event committed to the game log before it is shown.

One :class:`Session` serves one dashboard. It holds the game in play (resumed from the log
after a restart), the frame loop (:mod:`tableref.live.loop`), and the players' decisions:
accept or undo a flagged change, correct a misread observation or the state. Everything the
dashboard shows comes from :meth:`Session.view` and the log; news reaches it through
:attr:`Session.hub` only after the log has committed it.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Sequence

import numpy as np

from .calibration.profile import Profile
from .events import DECISION_KINDS, Event, EventDraft, open_flags, standing_flags
from .gamelog import GameLog, GameRecord, PlayerInfo
from .input import InputError
from .live.calibration_status import calibration_status
from .live.hub import Hub, Picture
from .live.judge import (clears_flags, correction_events, milestones, named_by_open_flags, places_gone,
                         reading_events, repeats_open_flag, revision_event, rounds_done, shows_as_read,
                         still_disputed, with_places_of, withdrawal_events)
from .live.loop import FrameLoop, StreamSettings, encode_jpeg
from .live.recognition import Recogniser, recogniser_for, recognisable_games, tell_players
from .live.sources import SourceChoice, allowed_source
from .live.voting import VoteSettings
from .rules import GAMES, game as rules_of
from .rules.common import MAX_TURNS, Violation, players_problem
from .rules.errors import RulesError
from .vision.capture import CaptureSettings, open_source
from .vision.errors import VisionError
from .vision.frame import Frame
from .vision.motion import MotionSettings

log = logging.getLogger(__name__)

#: Kinds of event that set the state a reading or a correction started from.
_CHANGE_KINDS = ("move_accepted", "illegal_flagged", "state_corrected")
#: Largest seed accepted for a new game.
MAX_SEED = 2**31 - 1


class SessionError(InputError):
    """A command the session cannot carry out now (no game, a game already in play, a closed flag)."""


@dataclass(frozen=True)
class SessionSettings:
    """Everything tunable about a live session; each part validates itself."""

    motion: MotionSettings = field(default_factory=MotionSettings)
    votes: VoteSettings = field(default_factory=VoteSettings)
    stream: StreamSettings = field(default_factory=StreamSettings)
    capture: CaptureSettings = field(default_factory=CaptureSettings)
    #: Width in pixels and JPEG quality of the flag snapshots kept in the log.
    snapshot_width: int = 1280
    snapshot_quality: int = 85
    #: Withdraw the camera's open flags when a later reading is legal from the state before them
    #: (a misreading, or the piece taken back); at most this many flags back (0: never).
    withdraw_flags: int = 3
    #: Revise the moves accepted last when a later reading plainly shows what they saw gone and is
    #: explained better from the state before them (a misreading taken in); at most this many
    #: accepted moves back (0: never).
    revise_moves: int = 2

    def __post_init__(self) -> None:
        for name in ("withdraw_flags", "revise_moves"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 10:
                raise InputError(f"{name} is a whole number in 0..10, got {value!r}")


@dataclass
class _Game:
    record: GameRecord
    rules: ModuleType
    recogniser: Recogniser
    state: Any
    observation: Any = None
    flags: list[Event] = field(default_factory=list)
    #: The last reading of the table that was refereed and recorded (JSON); None: as the state shows it.
    seen: dict | None = None


class Session:
    """The game in play, its frame loop, and the players' commands (thread-safe)."""

    def __init__(self, gamelog: GameLog, settings: SessionSettings | None = None, *,
                 profile: Profile | None = None, launch_source: str | None = None):
        self.log = gamelog
        self.settings = settings or SessionSettings()
        self.profile = profile
        self.launch_source = launch_source
        self.hub = Hub()
        self.picture = Picture()
        self._lock = threading.RLock()
        self._game: _Game | None = None
        self._loop: FrameLoop | None = None
        self._source: SourceChoice | None = None
        self._source_error: str | None = None
        self._problem: str | None = None

    # ------------------------------------------------------------------ source
    def set_source(self, spec: str) -> None:
        """Read frames from ``spec`` (the launch source, a camera index or a registered name)."""
        choice = allowed_source(spec, self.launch_source)
        try:
            source = open_source(choice.spec, self.settings.capture)
        except VisionError as exc:
            with self._lock:
                self._source_error = str(exc)
            self._publish_view()
            raise
        with self._lock:
            old, self._loop = self._loop, None
            self._source, self._source_error = choice, None
            recogniser = self._game.recogniser if self._game else None
            self._loop = FrameLoop(source, recogniser, self.profile, motion_settings=self.settings.motion,
                                   votes=self.settings.votes, stream=self.settings.stream, picture=self.picture,
                                   on_reading=self._on_reading, overlay=self._overlay)
        if old is not None:
            old.stop()
        self._loop.start()
        self._publish_view()

    def _restart_loop(self) -> None:
        """Start the loop afresh on the same source (after the game changed)."""
        with self._lock:
            choice = self._source
        if choice is not None:
            try:
                self.set_source(choice.spec)
            except VisionError as exc:
                log.warning("the source could not be reopened: %s", exc)

    # ------------------------------------------------------------------ games
    def start_game(self, name: str, players: Sequence[PlayerInfo], options: dict | None = None,
                   seed: int | None = None) -> GameRecord:
        """Start a new game; raise NoRecogniser when the game cannot be recognised yet.

        Without ``seed`` the setup's chance (Dolce Vita's display, Da Luigi's start cards and
        dice) is what the camera sees on the table: the game waits for it. With a seed the rules
        draw it, for a table laid out from the same seed (a replay, a scripted source)."""
        if name not in GAMES:
            raise SessionError(f"unknown game {name!r}; choose one of {', '.join(sorted(GAMES))}")
        rules = rules_of(name)
        problem = players_problem(name, len(players), rules.MIN_PLAYERS, rules.MAX_PLAYERS)
        if problem:
            raise SessionError(problem)
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED):
            raise SessionError(f"seed must be an integer in 0..{MAX_SEED}, got {seed!r}")
        recogniser = recogniser_for(name)
        tell_players(recogniser, len(players))
        state = rules.new_game(len(players), options, seed)
        with self._lock:
            if self._game is not None and not self._game.rules.is_over(self._game.state):
                raise SessionError(f"game {self._game.record.id} is still in play; stop it first")
            record = self.log.create_game(name, tuple(players), dict(options or {}), seed, state.to_json())
            self._game = _Game(record, rules, recogniser, state)
            names = ", ".join(p.name for p in players)
            self._commit([EventDraft("game_started", f"New game of {name} for {names}",
                                     data={"game": name, "players": [p.to_json() for p in players],
                                           "options": dict(options or {}), "seed": seed,
                                           "score": self._score_json()})])
        self._restart_loop()
        return record

    def resume(self) -> GameRecord | None:
        """Continue the newest game in play in the log, if any (after a restart)."""
        record = self.log.game_in_play()
        if record is None:
            return None
        rules = rules_of(record.game)
        recogniser = recogniser_for(record.game)
        tell_players(recogniser, len(record.players))
        state = rules.state_from_json(self.log.latest_state(record.id))
        with self._lock:
            self._game = _Game(record, rules, recogniser, state, flags=open_flags(self.log.events(record.id)))
            if rules.is_over(state):  # killed between the last move and the game's end being recorded
                if not any(e.kind == "game_end" for e in self.log.events(record.id)):
                    initial = rules.state_from_json(record.initial_state)
                    self._commit(milestones(rules, initial, state, record.players)[-1:])
                self.log.set_status(record.id, "over")
        log.info("resumed game %s (%s)", record.id, record.game)
        self._restart_loop()
        return record

    def stop_game(self) -> None:
        """Stop the game in play (it stays in the log, marked stopped)."""
        with self._lock:
            current = self._require_game()
            if current.record.status == "playing" and not current.rules.is_over(current.state):
                self._commit([EventDraft("game_stopped", "The game was stopped")])
                self.log.set_status(current.record.id, "stopped")
            self._game = None
        self._restart_loop()

    # ------------------------------------------------------------------ readings
    def _on_reading(self, observation: Any, frame: Frame) -> None:
        """A voted observation from the loop: referee it and record what changed."""
        with self._lock:
            current = self._game
            if current is None:
                return
            current.observation = observation
            if current.rules.is_over(current.state):
                return
            try:
                verdict = current.rules.referee(current.state, observation)
            except RulesError as exc:
                self._problem = f"the referee could not use this reading: {exc}"
                self._publish_view()
                return
            self._problem = None
            seen = observation.to_json()

            def snapshot(flags: Sequence[Violation]) -> bytes | None:
                return self._snapshot(frame.image, observation, flags)

            drafts = None
            events = None
            if not verdict.legal:  # only then can a flag be raised, repeated or withdrawn
                events = self.log.events(current.record.id)
                standing = standing_flags(events)
                drafts = self._withdrawal(current, events, standing, observation, seen, snapshot)
                if drafts is None:
                    drafts = self._around_flags(current, events, verdict, observation, seen, snapshot)
            doubted = not verdict.legal or verdict.explanations[0].cost > 0  # only then can a move be revised
            if drafts is None and self.settings.revise_moves and doubted:
                events = events if events is not None else self.log.events(current.record.id)
                drafts = self._revision(current, events, verdict, observation, seen, snapshot)
            if drafts is None:
                drafts = reading_events(current.rules, current.state, verdict, current.record.players, snapshot,
                                        observation=seen, previous=current.seen)
                if not verdict.legal:
                    drafts = [d for d in drafts if not repeats_open_flag(d, standing)]
            self._commit(drafts)
            current.seen = seen  # only once recorded: a failed commit reads the scene again
        self._publish_view()

    def _around_flags(self, current: _Game, events: list[Event], verdict: Any, observation: Any, seen: dict,
                      snapshot) -> list[EventDraft] | None:
        """Drafts for an illegal reading (``verdict`` from the state held) that breaks a rule an
        open flag already names, refereed around what the flags told: the places where it
        shows, as the reading before did, what neither the state held nor the position the
        referee would keep holds (:func:`still_disputed`) taken as the state has them. The
        moves made meanwhile are recorded (none: nothing is); None when the reading so taken is
        not legal either, and it is judged as it is (any other rule it breaks is then flagged).

        A misreading the state cannot take in (Da Luigi: a guest card read as one that did not
        order the die lying on it) is seen at every later reading. Judged whole, each would be
        illegal and, its flag a repeat, record nothing: the session would stop following the
        table until the misreading ended, then judge every move made meanwhile as one change.
        The flag stays open; the players decide on it. Caller holds the lock."""
        if not named_by_open_flags([v.to_json() for v in verdict.violations], open_flags(events)):
            return None
        held = current.rules.observe(current.state).to_json()
        places = still_disputed(held, current.seen, seen, current.rules.observe(verdict.state).to_json())
        if not places:
            return None
        try:
            around = current.rules.referee(current.state,
                                           current.rules.observation_from_json(with_places_of(seen, held, places)))
        except RulesError:
            return None
        if not around.legal:
            return None
        if not around.explanations[0].moves:
            return []
        return reading_events(current.rules, current.state, around, current.record.players, snapshot,
                              observation=seen, previous=current.seen)

    def read(self, observation: Any, frame: Frame) -> None:
        """Referee one settled reading of ``frame`` as the live loop does (the loop calls it for
        each voted observation; a benchmark may feed readings itself)."""
        self._on_reading(observation, frame)

    def _withdrawal(self, current: _Game, events: list[Event], standing: list[Event], observation: Any,
                    seen: dict, snapshot) -> list[EventDraft] | None:
        """Drafts that withdraw the camera's latest open flags (``standing``, of ``events``) and
        record the reading (``observation``, its JSON ``seen``) from the state before them, when
        from there it is legal (:func:`clears_flags`); else None.

        A misread piece is flagged; the next readings, right again, would each be judged from
        the position the flag kept and flagged in turn. Refereed from before the flag they are
        legal, so the flag is withdrawn instead (recorded, with the flag's snapshot kept).
        Up to ``settings.withdraw_flags`` flags in a row are looked back over, latest first.
        Caller holds the lock."""
        flags: list[tuple[int, dict]] = []
        for event in standing[:self.settings.withdraw_flags]:
            before = self._state_before(events, event.seq)
            flags.append((event.seq, before))
            base = current.rules.state_from_json(before)
            gone = places_gone(current.rules, base, current.state, seen)
            if not gone:
                continue  # all the flags saw is still there: no need to referee again
            try:  # the flags' readings and this one: a turn each, at most
                verdict = current.rules.referee(base, observation, turns=min(len(flags) + 1, MAX_TURNS))
            except RulesError:
                return None
            if clears_flags(current.rules, base, verdict, seen, gone):
                drafts = reading_events(current.rules, base, verdict, current.record.players, snapshot,
                                        observation=seen)
                scored = rounds_done(current.state.to_json()) or 0  # a round's end the flags already recorded
                return withdrawal_events(flags) + [d for d in drafts
                                                   if d.kind != "round_end" or d.data["round"] > scored]
        return None

    def _revision(self, current: _Game, events: list[Event], verdict: Any, observation: Any, seen: dict,
                  snapshot) -> list[EventDraft] | None:
        """Drafts that revise the moves accepted last and record the reading (``observation``, its
        JSON ``seen``; ``verdict`` from the state held) from the state before them; else None.

        A misread piece that a legal move explains is accepted, and the state holds the
        misreading: Dolce Vita's yellow 2 read once as a yellow 4 leaves the player a 2 in hand
        and a 4 on the table, and each later reading that shows the 2 is judged against the 4.
        When a later reading plainly shows what such a move saw gone (:func:`places_gone`, the
        test a flag's withdrawal makes), which its verdict from the state held does not explain
        (a piece laid over it does), and, refereed from the state before the move, is legal
        and shows those places as it explains them (:func:`clears_flags`) with less doubt than
        from the state held (or the state held makes it illegal), the moves are revised; so too
        when it is illegal from both, and from before the move shows those places as read and
        names no more broken rules (the next player's card out of turn beside the misread one).
        A piece only hidden reads unknown, which no legal state shows: it revises nothing. Only a
        run of accepted moves at the end of the log is looked back over (no flag, correction,
        withdrawal or milestone among them), up to ``settings.revise_moves``, latest first.
        Caller holds the lock."""
        tail: list[Event] = []
        for event in reversed(events):
            if event.kind != "move_accepted" or len(tail) == self.settings.revise_moves:
                break
            tail.append(event)
        for depth, event in enumerate(tail, start=1):
            before = self._state_before(events, event.seq)
            base = current.rules.state_from_json(before)
            gone = places_gone(current.rules, base, current.state, seen)
            if not gone or shows_as_read(current.rules, verdict.state, seen, gone):
                continue  # nothing they saw is gone, or the reading's own explanation shows it (covered)
            try:  # the moves' readings and this one: a turn each, at most
                revised = current.rules.referee(base, observation, turns=min(depth + 1, MAX_TURNS))
            except RulesError:
                return None
            if verdict.legal:
                better = clears_flags(current.rules, base, revised, seen, gone) \
                    and revised.explanations[0].cost < verdict.explanations[0].cost
            elif revised.legal:
                better = clears_flags(current.rules, base, revised, seen, gone)
            else:  # flagged either way: from before the misreading, if it names no more broken rules
                better = shows_as_read(current.rules, revised.state, seen, gone) \
                    and len(revised.violations) <= len(verdict.violations)
            if not better:
                continue
            drafts = reading_events(current.rules, base, revised, current.record.players, snapshot,
                                    observation=seen)
            return [revision_event([e.seq for e in tail[:depth]], gone, before)] + drafts
        return None

    def _snapshot(self, image: np.ndarray, observation: Any, flags: Sequence[Violation]) -> bytes | None:
        current = self._game
        if current is None:
            return None
        try:
            annotated = current.recogniser.annotate(image, observation, flags)
            return encode_jpeg(np.ascontiguousarray(annotated), self.settings.snapshot_width,
                               self.settings.snapshot_quality)
        except (VisionError, RulesError) as exc:
            log.warning("no snapshot for a flag: %s", exc)
            return None

    def _overlay(self) -> tuple[Any, tuple[Violation, ...]]:
        with self._lock:
            current = self._game
            if current is None:
                return None, ()
            flags = tuple(Violation.from_json(v) for e in current.flags for v in e.data.get("violations", ()))
            return current.observation, flags

    def _commit(self, drafts: list[EventDraft]) -> list[Event]:
        """Commit each draft, then (only then) take its state and show it. Caller holds the lock."""
        current = self._require_game()
        committed = []
        for draft in drafts:
            event = self.log.append(current.record.id, draft)
            if draft.state is not None:
                current.state = current.rules.state_from_json(draft.state)
            if draft.kind == "game_end":
                self.log.set_status(current.record.id, "over")
            committed.append(event)
            if event.flag_open_candidate or draft.kind in DECISION_KINDS:
                current.flags = open_flags(self.log.events(current.record.id))
            self.hub.publish("event", event.to_json())
        return committed

    # ------------------------------------------------------------------ decisions
    def _require_game(self) -> _Game:
        if self._game is None:
            raise SessionError("no game is being played; start one on the setup page")
        return self._game

    def _open_flag(self, seq: int) -> Event:
        current = self._require_game()
        flags = {e.seq: e for e in current.flags}
        if seq not in flags:
            raise SessionError(f"event {seq} of game {current.record.id} is not an open flag "
                               f"(open flags: {sorted(flags) or 'none'})")
        return flags[seq]

    def accept(self, seq: int, by: int | None = None) -> Event:
        """Let flagged change ``seq`` stand."""
        with self._lock:
            flag = self._open_flag(seq)
            event = self._commit([EventDraft("flag_accepted", f"The players let flag {seq} stand: {flag.summary}",
                                             player=by, data={"flag": seq})])[0]
        self._publish_view()
        return event

    def undo(self, seq: int, by: int | None = None) -> Event:
        """Take flagged change ``seq`` back: the state returns to what it was before it."""
        with self._lock:
            current = self._require_game()
            flag = self._open_flag(seq)
            events = self.log.events(current.record.id)
            later = [e.seq for e in events if e.seq > seq and e.state is not None]
            if later:
                raise SessionError(f"flag {seq} cannot be undone: the state changed after it (events {later}); "
                                   "correct the state instead")
            before = self._state_before(events, seq)
            event = self._commit([EventDraft("flag_undone", f"The players took back flag {seq}: {flag.summary}",
                                             player=by, data={"flag": seq}, state=before)])[0]
        self._publish_view()
        return event

    def _state_before(self, events: list[Event], seq: int) -> dict:
        earlier = [e.state for e in events if e.seq < seq and e.state is not None]
        return earlier[-1] if earlier else self._require_game().record.initial_state

    def correct(self, payload: Any, by: int | None = None) -> list[Event]:
        """Apply a player's correction: ``{"observation": {...}}`` re-referees the latest change with a
        corrected reading; ``{"state": {...}}`` replaces the state."""
        if not isinstance(payload, dict) or len(set(payload) & {"observation", "state"}) != 1:
            raise SessionError('a correction is a JSON object with exactly one of "observation" or "state"')
        with self._lock:
            current = self._require_game()
            rules = current.rules
            if "state" in payload:
                after = rules.state_from_json(payload["state"])
                if after.players != current.state.players:
                    raise SessionError(f"the corrected state has {after.players} players; this game has "
                                       f"{current.state.players}")
                drafts = correction_events(rules, current.state, after, "state", current.record.players, by)
            else:
                observation = rules.observation_from_json(payload["observation"])
                events = self.log.events(current.record.id)
                changes = [e for e in events if e.state is not None]
                if changes and changes[-1].kind in _CHANGE_KINDS:
                    base = rules.state_from_json(self._state_before(events, changes[-1].seq))
                else:
                    base = current.state
                verdict = rules.referee(base, observation)
                current.observation = observation
                drafts = correction_events(rules, base, verdict.state, "reading", current.record.players, by,
                                           verdict)
            committed = self._commit(drafts)
        self._publish_view()
        return committed

    def analyze(self, image: np.ndarray, game_name: str | None = None) -> dict[str, Any]:
        """Recognise an uploaded photo; referee it against the game in play (nothing is logged)."""
        with self._lock:
            current = self._game
            state = current.state if current else None
        name = game_name or (current.record.game if current else None)
        if name is None:
            raise SessionError("no game is being played: say which game the photo shows (?game=NAME)")
        if current is not None and name != current.record.game:
            raise SessionError(f"the game in play is {current.record.game}, not {name}")
        recogniser = current.recogniser if current else recogniser_for(name)
        observation = recogniser.recognise(image, self.profile)
        out: dict[str, Any] = {"game": name, "observation": observation.to_json(), "verdict": None}
        if current is not None:
            out["verdict"] = current.rules.referee(state, observation).to_json()
        return out

    # ------------------------------------------------------------------ views
    def _score_json(self) -> dict | None:
        current = self._game
        if current is None:
            return None
        score = current.rules.score(current.state).to_json()
        score["names"] = [p.name for p in current.record.players]
        return score

    def view(self) -> dict[str, Any]:
        """Everything the dashboard shows now, as JSON."""
        with self._lock:
            current, loop, choice = self._game, self._loop, self._source
            out: dict[str, Any] = {"game": None, "state": None, "score": None, "over": False, "flags": [],
                                   "observation": None, "problem": self._problem,
                                   "games": sorted(GAMES), "recognisable_games": list(recognisable_games()),
                                   "source": {"spec": choice.label if choice else None,
                                              "status": None, "error": self._source_error},
                                   "loop": None}
            if current is not None:
                out.update(game=current.record.to_json(), state=current.state.to_json(), score=self._score_json(),
                           over=bool(current.rules.is_over(current.state)),
                           flags=[e.to_json() for e in current.flags],
                           observation=None if current.observation is None else current.observation.to_json())
        if loop is not None:
            out["source"]["status"] = loop.source.status().to_json()
            out["loop"] = loop.status()
        return out

    def live_status(self) -> dict[str, Any]:
        """The few fields that change while nothing is committed: the source's state and the gate."""
        with self._lock:
            loop, error = self._loop, self._source_error
        if loop is None:
            return {"source": None, "error": error, "gate": None}
        status = loop.source.status()
        looped = loop.status()
        return {"source": status.state.value, "error": error or status.last_error, "gate": looped["gate"]["phase"],
                "problem": looped["problem"] or self._problem}

    def calibration_status(self, detect: bool = False) -> dict[str, Any]:
        """The profile's calibration figures, and (``detect``) the markers seen in the latest frame."""
        with self._lock:
            loop = self._loop
        frame = loop.source.latest() if (detect and loop is not None) else None
        out = calibration_status(self.profile, None if frame is None else frame.image)
        if detect and frame is None:
            out["markers_seen"] = {"error": "no camera picture yet: choose a source first"}
        return out

    def game_id(self) -> str | None:
        with self._lock:
            return self._game.record.id if self._game else None

    def _publish_view(self) -> None:
        self.hub.publish("state", self.view())

    def close(self) -> None:
        """Stop the loop and the streams (the log stays open for its owner to close)."""
        with self._lock:
            loop, self._loop = self._loop, None
        if loop is not None:
            loop.stop()
        self.hub.close()
        self.picture.close()
