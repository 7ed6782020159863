"""Checks on every request: the Host header (against DNS rebinding when serving on loopback)
and a CSRF token on every POST (every state-changing request is a POST).

The token is random per server start; pages carry it in ``<meta name="csrf-token">`` and
send it as the ``X-CSRF-Token`` header; API clients read it from ``GET /api/csrf`` (a page
from another origin cannot read that answer). A POST whose ``Origin`` names another host is
refused as well.
"""

from __future__ import annotations

import hmac
from urllib.parse import urlsplit

from flask import Flask, abort, current_app, request

CSRF_HEADER = "X-CSRF-Token"
CSRF_FIELD = "csrf_token"


def _host_name(host: str) -> str:
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def check_host() -> None:
    allowed = current_app.config.get("ALLOWED_HOSTS")
    if allowed is not None and _host_name(request.host) not in allowed:
        abort(400, f"unexpected Host header {request.host!r}: this server answers to {', '.join(sorted(allowed))}")


def check_csrf() -> None:
    if request.method != "POST":
        return
    origin = request.headers.get("Origin")
    if origin and origin != "null" and urlsplit(origin).netloc != request.host:
        abort(403, f"cross-origin request refused (Origin {origin!r})")
    sent = request.headers.get(CSRF_HEADER) or ""
    expected = current_app.config["CSRF_TOKEN"]
    if not sent or not hmac.compare_digest(sent.encode(), expected.encode()):
        abort(403, f"missing or wrong CSRF token: reload the page (API clients: send the {CSRF_HEADER} header "
                   "with the token from GET /api/csrf)")


def init_app(app: Flask) -> None:
    app.before_request(check_host)
    app.before_request(check_csrf)

    @app.context_processor
    def csrf_token() -> dict[str, str]:
        return {"csrf_token": current_app.config["CSRF_TOKEN"]}

    @app.after_request
    def headers(response):  # type: ignore[no-untyped-def]
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        response.headers.setdefault("Content-Security-Policy",
                                    "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; "
                                    "script-src 'self'; connect-src 'self'; frame-ancestors 'none'")
        return response
