"""The game log: every game and every event in one SQLite file, one committed row per event.

SQLite (the standard library's ``sqlite3``) in WAL mode with ``synchronous=FULL``: an event is
on disk when :meth:`GameLog.append` returns, so the session shows an event only after this,
and a process killed at any moment loses nothing it has shown. Restarting on the same file
finds the game in play (:meth:`GameLog.game_in_play`) and its latest state.

Tables::

    games(id, game, players, options, seed, created, status, initial_state)
    events(game_id, seq, kind, at, player, summary, data, state, snapshot)

``players``, ``options``, ``data`` and the states are JSON text; ``snapshot`` a JPEG blob.
``seed`` is NULL for a game whose setup the camera reads from the table (layout 2; layout 1
required a seed and is upgraded in place when opened).
"""

from __future__ import annotations

import json
import logging
import re
import secrets
import sqlite3
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from .events import Event, EventDraft
from .input import InputError

log = logging.getLogger(__name__)

#: Version of the table layout, kept in SQLite's ``user_version``.
SCHEMA_VERSION = 2
#: Seconds a connection waits for a lock held by another process before failing.
BUSY_TIMEOUT_S = 5.0
#: Game ids: letters, digits and dashes (they appear in URLs and file names).
GAME_ID_RULE = re.compile(r"[A-Za-z0-9-]{1,64}")
STATUSES = ("playing", "over", "stopped")
#: The log file used when none is named (in the current folder).
DEFAULT_LOG = "tableref-games.sqlite"

_GAMES_COLUMNS = """(
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    players TEXT NOT NULL,
    options TEXT NOT NULL,
    seed INTEGER,
    created REAL NOT NULL,
    status TEXT NOT NULL,
    initial_state TEXT NOT NULL
)"""
_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS games {_GAMES_COLUMNS};
CREATE TABLE IF NOT EXISTS events (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    at REAL NOT NULL,
    player INTEGER,
    summary TEXT NOT NULL,
    data TEXT NOT NULL,
    state TEXT,
    snapshot BLOB,
    PRIMARY KEY (game_id, seq)
);
"""


class LogError(InputError):
    """The game log file cannot be used (not SQLite, locked, unwritable, a newer layout)."""


class GameNotFound(LogError):
    """A game id that the log does not hold."""


@dataclass(frozen=True)
class PlayerInfo:
    """A player at the table: a name and a colour (``#rrggbb``) for the dashboard."""

    name: str
    colour: str

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip() or len(self.name) > 40:
            raise InputError(f"a player name is 1 to 40 characters, got {self.name!r}")
        if not isinstance(self.colour, str) or not re.fullmatch(r"#[0-9a-fA-F]{6}", self.colour):
            raise InputError(f"a player colour is written #rrggbb, got {self.colour!r}")
        object.__setattr__(self, "name", self.name.strip())

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "colour": self.colour}

    @classmethod
    def from_json(cls, data: Any) -> PlayerInfo:
        if not isinstance(data, dict):
            raise InputError(f"a player is an object {{\"name\", \"colour\"}}, got {type(data).__name__}")
        return cls(data.get("name"), data.get("colour"))  # type: ignore[arg-type]


@dataclass(frozen=True)
class GameRecord:
    """One game's row: what is being played, by whom, from which initial state."""

    id: str
    game: str
    players: tuple[PlayerInfo, ...]
    options: dict
    seed: int | None  # None: the setup is read from the table
    created: float
    status: str
    initial_state: dict

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "game": self.game, "players": [p.to_json() for p in self.players],
                "options": self.options, "seed": self.seed, "created": self.created, "status": self.status}


def check_game_id(game_id: Any) -> str:
    """Return ``game_id`` if it has the form of a game id; raise GameNotFound otherwise."""
    if not isinstance(game_id, str) or not GAME_ID_RULE.fullmatch(game_id):
        raise GameNotFound(f"{game_id!r} is not a game id (letters, digits and dashes)")
    return game_id


