"""Table surfaces drawn procedurally: wood planks, cloth, a plain top.

The surface is a BGR texture over a rectangle of the table plane at ``SURFACE_PX_PER_MM``;
its look is drawn from a numpy generator, so a seed always gives the same table.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

SURFACES = ("wood", "cloth", "plain")
#: Resolution of the table texture: its patterns are coarse, the camera sees ~1-2 px per mm.
SURFACE_PX_PER_MM = 1.0


def _smooth_noise(rng: np.random.Generator, shape: tuple[int, int], cells: tuple[int, int]) -> np.ndarray:
    """Low-frequency noise in -1..1 of ``shape`` (h, w), with about ``cells`` (ny, nx) blobs."""
    small = rng.uniform(-1, 1, (cells[0] + 1, cells[1] + 1)).astype(np.float32)
    return cv2.resize(small, (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC)


def _wood(rng: np.random.Generator, h: int, w: int, ppm: float) -> np.ndarray:
    base = np.array([rng.uniform(40, 90), rng.uniform(80, 130), rng.uniform(120, 185)], np.float32)
    plank = rng.uniform(110, 200) * ppm
    img = np.empty((h, w, 3), np.float32)
    rows = np.arange(h, dtype=np.float32)[:, None]
    warp = _smooth_noise(rng, (h, w), (6, 3)) * rng.uniform(6, 18)
    streak = cv2.resize(rng.uniform(-1, 1, (h, max(2, w // 40))).astype(np.float32), (w, h),
                        interpolation=cv2.INTER_LINEAR)
    index = np.floor(rows / plank)
    tint = (1 + 0.12 * np.sin(index * 12.9898 + rng.uniform(0, 6.3))).astype(np.float32)
    grain = np.sin((rows + warp) * (rng.uniform(0.25, 0.6) / ppm) + index * 3.1) * 0.07 + streak * 0.05
    seam = (np.abs((rows % plank) - plank / 2) > plank / 2 - max(1.0, 1.2 * ppm)).astype(np.float32)
    light = (1 + grain) * tint * (1 - 0.35 * seam)
    for c in range(3):
        img[..., c] = base[c] * light
    return img


def _cloth(rng: np.random.Generator, h: int, w: int, ppm: float) -> np.ndarray:
    palette = np.array([[50, 110, 40], [110, 60, 30], [40, 40, 120], [70, 70, 72], [120, 110, 100]], np.float32)
    base = palette[rng.integers(len(palette))] * rng.uniform(0.8, 1.2)
    fine = rng.normal(0, 1, (h, w)).astype(np.float32)
    fine = cv2.GaussianBlur(fine, (0, 0), 0.7)
    mottle = _smooth_noise(rng, (h, w), (8, 10))
    light = 1 + 0.06 * fine + 0.05 * mottle
    return base[None, None, :] * light[..., None]


def _plain(rng: np.random.Generator, h: int, w: int, ppm: float) -> np.ndarray:
    grey = rng.uniform(150, 235)
    tint = rng.uniform(-12, 12, 3)
    base = np.clip(grey + tint, 0, 255).astype(np.float32)
    mottle = _smooth_noise(rng, (h, w), (4, 5)) * 0.04 + _smooth_noise(rng, (h, w), (30, 40)) * 0.015
    return base[None, None, :] * (1 + mottle)[..., None]


def surface_texture(rng: np.random.Generator, kind: str, width_mm: float, depth_mm: float,
                    px_per_mm: float = SURFACE_PX_PER_MM) -> np.ndarray:
    """A table surface of ``kind`` (one of :data:`SURFACES`) covering width x depth mm.

    Returns
    -------
    ndarray (ceil(depth * ppm), ceil(width * ppm), 3) uint8, BGR; row 0 is the +y edge.
    """
    h, w = max(2, math.ceil(depth_mm * px_per_mm)), max(2, math.ceil(width_mm * px_per_mm))
    img = {"wood": _wood, "cloth": _cloth, "plain": _plain}[kind](rng, h, w, px_per_mm)
    return np.clip(img, 0, 255).astype(np.uint8)
