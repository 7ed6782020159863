"""What a frame source is asked for: its settings and its text spec, with no OpenCV in it.

:class:`CaptureSettings` holds every rate, timeout and backoff as a named default that a
caller or a profile may override; :func:`parse_spec` says which kind of source a text spec
names (a registered name, a stream URL, a camera index, a glob, a folder, an image or a video
file). :mod:`.capture` opens them.
"""

from __future__ import annotations

import glob as globbing
import math
import os
import re
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any, Callable, Mapping
from urllib.parse import urlsplit, urlunsplit

import numpy as np

from .errors import SourceError
from .imageio import DEFAULT_MAX_PIXELS, IMAGE_SUFFIXES


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
