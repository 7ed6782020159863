"""The Flask dashboard: :func:`create_app` builds it around one live :class:`~tableref.session.Session`.

Blueprints, one idea each: ``pages`` (the dashboard and the setup page), ``api`` (the JSON
API, see docs/api.md), ``streams`` (MJPEG camera view and server-sent events). ``security``
checks every request (Host, CSRF token on every POST) and ``errors`` answers every failure
with a clear message: JSON under ``/api/``, a short page elsewhere. Static files are served
from ``static/``; nothing is loaded from the network.
"""

from __future__ import annotations

import secrets
from typing import Any

from flask import Flask

from ..session import Session

#: Largest request body accepted (an uploaded photo), bytes.
MAX_UPLOAD_BYTES = 16 * 1024 * 1024
#: Largest uploaded image accepted, pixels (width x height): above any phone photo.
MAX_UPLOAD_PIXELS = 40_000_000

SESSION_KEY = "tableref.session"


def create_app(session: Session, test_config: dict[str, Any] | None = None) -> Flask:
    """Build the dashboard for ``session``.

    Parameters
    ----------
    session : Session
        The live session the dashboard shows and commands.
    test_config : dict, optional
        Settings overriding the defaults: ``MAX_CONTENT_LENGTH`` (bytes), ``MAX_UPLOAD_PIXELS``,
        ``CSRF_TOKEN`` (random per start by default), ``ALLOWED_HOSTS`` (host names accepted in
        the Host header; None: any), ``TESTING``.
    """
    app = Flask(__name__)
    app.config.from_mapping(
        MAX_CONTENT_LENGTH=MAX_UPLOAD_BYTES,
        MAX_UPLOAD_PIXELS=MAX_UPLOAD_PIXELS,
        CSRF_TOKEN=secrets.token_urlsafe(32),
        ALLOWED_HOSTS=None,
    )
    if test_config:
        app.config.from_mapping(test_config)
    app.extensions[SESSION_KEY] = session

    from . import api, errors, pages, security, streams
    security.init_app(app)
    errors.init_app(app)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(streams.bp)
    return app
