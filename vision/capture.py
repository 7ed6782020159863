"""Frame sources: webcam, video file, image folder or glob, network stream, named sources.

This is the only module of tableref that opens a ``cv2.VideoCapture``. Every kind of source
sits behind one interface, :class:`~tableref.vision.reader.FrameSource`, opened from a text
spec (parsed in :mod:`.sources`, with the settings) by :func:`open_source`::

    with open_source("0") as source:            # webcam 0
        for frame in source:                     # Frame records, newest first-come
            ...

A reader thread keeps only the newest frame in a one-slot buffer: a consumer slower than the
camera gets the latest picture, and the frames it missed are counted, never queued. A camera
or stream that is lost is reopened with capped exponential backoff while ``status()`` says so
(connecting, live, reconnecting, ended, failed, closed), so a dashboard can show it.

Spec forms (first match wins): a registered name such as ``demo`` (or ``demo:argument``); a
URL ``rtsp://``, ``http://`` or ``https://`` (an MJPEG or RTSP stream); a camera index
``0``, ``1``, ...; a glob (``shots/*.png``); a folder of images; an image file; a video file.
"""

from __future__ import annotations

import os

# FFmpeg prints its own messages (connection refused, stream ended) straight to stderr; this
# module reports them through SourceStatus and SourceError instead. Read by OpenCV when its
# FFmpeg backend starts, so it is set before the first stream or video is opened.
os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")  # AV_LOG_QUIET

import importlib  # noqa: E402
import logging  # noqa: E402
import sys  # noqa: E402
import threading  # noqa: E402
from contextlib import contextmanager  # noqa: E402
from typing import Callable, Iterator  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from .errors import ImageError, SourceError, SourceLost  # noqa: E402
from .frame import Frame, FrameReader, SourceState, SourceStatus  # noqa: E402
from .reader import FrameSource  # noqa: E402
from .imageio import read_image  # noqa: E402
from .sources import CaptureSettings, parse_spec, redact_url, check_source_name  # noqa: E402

log = logging.getLogger(__name__)

__all__ = ["CaptureSettings", "Frame", "FrameReader", "FrameSource", "SourceState", "SourceStatus",
           "open_source", "register_source", "registered_sources", "unregister_source"]

#: Where Linux exposes camera ``index``; checked first so a missing camera fails at once.
CAMERA_DEVICE_PATTERN: str | None = "/dev/video{index}" if sys.platform.startswith("linux") else None
#: The OpenCV backend for cameras: V4L2 on Linux (trying every backend is slow and noisy).
CAMERA_BACKEND = cv2.CAP_V4L2 if CAMERA_DEVICE_PATTERN else cv2.CAP_ANY
#: Frame rate assumed for a video file that does not state one.
FALLBACK_VIDEO_FPS = 30.0

_quiet_lock = threading.Lock()
_quiet_depth = 0
_quiet_saved: int | None = None


@contextmanager
def _quiet_opencv() -> Iterator[None]:
    """Silence OpenCV's own log while opening (its warnings become our SourceError)."""
    global _quiet_depth, _quiet_saved
    with _quiet_lock:
        if _quiet_depth == 0:
            _quiet_saved = cv2.utils.logging.getLogLevel()
            cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
        _quiet_depth += 1
    try:
        yield
    finally:
        with _quiet_lock:
            _quiet_depth -= 1
            if _quiet_depth == 0 and _quiet_saved is not None:
                cv2.utils.logging.setLogLevel(_quiet_saved)


class _CaptureReader(FrameReader):
    """A source read through ``cv2.VideoCapture``: camera, video file or stream."""

    def __init__(self, name: str, target: int | str, backend: int, *, live: bool,
                 params: tuple[int, ...] = (), frame_size: tuple[int, int] | None = None,
                 video_fps: float | None = None, missing: Callable[[], str | None] = lambda: None):
        self.name, self.live = name, live
        self._target, self._backend, self._params = target, backend, list(params)
        self._frame_size, self._video_fps, self._missing = frame_size, video_fps, missing
        self._cap: cv2.VideoCapture | None = None
        self._pending: np.ndarray | None = None

    def open(self) -> None:
        self.close()
        reason = self._missing()
        if reason:
            raise SourceError(f"{self.name} cannot be opened: {reason}")
        with _quiet_opencv():
            cap = cv2.VideoCapture(self._target, self._backend, self._params)
            if not cap.isOpened():
                cap.release()
                why = ("no such device, or it is in use by another program" if isinstance(self._target, int)
                       else "OpenCV cannot read it (not a video, unreachable, or unsupported format)")
                raise SourceError(f"{self.name} cannot be opened: {why}")
            if self._frame_size:
                cap.set(cv2.CAP_PROP_FRAME_WIDTH, self._frame_size[0])
                cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self._frame_size[1])
            ok, image = cap.read()
        if not ok or image is None:
            cap.release()
            raise SourceError(f"{self.name} opened but gave no frame")
        if not self.live:
            fps = self._video_fps or cap.get(cv2.CAP_PROP_FPS) or FALLBACK_VIDEO_FPS
            self.interval_s = 1.0 / fps
        self._cap, self._pending = cap, image

    def read(self) -> np.ndarray | None:
        if self._pending is not None:
            image, self._pending = self._pending, None
            return image
        if self._cap is None:
            raise SourceLost(f"{self.name} is not open")
        ok, image = self._cap.read()
        if ok and image is not None:
            return image
        if self.live:
            raise SourceLost(f"{self.name} stopped delivering frames")
        return None

    def rewind(self) -> bool:
        return self._cap is not None and bool(self._cap.set(cv2.CAP_PROP_POS_FRAMES, 0))

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
        self._cap, self._pending = None, None


