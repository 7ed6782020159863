"""A scripted table: the live loop, the log and the dashboard driven without a game's recogniser.

Used by ``tableref bench --live`` (and by the tests and the dashboard screenshot) where the
point is the loop around recognition, not recognition itself. It is not a recogniser of real
tables.

- :func:`scene_frame` draws a grey table with one coloured patch. The patch's place moves
  with the scene, so the motion gate sees each new scene as a change, and its exact colour
  encodes the scene's number (red channel :data:`PATCH_RED`, blue the low byte, green the
  high byte). :func:`scene_of` reads the number back.
- :class:`SceneRecogniser` returns the observation given for the scene a frame shows.
- :class:`ScriptedTable` is a frame source that shows scenes on command (:meth:`~ScriptedTable.show`
  in the same process, or a small JSON control file for a server run as another process),
  with a hand passing over the table for a placement, and that can be unplugged
  (:meth:`~ScriptedTable.unplug`). It notes when each placement was first complete on
  camera, with the hand gone: where a placement-to-page time starts.
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any, Mapping, Sequence

import cv2
import numpy as np

from ..rules import game
from ..vision.errors import SourceError, SourceLost, VisionError
from ..vision.frame import FrameReader

#: The layout is drawn for this size (width, height) and scaled to the frame.
BASE_SIZE = (320, 240)
#: Side of the scene patch, pixels at BASE_SIZE, and the gap between patch places.
PATCH, GAP = 24, 8
#: Margin of the patch grid and rows of patch places.
MARGIN, ROWS = 10, 4
#: Red channel of every patch pixel (nothing else in a frame has it).
PATCH_RED = 201
#: Width of the white frame around the patch, pixels at BASE_SIZE: a change the gate cannot miss.
BORDER = 3
#: Colour (BGR) of the table and of the hand.
BACKGROUND = (60, 90, 70)
HAND = (120, 160, 215)
#: The hand's size as fractions of the frame (width, height).
HAND_SIZE = (0.3, 0.45)
#: Frames a hand takes to come in, place a piece and leave (half in, half out).
HAND_FRAMES = 8
#: Different noise layers cycled through when the table is noisy, and their sigma (grey levels).
NOISE_LAYERS, NOISE_SIGMA = 8, 2.0


def _scale(size: tuple[int, int]) -> float:
    return min(size[0] / BASE_SIZE[0], size[1] / BASE_SIZE[1])


def patch_box(index: int, size: tuple[int, int] = BASE_SIZE) -> tuple[int, int, int]:
    """Where scene ``index`` puts its patch in a frame of ``size``: (x, y, side) in pixels."""
    s = _scale(size)
    cols = (BASE_SIZE[0] - 2 * MARGIN) // (PATCH + GAP)
    x = MARGIN + (index % cols) * (PATCH + GAP)
    y = MARGIN + ((index // cols) % ROWS) * (PATCH + GAP)
    return round(x * s), round(y * s), round(PATCH * s)


def scene_frame(index: int, size: tuple[int, int] = BASE_SIZE) -> np.ndarray:
    """The frame of scene ``index`` (0..65535): BGR uint8, shape (height, width, 3)."""
    if not 0 <= index < 65536:
        raise VisionError(f"a scene number is 0..65535, got {index}")
    width, height = size
    image = np.empty((height, width, 3), np.uint8)
    image[:] = BACKGROUND
    x, y, side = patch_box(index, size)
    border = max(1, round(BORDER * _scale(size)))
    image[y - border:y + side + border, x - border:x + side + border] = 255
    image[y:y + side, x:x + side] = (index % 256, index // 256, PATCH_RED)
    return image


def scene_of(image: np.ndarray) -> tuple[int, tuple[int, int, int, int]]:
    """The scene number in ``image`` and its patch box (x, y, w, h); VisionError without a patch."""
    ys, xs = np.nonzero(image[:, :, 2] == PATCH_RED)
    if len(xs) == 0:
        raise VisionError("this frame carries no scene patch")
    b, g, _ = image[ys[0], xs[0]]
    x0, y0 = int(xs.min()), int(ys.min())
    return int(g) * 256 + int(b), (x0, y0, int(xs.max()) - x0 + 1, int(ys.max()) - y0 + 1)


class SceneRecogniser:
    """Reads the scene number from the frame and returns that scene's observation.

    Parameters
    ----------
    game_name : str
        A game of ``tableref.rules.GAMES``.
    observations : mapping of int to dict
        Scene number -> the observation's JSON that the scene "shows".
    """

    def __init__(self, game_name: str, observations: Mapping[int, dict]):
        self.rules = game(game_name)
        self.observations = observations
        self.calls = 0
        self.last_scene: int | None = None

    def recognise(self, image: np.ndarray, profile: Any) -> Any:
        self.calls += 1
        index, _ = scene_of(image)
        self.last_scene = index
        if index not in self.observations:
            raise VisionError(f"scene {index} has no observation in the script")
        return self.rules.observation_from_json(self.observations[index])

    def annotate(self, image: np.ndarray, observation: Any, flags: Sequence[Any]) -> np.ndarray:
        out = np.array(image, copy=True)
        try:
            _, (x, y, w, h) = scene_of(image)
        except VisionError:
            return out
        colour = (0, 0, 255) if flags else (0, 255, 0)
        thickness = max(2, round(2 * _scale((image.shape[1], image.shape[0]))))
        cv2.rectangle(out, (x - thickness, y - thickness), (x + w - 1 + thickness, y + h - 1 + thickness),
                      colour, thickness)
        return out


class ScriptedTable(FrameReader):
    """A camera over a scripted table: shows one scene until told to show the next.

    Parameters
    ----------
    size : (int, int)
        Frame width and height in pixels.
    fps : float or None
        Frames per second; None: as fast as they are taken (with ``CaptureSettings.every_frame``
        and ``live=False``, each frame waits for the loop).
    control : path, optional
        A JSON file ``{"scene": N, "unplugged": false}`` read whenever it changes, for a server
        that runs in another process.
    noisy : bool
        Add sensor-like noise (sigma :data:`NOISE_SIGMA`) outside the patch.
    live : bool
        A camera (lost: reconnected) rather than a recording.
    frames : int or None
        Frames given at most, then the source ends (None: until closed).
    """

    name = "scripted table"

    def __init__(self, size: tuple[int, int] = BASE_SIZE, fps: float | None = 30.0, *,
                 control: str | Path | None = None, noisy: bool = False, live: bool = True,
                 frames: int | None = None, first_scene: int = 0):
        self.size = (int(size[0]), int(size[1]))
        self.live = live
        self.interval_s = None if fps is None else 1.0 / fps
        self.control = None if control is None else Path(control)
        self.frames = frames
        self.given = 0
        self._lock = threading.Lock()
        self._scene = first_scene
        self._previous = first_scene
        self._hand_left = 0
        self._unplugged = False
        self._control_stamp: tuple[int, int, int] | None = None
        self._cache: dict[int, np.ndarray] = {}
        self._noise = self._noise_layers() if noisy else None
        #: (scene, perf_counter seconds) of the first complete frame of each scene shown, in order.
        self.placed_at: list[tuple[int, float]] = []
        self._stamped = False

    # ------------------------------------------------------------------ commands
    def show(self, scene: int, *, hand: bool = True) -> None:
        """Show ``scene`` next; with ``hand``, a hand first comes in, places it and leaves."""
        with self._lock:
            self._previous, self._scene = self._scene, scene
            self._hand_left = HAND_FRAMES if hand else 0
            self._stamped = False

    def unplug(self, unplugged: bool = True) -> None:
        """Pull the camera's cable (reads fail, opening fails) or plug it back."""
        with self._lock:
            self._unplugged = unplugged

    # ------------------------------------------------------------------ FrameReader
    def open(self) -> None:
        self._read_control()
        with self._lock:
            if self._unplugged:
                raise SourceError(f"{self.name} cannot be opened: it is unplugged")

    def read(self) -> np.ndarray | None:
        self._read_control()
        if self.frames is not None and self.given >= self.frames:
            return None
        with self._lock:
            if self._unplugged:
                raise SourceLost(f"{self.name} stopped delivering frames (unplugged)")
            scene, previous, hand_left = self._scene, self._previous, self._hand_left
            self._hand_left = max(0, hand_left - 1)
        self.given += 1
        if hand_left:
            step = HAND_FRAMES - hand_left  # 0 .. HAND_FRAMES-1: in, then out over the new scene
            shown = previous if step < HAND_FRAMES // 2 else scene
            return self._with_hand(self._frame(shown), scene, step)
        image = self._frame(scene)
        with self._lock:
            if not self._stamped and self._scene == scene:
                self._stamped = True
                self.placed_at.append((scene, time.perf_counter()))
        return image

    # ------------------------------------------------------------------ pixels
    def _read_control(self) -> None:
        if self.control is None:
            return
        try:
            stat = self.control.stat()
        except FileNotFoundError:
            return
        stamp = (stat.st_ino, stat.st_mtime_ns, stat.st_size)
        if stamp == self._control_stamp:
            return
        try:
            data = json.loads(self.control.read_text())
        except (OSError, ValueError):
            return  # being written: read it next frame
        self._control_stamp = stamp
        self.unplug(bool(data.get("unplugged", False)))
        scene = data.get("scene")
        if isinstance(scene, int) and scene != self._scene:
            self.show(scene, hand=bool(data.get("hand", True)))

    def _noise_layers(self) -> list[tuple[np.ndarray, np.ndarray]]:
        rng = np.random.default_rng(0)
        width, height = self.size
        layers = []
        for _ in range(NOISE_LAYERS):
            noise = rng.normal(0.0, NOISE_SIGMA, (height, width, 3))
            layers.append((np.clip(noise, 0, 255).astype(np.uint8), np.clip(-noise, 0, 255).astype(np.uint8)))
        return layers

    def _frame(self, scene: int) -> np.ndarray:
        image = self._cache.get(scene)
        if image is None:
            if len(self._cache) > 4:
                self._cache.clear()
            image = self._cache[scene] = scene_frame(scene, self.size)
        if self._noise is None:
            return image
        up, down = self._noise[self.given % len(self._noise)]
        noisy = cv2.subtract(cv2.add(image, up), down)
        x, y, side = patch_box(scene, self.size)
        noisy[y:y + side, x:x + side] = image[y:y + side, x:x + side]  # the scene's code stays exact
        return noisy

    def _with_hand(self, image: np.ndarray, scene: int, step: int) -> np.ndarray:
        """``image`` with a hand reaching from the bottom edge towards the patch of ``scene``."""
        out = image.copy()
        width, height = self.size
        hand_w, hand_h = round(width * HAND_SIZE[0]), round(height * HAND_SIZE[1])
        x, y, side = patch_box(scene, self.size)
        reach = 1.0 - abs(step - (HAND_FRAMES - 1) / 2) / (HAND_FRAMES / 2)  # 0 at the edge .. 1 over the patch
        top = round(height - reach * (height - y))
        left = min(max(0, x + side // 2 - hand_w // 2), width - hand_w)
        out[top:min(height, top + hand_h), left:left + hand_w] = HAND
        return out


def open_scripted(argument: str, settings: Any = None) -> ScriptedTable:
    """A source factory for ``register_source``: ``NAME:CONTROL_FILE[,WIDTHxHEIGHT]``."""
    path, _, size_text = argument.partition(",")
    size = BASE_SIZE
    if size_text:
        width, sep, height = size_text.lower().partition("x")
        if not (sep and width.isdigit() and height.isdigit()):
            raise SourceError(f"scripted table size must be WIDTHxHEIGHT, got {size_text!r}")
        size = (int(width), int(height))
    if not path:
        raise SourceError("the scripted table needs a control file: scripted:PATH[,WIDTHxHEIGHT]")
    return ScriptedTable(size, control=path)
