"""Per-request access to the session and the request body (through ``g`` and ``current_app``)."""

from __future__ import annotations

import json
from typing import Any

from flask import abort, current_app, g, request

from ..session import Session


def get_session() -> Session:
    """The live session of this app."""
    if "session" not in g:
        from . import SESSION_KEY
        g.session = current_app.extensions[SESSION_KEY]
    return g.session


def json_body(*, required: bool = True) -> dict[str, Any]:
    """The request's JSON object body; 400 or 415 with a message saying what is wrong.

    An optional body may be empty (``{}`` is returned), but one that is sent must be a JSON object.
    """
    raw = request.get_data(cache=True)
    if not raw.strip():
        if required:
            abort(400, "this request needs a JSON object body")
        return {}
    if request.mimetype != "application/json":
        abort(415, f"send the body as JSON with Content-Type: application/json (got {request.mimetype or 'none'})")
    try:
        data = json.loads(raw)
    except UnicodeDecodeError:
        abort(400, "the body is not valid JSON: it is not UTF-8 text")
    except ValueError as exc:
        abort(400, f"the body is not valid JSON: {exc}")
    if not isinstance(data, dict):
        abort(400, f"the body must be a JSON object, got {type(data).__name__}")
    return data


def optional_player(data: dict[str, Any]) -> int | None:
    """The ``player`` field of a command (who acted), checked: an index or absent."""
    player = data.get("player")
    if player is None:
        return None
    if isinstance(player, bool) or not isinstance(player, int) or player < 0:
        abort(400, f"'player' must be a player index (0, 1, ...), got {player!r}")
    return player


def int_arg(name: str, default: int, minimum: int = 0, maximum: int | None = None) -> int:
    """An integer query argument, checked; 400 naming it when it is not one."""
    raw = request.args.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        abort(400, f"query argument {name!r} must be an integer, got {raw!r}")
    if value < minimum or (maximum is not None and value > maximum):
        abort(400, f"query argument {name!r} must lie in {minimum}..{maximum if maximum is not None else 'any'}, "
                   f"got {value}")
    return value
