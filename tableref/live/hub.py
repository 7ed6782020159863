"""Fan-out to the dashboard: committed events and live status to every subscriber, and the
latest annotated picture to every MJPEG viewer.

A slow subscriber is never waited for: its queue is bounded, and one that overflows is
closed (its browser reconnects and reloads the state), so the session thread never blocks.
"""

from __future__ import annotations

import queue
import threading
from typing import Any

#: Messages a subscriber may have waiting before it is dropped.
SUBSCRIBER_QUEUE = 256


class Subscription:
    """One subscriber's queue of ``(kind, data)`` messages."""

    def __init__(self, hub: Hub):
        self._hub = hub
        self._queue: queue.Queue[tuple[str, Any] | None] = queue.Queue(SUBSCRIBER_QUEUE)
        self.closed = False

    def put(self, message: tuple[str, Any] | None) -> bool:
        try:
            self._queue.put_nowait(message)
            return True
        except queue.Full:
            return False

    def get(self, timeout: float) -> tuple[str, Any] | None:
        """The next message, or None after ``timeout`` seconds or once closed."""
        if self.closed:
            return None
        try:
            message = self._queue.get(timeout=timeout)
        except queue.Empty:
            return None
        if message is None:
            self.closed = True
        return message

    def close(self) -> None:
        self.closed = True
        self._hub.unsubscribe(self)


class Hub:
    """Subscribers to the session's messages."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscribers: set[Subscription] = set()

    def subscribe(self) -> Subscription:
        subscription = Subscription(self)
        with self._lock:
            self._subscribers.add(subscription)
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        with self._lock:
            self._subscribers.discard(subscription)

    @property
    def subscribers(self) -> int:
        with self._lock:
            return len(self._subscribers)

    def publish(self, kind: str, data: Any) -> None:
        """Queue ``(kind, data)`` for every subscriber; one whose queue is full is closed."""
        with self._lock:
            subscribers = list(self._subscribers)
        for subscription in subscribers:
            if not subscription.put((kind, data)):
                self.unsubscribe(subscription)
                subscription.closed = True

    def close(self) -> None:
        """Tell every subscriber that the stream ends."""
        with self._lock:
            subscribers, self._subscribers = list(self._subscribers), set()
        for subscription in subscribers:
            subscription.put(None)


class Picture:
    """The latest JPEG of the annotated camera view, with a version number, for MJPEG viewers."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._jpeg: bytes | None = None
        self._version = 0
        self._viewers = 0
        self._closed = False

    @property
    def viewers(self) -> int:
        with self._cond:
            return self._viewers

    def watch(self) -> None:
        with self._cond:
            self._viewers += 1

    def unwatch(self) -> None:
        with self._cond:
            self._viewers = max(0, self._viewers - 1)

    def set(self, jpeg: bytes) -> None:
        with self._cond:
            self._jpeg, self._version = jpeg, self._version + 1
            self._cond.notify_all()

    def latest(self) -> tuple[int, bytes | None]:
        with self._cond:
            return self._version, self._jpeg

    def wait_newer(self, version: int, timeout: float) -> tuple[int, bytes | None]:
        """Wait up to ``timeout`` seconds for a picture newer than ``version``; return the latest."""
        with self._cond:
            self._cond.wait_for(lambda: self._version > version or self._closed, timeout)
            return self._version, self._jpeg

    @property
    def closed(self) -> bool:
        with self._cond:
            return self._closed

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()