def new_game_id(now: float | None = None) -> str:
    """A fresh id: the start time and a random suffix, e.g. ``20250101-143000-3fa9``."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now if now is not None else time.time()))
    return f"{stamp}-{secrets.token_hex(2)}"


class GameLog:
    """The log file, safe to share between the session's threads (one connection, one lock)."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        if self.path.is_dir():
            raise LogError(f"game log {str(self.path)!r} is a folder; give a file name such as games.sqlite")
        self._lock = threading.RLock()
        try:
            self._db = sqlite3.connect(str(self.path), timeout=BUSY_TIMEOUT_S, check_same_thread=False,
                                       isolation_level=None)
            self._db.row_factory = sqlite3.Row
            self._setup()
        except sqlite3.DatabaseError as exc:
            raise LogError(f"game log {str(self.path)!r} cannot be used: {exc} (is it a tableref game log?)") from None

    def _setup(self) -> None:
        db = self._db
        mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise LogError(f"game log {str(self.path)!r}: SQLite refused WAL mode (got {mode!r}); "
                           "put the log on a local disk")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise LogError(f"game log {str(self.path)!r} was written by a newer tableref (layout {version}, "
                           f"this one reads {SCHEMA_VERSION})")
        if version == 1:
            self._upgrade_from_1()
        db.executescript(_SCHEMA)
        db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    def _upgrade_from_1(self) -> None:
        """Layout 1 to 2: ``games.seed`` may be NULL. SQLite cannot drop a NOT NULL, so the table
        is copied into a new one in one transaction (SQLite's documented way, foreign keys off)."""
        db = self._db
        db.execute("PRAGMA foreign_keys=OFF")
        try:
            with self._transaction():
                if db.execute("PRAGMA user_version").fetchone()[0] != 1:
                    return  # another process upgraded it meanwhile
                db.execute(f"CREATE TABLE games_layout2 {_GAMES_COLUMNS}")
                db.execute("INSERT INTO games_layout2 SELECT * FROM games")
                db.execute("DROP TABLE games")
                db.execute("ALTER TABLE games_layout2 RENAME TO games")
                db.execute("PRAGMA user_version=2")
        finally:
            db.execute("PRAGMA foreign_keys=ON")
        log.info("game log %s upgraded to layout 2", self.path)

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """BEGIN IMMEDIATE ... COMMIT (ROLLBACK on an error); committed means on disk (synchronous=FULL)."""
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise LogError(f"game log {str(self.path)!r} cannot be written: {exc}") from None
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        try:
            self._db.execute("COMMIT")
        except sqlite3.OperationalError as exc:
            raise LogError(f"game log {str(self.path)!r}: the commit failed: {exc}") from None

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # ------------------------------------------------------------------ games
    def create_game(self, game: str, players: list[PlayerInfo] | tuple[PlayerInfo, ...], options: dict,
                    seed: int | None, initial_state: dict) -> GameRecord:
        """Add a game in play and commit it; return its record (``seed`` None: the setup is read
        from the table)."""
        now = time.time()
        record = GameRecord(new_game_id(now), game, tuple(players), dict(options),
                            None if seed is None else int(seed), now, "playing", initial_state)
        with self._lock, self._transaction():
            self._db.execute("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                             (record.id, game, json.dumps([p.to_json() for p in players]),
                              json.dumps(record.options), record.seed, now, "playing", json.dumps(initial_state)))
        return record

    def set_status(self, game_id: str, status: str) -> None:
        if status not in STATUSES:
            raise LogError(f"game status must be one of {STATUSES}, got {status!r}")
        with self._lock, self._transaction():
            self._db.execute("UPDATE games SET status = ? WHERE id = ?", (status, check_game_id(game_id)))

    def game(self, game_id: str) -> GameRecord:
        """The record of ``game_id``; GameNotFound when the log has no such game."""
        with self._lock:
            row = self._db.execute("SELECT * FROM games WHERE id = ?", (check_game_id(game_id),)).fetchone()
        if row is None:
            raise GameNotFound(f"no game {game_id!r} in the log {str(self.path)!r}")
        return _game_from_row(row)

    def games(self) -> list[GameRecord]:
        """Every game in the log, newest first."""
        with self._lock:
            rows = self._db.execute("SELECT * FROM games ORDER BY created DESC, id DESC").fetchall()
        return [_game_from_row(r) for r in rows]

    def game_in_play(self) -> GameRecord | None:
        """The newest game still being played (to resume after a restart), or None."""
        with self._lock:
            row = self._db.execute("SELECT * FROM games WHERE status = 'playing' ORDER BY created DESC, id DESC "
                                   "LIMIT 1").fetchone()
        return None if row is None else _game_from_row(row)

    # ------------------------------------------------------------------ events
    def append(self, game_id: str, draft: EventDraft) -> Event:
        """Commit ``draft`` as the next event of ``game_id`` and return it (on disk when this returns)."""
        now = time.time()
        with self._lock:
            self.game(game_id)
            with self._transaction():  # number and row together
                row = self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?",
                                       (game_id,)).fetchone()
                seq = int(row[0]) + 1
                self._db.execute("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                 (game_id, seq, draft.kind, now, draft.player, draft.summary, json.dumps(draft.data),
                                  None if draft.state is None else json.dumps(draft.state),
                                  None if draft.snapshot is None else bytes(draft.snapshot)))
        return Event(game_id, seq, now, draft.kind, draft.summary, draft.player, draft.data, draft.state,
                     None if draft.snapshot is None else bytes(draft.snapshot))

    def events(self, game_id: str, after: int = 0, limit: int | None = None) -> list[Event]:
        """Events of ``game_id`` with ``seq > after``, oldest first (snapshots included)."""
        self.game(game_id)
        query = "SELECT * FROM events WHERE game_id = ? AND seq > ? ORDER BY seq"
        args: tuple[Any, ...] = (game_id, int(after))
        if limit is not None:
            query += " LIMIT ?"
            args += (int(limit),)
        with self._lock:
            rows = self._db.execute(query, args).fetchall()
        return [_event_from_row(r) for r in rows]

    def event(self, game_id: str, seq: int) -> Event:
        with self._lock:
            row = self._db.execute("SELECT * FROM events WHERE game_id = ? AND seq = ?",
                                   (check_game_id(game_id), int(seq))).fetchone()
        if row is None:
            raise GameNotFound(f"game {game_id!r} has no event {seq}")
        return _event_from_row(row)

    def latest_state(self, game_id: str) -> dict:
        """The state JSON after the last event that set one (the initial state when none did)."""
        record = self.game(game_id)
        with self._lock:
            row = self._db.execute("SELECT state FROM events WHERE game_id = ? AND state IS NOT NULL "
                                   "ORDER BY seq DESC LIMIT 1", (game_id,)).fetchone()
        return record.initial_state if row is None else json.loads(row[0])

    def export(self, game_id: str) -> dict[str, Any]:
        """The whole record of a game as JSON: the game, its initial state and every event with its state."""
        record = self.game(game_id)
        events = self.events(game_id)
        return {"format": "tableref-game/1", "game": record.to_json(), "initial_state": record.initial_state,
                "events": [e.to_json(with_state=True) for e in events],
                "final_state": self.latest_state(game_id)}


def _game_from_row(row: sqlite3.Row) -> GameRecord:
    return GameRecord(row["id"], row["game"], tuple(PlayerInfo.from_json(p) for p in json.loads(row["players"])),
                      json.loads(row["options"]), None if row["seed"] is None else int(row["seed"]),
                      float(row["created"]), row["status"], json.loads(row["initial_state"]))


def _event_from_row(row: sqlite3.Row) -> Event:
    return Event(row["game_id"], int(row["seq"]), float(row["at"]), row["kind"], row["summary"], row["player"],
                 json.loads(row["data"]), None if row["state"] is None else json.loads(row["state"]),
                 None if row["snapshot"] is None else bytes(row["snapshot"]))
