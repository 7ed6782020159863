"""``tableref serve`` refuses bad arguments with one line and exit code 2, before listening."""

from __future__ import annotations

import socket

import pytest


def _taken_port():
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(1)
    return sock


@pytest.mark.parametrize("args,message", [
    (["--profile", "{tmp}/missing.json"], "does not exist"),
    (["--game", "ligretto"], "cannot recognise ligretto"),
    (["--plugin", "no_such_module_here"], "cannot be imported"),
    (["--source", "{tmp}/no-such-folder"], "no such file or folder"),
    (["--port", "70000"], "70000"),
    (["--withdraw-flags", "11"], "withdraw-flags"),
    (["--game", "chess"], "chess"),
    (["--port", "{taken}"], "cannot listen"),
])
def test_bad_serve_arguments(run_cli, tmp_path, args, message):
    sock = _taken_port()
    try:
        words = [a.format(tmp=tmp_path, taken=sock.getsockname()[1]) for a in args]
        result = run_cli("serve", "--log", tmp_path / "games.sqlite", *words)
    finally:
        sock.close()
    assert result.code == 2, result
    assert message in result.err and "Traceback" not in result.err


def test_the_built_in_demo_is_the_default_source(tmp_path):
    from webui_helpers import get_json, start_server
    from live_scenes import wait_for

    server, url = start_server(["--port", "0", "--log", str(tmp_path / "games.sqlite")], tmp_path)
    try:
        source = wait_for(lambda: (s := get_json(url + "/api/state")["source"])["status"]["frames"] > 0 and s, 30)
        assert source["spec"] == "demo" and source["status"]["state"] == "live"
    finally:
        server.terminate()
        server.wait(10)


@pytest.mark.parametrize("game_id,message", [
    ("20990101-000000-dead", "no game"),
    ("../../etc/passwd", "not a game id"),
])
def test_export_of_an_unknown_game(run_cli, tmp_path, game_id, message):
    from tableref.gamelog import GameLog

    GameLog(tmp_path / "games.sqlite").close()
    result = run_cli("export", game_id, "--log", tmp_path / "games.sqlite")
    assert result.code == 2 and message in result.err and "Traceback" not in result.err
