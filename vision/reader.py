"""The reader thread: a ``FrameReader`` run into a one-slot buffer, reconnecting with backoff.

A consumer slower than the source gets the newest frame and the frames it missed are counted,
never queued; a live source that is lost is reopened with capped exponential backoff while
``status()`` says so.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import TYPE_CHECKING, Iterator

import numpy as np

from .errors import ImageError, SourceError, SourceLost
from .frame import Frame, FrameReader, SourceState, SourceStatus

if TYPE_CHECKING:
    from .sources import CaptureSettings

log = logging.getLogger(__name__)

#: Extra seconds ``close()`` waits for the reader thread beyond the open and read timeouts.
CLOSE_GRACE_S = 1.0


class FrameSource:
    """A frame source read on its own thread into a one-slot buffer.

    Use :func:`tableref.vision.capture.open_source` to make one. ``read(timeout)`` returns the
    newest frame not yet handed out; iterating yields frames until the source ends (and raises
    SourceError if it failed for good); ``status()`` says what the source is doing; ``close()``
    stops it.
    """

    def __init__(self, reader: FrameReader, settings: CaptureSettings):
        self._reader = reader
        self._settings = settings
        self._cond = threading.Condition()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._slot: Frame | None = None
        self._slot_taken = True
        now = time.time()
        self._status = SourceStatus(source=reader.name, state=SourceState.CONNECTING, since=now)

    @property
    def name(self) -> str:
        """The source's name, as in its frames."""
        return self._reader.name

    @property
    def settings(self) -> CaptureSettings:
        """The settings the source runs with."""
        return self._settings

    def start(self) -> FrameSource:
        """Open the source and start its reader thread; raise SourceError if it cannot be opened.

        With ``settings.retry_first_open`` a live source that cannot be opened yet is retried
        in the background (state reconnecting) instead.
        """
        if self._thread is not None:
            return self
        first_error: str | None = None
        try:
            self._reader.open()
            self._update(state=SourceState.LIVE)
        except SourceError as exc:
            if not (self._settings.retry_first_open and self._reader.live):
                self._reader.close()
                self._update(state=SourceState.FAILED, last_error=str(exc), last_error_at=time.time())
                raise
            first_error = str(exc)
            self._note_error(first_error)
        self._thread = threading.Thread(target=self._run, args=(first_error,),
                                        name=f"tableref-capture {self.name}", daemon=True)
        self._thread.start()
        return self

    # ------------------------------------------------------------------ consumer side
    def read(self, timeout: float | None = None) -> Frame | None:
        """Return the newest frame not yet read, waiting up to ``timeout`` seconds (None: forever).

        Returns None when the time runs out or the source has finished (ended, failed, closed)
        with nothing new; ``status()`` tells which.
        """
        with self._cond:
            self._cond.wait_for(lambda: not self._slot_taken or self._status.state.finished, timeout)
            if self._slot_taken:
                return None
            self._slot_taken = True
            self._status = self._status.but(delivered=self._status.delivered + 1)
            self._cond.notify_all()  # a reader thread in every_frame mode waits for this
            return self._slot

    def latest(self) -> Frame | None:
        """The newest frame (read or not) without taking it, e.g. for a preview; None before the first."""
        with self._cond:
            return self._slot

    def status(self) -> SourceStatus:
        """A snapshot of the source's state and counters."""
        with self._cond:
            return self._status

    def __iter__(self) -> Iterator[Frame]:
        while True:
            frame = self.read(None)
            if frame is not None:
                yield frame
                continue
            status = self.status()
            if status.state is SourceState.FAILED:
                raise SourceError(status.last_error or f"{self.name} failed")
            return

    def close(self) -> None:
        """Stop the reader thread and release the source; ``read`` returns None from now on.

        The state becomes closed, unless the source had already ended or failed (kept for the record).
        """
        self._stop.set()
        with self._cond:
            self._cond.notify_all()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(self._settings.open_timeout_s + self._settings.read_timeout_s + CLOSE_GRACE_S)
            if thread.is_alive():
                log.warning("%s: reader thread still busy after close; it stops after its current read", self.name)
        if thread is None:
            self._reader.close()
        with self._cond:
            self._slot_taken = True  # a closed source hands out nothing more
            if not self._status.state.finished:
                self._set_state(SourceState.CLOSED, next_retry_at=None)
            self._cond.notify_all()

    def __enter__(self) -> FrameSource:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # ------------------------------------------------------------------ reader thread
    def _update(self, **changes: object) -> None:
        with self._cond:
            if "state" in changes and changes["state"] is not self._status.state:
                changes.setdefault("since", time.time())
            self._status = self._status.but(**changes)
            self._cond.notify_all()

    def _set_state(self, state: SourceState, **changes: object) -> None:
        self._update(state=state, **changes)

    def _note_error(self, message: str) -> None:
        self._update(last_error=message, last_error_at=time.time())

    def _publish(self, image: np.ndarray) -> None:
        with self._cond:
            sequence = self._status.frames
        frame = Frame(image, time.time(), sequence, self.name)
        with self._cond:
            if self._settings.every_frame and not self._reader.live:
                self._cond.wait_for(lambda: self._slot_taken or self._stop.is_set())
            skipped = self._status.skipped + (0 if self._slot_taken else 1)
            self._slot, self._slot_taken = frame, False
            self._status = self._status.but(frames=sequence + 1, skipped=skipped)
            self._cond.notify_all()

    def _run(self, first_error: str | None) -> None:
        try:
            if first_error is None or self._reconnect(first_error, first=True):
                self._loop()
        except Exception as exc:  # the thread boundary: a failure becomes state "failed", never a silent death
            log.exception("%s: reader thread failed", self.name)
            self._set_state(SourceState.FAILED, last_error=f"{self.name} failed: {type(exc).__name__}: {exc}",
                            last_error_at=time.time())
        finally:
            self._reader.close()
            with self._cond:
                self._cond.notify_all()

    def _loop(self) -> None:
        reader, settings = self._reader, self._settings
        due = time.monotonic()
        produced_since_rewind = 0
        warned: set[str] = set()
        while not self._stop.is_set():
            try:
                image = reader.read()
            except SourceLost as exc:
                if not self._reconnect(str(exc)):
                    return
                due = time.monotonic()
                continue
            except ImageError as exc:  # one unreadable file in a folder: note it, keep the pace
                if str(exc) not in warned:  # once per problem, not once per loop
                    warned.add(str(exc))
                    log.warning("%s: skipping a frame: %s", self.name, exc)
                self._note_error(str(exc))
            else:
                if image is None:
                    if not settings.loop:
                        self._set_state(SourceState.ENDED)
                        return
                    if not produced_since_rewind or not reader.rewind():
                        why = f"{self.name} cannot be looped: no readable frame, or it cannot rewind"
                        self._set_state(SourceState.FAILED, last_error=why, last_error_at=time.time())
                        return
                    produced_since_rewind = 0
                    continue
                self._publish(image)
                produced_since_rewind += 1
            if reader.interval_s:
                due += reader.interval_s
                delay = due - time.monotonic()
                if delay > 0:
                    self._stop.wait(delay)
                else:
                    due = time.monotonic()  # running late: do not try to catch up

    def _reconnect(self, reason: str, *, first: bool = False) -> bool:
        """Reopen a lost live source with capped exponential backoff; return True once live again.

        ``first``: the source has not been opened yet (``retry_first_open``), so success is not
        counted as a reconnection.
        """
        reader, settings = self._reader, self._settings
        if not reader.live:
            self._set_state(SourceState.FAILED, last_error=reason, last_error_at=time.time())
            return False
        log.warning("%s: %s; reconnecting", self.name, reason)
        self._set_state(SourceState.RECONNECTING, last_error=reason, last_error_at=time.time(), attempt=0)
        reader.close()
        attempt = 0
        while not self._stop.is_set():
            attempt += 1
            if settings.max_reconnects is not None and attempt > settings.max_reconnects:
                message = f"{self.name} lost ({reason}); gave up after {settings.max_reconnects} reconnect attempts"
                self._set_state(SourceState.FAILED, next_retry_at=None, last_error=message, last_error_at=time.time())
                return False
            delay = settings.backoff_delay(attempt)
            self._update(attempt=attempt, next_retry_at=time.time() + delay)
            if self._stop.wait(delay):
                return False
            try:
                reader.open()
            except SourceError as exc:
                log.info("%s: reconnect attempt %d failed: %s", self.name, attempt, exc)
                self._note_error(str(exc))
                continue
            with self._cond:
                reconnects = self._status.reconnects + (0 if first else 1)
            self._set_state(SourceState.LIVE, attempt=0, next_retry_at=None, reconnects=reconnects)
            log.warning("%s: live again after %d attempt(s)", self.name, attempt)
            return True
        return False

