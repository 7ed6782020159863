"""Augmentation hooks: pure numpy/OpenCV functions used only in training.

Geometric jitter moves the *quad* before the shared crop (so the crop itself stays the one
function used at run time); photometric changes act on the uint8 BGR patch after the crop and
before the shared normalisation (:func:`tableref.vision.crop.to_tensor`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from . import TrainingError

#: Per-channel gain per unit of colour-temperature shift: +1 warms (more red, less blue).
TEMPERATURE_GAIN = 0.15
#: Patches changed together by :func:`photometric`: a block whose float32 copy stays small
#: (1024 patches of 40x40 px: 20 MB). One pass over a whole epoch's 75,000 patches took
#: 16.4 s on the 2-core machine, in blocks 7.0 s, with the same result to the byte.
BLOCK = 1024


@dataclass(frozen=True)
class Augmentation:
    """Ranges of the random changes; each is drawn uniformly in [-range, range] (or [0, range]).

    Attributes
    ----------
    temperature : float
        Colour-temperature shift in [-1, 1] units (1 = red gain +15%, blue gain -15%).
    brightness : float
        Relative brightness change, e.g. 0.25 for 75%..125%.
    blur_sigma : float
        Largest Gaussian blur sigma, in patch pixels.
    noise_std : float
        Largest std of additive Gaussian noise, in 8-bit levels.
    rotation_deg : float
        Largest turn of the quad about its centre, degrees.
    shift : float
        Largest shift of the quad, as a fraction of its mean side.
    scale : float
        Largest relative change of the quad's size.
    """

    temperature: float = 0.3
    brightness: float = 0.25
    blur_sigma: float = 1.0
    noise_std: float = 6.0
    rotation_deg: float = 4.0
    shift: float = 0.04
    scale: float = 0.05

    def __post_init__(self) -> None:
        for name in ("temperature", "brightness", "blur_sigma", "noise_std", "rotation_deg", "shift", "scale"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
                raise TrainingError(f"augmentation {name} must be a finite number >= 0, got {value!r}")
        if self.brightness >= 1 or self.scale >= 1 or self.temperature > 1:
            raise TrainingError("augmentation brightness and scale must be < 1 and temperature <= 1, got "
                                f"{self.brightness}, {self.scale}, {self.temperature}")


#: No change at all (validation data).
NONE = Augmentation(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)


def jitter_quads(quads: np.ndarray, angle_deg, shift_xy, scale) -> np.ndarray:
    """Turn each quad of ``quads`` (N, 4, 2) by its ``angle_deg`` (N,) about its centre, scale it
    by ``1 + scale`` (N,), and move it by ``shift_xy`` (N, 2) pixels. Returns (N, 4, 2) float64."""
    q = np.asarray(quads, dtype=np.float64)
    t = np.radians(np.asarray(angle_deg, dtype=np.float64))
    k = 1.0 + np.asarray(scale, dtype=np.float64)
    cos, sin = np.cos(t) * k, np.sin(t) * k
    centre = q.mean(axis=1, keepdims=True)
    d = q - centre
    x = d[..., 0] * cos[:, None] - d[..., 1] * sin[:, None]
    y = d[..., 0] * sin[:, None] + d[..., 1] * cos[:, None]
    return np.stack([x, y], axis=-1) + centre + np.asarray(shift_xy, dtype=np.float64)[:, None, :]


def photometric(patches: np.ndarray, temperature, gain, blur_sigma, noise_std,
                rng: np.random.Generator | None = None) -> np.ndarray:
    """Change each patch of ``patches`` (N, h, w, 3) uint8 BGR by its own amounts (each (N,)).

    ``temperature`` warms (> 0: red gain up by :data:`TEMPERATURE_GAIN` per unit, blue down) or
    cools; ``gain`` multiplies the brightness; ``blur_sigma`` is a Gaussian blur in pixels (0:
    none); ``noise_std`` adds Gaussian noise of that many 8-bit levels (drawn from ``rng``,
    needed when any is above 0). Float32 arithmetic, one rounding at the end, in blocks of
    :data:`BLOCK` patches; the noise is drawn block after block, the same numbers as one draw
    for the whole batch, so the result does not depend on the block size.
    """
    patches = np.asarray(patches)
    shift = np.asarray(temperature, dtype=np.float32)[:, None]
    gains = (1.0 + TEMPERATURE_GAIN * shift * np.array([-1.0, 0.0, 1.0], np.float32))
    gains = gains * np.asarray(gain, dtype=np.float32)[:, None]
    sigmas = np.asarray(blur_sigma, dtype=np.float64)
    std = np.asarray(noise_std, dtype=np.float32)
    noisy = bool(np.any(std > 0))
    if noisy and rng is None:
        raise TrainingError("noise needs a seeded random generator")
    result = np.empty(patches.shape, np.uint8)
    for lo in range(0, len(patches), BLOCK):
        hi = lo + BLOCK
        out = patches[lo:hi].astype(np.float32)
        out *= gains[lo:hi, None, None, :]
        np.clip(out, 0, 255, out=out)
        for i, sigma in enumerate(sigmas[lo:hi]):
            if sigma > 0:
                out[i] = cv2.GaussianBlur(out[i], (0, 0), sigmaX=float(sigma), borderType=cv2.BORDER_REPLICATE)
        if noisy:
            noise = rng.standard_normal(out.shape, dtype=np.float32)
            noise *= std[lo:hi, None, None, None]
            out += noise
        np.clip(out, 0, 255, out=out)
        result[lo:hi] = np.rint(out, out=out)
    return result


def random_quads(quads: np.ndarray, aug: Augmentation, rng: np.random.Generator) -> np.ndarray:
    """``quads`` (N, 4, 2), each with a random turn, shift and scale within ``aug``'s ranges."""
    q = np.asarray(quads, dtype=np.float64)
    n = len(q)
    side = np.linalg.norm(q - np.roll(q, -1, axis=1), axis=2).mean(axis=1)
    shift = rng.uniform(-aug.shift, aug.shift, size=(n, 2)) * side[:, None]
    return jitter_quads(q, rng.uniform(-aug.rotation_deg, aug.rotation_deg, n), shift,
                        rng.uniform(-aug.scale, aug.scale, n))


def random_photometric(patches: np.ndarray, aug: Augmentation, rng: np.random.Generator) -> np.ndarray:
    """``patches`` (N, h, w, 3) uint8 BGR, each with a random temperature, brightness, blur and noise."""
    n = len(patches)
    return photometric(patches, rng.uniform(-aug.temperature, aug.temperature, n),
                       1.0 + rng.uniform(-aug.brightness, aug.brightness, n),
                       rng.uniform(0.0, aug.blur_sigma, n), rng.uniform(0.0, aug.noise_std, n), rng)
