"""The frame loop: one thread that takes each frame through the motion gate, recognises the
scene when it settles after a change, votes over the settled frames, and hands the agreed
observation to the session. It also keeps the annotated picture for the MJPEG stream.

A frame in which nothing changed costs a thumbnail, two comparisons and (only while someone
watches, at most ``stream.fps`` times a second) one JPEG encode; see ``tableref bench --live``.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import cv2
import numpy as np

from ..calibration.errors import CalibrationError
from ..calibration.profile import Profile
from ..rules.errors import RulesError
from ..vision import motion
from ..vision.errors import VisionError
from ..vision.frame import Frame
from ..vision.reader import FrameSource
from .recognition import Recogniser
from .voting import VoteSettings, vote

log = logging.getLogger(__name__)

#: Seconds the loop waits for a frame before checking whether it should stop.
POLL_S = 0.25
#: Idle frames whose cost is kept for the status (about ten seconds at 30 fps).
TIMING_WINDOW = 300


@dataclass(frozen=True)
class StreamSettings:
    """The MJPEG view: frames per second at most, width in pixels, JPEG quality (0-100)."""

    fps: float = 10.0
    width: int = 640
    jpeg_quality: int = 75

    def __post_init__(self) -> None:
        if not (isinstance(self.fps, (int, float)) and self.fps > 0):
            raise VisionError(f"stream fps must be a positive number, got {self.fps!r}")
        if not (isinstance(self.width, int) and self.width >= 16):
            raise VisionError(f"stream width must be an integer >= 16 pixels, got {self.width!r}")
        if not (isinstance(self.jpeg_quality, int) and 1 <= self.jpeg_quality <= 100):
            raise VisionError(f"stream jpeg_quality must be an integer in 1..100, got {self.jpeg_quality!r}")


def encode_jpeg(image: np.ndarray, width: int | None, quality: int) -> bytes:
    """``image`` (BGR) scaled down to ``width`` pixels wide (never up) and encoded as JPEG.

    Scaling halves the image while it is twice as wide as wanted (area averaging at exactly
    one half is several times faster than at an arbitrary ratio), then resizes the rest.
    """
    if width is not None and image.shape[1] > width:
        height = max(1, round(image.shape[0] * width / image.shape[1]))
        while image.shape[1] >= 2 * width:
            image = cv2.resize(image, (image.shape[1] // 2, image.shape[0] // 2), interpolation=cv2.INTER_AREA)
        if image.shape[1] != width:
            image = cv2.resize(image, (width, height), interpolation=cv2.INTER_AREA)
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise VisionError("the frame could not be encoded as JPEG")
    return data.tobytes()


#: Size (width, height) of the picture shown while there is no camera picture.
PLACEHOLDER_SIZE = (640, 360)
_PLACEHOLDER_GREY = 48
_PLACEHOLDER_TEXT = (200, 200, 200)


def placeholder_jpeg(text: str) -> bytes:
    """A dark JPEG saying ``text``, shown in the camera view while no frame has come."""
    width, height = PLACEHOLDER_SIZE
    image = np.full((height, width, 3), _PLACEHOLDER_GREY, np.uint8)
    cv2.putText(image, text, (24, height // 2), cv2.FONT_HERSHEY_SIMPLEX, 1.0, _PLACEHOLDER_TEXT, 2, cv2.LINE_AA)
    return encode_jpeg(image, None, 80)


def table_polygon(profile: Profile | None, frame_size: tuple[int, int]) -> np.ndarray | None:
    """The play area's corners in camera pixels (4, 2), or None without a usable table calibration."""
    if profile is None or profile.table is None or tuple(profile.table.image_size) != tuple(frame_size):
        return None
    width_mm, height_mm = profile.table.layout.table_mm
    corners = np.array([[0.0, 0.0], [width_mm, 0.0], [width_mm, height_mm], [0.0, height_mm]])
    try:
        return profile.table.table_to_image(corners, profile.intrinsics)
    except CalibrationError as exc:
        log.warning("no table mask for the motion gate: %s", exc)
        return None


