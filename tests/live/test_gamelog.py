"""The game log: one committed row per event, numbering, resume, export, bad files."""

from __future__ import annotations

import json
import sqlite3

import pytest

from tableref.events import EventDraft, EventError, open_flags, standing_flags
from tableref.gamelog import GameLog, GameNotFound, LogError, PlayerInfo
from tableref.input import InputError

PLAYERS = (PlayerInfo("Ann", "#ff0000"), PlayerInfo("Bob", "#0000ff"))


@pytest.fixture
def gamelog(tmp_path):
    log = GameLog(tmp_path / "games.sqlite")
    yield log
    log.close()


def test_events_are_numbered_committed_and_read_back(gamelog, tmp_path):
    record = gamelog.create_game("dolcevita", PLAYERS, {}, 3, {"game": "dolcevita", "n": 0})
    first = gamelog.append(record.id, EventDraft("game_started", "start"))
    second = gamelog.append(record.id, EventDraft("move_accepted", "Ann moved", 0, {"moves": []}, {"n": 1}))
    assert (first.seq, second.seq) == (1, 2)
    # another connection (another process) sees both rows at once: committed, in WAL mode
    other = sqlite3.connect(tmp_path / "games.sqlite")
    assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert other.execute("SELECT seq, kind FROM events ORDER BY seq").fetchall() == [(1, "game_started"),
                                                                                    (2, "move_accepted")]
    other.close()
    assert gamelog.latest_state(record.id) == {"n": 1}
    assert [e.summary for e in gamelog.events(record.id, after=1)] == ["Ann moved"]


def test_reopening_finds_the_game_in_play(tmp_path):
    path = tmp_path / "games.sqlite"
    log = GameLog(path)
    record = log.create_game("ligretto", PLAYERS, {"x": 1}, 9, {"s": 0})
    log.append(record.id, EventDraft("move_accepted", "m", state={"s": 1}))
    log.close()
    again = GameLog(path)
    found = again.game_in_play()
    assert found is not None and found.id == record.id and found.players == PLAYERS and found.options == {"x": 1}
    assert again.latest_state(record.id) == {"s": 1}
    again.set_status(record.id, "over")
    assert again.game_in_play() is None
    again.close()


LAYOUT_1 = """
CREATE TABLE games (id TEXT PRIMARY KEY, game TEXT NOT NULL, players TEXT NOT NULL, options TEXT NOT NULL,
                    seed INTEGER NOT NULL, created REAL NOT NULL, status TEXT NOT NULL, initial_state TEXT NOT NULL);
CREATE TABLE events (game_id TEXT NOT NULL REFERENCES games(id), seq INTEGER NOT NULL, kind TEXT NOT NULL,
                     at REAL NOT NULL, player INTEGER, summary TEXT NOT NULL, data TEXT NOT NULL, state TEXT,
                     snapshot BLOB, PRIMARY KEY (game_id, seq));
INSERT INTO games VALUES ('20250101-120000-abcd', 'ligretto', '[{"name": "Ann", "colour": "#ff0000"}]', '{}', 7,
                          1.0, 'playing', '{"s": 0}');
INSERT INTO events VALUES ('20250101-120000-abcd', 1, 'game_started', 1.0, NULL, 'start', '{}', '{"s": 1}', NULL);
PRAGMA user_version=1;
"""


def test_a_log_of_layout_1_is_upgraded_and_keeps_its_games(tmp_path):
    path = tmp_path / "old.sqlite"
    old = sqlite3.connect(path)
    old.executescript(LAYOUT_1)
    old.close()
    log = GameLog(path)
    try:
        kept = log.game("20250101-120000-abcd")
        assert (kept.seed, kept.status, log.latest_state(kept.id)) == (7, "playing", {"s": 1})
        assert [e.summary for e in log.events(kept.id)] == ["start"]
        unseeded = log.create_game("dolcevita", PLAYERS, {}, None, {"s": 0})  # layout 2: no seed
        assert log.game(unseeded.id).seed is None and unseeded.to_json()["seed"] is None
        log.append(unseeded.id, EventDraft("game_started", "start"))
        check = sqlite3.connect(path)
        assert check.execute("PRAGMA user_version").fetchone()[0] == 2
        assert check.execute("PRAGMA foreign_key_check").fetchall() == []
        check.close()
    finally:
        log.close()


def test_export_holds_every_event_with_its_state(gamelog):
    record = gamelog.create_game("dolcevita", PLAYERS, {}, 1, {"s": 0})
    gamelog.append(record.id, EventDraft("move_accepted", "m1", 0, {"moves": [{"type": "place"}]}, {"s": 1}))
    gamelog.append(record.id, EventDraft("illegal_flagged", "f", 1, {"violations": [{"code": "a.b"}]}, {"s": 2},
                                         b"\xff\xd8jpeg"))
    data = json.loads(json.dumps(gamelog.export(record.id)))
    assert data["format"] == "tableref-game/1"
    assert [e["state"] for e in data["events"]] == [{"s": 1}, {"s": 2}]
    assert data["events"][1]["has_snapshot"] is True and data["final_state"] == {"s": 2}


