"""Video mode: a fixed camera over a table where only a few things move.

The background (surface, markers, every part that does not move, distractors) is drawn
and lit once; each frame copies it, draws the moving parts and hands into the unlit copy,
relights only the boxes they touched, and adds sensor noise from a small bank of
pre-drawn noise frames. No blur or JPEG: a stream encodes frames itself.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from .canvas import Canvas
from .errors import LayoutError
from .layout import Layout
from .palette import shade
from .photo import apply_light, noise_field
from .props import SIDES, SKIN_TONES, arm_entry
from .scene import (RenderSettings, Render, Stage, _props, build_truth, draw_placements, draw_solids,
                    solid_geometry, stream, _HAND_SHADOW_PX)
from .solids import hand

#: Pre-drawn noise frames cycled through (more costs memory, fewer shows a pattern).
NOISE_FRAMES = 4
#: Read noise of the video frames (grey levels, one sigma).
VIDEO_NOISE = 2.0


@dataclass(frozen=True)
class Hand:
    """A hand in one video frame: fingers at ``target_mm``, hovering ``height_mm`` above the
    table, arm coming from the ``side`` of the table (near, left, right)."""

    target_mm: tuple[float, float]
    height_mm: float = 20.0
    side: str = "near"
    skin: int = 2
    sleeve: tuple[int, int, int] = (120, 80, 60)

    def __post_init__(self) -> None:
        if self.side not in SIDES:
            raise LayoutError(f"hand side must be one of {', '.join(SIDES)}, got {self.side!r}")
        if not 0 <= self.skin < len(SKIN_TONES):
            raise LayoutError(f"hand skin must be 0..{len(SKIN_TONES) - 1}, got {self.skin!r}")


class VideoScene:
    """Re-render a layout fast with a fixed camera.

    Parameters
    ----------
    layout : Layout, the first frame's table
    seed : int, draws camera, light, surface, distractors
    moving : idents of the parts expected to move; everything else is cached
    settings : RenderSettings (its ``hands`` are ignored: hands are given per frame)
    """

    def __init__(self, layout: Layout, seed: int, moving: frozenset[str] | set[str] = frozenset(),
                 settings: RenderSettings = RenderSettings()):
        self.seed = seed
        self.moving = frozenset(moving)
        self.settings = replace(settings, hands=(0, 0))
        self.stage = Stage.build(layout, seed, self.settings)
        rng = stream(seed, "noise", 1)
        w, h = self.stage.camera.size
        self._noise = []
        for _ in range(NOISE_FRAMES):
            n = noise_field(rng, (h, w, 3)) * VIDEO_NOISE
            self._noise.append((np.clip(n, 0, 255).astype(np.uint8), np.clip(-n, 0, 255).astype(np.uint8)))
        self._count = 0
        self._build(layout)

    def _static(self, layout: Layout) -> tuple:
        return tuple(c if c.ident not in self.moving else None for c in layout.components)

    def _build(self, layout: Layout) -> None:
        """Draw and light everything that does not move."""
        self._key = self._static(layout)
        canvas = self.stage.canvas()
        placements = self.stage.placements(layout)
        still = [p for p in placements if p.index is None or self._key[p.index] is not None]
        self._geometry = draw_placements(self.stage, canvas, still)
        n = len(placements)
        self._extras = _props(self.stage, canvas, layout, n + 1)
        self._first_hand = n + 1 + len(self._extras)
        self._unlit, self._labels, self._drawn = canvas.image, canvas.labels, dict(canvas.drawn)
        self._lit = apply_light(canvas.image, self.stage.light) if self.settings.light else canvas.image.copy()

    def frame(self, layout: Layout, hands: tuple[Hand, ...] = ()) -> Render:
        """Render one frame: ``layout`` must keep the non-moving parts as they were (else the
        background is redrawn, which costs one still render)."""
        if len(layout.components) != len(self._key) or self._static(layout) != self._key \
                or layout.table_mm != self.stage.layout.table_mm or layout.marker_mm != self.stage.layout.marker_mm:
            self.stage = replace(self.stage, layout=layout)
            self._build(layout)
        stage = self.stage
        canvas = Canvas(stage.camera, self._unlit.copy(), self._labels.copy(), [], dict(self._drawn))
        placements = stage.placements(layout)
        moving = [p for p in placements if p.index is not None and self._key[p.index] is None]
        geometry = dict(self._geometry)
        geometry.update(draw_placements(stage, canvas, moving))
        extras = list(self._extras)
        solids = []
        for k, h in enumerate(hands):
            label = self._first_hand + k
            entry = arm_entry(h.side, layout.table_mm, h.target_mm)
            solid, hull = hand(label, h.target_mm, entry, SKIN_TONES[h.skin], shade(h.sleeve, 1.0), h.height_mm)
            solids.append((solid, 0.0, _HAND_SHADOW_PX))
            extras.append((label, "hand", (*h.target_mm, 0.0, h.height_mm), solid, hull))
        draw_solids(stage, canvas, solids)
        out = self._lit.copy()
        for y0, y1, x0, x1 in merge_boxes(canvas.dirty):
            out[y0:y1, x0:x1] = apply_light(canvas.image[y0:y1, x0:x1], stage.light, y0, x0) \
                if self.settings.light else canvas.image[y0:y1, x0:x1]
        pos, neg = self._noise[self._count % NOISE_FRAMES]
        self._count += 1
        cv2.add(out, pos, dst=out)
        cv2.subtract(out, neg, dst=out)
        rows = [e if len(e) == 4 else (*e[:3], solid_geometry(stage, canvas, e[3], e[4])) for e in extras]
        truth = build_truth(stage, canvas.labels, placements, geometry, rows, {"video_noise": VIDEO_NOISE})
        return Render(out, canvas.labels, truth, None)



def merge_boxes(boxes: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """Merge overlapping (y0, y1, x0, x1) boxes until none overlap (so no pixel is lit twice)."""
    out = [tuple(b) for b in boxes]
    merged = True
    while merged:
        merged = False
        for i in range(len(out)):
            for j in range(i + 1, len(out)):
                a, b = out[i], out[j]
                if a[0] < b[1] and b[0] < a[1] and a[2] < b[3] and b[2] < a[3]:
                    out[i] = (min(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), max(a[3], b[3]))
                    del out[j]
                    merged = True
                    break
            if merged:
                break
    return out
