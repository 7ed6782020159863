"""Long-lived responses, streamed from generators: the annotated camera view as MJPEG and the
session's news as server-sent events."""

from __future__ import annotations

import json
import time
from typing import Any, Iterator

from flask import Blueprint, Response

from ..live.loop import placeholder_jpeg
from .context import get_session

bp = Blueprint("streams", __name__)

#: Seconds between re-sending the last picture when none is new (notices a closed viewer).
MJPEG_RESEND_S = 2.0
#: Seconds an event stream waits for news before checking the live status again.
SSE_POLL_S = 1.0
#: Seconds between keep-alive comments on a quiet event stream.
SSE_KEEPALIVE_S = 15.0
#: Milliseconds the browser waits before reconnecting a dropped event stream.
SSE_RETRY_MS = 2000
_BOUNDARY = "frame"


def _part(jpeg: bytes) -> bytes:
    return (f"--{_BOUNDARY}\r\nContent-Type: image/jpeg\r\nContent-Length: {len(jpeg)}\r\n\r\n".encode()
            + jpeg + b"\r\n")


@bp.get("/stream.mjpg")
def mjpeg() -> Response:
    picture = get_session().picture
    waiting = placeholder_jpeg("waiting for the camera")

    def frames() -> Iterator[bytes]:
        picture.watch()
        try:
            version, jpeg = picture.latest()
            yield _part(jpeg or waiting)
            while not picture.closed:
                newer, jpeg = picture.wait_newer(version, MJPEG_RESEND_S)
                version = newer
                yield _part(jpeg or waiting)
        finally:
            picture.unwatch()

    return Response(frames(), mimetype=f"multipart/x-mixed-replace; boundary={_BOUNDARY}",
                    headers={"Cache-Control": "no-store"})


def _sse(kind: str, data: Any) -> str:
    return f"event: {kind}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


@bp.get("/events")
def events() -> Response:
    session = get_session()
    subscription = session.hub.subscribe()

    def stream() -> Iterator[str]:
        try:
            yield f"retry: {SSE_RETRY_MS}\n\n"
            yield _sse("state", session.view())
            last_live: dict | None = session.live_status()
            yield _sse("live", last_live)
            quiet_since = time.monotonic()
            while True:
                message = subscription.get(SSE_POLL_S)
                if message is None and subscription.closed:
                    return
                if message is not None:
                    yield _sse(*message)
                    quiet_since = time.monotonic()
                live = session.live_status()
                if live != last_live:
                    last_live = live
                    yield _sse("live", live)
                    quiet_since = time.monotonic()
                elif time.monotonic() - quiet_since > SSE_KEEPALIVE_S:
                    quiet_since = time.monotonic()
                    yield ": keep-alive\n\n"
        finally:
            subscription.close()

    return Response(stream(), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