class FrameLoop:
    """The loop thread over one source.

    Parameters
    ----------
    source : FrameSource
        Started; the loop closes it when it stops.
    recogniser : Recogniser or None
        None while no game is played: frames are gated and streamed, nothing is recognised.
    on_reading : callable (observation, frame) -> None
        Called on the loop thread with each voted observation.
    overlay : callable () -> (observation or None, flags)
        What to draw on the stream (the session's latest observation and open flags).
    """

    def __init__(self, source: FrameSource, recogniser: Recogniser | None, profile: Profile | None, *,
                 motion_settings: motion.MotionSettings, votes: VoteSettings, stream: StreamSettings,
                 picture: Any, on_reading: Callable[[Any, Frame], None],
                 overlay: Callable[[], tuple[Any, Sequence[Any]]]):
        self.source, self.recogniser, self.profile = source, recogniser, profile
        self._motion, self._votes, self._stream = motion_settings, votes, stream
        self._picture, self._on_reading, self._overlay = picture, on_reading, overlay
        self._gate = motion.GateState()
        self._mask: np.ndarray | None = None
        self._mask_for: tuple[int, int] | None = None
        self._readings: list[Any] = []
        self._last_stream = 0.0
        self._idle_ms: deque[float] = deque(maxlen=TIMING_WINDOW)
        self._recognise_ms: deque[float] = deque(maxlen=TIMING_WINDOW)
        self._problem: str | None = None
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tableref-live", daemon=True)

    def start(self) -> FrameLoop:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=POLL_S * 8)
        self.source.close()

    def status(self) -> dict[str, Any]:
        """Gate phase, the cost of idle frames and of recognition (ms), the last problem."""
        with self._lock:
            idle, recog = list(self._idle_ms), list(self._recognise_ms)
            out = {"gate": self._gate.to_json(), "problem": self._problem, "votes": len(self._readings)}
        out["idle_frame_ms"] = _summary(idle)
        out["recognise_ms"] = _summary(recog)
        return out

    # ------------------------------------------------------------------ the thread
    def _run(self) -> None:
        while not self._stop.is_set():
            frame = self.source.read(POLL_S)
            if frame is None:
                self._show_last_frame()
                if self.source.status().state.finished:
                    self._stop.wait(POLL_S)
                continue
            try:
                self._frame(frame)
            except Exception as exc:  # the thread boundary: report, keep the loop and the server alive
                log.exception("live loop: a frame failed")
                self._note(f"a frame could not be processed: {type(exc).__name__}: {exc}")

    def _show_last_frame(self) -> None:
        """While no frame comes (a source that ended or is lost), a new viewer still sees the last one."""
        latest = self.source.latest()
        if latest is not None and self._picture.viewers and self._picture.latest()[1] is None:
            try:
                self._maybe_stream(latest)
            except VisionError as exc:
                log.warning("the last frame could not be shown: %s", exc)

    def _note(self, problem: str | None) -> None:
        with self._lock:
            self._problem = problem

    def _mask_for_frame(self, frame: Frame, thumb: np.ndarray) -> np.ndarray | None:
        size = (frame.width, frame.height)
        if self._mask_for != size:
            self._mask_for = size
            polygon = table_polygon(self.profile, size)
            self._mask = None if polygon is None else motion.polygon_mask(
                thumb.shape, polygon * (thumb.shape[1] / frame.width))
            if self._mask is not None and not self._mask.any():
                self._mask = None
            self._gate = motion.GateState()  # a new frame size starts the gate afresh
        return self._mask

    def _frame(self, frame: Frame) -> None:
        started = time.perf_counter()
        thumb = motion.thumbnail(frame.image, self._motion.thumb_width)
        gate = motion.step(self._gate, thumb, self._motion, self._mask_for_frame(frame, thumb))
        with self._lock:
            self._gate = gate
        if gate.wants_recognition and self.recogniser is not None:
            self._recognise(frame)
        else:
            self._readings.clear()
            if gate.wants_recognition:  # no game: nothing to read, the scene is the new reference
                with self._lock:
                    self._gate = motion.rebase(gate)
        self._maybe_stream(frame)
        if gate.phase is motion.Phase.IDLE:
            with self._lock:
                self._idle_ms.append((time.perf_counter() - started) * 1000.0)

    def _recognise(self, frame: Frame) -> None:
        assert self.recogniser is not None
        started = time.perf_counter()
        try:
            observation = self.recogniser.recognise(frame.image, self.profile)
        except (VisionError, RulesError, CalibrationError) as exc:
            self._note(f"this frame could not be read: {exc}")
            observation = None
        with self._lock:
            self._recognise_ms.append((time.perf_counter() - started) * 1000.0)
        if observation is None:
            if len(self._readings) + 1 >= self._votes.max_frames:  # give up on this scene until it changes
                self._readings.clear()
                with self._lock:
                    self._gate = motion.rebase(self._gate)
            return
        self._readings.append(observation)
        result = vote(self._readings, self._votes)
        if result is None:
            return
        self._readings.clear()
        self._note(None)
        self._on_reading(result.observation, frame)  # if this fails, the scene is read again
        with self._lock:
            self._gate = motion.rebase(self._gate)

    def _maybe_stream(self, frame: Frame) -> None:
        now = time.monotonic()
        if self._picture.viewers == 0 or now - self._last_stream < 1.0 / self._stream.fps:
            return
        self._last_stream = now
        image = frame.image
        observation, flags = self._overlay()
        if observation is not None and self.recogniser is not None:
            try:
                image = self.recogniser.annotate(image, observation, flags)
            except (VisionError, RulesError) as exc:
                log.warning("annotating the stream failed: %s", exc)
        self._picture.set(encode_jpeg(np.ascontiguousarray(image), self._stream.width, self._stream.jpeg_quality))


def _summary(values: list[float]) -> dict[str, float] | None:
    if not values:
        return None
    ordered = sorted(values)
    return {"mean": round(sum(ordered) / len(ordered), 3), "p95": round(ordered[int(0.95 * (len(ordered) - 1))], 3),
            "max": round(ordered[-1], 3), "frames": len(ordered)}
