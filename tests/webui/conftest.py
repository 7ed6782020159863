"""Fixtures of the dashboard tests: a session on a log in tmp_path, its app, a client, the token."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "live"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import live_scenes as ls  # noqa: E402
from tableref.gamelog import GameLog  # noqa: E402
from tableref.live import recognition  # noqa: E402
from tableref.live.recognition import unregister_recogniser  # noqa: E402
from tableref.rules import GAMES  # noqa: E402
from tableref.session import Session  # noqa: E402
from tableref.webui import create_app  # noqa: E402

from webui_helpers import GAME, SEED, TOKEN  # noqa: E402


@pytest.fixture(autouse=True)
def only_test_recognisers(monkeypatch):
    """The shipped recognisers are left out: these tests use the scene recogniser alone."""
    monkeypatch.setattr(recognition, "BUILTIN", {})


@pytest.fixture
def scenes():
    return ls.playout_scenes(GAME, 2, SEED, 3)


@pytest.fixture
def session(tmp_path, scenes):
    for name in GAMES:
        unregister_recogniser(name)
    ls.register(GAME, dict(enumerate(scenes[1])))
    gamelog = GameLog(tmp_path / "games.sqlite")
    live = Session(gamelog)
    yield live
    live.close()
    gamelog.close()
    for name in GAMES:
        unregister_recogniser(name)


@pytest.fixture
def app(session):
    return create_app(session, {"TESTING": True, "CSRF_TOKEN": TOKEN, "ALLOWED_HOSTS": ("localhost", "127.0.0.1"),
                                "MAX_CONTENT_LENGTH": 2 * 1024 * 1024, "MAX_UPLOAD_PIXELS": 4_000_000})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def post(client):
    """POST with the CSRF token; ``json=`` or ``data=`` as for the test client."""
    def send(path, **kwargs):
        headers = {"X-CSRF-Token": TOKEN, **kwargs.pop("headers", {})}
        return client.post(path, headers=headers, **kwargs)
    return send

