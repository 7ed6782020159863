"""Test-only frames and recogniser: each frame carries the number of its scene, and a JSON
side-channel maps that number to the observation the frame "shows".

This is not a recogniser of real tables: it exists so the live loop, the log and the dashboard
can be tested before (and independently of) the games' real recognisers.

A frame is a grey picture with one coloured patch; the patch's place moves with the scene, so
the motion gate sees each new scene as a change, and its exact colour (lossless PNG) encodes
the scene number: red channel PATCH_RED, blue the low byte, green the high byte.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import cv2
import numpy as np

from tableref.live.recognition import register_recogniser
from tableref.rules import game
from tableref.rules.playout import random_playout
from tableref.vision.errors import VisionError

FRAME_SIZE = (320, 240)  # width, height
PATCH = 24
PATCH_RED = 201
BORDER = 3
BACKGROUND = (60, 90, 70)
#: Env variable naming the scenes file a serve subprocess loads through --plugin live_scenes.
SCENES_ENV = "TABLEREF_TEST_SCENES"


def make_frame(index: int, size: tuple[int, int] = FRAME_SIZE) -> np.ndarray:
    width, height = size
    image = np.empty((height, width, 3), np.uint8)
    image[:] = BACKGROUND
    cols = (width - 20) // (PATCH + 8)
    x = 10 + (index % cols) * (PATCH + 8)
    y = 10 + ((index // cols) % 4) * (PATCH + 8)
    image[y - BORDER:y + PATCH + BORDER, x - BORDER:x + PATCH + BORDER] = 255  # a white frame the gate cannot miss
    image[y:y + PATCH, x:x + PATCH] = (index % 256, index // 256, PATCH_RED)
    return image


def scene_of(image: np.ndarray) -> tuple[int, tuple[int, int, int, int]]:
    """The scene number in ``image`` and its patch box (x, y, w, h)."""
    ys, xs = np.nonzero(image[:, :, 2] == PATCH_RED)
    if len(xs) == 0:
        raise VisionError("this frame carries no scene patch")
    b, g, _ = image[ys[0], xs[0]]
    return int(g) * 256 + int(b), (int(xs.min()), int(ys.min()), PATCH, PATCH)


class SceneRecogniser:
    """Reads the scene number from the frame and returns that scene's observation."""

    def __init__(self, game_name: str, observations: dict[int, dict]):
        self.rules = game(game_name)
        self.observations = observations
        self.calls = 0

    def recognise(self, image, profile):
        self.calls += 1
        index, _ = scene_of(image)
        if index not in self.observations:
            raise VisionError(f"scene {index} has no observation in the side-channel")
        return self.rules.observation_from_json(self.observations[index])

    def annotate(self, image, observation, flags):
        out = np.array(image, copy=True)
        try:
            _, (x, y, w, h) = scene_of(image)
        except VisionError:
            return out
        colour = (0, 0, 255) if flags else (0, 255, 0)
        cv2.rectangle(out, (x - 2, y - 2), (x + w + 1, y + h + 1), colour, 2)
        return out


def register(game_name: str, observations: dict[int, dict]) -> SceneRecogniser:
    recogniser = SceneRecogniser(game_name, observations)
    register_recogniser(game_name, lambda: recogniser, replace=True)
    return recogniser


def playout_scenes(game_name: str, players: int, seed: int, count: int) -> tuple[list, list[dict]]:
    """States and perfect observations of the first ``count`` moves of a random game (state 0 first)."""
    rules = game(game_name)
    states = [rules.new_game(players, None, seed)]
    random_playout(rules, players, seed, on_move=lambda before, move, after: states.append(after))
    states = states[:count + 1]
    return states, [rules.observe(s).to_json() for s in states]


def write_frames(folder: Path, scenes: list[int], frames_per_scene: int, start: int = 0) -> list[Path]:
    """Write the frames of ``scenes`` (scene numbers) as numbered PNGs; return their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    number = start
    for scene in scenes:
        image = make_frame(scene)
        for _ in range(frames_per_scene):
            path = folder / f"frame_{number:05d}.png"
            cv2.imwrite(str(path), image)
            paths.append(path)
            number += 1
    return paths


def _register_from_env() -> None:
    path = os.environ.get(SCENES_ENV)
    if path:
        data = json.loads(Path(path).read_text())
        register(data["game"], {int(k): v for k, v in data["observations"].items()})


_register_from_env()


def wait_for(predicate, timeout: float = 10.0, interval: float = 0.02):
    """Poll ``predicate`` until it returns something true; fail the test after ``timeout`` seconds."""
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"condition not met within {timeout} s")


class VanishingCamera:
    """A live camera that gives ``frames`` frames of scene 0 and is then unplugged for good."""

    def __new__(cls, frames: int = 5):
        from tableref.vision.errors import SourceError, SourceLost
        from tableref.vision.frame import FrameReader

        class _Reader(FrameReader):
            live = True
            interval_s = 0.01
            name = "vanishing camera"

            def __init__(self):
                self.given, self.opened = 0, 0

            def open(self):
                self.opened += 1
                if self.opened > 1:
                    raise SourceError("vanishing camera cannot be opened: unplugged")

            def read(self):
                self.given += 1
                if self.given > frames:
                    raise SourceLost("vanishing camera stopped delivering frames")
                return make_frame(0)

        return _Reader()
