"""Every kind of bad input the issue lists, sent over HTTP to a running ``tableref serve``: each is
answered 4xx with a message (or, for a camera that disappears, shown as the source's state),
and the same process goes on answering and refereeing."""

from __future__ import annotations

import json
import struct
import urllib.error
import urllib.request
import zlib

import cv2
import pytest

import live_scenes as ls
from webui_helpers import get_json, serve_scripted, stop_server

GAME, SEED = "dolcevita", 5
#: Bytes of the huge upload's body: over the server's 16 MiB limit.
OVERSIZED = 17 * 1024 * 1024


def _huge_png(width: int, height: int) -> bytes:
    """A small file whose header declares a huge image."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\x00" * 64)) + chunk(b"IEND", b""))


def _truncated_jpeg() -> bytes:
    data = cv2.imencode(".jpg", ls.make_frame(1))[1].tobytes()
    return data[: len(data) // 2]


def _send(url: str, path: str, body: bytes, content_type: str, token: str, method: str = "POST") -> tuple[int, dict]:
    request = urllib.request.Request(url + path, data=body if method == "POST" else None, method=method,
                                     headers={"Content-Type": content_type, "X-CSRF-Token": token})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


#: (method, path, body, content type, status, words of the message)
BAD_INPUTS = [
    ("POST", "/api/analyze", b"this is not an image at all", "image/png", 400, "not an image"),
    ("POST", "/api/analyze", _huge_png(30_000, 30_000), "image/png", 400, "more than the limit"),
    ("POST", "/api/analyze", b"\x89PNG\r\n\x1a\n" + b"\x00" * OVERSIZED, "image/png", 413, "larger than the limit"),
    ("POST", "/api/analyze", _truncated_jpeg(), "image/jpeg", 400, "truncated"),
    ("GET", "/api/games/20990101-000000-dead", b"", "", 404, "no game"),
    ("GET", "/api/events?game=nope-nope", b"", "", 404, "no game"),
    ("GET", "/api/score?game=../../etc", b"", "", 404, "not a game id"),
] + [("POST", path, b"{not json", "application/json", 400, "not valid JSON")
     for path in ("/api/game/start", "/api/game/stop", "/api/correct", "/api/source", "/api/flags/1/accept",
                  "/api/flags/1/undo")] + [
    ("POST", "/api/correct", b'{"observation": {"game": "dolcevita", "items": 3}}', "application/json", 400, "items"),
]


@pytest.fixture
def server(tmp_path):
    _, observations = ls.playout_scenes(GAME, 2, SEED, 2)
    process, url, control = serve_scripted(tmp_path, GAME, dict(enumerate(observations)), "--seed", str(SEED))
    yield process, url, control
    stop_server(process)


def test_bad_input_to_a_running_server(server):
    process, url, control = server
    token = get_json(url + "/api/csrf")["token"]
    for method, path, body, content_type, status, words in BAD_INPUTS:
        got, answer = _send(url, path, body, content_type, token, method)
        assert (got, words in answer["error"]) == (status, True), (path, answer)
        assert process.poll() is None and get_json(url + "/api/state")["game"]["game"] == GAME
    # the game goes on after all of it
    ls.show(control, 1)
    events = ls.wait_for(lambda: len(page := get_json(url + "/api/events")["events"]) >= 2 and page, 20)
    assert events[1]["kind"] == "move_accepted"
    # the camera disappears mid-game: its state is shown, the game waits, the server answers
    ls.show(control, 1, unplugged=True)
    status = ls.wait_for(lambda: (s := get_json(url + "/api/state")["source"]["status"])["state"] == "reconnecting"
                         and s, 20)
    assert "unplugged" in status["last_error"] and process.poll() is None
    assert get_json(url + "/api/state")["game"]["game"] == GAME
    # plugged back, it is live again and the game goes on
    ls.show(control, 2)
    events = ls.wait_for(lambda: len(page := get_json(url + "/api/events")["events"]) >= 3 and page, 30)
    assert events[2]["kind"] == "move_accepted"
