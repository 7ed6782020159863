"""Frame sources: webcam, video file, image folder or glob, network stream, named sources.

This is the only module of tableref that opens a ``cv2.VideoCapture``. Every kind of source
sits behind one interface, :class:`FrameSource`, opened from a text spec by
:func:`open_source`::

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

import glob as globbing  # noqa: E402
import importlib  # noqa: E402
import logging  # noqa: E402
import math  # noqa: E402
import re  # noqa: E402
import sys  # noqa: E402
import threading  # noqa: E402
from contextlib import contextmanager  # noqa: E402
from dataclasses import dataclass, fields, replace  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any, Callable, Iterator, Mapping  # noqa: E402
from urllib.parse import urlsplit, urlunsplit  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from .errors import ImageError, SourceError, SourceLost  # noqa: E402
from .frame import Frame, FrameReader, FrameSource, SourceState, SourceStatus  # noqa: E402
from .imageio import DEFAULT_MAX_PIXELS, IMAGE_SUFFIXES, read_image  # noqa: E402

log = logging.getLogger(__name__)

__all__ = ["CaptureSettings", "Frame", "FrameReader", "FrameSource", "SourceState", "SourceStatus",
           "open_source", "register_source", "registered_sources", "unregister_source"]

#: Where Linux exposes camera ``index``; checked first so a missing camera fails at once.
CAMERA_DEVICE_PATTERN: str | None = "/dev/video{index}" if sys.platform.startswith("linux") else None
#: The OpenCV backend for cameras: V4L2 on Linux (trying every backend is slow and noisy).
CAMERA_BACKEND = cv2.CAP_V4L2 if CAMERA_DEVICE_PATTERN else cv2.CAP_ANY
#: Frame rate assumed for a video file that does not state one.
FALLBACK_VIDEO_FPS = 30.0

@dataclass(frozen=True)
class CaptureSettings:
    """Rates, timeouts and backoff of frame sources: the named defaults, all overridable.

    Attributes
    ----------
    folder_fps : float
        Frames per second at which an image folder or glob is played.
    video_fps : float or None
        Frames per second at which a video file is played; None: the file's own rate.
    loop : bool
        Start a folder, glob or video file again when it ends (otherwise it reports ended).
    every_frame : bool
        For files and folders: wait until the reader has taken each frame instead of dropping
        the frames it was too slow for (for processing a recording frame by frame). Cameras
        and streams always keep only the newest frame.
    open_timeout_s, read_timeout_s : float
        Seconds a stream may take to connect, and to deliver the next frame, before it is
        treated as lost.
    backoff_initial_s, backoff_factor, backoff_max_s : float
        Reconnection waits: the first wait, the factor each later wait grows by, and the cap.
    max_reconnects : int or None
        Reconnect attempts per outage before the source is failed; None: keep trying.
    retry_first_open : bool
        When a camera or stream cannot be opened at start, keep retrying in the background
        (state reconnecting) instead of raising SourceError.
    frame_size : (int, int) or None
        (width, height) in pixels to ask of a webcam; None: the camera's default.
    max_pixels : int
        Largest image (width x height) accepted from an image file.
    """

    folder_fps: float = 5.0
    video_fps: float | None = None
    loop: bool = False
    every_frame: bool = False
    open_timeout_s: float = 5.0
    read_timeout_s: float = 5.0
    backoff_initial_s: float = 0.5
    backoff_factor: float = 2.0
    backoff_max_s: float = 15.0
    max_reconnects: int | None = None
    retry_first_open: bool = False
    frame_size: tuple[int, int] | None = None
    max_pixels: int = DEFAULT_MAX_PIXELS

    def __post_init__(self) -> None:
        for name in ("folder_fps", "open_timeout_s", "read_timeout_s", "backoff_initial_s", "backoff_max_s"):
            _check_number(name, getattr(self, name), minimum=0.0, exclusive=True)
        if self.video_fps is not None:
            _check_number("video_fps", self.video_fps, minimum=0.0, exclusive=True)
        _check_number("backoff_factor", self.backoff_factor, minimum=1.0)
        if self.backoff_max_s < self.backoff_initial_s:
            raise SourceError(f"capture setting backoff_max_s ({self.backoff_max_s}) must be >= "
                              f"backoff_initial_s ({self.backoff_initial_s})")
        for name in ("loop", "every_frame", "retry_first_open"):
            if not isinstance(getattr(self, name), bool):
                raise SourceError(f"capture setting {name} must be true or false, got {getattr(self, name)!r}")
        if self.max_reconnects is not None and (not _is_int(self.max_reconnects) or self.max_reconnects < 0):
            raise SourceError("capture setting max_reconnects must be an integer >= 0 or None, "
                              f"got {self.max_reconnects!r}")
        if not _is_int(self.max_pixels) or self.max_pixels < 1:
            raise SourceError(f"capture setting max_pixels must be a positive integer, got {self.max_pixels!r}")
        if self.frame_size is not None:
            size = tuple(self.frame_size)
            if len(size) != 2 or not all(_is_int(v) and v > 0 for v in size):
                raise SourceError("capture setting frame_size must be (width, height) in pixels, "
                                  f"got {self.frame_size!r}")
            object.__setattr__(self, "frame_size", (int(size[0]), int(size[1])))

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]) -> CaptureSettings:
        """Settings from a mapping (a config file's section); unknown keys are an error."""
        return cls().replaced(**dict(values))

    def replaced(self, **changes: Any) -> CaptureSettings:
        """A copy with some settings changed; an unknown name raises SourceError listing the known ones."""
        known = {f.name for f in fields(self)}
        unknown = sorted(set(changes) - known)
        if unknown:
            raise SourceError(f"unknown capture setting(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
        return replace(self, **changes) if changes else self

    def backoff_delay(self, attempt: int) -> float:
        """Seconds to wait before reconnect attempt ``attempt`` (1, 2, ...): initial x factor^(attempt-1), capped."""
        exponent = min(max(attempt, 1) - 1, 64)  # 64 doublings pass any sane cap
        return min(self.backoff_initial_s * self.backoff_factor ** exponent, self.backoff_max_s)


def _is_int(value: object) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def _check_number(name: str, value: object, *, minimum: float, exclusive: bool = False) -> None:
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    if not ok or value < minimum or (exclusive and value == minimum):  # type: ignore[operator]
        relation = ">" if exclusive else ">="
        raise SourceError(f"capture setting {name} must be a number {relation} {minimum:g}, got {value!r}")


# ---------------------------------------------------------------------- spec parsing
_STREAM_SCHEMES = ("rtsp", "http", "https")
_NAME_RULE = re.compile(r"[a-z][a-z0-9_-]+")
_GLOB_CHARS = "*?["


def check_source_name(name: object) -> str:
    """Return ``name`` if it can be a registered source name; raise SourceError otherwise."""
    if not isinstance(name, str) or not _NAME_RULE.fullmatch(name) or name in _STREAM_SCHEMES:
        raise SourceError(f"source name must be a lower-case word of 2+ letters, digits, '-' or '_' "
                          f"that is not {', '.join(_STREAM_SCHEMES)}; got {name!r}")
    return name


def redact_url(url: str) -> str:
    """``url`` with any password replaced by ``***``, for messages and frame names."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def _name_order(path: str) -> list[Any]:
    """Sort key: name order with numbers compared as numbers (frame2 before frame10)."""
    return [int(part) if part.isdigit() else part.lower() for part in re.split(r"(\d+)", path)]


def _is_image(path: str) -> bool:
    return os.path.isfile(path) and path.lower().endswith(IMAGE_SUFFIXES)


_SPEC_HELP = ("a source is a camera index (0, 1, ...), a video file, an image folder or glob, "
              "an rtsp:// or http(s):// URL, or a registered name")


def _parse_url(text: str) -> tuple[str, object]:
    scheme = text.split("://", 1)[0].lower()
    if scheme not in _STREAM_SCHEMES:
        raise SourceError(f"unsupported stream URL {redact_url(text)!r}: the scheme must be one of "
                          f"{', '.join(s + '://' for s in _STREAM_SCHEMES)}")
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 (raises ValueError for a bad port)
    except ValueError as exc:
        raise SourceError(f"malformed stream URL {text!r}: {exc}") from None
    if not parts.hostname or any(c.isspace() for c in text):
        raise SourceError(f"malformed stream URL {redact_url(text)!r}: expected {scheme}://HOST[:PORT]/PATH")
    return "stream", text


def parse_spec(spec: object, registry: Mapping[str, Callable[..., Any]]) -> tuple[str, object]:
    """Classify a source spec: return (kind, target) or raise SourceError naming what is wrong.

    kind is ``camera`` (target: index), ``stream`` (URL), ``video`` (path), ``folder``,
    ``glob`` or ``image`` (target: (sorted image paths, label)), or ``registered``
    (target: (name, factory, argument)).
    """
    if not isinstance(spec, (str, os.PathLike)):
        raise SourceError(f"source must be text or a path, got {type(spec).__name__}; {_SPEC_HELP}")
    text = os.fspath(spec).strip()
    if not text:
        raise SourceError(f"empty source: {_SPEC_HELP}")
    if "://" in text:
        return _parse_url(text)
    name, _, argument = text.partition(":")
    if name in registry:
        return "registered", (name, registry[name], argument)
    if text.isascii() and text.isdigit():
        return "camera", int(text)
    if text.startswith("-") and text[1:].isdigit():
        raise SourceError(f"camera index must be 0 or more, got {text}")
    if any(c in text for c in _GLOB_CHARS):
        matches = [m for m in globbing.glob(os.path.expanduser(text), recursive=True) if os.path.isfile(m)]
        images = sorted((m for m in matches if _is_image(m)), key=_name_order)
        if not matches:
            raise SourceError(f"glob {text!r} matches no files")
        if not images:
            raise SourceError(f"glob {text!r} matches {len(matches)} file(s) but none is an image "
                              f"({', '.join(IMAGE_SUFFIXES)})")
        return "glob", (images, f"glob {text!r}")
    path = Path(text).expanduser()
    if path.is_dir():
        try:
            entries = [str(p) for p in path.iterdir()]
        except OSError as exc:
            raise SourceError(f"image folder {text!r} cannot be listed: {exc.strerror or exc}") from None
        images = sorted((p for p in entries if _is_image(p)), key=_name_order)
        if not entries:
            raise SourceError(f"image folder {text!r} is empty")
        if not images:
            raise SourceError(f"image folder {text!r} holds no images ({', '.join(IMAGE_SUFFIXES)})")
        return "folder", (images, f"image folder {text!r}")
    if path.is_file():
        if _is_image(str(path)):
            return "image", ([str(path)], f"image file {text!r}")
        return "video", str(path)
    raise SourceError(f"no such file or folder: {text!r} ({_SPEC_HELP})")


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