def test_open_flags_close_with_a_decision(gamelog):
    record = gamelog.create_game("dolcevita", PLAYERS, {}, 1, {})
    gamelog.append(record.id, EventDraft("illegal_flagged", "f1", 1, {"violations": [{"code": "a.b"}]}, {}))
    gamelog.append(record.id, EventDraft("illegal_flagged", "f2", 1, {"violations": [{"code": "a.b"}]}, {}))
    gamelog.append(record.id, EventDraft("flag_accepted", "ok", data={"flag": 1}))
    assert [e.seq for e in open_flags(gamelog.events(record.id))] == [2]


FLAG = {"violations": [{"code": "dolcevita.not_your_turn", "player": 1, "pieces": ["yellow:5"]}]}


@pytest.mark.parametrize("later, standing", [
    ([], [2]),
    ([("illegal_flagged", FLAG, {"n": 2})], [3, 2]),          # a run of flags, latest first
    ([("move_accepted", {}, {"n": 2})], []),                   # a move accepted since: the flag is older
    ([("flag_accepted", {"flag": 2}, None)], []),              # decided
    ([("flag_withdrawn", {"flag": 2}, {"n": 0})], []),         # withdrawn by the table
    ([("round_end", {}, None), ("illegal_flagged", FLAG, {"n": 2})], [4, 2]),  # no state: no break
])
def test_standing_flags_are_the_open_flags_since_the_last_other_change(gamelog, later, standing):
    record = gamelog.create_game("dolcevita", PLAYERS, {}, 3, {"n": 0})
    gamelog.append(record.id, EventDraft("game_started", "start"))
    gamelog.append(record.id, EventDraft("illegal_flagged", "Bob out of turn", 1, FLAG, {"n": 1}))
    for kind, data, state in later:
        gamelog.append(record.id, EventDraft(kind, kind, None, data, state))
    assert [e.seq for e in standing_flags(gamelog.events(record.id))] == standing


@pytest.mark.parametrize("game_id", ["nope", "../etc/passwd", "", "a" * 100])
def test_unknown_game_ids(gamelog, game_id):
    with pytest.raises(GameNotFound):
        gamelog.events(game_id)
    with pytest.raises(GameNotFound):
        gamelog.export(game_id)


@pytest.mark.parametrize("kwargs,error,message", [
    ({"kind": "moved", "summary": "x"}, EventError, "unknown event kind"),
    ({"kind": "game_started", "summary": " "}, EventError, "summary"),
    ({"kind": "game_started", "summary": "x", "player": -1}, EventError, "player"),
    ({"kind": "game_started", "summary": "x", "data": {"x": float("nan")}}, EventError, "plain JSON"),
    ({"kind": "game_started", "summary": "x", "state": [1]}, EventError, "state"),
])
def test_bad_drafts(kwargs, error, message):
    with pytest.raises(error, match=message):
        EventDraft(**kwargs)


@pytest.mark.parametrize("name,colour,message", [
    ("", "#ff0000", "name"), ("x" * 41, "#ff0000", "name"), ("Ann", "red", "colour"), ("Ann", "#ff00", "colour"),
])
def test_bad_players(name, colour, message):
    with pytest.raises(InputError, match=message):
        PlayerInfo(name, colour)


def test_a_file_that_is_not_a_log(tmp_path):
    bad = tmp_path / "photo.sqlite"
    bad.write_bytes(b"\xff\xd8 not a database " * 100)
    with pytest.raises(LogError, match="cannot be used"):
        GameLog(bad)
    with pytest.raises(LogError, match="folder"):
        GameLog(tmp_path)


def test_export_command(gamelog, run_cli, tmp_path):
    record = gamelog.create_game("dolcevita", PLAYERS, {}, 1, {"s": 0})
    gamelog.append(record.id, EventDraft("move_accepted", "m1", 0, {}, {"s": 1}))
    result = run_cli("export", record.id, "--log", gamelog.path)
    assert result.code == 0, result
    assert json.loads(result.out)["events"][0]["state"] == {"s": 1}
    out = tmp_path / "game.json"
    assert run_cli("export", record.id, "--log", gamelog.path, "--out", out).code == 0
    assert json.loads(out.read_text())["game"]["id"] == record.id
    missing = run_cli("export", "20990101-000000-ffff", "--log", gamelog.path)
    assert missing.code == 2 and "no game" in missing.err
    no_log = run_cli("export", record.id, "--log", tmp_path / "nothing.sqlite")
    assert no_log.code == 2 and "does not exist" in no_log.err
