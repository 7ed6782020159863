"""The JSON API and the pages: commands, CSRF, and every kind of bad input answered 4xx with a
message while the server keeps working."""

from __future__ import annotations

import io
import json
import struct
import zlib

import cv2
import numpy as np
import pytest

import live_scenes as ls
from webui_helpers import START, TOKEN

POST_ENDPOINTS = ["/api/game/start", "/api/game/stop", "/api/correct", "/api/source", "/api/flags/1/accept",
                  "/api/flags/1/undo"]


def _png(image: np.ndarray) -> bytes:
    return cv2.imencode(".png", image)[1].tobytes()


def _jpeg(image: np.ndarray) -> bytes:
    return cv2.imencode(".jpg", image)[1].tobytes()


def _huge_png(width: int, height: int) -> bytes:
    """A tiny file declaring a huge grey image (its header is all a safe decoder needs to refuse it)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    raw = zlib.compress(b"\x00" * (width + 1) * 8)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", raw) + chunk(b"IEND", b""))


def _still_working(client):
    response = client.get("/api/state")
    assert response.status_code == 200 and "source" in response.get_json()


def test_pages_render_offline(client):
    for path in ("/", "/setup"):
        page = client.get(path)
        assert page.status_code == 200
        html = page.get_data(as_text=True)
        assert f'content="{TOKEN}"' in html
        assert "http://" not in html and "https://" not in html  # nothing from the network
        assert "Content-Security-Policy" in page.headers
    assert client.get("/static/dashboard.js").status_code == 200


def test_start_play_and_read_back(client, post, session, scenes):
    response = post("/api/game/start", json=START)
    assert response.status_code == 200, response.get_json()
    game_id = response.get_json()["game"]["id"]
    state = client.get("/api/state").get_json()
    assert state["game"]["id"] == game_id and state["state"] == scenes[0][0].to_json()
    events = client.get("/api/events").get_json()
    assert [e["kind"] for e in events["events"]] == ["game_started"]
    score = client.get(f"/api/score?game={game_id}").get_json()
    assert score["names"] == ["Ann", "Bob"] and len(score["series"]) == 1
    assert client.get(f"/api/games/{game_id}").get_json()["game"]["id"] == game_id
    assert post("/api/correct", json={"state": scenes[0][1].to_json(), "player": 0}).status_code == 200
    assert client.get("/api/state").get_json()["state"] == scenes[0][1].to_json()
    assert len(client.get("/api/score").get_json()["series"]) == 2
    assert post("/api/game/start", json=START).status_code == 409
    assert post("/api/game/stop").status_code == 200
    assert client.get("/api/state").get_json()["game"] is None


def test_analyze_an_uploaded_photo(client, post):
    post("/api/game/start", json=START)
    photo = _png(ls.make_frame(1))
    response = post("/api/analyze", data={"image": (io.BytesIO(photo), "table.png")},
                    content_type="multipart/form-data")
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["game"] == "dolcevita" and body["verdict"]["legal"] is True
    raw = post("/api/analyze", data=photo, content_type="image/png")
    assert raw.status_code == 200


@pytest.mark.parametrize("path", POST_ENDPOINTS + ["/api/analyze"])
@pytest.mark.parametrize("headers,message", [
    ({}, "CSRF"),
    ({"X-CSRF-Token": "wrong"}, "CSRF"),
    ({"X-CSRF-Token": TOKEN, "Origin": "http://evil.example"}, "cross-origin"),
])
def test_csrf_is_enforced(client, path, headers, message):
    response = client.post(path, json={}, headers=headers)
    assert response.status_code == 403
    assert message in response.get_json()["error"]
    _still_working(client)


def test_a_foreign_host_header_is_refused(client):
    response = client.get("/api/state", headers={"Host": "attacker.example"})
    assert response.status_code == 400 and "Host" in response.get_json()["error"]


@pytest.mark.parametrize("path", POST_ENDPOINTS)
@pytest.mark.parametrize("body,content_type,status", [
    (b"{not json", "application/json", 400),
    (b"\xff\xfe\x00", "application/json", 400),
    (b"[1, 2]", "application/json", 400),
    (b'"text"', "application/json", 400),
    (b"a=1", "application/x-www-form-urlencoded", 415),
])
def test_malformed_json_to_each_endpoint(client, post, path, body, content_type, status):
    post("/api/game/start", json=START)
    response = post(path, data=body, content_type=content_type)
    assert response.status_code == status, (path, response.get_json())
    assert response.get_json()["error"]
    _still_working(client)


@pytest.mark.parametrize("body,status,message", [
    ({"game": "chess", "players": START["players"]}, 409, "unknown game"),
    ({"game": "ligretto", "players": START["players"]}, 409, "cannot recognise ligretto"),
    ({"game": "dolcevita", "players": []}, 400, "players"),
    ({"game": "dolcevita", "players": [{"name": "A", "colour": "red"}] * 2}, 400, "colour"),
    ({"game": "dolcevita", "players": [{"name": "<script>", "colour": "#000000"}]}, 409, "2 to 5"),
    ({"game": "dolcevita", "players": START["players"], "seed": "x"}, 400, "seed"),
    ({"game": 3, "players": START["players"]}, 400, "game"),
])
def test_bad_start_requests(client, post, body, status, message):
    response = post("/api/game/start", json=body)
    assert response.status_code == status, response.get_json()
    assert message in response.get_json()["error"]
    _still_working(client)


@pytest.mark.parametrize("spec,message", [
    ("/etc/passwd", "cannot open source"),
    ("../frames", "cannot open source"),
    ("http://example.com/stream", "cannot open source"),
    (3, "a source is"),
])
def test_the_dashboard_opens_no_path_it_is_sent(client, post, spec, message):
    response = post("/api/source", json={"spec": spec})
    assert response.status_code == 400 and message in response.get_json()["error"]


def test_unknown_game_ids(client, post):
    for path in ("/api/events?game=20990101-000000-dead", "/api/score?game=nope", "/api/games/nope",
                 "/api/games/20990101-000000-dead/events/1/snapshot.jpg", "/api/games/..%2f..%2fetc"):
        response = client.get(path)
        assert response.status_code == 404, path
        assert response.get_json()["error"]
    assert client.get("/api/events").status_code == 404  # no game in play, none named
    assert client.get("/api/events?after=x&game=nope").status_code in (400, 404)


def test_bad_query_arguments(client, post):
    post("/api/game/start", json=START)
    for query in ("after=x", "after=-1", "limit=0", "limit=99999"):
        response = client.get(f"/api/events?{query}")
        assert response.status_code == 400 and "query argument" in response.get_json()["error"]


def _truncated_jpeg():
    data = _jpeg(ls.make_frame(1))
    return data[: len(data) // 2]


@pytest.mark.parametrize("make,status,message", [
    (lambda: b"this is not an image at all", 400, "not an image"),
    (lambda: b"", 400, "photo"),
    (_truncated_jpeg, 400, "truncated"),
    (lambda: _huge_png(30_000, 30_000), 400, "more than the limit"),
    (lambda: b"\x89PNG\r\n\x1a\n" + b"\x00" * (3 * 1024 * 1024), 413, "larger than the limit"),
])
def test_bad_uploads(client, post, make, status, message):
    post("/api/game/start", json=START)
    data = make()
    if data:
        response = post("/api/analyze", data={"image": (io.BytesIO(data), "x.jpg")}, content_type="multipart/form-data")
    else:
        response = post("/api/analyze", data=b"", content_type="text/plain")
    assert response.status_code == status, response.get_json()
    assert message in response.get_json()["error"]
    _still_working(client)


def test_analyze_without_a_game_or_recogniser(client, post):
    photo = _png(ls.make_frame(1))
    response = post("/api/analyze", data=photo, content_type="image/png")
    assert response.status_code == 409 and "say which game" in response.get_json()["error"]
    response = post("/api/analyze?game=ligretto", data=photo, content_type="image/png")
    assert response.status_code == 409 and "cannot recognise ligretto" in response.get_json()["error"]
    response = post("/api/analyze?game=dolcevita", data=_png(np.zeros((20, 20, 3), np.uint8)), content_type="image/png")
    assert response.status_code == 400 and "no scene patch" in response.get_json()["error"]


def test_decisions_on_missing_flags(client, post):
    assert post("/api/flags/1/accept").status_code == 409  # no game
    post("/api/game/start", json=START)
    response = post("/api/flags/7/undo", json={"player": 0})
    assert response.status_code == 409 and "not an open flag" in response.get_json()["error"]
    assert post("/api/flags/1/accept", json={"player": "me"}).status_code == 400


def test_event_stream_and_camera_stream(client, post):
    post("/api/game/start", json=START)
    response = client.get("/events")
    assert response.mimetype == "text/event-stream"
    chunks = response.response
    first = next(chunks) + next(chunks)
    first = first.decode() if isinstance(first, bytes) else first
    assert first.startswith("retry:") and "event: state" in first
    payload = json.loads(first.split("event: state\ndata: ", 1)[1].split("\n", 1)[0])
    assert payload["game"]["game"] == "dolcevita"
    response.close()
    camera = client.get("/stream.mjpg")
    assert camera.mimetype == "multipart/x-mixed-replace"
    part = next(camera.response)
    assert b"Content-Type: image/jpeg" in part and b"\xff\xd8" in part
    camera.close()


def test_unknown_pages_and_methods(client):
    assert client.get("/nowhere").status_code == 404
    response = client.get("/api/game/start")
    assert response.status_code == 405 and response.get_json()["error"]


def test_a_source_that_disappears_shows_its_state(client, post):
    from tableref.vision.capture import register_source, unregister_source

    register_source("vanishing", lambda argument, settings: ls.VanishingCamera(), replace=True)
    try:
        post("/api/game/start", json=START)
        assert post("/api/source", json={"spec": "vanishing"}).status_code == 200
        status = ls.wait_for(lambda: (s := client.get("/api/state").get_json()["source"]["status"])
                             and s["state"] in ("reconnecting", "failed") and s)
        assert "stopped delivering frames" in status["last_error"]
        assert client.get("/api/state").get_json()["game"] is not None  # the game waits for a source
    finally:
        unregister_source("vanishing")
