"""Every failure answered with a status and a message that says what is wrong: JSON
``{"error": ..., "status": ...}`` under ``/api/`` (and for the streams), a short page elsewhere.
The server keeps running: an unexpected error is logged and answered 500."""

from __future__ import annotations

import logging

from flask import Flask, Response, jsonify, render_template, request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from ..calibration.errors import CalibrationError
from ..gamelog import GameNotFound
from ..input import InputError
from ..live.recognition import NoRecogniser
from ..rules.errors import RulesError
from ..session import SessionError
from ..vision.errors import VisionError

log = logging.getLogger(__name__)


def _answer(status: int, message: str) -> Response | tuple[str, int]:
    if request.path.startswith(("/api/", "/events", "/stream")) or request.accept_mimetypes.best == "application/json":
        response = jsonify({"error": message, "status": status})
        response.status_code = status
        return response
    return render_template("error.html", status=status, message=message), status


def init_app(app: Flask) -> None:
    @app.errorhandler(RequestEntityTooLarge)
    def too_large(exc: RequestEntityTooLarge):  # type: ignore[no-untyped-def]
        limit = app.config.get("MAX_CONTENT_LENGTH") or 0
        return _answer(413, f"the request is larger than the limit of {limit // (1024 * 1024)} MiB")

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):  # type: ignore[no-untyped-def]
        return _answer(exc.code or 500, exc.description or exc.name)

    @app.errorhandler(GameNotFound)
    def not_found(exc: GameNotFound):  # type: ignore[no-untyped-def]
        return _answer(404, str(exc))

    @app.errorhandler(NoRecogniser)
    def no_recogniser(exc: NoRecogniser):  # type: ignore[no-untyped-def]
        return _answer(409, str(exc))

    @app.errorhandler(SessionError)
    def conflict(exc: SessionError):  # type: ignore[no-untyped-def]
        return _answer(409, str(exc))

    for kind in (InputError, RulesError, VisionError, CalibrationError):
        app.register_error_handler(kind, lambda exc: _answer(400, str(exc)))

    @app.errorhandler(Exception)
    def internal(exc: Exception):  # type: ignore[no-untyped-def]
        if isinstance(exc, HTTPException):
            return http_error(exc)
        log.exception("internal error answering %s %s", request.method, request.path)
        return _answer(500, f"internal error: {type(exc).__name__} (the server keeps running; see its log)")
