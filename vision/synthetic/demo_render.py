"""Camera frames of the demo: a fixed camera, a cached background, only what moves redrawn.

One :class:`DemoRenderer` films a whole demo run with one camera, light and table surface
(drawn from the seed, like any render). For each step of the script the parts that stay
still (:attr:`FramePlan.static`) are drawn and lit once; each frame then draws the moving
parts and the arms into a work copy of that unlit background, relights only the boxes they
touched, and adds sensor noise from a small bank of pre-drawn noise frames. A frame in which
nothing moves is the cached lit picture plus noise. Like the video mode
(:mod:`~tableref.vision.synthetic.video`), no blur or JPEG: a stream encodes frames itself.

Unlike :class:`~tableref.vision.synthetic.video.VideoScene`, the set of moving parts may
change from frame to frame (a card leaves the pile, is carried, lies down), and no per-frame
ground truth is computed: the demo's truth is the script's.
"""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np

from .canvas import Canvas
from .layout import Layout
from .palette import shade
from .photo import apply_light, noise_field
from .props import SKIN_TONES, distractor
from .scene import _HAND_SHADOW_PX, _SOLID_SHADOW_PX, RenderSettings, Stage, draw_placements, draw_solids, stream
from .solids import hand
from .video import NOISE_FRAMES, VIDEO_NOISE, merge_boxes
from .demo_motion import FramePlan

#: Distractors (mug, phone, pen) beside the play area: (min, max) count.
DISTRACTORS = (0, 2)
#: Attempts at finding a distractor a place off the play area and clear of the markers.
DISTRACTOR_TRIES = 30
#: A distractor stands at least this far outside the play area, and this far from every corner
#: of it (where the markers lie), in mm.
OFF_AREA_MM = 50.0
MARKER_CLEARANCE_MM = 120.0
#: Labels of moving parts and arms start here (far above any layout's own labels).
_MOVING_LABELS = 1_000_000
#: Players whose arm colours are drawn (the most any game seats).
_MAX_PLAYERS = 6
#: Range of sleeve colour channels (BGR) and the spread of a skin tone.
_SLEEVE_RANGE = (20, 230)
_SKIN_SPREAD = (0.92, 1.08)


class DemoRenderer:
    """Films layouts with a fixed camera.

    Parameters
    ----------
    layout : Layout
        The first table (its size fixes the camera's framing).
    seed : int
        Draws camera, light, surface, distractors, noise and the players' arms.
    image_size : (int, int)
        Frame width and height (pixels).
    """

    def __init__(self, layout: Layout, seed: int, image_size: tuple[int, int]):
        settings = RenderSettings(image_size=image_size, hands=(0, 0), distractors=(0, 0))
        self.stage = Stage.build(layout, seed, settings)
        w, h = self.stage.camera.size
        rng = stream(seed, "noise", 1)
        self._noise = []
        for _ in range(NOISE_FRAMES):
            n = noise_field(rng, (h, w, 3)) * VIDEO_NOISE
            self._noise.append((np.clip(n, 0, 255).astype(np.uint8), np.clip(-n, 0, 255).astype(np.uint8)))
        self._distractors = self._place_distractors(layout, seed)
        self._looks = _arm_looks(seed)
        self._scratch = np.zeros((h, w), np.int32)
        self._static: tuple | None = None
        self._table: tuple | None = None
        self._unlit = self._work = self._lit = None
        self._still_key: tuple | None = None
        self._still: np.ndarray | None = None

    def _place_distractors(self, layout: Layout, seed: int) -> list:
        """Mugs, phones and pens beside the play area (never on it, never on a marker)."""
        rng = stream(seed, "distractors")
        w, d = layout.table_mm
        corners = [(0.0, 0.0), (w, 0.0), (w, d), (0.0, d)]
        eye = self.stage.camera.centre[:2]
        out = []
        for k in range(int(rng.integers(DISTRACTORS[0], DISTRACTORS[1] + 1))):
            for _ in range(DISTRACTOR_TRIES):
                _, solid, _, pose = distractor(rng, _MOVING_LABELS - 1 - k, layout.table_mm, eye)
                x, y = pose[:2]
                m = OFF_AREA_MM
                off = not (-m <= x <= w + m and -m <= y <= d + m)
                if off and min(math.hypot(x - cx, y - cy) for cx, cy in corners) > MARKER_CLEARANCE_MM:
                    out.append(solid)
                    break
        return out

    def _background(self, static: Layout) -> None:
        """Draw and light the parts that stay still (only when they changed)."""
        if self._static is not None and static.components == self._static and static.table_mm == self._table:
            return
        stage = self.stage = replace(self.stage, layout=static)
        canvas = stage.canvas()
        draw_placements(stage, canvas, stage.placements(static))
        draw_solids(stage, canvas, [(s, 0.0, 2 * _SOLID_SHADOW_PX) for s in self._distractors])
        self._unlit = canvas.image
        self._work = canvas.image.copy()
        self._lit = apply_light(canvas.image, stage.light) if stage.settings.light else canvas.image.copy()
        self._static, self._table = static.components, static.table_mm
        self._still_key, self._still = None, None

    def image(self, plan: FramePlan, frame: int) -> np.ndarray:
        """The camera frame (H, W, 3) uint8 BGR of ``plan``; ``frame`` picks the sensor noise."""
        self._background(plan.static)
        if not plan.arms and self._still is not None and plan.moving == self._still_key:
            out = self._still.copy()
        else:
            out = self._draw(plan)
            if not plan.arms:
                self._still_key, self._still = plan.moving, out.copy()
        pos, neg = self._noise[frame % NOISE_FRAMES]
        cv2.add(out, pos, dst=out)
        cv2.subtract(out, neg, dst=out)
        return out

    def _draw(self, plan: FramePlan) -> np.ndarray:
        stage = self.stage
        canvas = Canvas(stage.camera, self._work, self._scratch)
        if plan.moving:
            moving = Layout(plan.static.table_mm, plan.moving, plan.static.marker_mm)
            placements = [p for p in stage.placements(moving, _MOVING_LABELS) if p.index is not None]
            draw_placements(stage, canvas, placements)
        solids = []
        for k, arm in enumerate(plan.arms):
            skin, sleeve = self._looks[arm.player % len(self._looks)]
            solid, _ = hand(_MOVING_LABELS + len(plan.moving) + k, arm.target_mm, arm.shoulder_mm, skin, sleeve,
                            arm.height_mm)
            solids.append((solid, 0.0, _HAND_SHADOW_PX))
        draw_solids(stage, canvas, solids)
        out = self._lit.copy()
        for y0, y1, x0, x1 in merge_boxes(canvas.dirty):
            region = self._work[y0:y1, x0:x1]
            out[y0:y1, x0:x1] = apply_light(region, stage.light, y0, x0) if stage.settings.light else region
            region[:] = self._unlit[y0:y1, x0:x1]
        return out


def _arm_looks(seed: int) -> list[tuple[tuple[int, int, int], tuple[int, int, int]]]:
    """(skin, sleeve) BGR of each player's arm, drawn from the seed."""
    rng = stream(seed, "hands")
    out = []
    for _ in range(_MAX_PLAYERS):
        tone = np.array(SKIN_TONES[int(rng.integers(len(SKIN_TONES)))], np.float64) * rng.uniform(*_SKIN_SPREAD)
        skin = tuple(int(min(255, c)) for c in tone)
        sleeve = shade(tuple(int(c) for c in rng.integers(_SLEEVE_RANGE[0], _SLEEVE_RANGE[1], 3)), 1.0)
        out.append((skin, sleeve))
    return out
