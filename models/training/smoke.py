"""The ``smoke`` recipe: coloured digits on small white cards, drawn procedurally.

It exists so that the whole path (builder -> shared crop -> training -> ONNX -> card ->
runner) runs end to end without renders or photographs. Its accuracy says nothing about
real game components.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from ..card import CropSettings, Preprocessing
from .augment import Augmentation
from .dataset import Sample
from .recipes import Recipe, register

COLOURS_BGR = {"red": (40, 40, 210), "green": (50, 160, 40), "blue": (200, 80, 30)}
DIGITS = ("1", "2", "3")
LABELS = tuple(f"{c}-{d}" for c in COLOURS_BGR for d in DIGITS)
#: A scene is a square of cells, one card per cell.
SCENE_CELLS, CELL_PX = 2, 120
#: Card size in scene pixels (width, height), and how much it may vary.
CARD_PX, CARD_SCALE_JITTER = (50.0, 70.0), 0.15
CARD_WHITE, BORDER_PX, FONT_SCALE, FONT_THICKNESS = 235, 2, 1.6, 3
#: Background: mid-grey with smoothed noise (a table), std in 8-bit levels.
BACKGROUND_MEAN, BACKGROUND_STD, BACKGROUND_BLUR = 110, 30, 3


def _card_face(label: str, size: tuple[int, int]) -> np.ndarray:
    """The upright card (h, w, 3) BGR: white with a thin grey border and the coloured digit."""
    w, h = size
    face = np.full((h, w, 3), CARD_WHITE, np.uint8)
    cv2.rectangle(face, (0, 0), (w - 1, h - 1), (150, 150, 150), BORDER_PX)
    colour, digit = label.split("-")
    (tw, th), _ = cv2.getTextSize(digit, cv2.FONT_HERSHEY_SIMPLEX, FONT_SCALE, FONT_THICKNESS)
    cv2.putText(face, digit, ((w - tw) // 2, (h + th) // 2), cv2.FONT_HERSHEY_SIMPLEX, FONT_SCALE,
                COLOURS_BGR[colour], FONT_THICKNESS, cv2.LINE_AA)
    return face


def _background(rng: np.random.Generator, side: int) -> np.ndarray:
    noise = rng.normal(BACKGROUND_MEAN, BACKGROUND_STD, (side, side, 3)).astype(np.float32)
    noise = cv2.blur(noise, (BACKGROUND_BLUR, BACKGROUND_BLUR))
    return np.clip(noise, 0, 255).astype(np.uint8)


def _paste(scene: np.ndarray, face: np.ndarray, quad: np.ndarray) -> None:
    h, w = face.shape[:2]
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32) - 0.5
    matrix = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
    size = (scene.shape[1], scene.shape[0])
    warped = cv2.warpPerspective(face, matrix, size, flags=cv2.INTER_LINEAR)
    mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8), matrix, size, flags=cv2.INTER_LINEAR)
    alpha = (mask.astype(np.float32) / 255.0)[..., None]
    scene[:] = (scene * (1 - alpha) + warped * alpha).astype(np.uint8)


def build(seed: int, count: int) -> list[Sample]:
    """At least ``count`` samples: scenes of 2x2 turned cards, labels drawn uniformly."""
    rng = np.random.default_rng(seed)
    samples: list[Sample] = []
    side = SCENE_CELLS * CELL_PX
    while len(samples) < count:
        scene = _background(rng, side)
        placed = []
        for row in range(SCENE_CELLS):
            for col in range(SCENE_CELLS):
                label = LABELS[rng.integers(len(LABELS))]
                scale = 1.0 + rng.uniform(-CARD_SCALE_JITTER, CARD_SCALE_JITTER)
                w, h = CARD_PX[0] * scale, CARD_PX[1] * scale
                angle = math.radians(rng.uniform(-180, 180))
                centre = np.array([(col + 0.5) * CELL_PX, (row + 0.5) * CELL_PX])
                local = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
                rot = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
                quad = local @ rot.T + centre
                _paste(scene, _card_face(label, (round(w), round(h))), quad)
                placed.append((quad, label))
        samples += [Sample(scene, quad, label) for quad, label in placed]
    return samples[:count]


RECIPE = register(Recipe(
    name="smoke",
    description="coloured digits on drawn cards: checks the training path end to end",
    labels=LABELS,
    preprocessing=Preprocessing(input_size=(64, 48), colour="rgb", mean=(0.5, 0.5, 0.5),
                                std=(0.25, 0.25, 0.25), crop=CropSettings(region="quad", margin=0.05)),
    build=build,
    samples=720,
    val_fraction=0.25,
    measured_on="procedurally drawn digit cards from the smoke builder (pool seed 1, split seed 2); not game components",
    augmentation=Augmentation(),
    settings={"epochs": 8, "batch_size": 64, "learning_rate": 3e-3},
))