class _ImageFilesReader(FrameReader):
    """Image files played in the given order at a set rate; an unreadable file is skipped."""

    def __init__(self, name: str, paths: list[str], fps: float, max_pixels: int):
        self.name, self._paths, self._max_pixels = name, paths, max_pixels
        self.interval_s = 1.0 / fps
        self._next = 0
        self._pending: np.ndarray | None = None

    def open(self) -> None:
        """Find the first readable image, so a source with none fails here, naming the last problem."""
        self._next, problem = 0, None
        while self._next < len(self._paths):
            try:
                self._pending = self.read()
                return
            except ImageError as exc:
                log.warning("%s: skipping: %s", self.name, exc)
                problem = exc
        raise SourceError(f"{self.name} has no readable image ({problem})")

    def read(self) -> np.ndarray | None:
        if self._pending is not None:
            image, self._pending = self._pending, None
            return image
        if self._next >= len(self._paths):
            return None
        path = self._paths[self._next]
        self._next += 1
        return read_image(path, max_pixels=self._max_pixels)

    def rewind(self) -> bool:
        self._next, self._pending = 0, None
        return True


def _camera_missing(index: int) -> Callable[[], str | None]:
    def check() -> str | None:
        if CAMERA_DEVICE_PATTERN is None:
            return None
        device = CAMERA_DEVICE_PATTERN.format(index=index)
        return None if os.path.exists(device) else f"no such device ({device} does not exist)"
    return check


def _make_reader(kind: str, target: object, settings: CaptureSettings) -> FrameReader:
    """Build the (unopened) reader for a spec classified by :func:`parse_spec`."""
    if kind == "camera":
        index = int(target)  # type: ignore[call-overload]
        return _CaptureReader(f"camera {index}", index, CAMERA_BACKEND, live=True,
                              frame_size=settings.frame_size, missing=_camera_missing(index))
    if kind == "stream":
        timeouts = (cv2.CAP_PROP_OPEN_TIMEOUT_MSEC, int(settings.open_timeout_s * 1000),
                    cv2.CAP_PROP_READ_TIMEOUT_MSEC, int(settings.read_timeout_s * 1000))
        return _CaptureReader(f"stream {redact_url(str(target))!r}", str(target), cv2.CAP_FFMPEG,
                              live=True, params=timeouts)
    if kind == "video":
        return _CaptureReader(f"video file {str(target)!r}", str(target), cv2.CAP_FFMPEG, live=False,
                              video_fps=settings.video_fps)
    if kind in ("folder", "glob", "image"):
        paths, label = target  # type: ignore[misc]
        return _ImageFilesReader(label, paths, settings.folder_fps, settings.max_pixels)
    name, factory, argument = target  # type: ignore[misc]
    reader = factory(argument, settings)
    if not isinstance(reader, FrameReader):
        raise SourceError(f"source {name!r} is broken: its factory returned {type(reader).__name__}, not a FrameReader")
    return reader


SourceFactory = Callable[[str, CaptureSettings], FrameReader]
_registry: dict[str, SourceFactory] = {}
_registry_lock = threading.Lock()


def register_source(name: str, factory: SourceFactory, *, replace: bool = False) -> None:
    """Make ``name`` (and ``name:argument``) a source spec, built by ``factory(argument, settings)``.

    ``factory`` returns an unopened :class:`FrameReader`; the reader thread, one-slot buffer,
    status and reconnection come from :class:`FrameSource`. Names are lower-case words of two
    or more letters, digits, ``-`` or ``_`` that are not URL schemes.
    """
    check_source_name(name)
    if not callable(factory):
        raise SourceError(f"the factory for source {name!r} must be callable, got {type(factory).__name__}")
    with _registry_lock:
        if name in _registry and not replace:
            raise SourceError(f"a source named {name!r} is already registered (pass replace=True to replace it)")
        _registry[name] = factory


def unregister_source(name: str) -> None:
    """Forget the named source (no error if it is not registered)."""
    with _registry_lock:
        _registry.pop(name, None)


def registered_sources() -> tuple[str, ...]:
    """The names registered with :func:`register_source`, sorted."""
    with _registry_lock:
        return tuple(sorted(_registry))


#: Sources built into tableref: name -> "module:factory", imported the first time the source is
#: opened, so that importing this module does not load the renderer.
BUILTIN_SOURCES = {"demo": "tableref.vision.synthetic.demo:open_demo"}


def _imported_on_use(target: str) -> SourceFactory:
    """A factory that imports ``module:factory`` when first called and hands over to it."""
    def factory(argument: str, settings: CaptureSettings) -> FrameReader:
        module, _, name = target.partition(":")
        return getattr(importlib.import_module(module), name)(argument, settings)
    return factory


for _name, _target in BUILTIN_SOURCES.items():
    register_source(_name, _imported_on_use(_target))


def open_source(spec: str | os.PathLike[str], settings: CaptureSettings | None = None,
                **overrides: object) -> FrameSource:
    """Open the source named by ``spec`` and start reading it; close it when done (or use ``with``).

    Parameters
    ----------
    spec : str or path
        A registered name (``demo``, ``demo:argument``), a stream URL (``rtsp://``, ``http://``,
        ``https://``), a camera index (``0``), a glob, an image folder, an image file or a video file.
    settings : CaptureSettings, optional
        Base settings (defaults: ``CaptureSettings()``).
    **overrides
        Individual settings to change, e.g. ``folder_fps=2, loop=True``.

    Raises
    ------
    SourceError
        Naming the source and why it cannot be opened, or an unknown or invalid setting.
    """
    settings = (settings or CaptureSettings()).replaced(**overrides)
    with _registry_lock:
        registry = dict(_registry)
    kind, target = parse_spec(spec, registry)
    return FrameSource(_make_reader(kind, target, settings), settings).start()
