"""Test-only frames and recogniser: each frame carries the number of its scene, and a JSON
side-channel maps that number to the observation the frame "shows".

This is not a recogniser of real tables: it exists so the live loop, the log and the dashboard
can be tested before (and independently of) the games' real recognisers. The frames and the
recogniser are those of :mod:`tableref.bench.scripted` (the scripted table ``tableref bench
--live`` plays); this module adds the side channel, frame folders and the ``scripted`` source
a ``tableref serve --plugin live_scenes`` process is driven through.

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

from tableref.bench.scripted import BASE_SIZE, PATCH_RED, SceneRecogniser, open_scripted, scene_frame, scene_of
from tableref.live.recognition import register_recogniser
from tableref.rules import game
from tableref.rules.playout import random_playout
from tableref.vision.capture import register_source

FRAME_SIZE = BASE_SIZE  # width, height
#: Env variable naming the scenes file a serve subprocess loads through --plugin live_scenes.
SCENES_ENV = "TABLEREF_TEST_SCENES"
#: The source a serve subprocess is driven through: ``scripted:CONTROL_FILE[,WIDTHxHEIGHT]``.
SCRIPTED = "scripted"

__all__ = ["PATCH_RED", "SceneRecogniser", "scene_of"]


def make_frame(index: int, size: tuple[int, int] = FRAME_SIZE) -> np.ndarray:
    return scene_frame(index, size)


def show(control: Path, scene: int, *, unplugged: bool = False) -> None:
    """Tell a ``scripted:CONTROL`` source (in a serve process) to show ``scene`` (or to be unplugged)."""
    partial = control.with_suffix(".part")
    partial.write_text(json.dumps({"scene": scene, "unplugged": unplugged}))
    partial.replace(control)  # one rename: the source never reads half a file


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
    """In a serve process started with the scenes file in SCENES_ENV: its recogniser and the scripted source."""
    path = os.environ.get(SCENES_ENV)
    if path:
        register_source(SCRIPTED, open_scripted, replace=True)
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


def stray_card(observation: dict, state, column: int = 3, confidence: float = 0.9) -> dict:
    """``observation`` plus a Dolce Vita number card of a player who is not to move (not their turn)."""
    from tableref.rules.dolcevita.catalogue import number_label

    other = (state.to_move + 1) % state.players
    card = {"label": number_label(other, state.hands[other][0]), "where": f"column:{column}:under",
            "confidence": confidence}
    return {**observation, "items": observation["items"] + [card]}


def doubtful_card(observation: dict, index: int = 0) -> dict:
    """``observation`` with item ``index`` read, without confidence, as another Dolce Vita card."""
    item = observation["items"][index]
    other = "car:100000" if item["label"] != "car:100000" else "boat:400000"
    items = list(observation["items"])
    items[index] = {**item, "label": other, "confidence": 0.3}
    return {**observation, "items": items}


#: The scenes of :func:`dashboard_game`, in the order they are shown.
OPENING, FIRST_MOVE, LAST_DISTRIBUTION, ROUND_END, STRAY, PUT_BACK, STRAY_AGAIN, DOUBTFUL, TAKEN_BACK = range(9)
#: The game :func:`dashboard_game` plays: Dolce Vita for two, seed 5, whose first round ends at move 18.
DASHBOARD_GAME, DASHBOARD_SEED, ROUND_END_MOVE = "dolcevita", 5, 18


def dashboard_game() -> tuple[list, dict[int, dict]]:
    """States and scenes of the game the dashboard's browser test and screenshot play.

    A first move; the rest of the round at once (the referee explains a whole round's dealing,
    placing and distribution from one reading); the round's end; a number card placed out of
    turn (a flag), taken back on the dashboard and then from the table; placed again and let
    stand; then a card read differently without confidence (an unexplained change).
    """
    states, observations = playout_scenes(DASHBOARD_GAME, 2, DASHBOARD_SEED, ROUND_END_MOVE)
    at_end = states[ROUND_END_MOVE]
    stray = stray_card(observations[ROUND_END_MOVE], at_end)
    scenes = {OPENING: observations[0], FIRST_MOVE: observations[1], LAST_DISTRIBUTION: observations[ROUND_END_MOVE - 1],
              ROUND_END: observations[ROUND_END_MOVE], STRAY: stray, PUT_BACK: observations[ROUND_END_MOVE],
              STRAY_AGAIN: stray, DOUBTFUL: doubtful_card(stray), TAKEN_BACK: observations[ROUND_END_MOVE]}
    return states, scenes
