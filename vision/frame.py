"""Frames and the interface that yields them.

``Frame`` is one validated image from a source; a ``FrameReader`` is one kind of source
(camera, file, folder, stream, the synthetic demo), which :class:`~tableref.vision.reader.FrameSource`
runs on its own thread into a one-slot buffer while it reports a ``SourceStatus``. Opening sources from a spec, and everything
that touches ``cv2.VideoCapture``, lives in :mod:`tableref.vision.capture`.
"""

from __future__ import annotations

import enum
import logging
import math
from dataclasses import dataclass, fields, replace
from typing import Any

import numpy as np

from .errors import ImageError

log = logging.getLogger(__name__)

#: Channels of a BGR image (the OpenCV convention used across tableref).
BGR_CHANNELS = 3


def check_bgr_image(image: Any, what: str = "image") -> np.ndarray:
    """Return ``image`` if it is a BGR ``uint8`` array of shape (H, W, 3) with H, W >= 1.

    Parameters
    ----------
    image : object
        The candidate image.
    what : str
        How to name the image in the error message.

    Raises
    ------
    ImageError
        Saying what was expected and what was given.
    """
    if not isinstance(image, np.ndarray):
        raise ImageError(f"{what} must be a numpy array (BGR uint8, shape HxWx3), got {type(image).__name__}")
    if image.dtype != np.uint8:
        raise ImageError(f"{what} must have dtype uint8 (BGR, 0-255), got {image.dtype}")
    if image.ndim != 3 or image.shape[2] != BGR_CHANNELS:
        raise ImageError(f"{what} must have shape (H, W, 3) (BGR), got {image.shape}")
    if image.shape[0] < 1 or image.shape[1] < 1:
        raise ImageError(f"{what} is empty: shape {image.shape}")
    return image


@dataclass(frozen=True, eq=False)
class Frame:
    """One image from a frame source.

    Attributes
    ----------
    image : ndarray of shape (H, W, 3), dtype uint8
        BGR pixels. The record holds a read-only view, so a frame cannot be altered in place.
    timestamp : float
        When the frame was captured, in seconds since the Unix epoch (``time.time()``).
    sequence : int
        Number of the frame within its source, from 0; a gap means frames were skipped.
    source : str
        The name of the source that produced it (e.g. ``"camera 0"``, a file or folder path).
    """

    image: np.ndarray
    timestamp: float
    sequence: int
    source: str

    def __post_init__(self) -> None:
        image = check_bgr_image(self.image, "frame image")
        view = image.view()
        view.flags.writeable = False
        object.__setattr__(self, "image", view)
        if isinstance(self.timestamp, bool) or not isinstance(self.timestamp, (int, float)):
            raise ImageError(f"frame timestamp must be a number of seconds, got {type(self.timestamp).__name__}")
        if not math.isfinite(self.timestamp) or self.timestamp < 0:
            raise ImageError(f"frame timestamp must be finite and >= 0 seconds, got {self.timestamp}")
        object.__setattr__(self, "timestamp", float(self.timestamp))
        if isinstance(self.sequence, bool) or not isinstance(self.sequence, (int, np.integer)):
            raise ImageError(f"frame sequence must be an integer, got {type(self.sequence).__name__}")
        if self.sequence < 0:
            raise ImageError(f"frame sequence must be >= 0, got {self.sequence}")
        object.__setattr__(self, "sequence", int(self.sequence))
        if not isinstance(self.source, str) or not self.source.strip():
            raise ImageError(f"frame source must be a non-empty name, got {self.source!r}")

    @property
    def height(self) -> int:
        """Image height in pixels."""
        return int(self.image.shape[0])

    @property
    def width(self) -> int:
        """Image width in pixels."""
        return int(self.image.shape[1])

    def to_json(self) -> dict[str, Any]:
        """Describe the frame without its pixels (for logs and the dashboard)."""
        return {"source": self.source, "sequence": self.sequence, "timestamp": self.timestamp,
                "width": self.width, "height": self.height}




class SourceState(enum.Enum):
    """What a frame source is doing (its ``value`` is what the dashboard shows)."""

    CONNECTING = "connecting"      # being opened for the first time
    LIVE = "live"                  # delivering frames
    RECONNECTING = "reconnecting"  # lost; being reopened with backoff
    ENDED = "ended"                # a file or folder reached its end
    FAILED = "failed"              # gave up: see last_error
    CLOSED = "closed"              # closed by its owner

    @property
    def finished(self) -> bool:
        """True when no more frames will come."""
        return self in (SourceState.ENDED, SourceState.FAILED, SourceState.CLOSED)


@dataclass(frozen=True)
class SourceStatus:
    """A snapshot of a frame source, for a dashboard or a log. Times are Unix epoch seconds.

    ``frames`` counts frames produced, ``delivered`` those handed to a reader, ``skipped``
    those replaced in the one-slot buffer before anyone read them. ``attempt`` is the number
    of the reconnect attempt under way (0 when not reconnecting), ``reconnects`` how many
    outages ended in a successful reconnection.
    """

    source: str
    state: SourceState
    since: float
    frames: int = 0
    delivered: int = 0
    skipped: int = 0
    reconnects: int = 0
    attempt: int = 0
    next_retry_at: float | None = None
    last_error: str | None = None
    last_error_at: float | None = None

    def but(self, **changes: Any) -> SourceStatus:
        """A copy with some fields changed."""
        return replace(self, **changes)

    def to_json(self) -> dict[str, Any]:
        """The status as JSON-ready values (the state by its name)."""
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["state"] = self.state.value
        return data


class FrameReader:
    """What one kind of source implements; :class:`FrameSource` runs it on its thread.

    Attributes
    ----------
    name : str
        How the source is named in frames, status and errors (``"camera 0"``).
    live : bool
        True for cameras and streams: a loss is reconnected. False for files: the end is the end.
    interval_s : float or None
        Seconds between frames when the source is played at a set rate (folders, video files);
        None when ``read`` itself waits for the next frame (cameras, streams).
    """

    name: str = "source"
    live: bool = False
    interval_s: float | None = None

    def open(self) -> None:
        """Open (or reopen) the source; raise SourceError naming it when that fails."""

    def read(self) -> np.ndarray | None:
        """Return the next BGR image, or None when a finite source has no more.

        Raises SourceLost when a live source stopped delivering, ImageError for one bad image.
        """
        raise NotImplementedError

    def rewind(self) -> bool:
        """Go back to the first frame for looping; return False when that is impossible."""
        return False

    def close(self) -> None:
        """Release what ``open`` acquired; safe to call twice."""
