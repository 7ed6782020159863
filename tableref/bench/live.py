"""The cost of a camera frame in which nothing changed: the motion gate plus the stream encode.

Measured on a synthetic 1280x720 frame (smooth random texture with sensor-like noise added
per frame, seeded), after the gate has settled on it, the way the live loop does it.
"""

from __future__ import annotations

import time

import cv2
import numpy as np

from ..live.loop import StreamSettings, encode_jpeg
from ..vision import motion
from . import Figure

#: The frame size of the budget (DESIGN.md: 1280x720 at 30 fps, 10 ms per unchanged frame).
FRAME_SIZE = (1280, 720)
#: Standard deviation of the per-frame noise added, grey levels (a webcam in room light).
NOISE_SIGMA = 2.0
#: Blur of the random texture, pixels (sigma): a table with some structure, not white noise.
TEXTURE_BLUR = 3.0


def _frames(count: int, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    width, height = FRAME_SIZE
    base = cv2.GaussianBlur(rng.integers(0, 256, (height, width, 3), dtype=np.uint8), (0, 0), TEXTURE_BLUR)
    out = []
    for _ in range(count):
        noise = rng.normal(0.0, NOISE_SIGMA, base.shape)
        out.append(np.clip(base + noise, 0, 255).astype(np.uint8))
    return out


def run(frames: int = 200, seed: int = 0) -> list[Figure]:
    """Mean and 95th-percentile milliseconds per unchanged frame: gate alone, gate plus encode.

    Every frame is encoded here (the loop encodes at most ``StreamSettings.fps`` times a
    second and only while someone watches), so "gate+encode" is the worst case.
    """
    settings, stream = motion.MotionSettings(), StreamSettings()
    images = _frames(min(frames, 20), seed)
    gate = motion.GateState()
    for image in images[:settings.settle_frames + 2]:  # settle on the scene, as after a recognition
        gate = motion.step(gate, motion.thumbnail(image, settings.thumb_width), settings)
    gate = motion.rebase(gate)
    gate_ms, total_ms, phases = [], [], set()
    for i in range(frames):
        image = images[i % len(images)]
        start = time.perf_counter()
        gate = motion.step(gate, motion.thumbnail(image, settings.thumb_width), settings)
        middle = time.perf_counter()
        encode_jpeg(image, stream.width, stream.jpeg_quality)
        end = time.perf_counter()
        phases.add(gate.phase.value)
        gate_ms.append((middle - start) * 1000.0)
        total_ms.append((end - start) * 1000.0)
    on = f"{frames} unchanged {FRAME_SIZE[0]}x{FRAME_SIZE[1]} synthetic frames (noise sigma {NOISE_SIGMA}), " \
         f"gate phases seen: {', '.join(sorted(phases))}"
    figures = []
    for name, values in (("gate", gate_ms), ("gate+encode", total_ms)):
        ordered = sorted(values)
        figures.append(Figure("live", f"unchanged frame {name} mean", round(float(np.mean(ordered)), 3), "ms", on))
        figures.append(Figure("live", f"unchanged frame {name} p95", round(ordered[int(0.95 * (len(ordered) - 1))], 3),
                              "ms", on))
    return figures
