"""``tableref bench --live``: the live loop's figures on a 1280x720 source.

- The cost of a camera frame in which nothing changed, alone: the motion gate plus the stream
  encode on a synthetic 1280x720 frame (smooth random texture with sensor-like noise added per
  frame, seeded), after the gate has settled on it, the way the live loop does it.
- The loop end to end (:mod:`tableref.bench.live_loop`): frames per second sustained with a
  30 fps camera and with an unthrottled one, ms per unchanged frame inside the running loop,
  the recognition latency of a settled scene, and the time from a placement to its event on
  the page, on a scripted table where each move is placed by a hand.
"""

from __future__ import annotations

import time

import cv2
import numpy as np

from ..live.loop import StreamSettings, encode_jpeg
from ..live.voting import VoteSettings
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


#: Placements made in each end-to-end run.
PLACEMENTS = 12


def run(frames: int = 200, seed: int = 0, placements: int = 0) -> list[Figure]:
    """The unchanged-frame figures over ``frames`` frames; with ``placements`` > 0 (the command
    gives :data:`PLACEMENTS`), then the end-to-end figures over that many placements per run."""
    figures = unchanged_frame(frames, seed)
    if placements > 0:
        figures += end_to_end(placements, seed)
    return figures


def _mean(values: list[float]) -> float:
    return round(float(np.mean(values)), 1) if values else float("nan")


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return round(ordered[int(0.95 * (len(ordered) - 1))], 1) if ordered else float("nan")


def end_to_end(placements: int = PLACEMENTS, seed: int = 0) -> list[Figure]:
    """Frames per second, unchanged-frame cost in the loop, recognition latency and placement to page."""
    import logging

    from .live_loop import CAMERA_FPS, FRAME_SIZE, GAME, run_loop

    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request
    camera = run_loop(placements, CAMERA_FPS, seed)
    ceiling = run_loop(placements, None, seed)
    size = f"{FRAME_SIZE[0]}x{FRAME_SIZE[1]}"
    on = (f"{camera.placements} placements by hand on a scripted {size} table ({GAME}, seed {seed}) at "
          f"{CAMERA_FPS:g} fps with sensor noise; scene recogniser (reads a scene code, "
          f"{_mean(camera.recognise_call_ms)} ms a frame); served session with one event-stream client "
          f"and one MJPEG viewer; {camera.seconds:.1f} s")
    fast = (f"as above, camera unthrottled (each frame waits for the loop); {ceiling.frames} frames in "
            f"{ceiling.seconds:.1f} s")
    idle = camera.idle_frame_ms or {}
    return [
        Figure("live", "loop frames per second sustained", round(camera.fps, 1), "frames/s", on),
        Figure("live", "frames dropped by the loop", camera.skipped, "frames", on),
        Figure("live", "loop frames per second, ceiling", round(ceiling.fps, 1), "frames/s", fast),
        Figure("live", "unchanged frame in the loop mean", idle.get("mean", float("nan")), "ms",
               on + f"; last {idle.get('frames', 0)} unchanged frames, encode for the viewer at 10 fps included"),
        Figure("live", "unchanged frame in the loop p95", idle.get("p95", float("nan")), "ms",
               on + f"; last {idle.get('frames', 0)} unchanged frames, encode for the viewer at 10 fps included"),
        Figure("live", "recognition latency of a settled scene mean", _mean(camera.recognised_ms), "ms",
               on + "; from the first frame with the placement complete and the hand gone to the last of the "
                    f"frames voted on being read ({motion.MotionSettings().settle_frames} still frames to settle, "
                    f"{VoteSettings().frames} read)"),
        Figure("live", "recognition latency of a settled scene max", round(max(camera.recognised_ms), 1), "ms", on),
        Figure("live", "placement to page mean", _mean(camera.to_page_ms), "ms",
               on + "; from the first frame with the placement complete and the hand gone to its event "
                    "received by the event-stream client"),
        Figure("live", "placement to page p95", _p95(camera.to_page_ms), "ms", on),
        Figure("live", "placement to page max", round(max(camera.to_page_ms), 1), "ms", on),
    ]


def unchanged_frame(frames: int = 200, seed: int = 0) -> list[Figure]:
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
