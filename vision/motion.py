"""The motion gate: is the scene still, is something over the table, has it settled after a change?

Every camera frame passes through here, so the work is kept to a small grey thumbnail (a
chain of 2x area reductions, under a millisecond for 1280x720) and two pixel comparisons:

- against the *previous* thumbnail: is anything moving now (a hand, a card being slid)?
- against the *reference* thumbnail, the scene as it was last recognised: has the table changed?

:func:`step` is a pure function from the gate's state and one thumbnail to the next state,
whose :class:`Phase` tells the caller what to do: nothing (``idle``: the table is as last
recognised), wait (``moving``, ``occluded``, ``settling``), or recognise (``settled``). After
recognising, the caller calls :func:`rebase` so that the recognised scene becomes the reference.

A *changed pixel* is a thumbnail pixel whose grey level differs by more than
``pixel_threshold``; a ``mask`` (the play area, see :func:`polygon_mask`) restricts the count
to the table, so people moving beside it do not hold the gate open.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, fields, replace
from typing import Any

import cv2
import numpy as np

from .errors import VisionError
from .frame import check_bgr_image


class MotionError(VisionError):
    """Bad settings or arrays given to the motion gate."""


class Phase(enum.Enum):
    """What the gate concluded from the latest frame (``value`` is what the dashboard shows)."""

    IDLE = "idle"            # still, and as last recognised: nothing to do
    MOVING = "moving"        # pixels on the table changed since the previous frame (a hand, a piece sliding)
    OCCLUDED = "occluded"    # still, but a large part of the table differs: something lies over it
    SETTLING = "settling"    # still after a change, not yet for long enough
    SETTLED = "settled"      # still for long enough after a change: recognise this scene


@dataclass(frozen=True)
class MotionSettings:
    """Thresholds of the motion gate (all named; a profile or config may override them).

    Attributes
    ----------
    thumb_width : int
        Width in pixels of the grey thumbnail compared (height follows the frame's aspect).
        320 keeps a 10 mm cube on a 1 m table at about 3 thumbnail pixels.
    pixel_threshold : int
        Grey levels (0-255) by which a thumbnail pixel must differ to count as changed; the
        thumbnail averages 4x4 or more camera pixels, so sensor noise stays well below it.
    moving_pixels : int
        Changed pixels between consecutive frames at and above which the scene is moving.
    changed_pixels : int
        Changed pixels against the reference at and above which the table has changed.
    occluded_fraction : float
        Fraction (0-1) of the table's pixels changed against the reference above which
        something large lies over the table (a hand, an arm): a placed piece covers far less.
    settle_frames : int
        Consecutive still frames after a change before the scene counts as settled.
    occluded_settle_frames : int
        The same for a large change, which is more likely a resting hand than a move; after
        this many still frames it is taken as the new scene (a big rearrangement, a light change).
    """

    thumb_width: int = 320
    pixel_threshold: int = 24
    moving_pixels: int = 3
    changed_pixels: int = 3
    occluded_fraction: float = 0.2
    settle_frames: int = 3
    occluded_settle_frames: int = 30

    def __post_init__(self) -> None:
        for name in ("thumb_width", "pixel_threshold", "moving_pixels", "changed_pixels", "settle_frames",
                     "occluded_settle_frames"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
                raise MotionError(f"motion setting {name} must be an integer >= 1, got {value!r}")
        if self.pixel_threshold > 255:
            raise MotionError(f"motion setting pixel_threshold is in grey levels 1..255, got {self.pixel_threshold}")
        frac = self.occluded_fraction
        if isinstance(frac, bool) or not isinstance(frac, (int, float)) or not 0.0 < frac <= 1.0:
            raise MotionError(f"motion setting occluded_fraction must be a number in (0, 1], got {frac!r}")

    def replaced(self, **changes: Any) -> MotionSettings:
        """A copy with some settings changed; an unknown name is an error listing the known ones."""
        known = {f.name for f in fields(self)}
        unknown = sorted(set(changes) - known)
        if unknown:
            raise MotionError(f"unknown motion setting(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
        return replace(self, **changes)


@dataclass(frozen=True, eq=False)
class GateState:
    """The gate between two frames.

    Attributes
    ----------
    phase : Phase
    reference : ndarray of shape (h, w), uint8, or None
        Thumbnail of the scene as last recognised; None before the first recognition (so the
        first still scene is recognised).
    previous : ndarray of shape (h, w), uint8, or None
        Thumbnail of the latest frame.
    still : int
        Consecutive frames without movement, counting the latest.
    moving_px, changed_px : int
        Changed pixels of the latest frame against the previous frame and against the reference.
    """

    phase: Phase = Phase.IDLE
    reference: np.ndarray | None = None
    previous: np.ndarray | None = None
    still: int = 0
    moving_px: int = 0
    changed_px: int = 0

    @property
    def wants_recognition(self) -> bool:
        """True when the caller should recognise the latest frame."""
        return self.phase is Phase.SETTLED

    def to_json(self) -> dict[str, Any]:
        """The gate's state without its thumbnails (for the dashboard)."""
        return {"phase": self.phase.value, "still": self.still, "moving_px": self.moving_px,
                "changed_px": self.changed_px}


def thumbnail(image: np.ndarray, width: int) -> np.ndarray:
    """A small grey copy of ``image`` for change detection.

    Halves the image with area averaging while it is at least twice ``width`` (fast for any
    size, and averaging suppresses sensor noise), then resizes to ``width`` and converts to grey.

    Parameters
    ----------
    image : ndarray of shape (H, W, 3), uint8
        BGR frame.
    width : int
        Thumbnail width in pixels; the height keeps the aspect ratio (at least 1).

    Returns
    -------
    ndarray of shape (round(H * width / W), width), uint8
    """
    check_bgr_image(image, "frame for the motion gate")
    if isinstance(width, bool) or not isinstance(width, (int, np.integer)) or width < 1:
        raise MotionError(f"thumbnail width must be an integer >= 1, got {width!r}")
    height = max(1, int(round(image.shape[0] * width / image.shape[1])))
    small = image
    while small.shape[1] >= 2 * width and small.shape[0] >= 2 * height:
        small = cv2.resize(small, (small.shape[1] // 2, small.shape[0] // 2), interpolation=cv2.INTER_AREA)
    if small.shape[1] != width or small.shape[0] != height:
        small = cv2.resize(small, (width, height), interpolation=cv2.INTER_AREA)
    return cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)


def polygon_mask(shape: tuple[int, int], polygon: np.ndarray) -> np.ndarray:
    """A boolean mask of shape ``shape`` (h, w), true inside ``polygon``.

    Parameters
    ----------
    shape : (int, int)
        (height, width) of the thumbnail.
    polygon : ndarray of shape (N, 2)
        Corners in thumbnail pixel coordinates (x, y), N >= 3, e.g. the play area's corners
        mapped from the camera image and scaled by ``thumb_width / frame_width``.
    """
    pts = np.asarray(polygon, dtype=np.float64)
    if pts.ndim != 2 or pts.shape[1] != 2 or pts.shape[0] < 3 or not np.all(np.isfinite(pts)):
        raise MotionError(f"a mask polygon is an (N, 2) array of N >= 3 finite points, got shape {pts.shape}")
    mask = np.zeros(shape, dtype=np.uint8)
    cv2.fillPoly(mask, [np.round(pts).astype(np.int32)], 1)
    return mask.astype(bool)


def _changed(a: np.ndarray, b: np.ndarray, threshold: int, mask: np.ndarray | None) -> int:
    hot = cv2.absdiff(a, b) > threshold
    if mask is not None:
        hot &= mask
    return int(np.count_nonzero(hot))


def _check_thumb(thumb: np.ndarray, state: GateState, mask: np.ndarray | None) -> None:
    if not isinstance(thumb, np.ndarray) or thumb.dtype != np.uint8 or thumb.ndim != 2:
        raise MotionError(f"the gate takes a grey uint8 thumbnail (h, w), got "
                          f"{getattr(thumb, 'dtype', type(thumb).__name__)} {getattr(thumb, 'shape', '')}")
    if state.previous is not None and state.previous.shape != thumb.shape:
        raise MotionError(f"thumbnail shape {thumb.shape} differs from the previous {state.previous.shape}: "
                          "the frame size changed; start a new GateState")
    if mask is not None and (mask.shape != thumb.shape or mask.dtype != bool):
        raise MotionError(f"the mask must be a boolean array of the thumbnail's shape {thumb.shape}, "
                          f"got {mask.dtype} {mask.shape}")


def step(state: GateState, thumb: np.ndarray, settings: MotionSettings,
         mask: np.ndarray | None = None) -> GateState:
    """Advance the gate by one frame.

    Parameters
    ----------
    state : GateState
        The gate after the previous frame (``GateState()`` to start).
    thumb : ndarray of shape (h, w), uint8
        :func:`thumbnail` of the new frame.
    settings : MotionSettings
    mask : ndarray of shape (h, w), bool, or None
        Where the table is; None: the whole thumbnail.

    Returns
    -------
    GateState
        The new state; its ``phase`` says what to do with this frame.
    """
    _check_thumb(thumb, state, mask)
    moving_px = 0 if state.previous is None else _changed(thumb, state.previous, settings.pixel_threshold, mask)
    moving = state.previous is None or moving_px >= settings.moving_pixels
    still = 0 if moving else state.still + 1
    area = int(np.count_nonzero(mask)) if mask is not None else thumb.size
    if state.reference is None:
        changed_px = area  # nothing recognised yet: the whole scene is new
        large = False
    else:
        changed_px = _changed(thumb, state.reference, settings.pixel_threshold, mask)
        large = changed_px > settings.occluded_fraction * area
    if moving:
        phase = Phase.MOVING
    elif state.reference is not None and changed_px < settings.changed_pixels:
        phase = Phase.IDLE
    elif large:
        phase = Phase.SETTLED if still >= settings.occluded_settle_frames else Phase.OCCLUDED
    else:
        phase = Phase.SETTLED if still >= settings.settle_frames else Phase.SETTLING
    return GateState(phase=phase, reference=state.reference, previous=thumb, still=still,
                     moving_px=moving_px, changed_px=changed_px)


def rebase(state: GateState) -> GateState:
    """The gate after the latest frame was recognised: that frame becomes the reference."""
    if state.previous is None:
        raise MotionError("nothing to rebase on: the gate has not seen a frame yet")
    return replace(state, phase=Phase.IDLE, reference=state.previous, changed_px=0)
