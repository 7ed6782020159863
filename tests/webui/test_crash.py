"""Crash test: ``tableref serve`` killed with SIGKILL in the middle of a game and restarted on
the same log: every event shown before the kill is in the log, and the game goes on."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
from pathlib import Path

import live_scenes as ls

from webui_helpers import get_json as _get, start_server

REPO = Path(__file__).resolve().parents[2]
GAME, SEED, SCENES, FRAMES_PER_SCENE = "dolcevita", 11, 14, 15


def _serve(tmp_path: Path, frames: Path, log: Path, *extra: str) -> tuple[subprocess.Popen, str]:
    env = {**os.environ, "PYTHONPATH": str(REPO / "tests" / "live"), ls.SCENES_ENV: str(tmp_path / "scenes.json")}
    return start_server(["--source", str(frames), "--port", "0", "--log", str(log), "--fps", "30",
                         "--plugin", "live_scenes", *extra], tmp_path, env)


def test_sigkill_mid_game_loses_nothing_and_the_game_goes_on(tmp_path):
    states, observations = ls.playout_scenes(GAME, 2, SEED, SCENES)
    (tmp_path / "scenes.json").write_text(json.dumps({"game": GAME, "observations": dict(enumerate(observations))}))
    ls.write_frames(tmp_path / "first", list(range(len(observations))), FRAMES_PER_SCENE)
    log = tmp_path / "games.sqlite"

    server, url = _serve(tmp_path, tmp_path / "first", log, "--game", GAME, "--players", "2", "--seed", str(SEED))
    try:
        seen = ls.wait_for(lambda: (page := _get(url + "/api/events")["events"]) and len(page) >= 4 and page, 30)
        os.kill(server.pid, signal.SIGKILL)  # mid-game: frames are still coming
        server.wait(10)
    finally:
        if server.poll() is None:
            server.kill()
    assert server.returncode == -signal.SIGKILL

    with sqlite3.connect(log) as db:  # every event shown before the kill is on disk
        rows = {(r[0], r[1], r[2]) for r in db.execute("SELECT seq, kind, summary FROM events")}
    assert {(e["seq"], e["kind"], e["summary"]) for e in seen} <= rows
    game_id = seen[0]["game_id"]

    # the log's state is one of the scenes: continue the game from there with new frames
    with sqlite3.connect(log) as db:
        last_state = json.loads(db.execute("SELECT state FROM events WHERE state IS NOT NULL ORDER BY seq DESC "
                                           "LIMIT 1").fetchone()[0])
    reached = next(i for i, s in enumerate(states) if s.to_json() == last_state)
    assert reached < SCENES - 2, "the game ended before the kill; use more scenes"
    ls.write_frames(tmp_path / "second", list(range(reached, reached + 3)), FRAMES_PER_SCENE)
    before = len(rows)

    server, url = _serve(tmp_path, tmp_path / "second", log)
    try:
        state = _get(url + "/api/state")
        assert state["game"]["id"] == game_id and state["state"] == last_state
        events = ls.wait_for(lambda: (page := _get(url + "/api/events")["events"]) and len(page) >= before + 2
                             and page, 30)
        assert [(e["seq"], e["kind"], e["summary"]) for e in events[:before]] == sorted(rows)
        assert [e["kind"] for e in events[before:before + 2]] == ["move_accepted"] * 2
        assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
        assert _get(url + "/api/state")["state"] == states[reached + 2].to_json()
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
