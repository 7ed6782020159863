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


def jitter_quad(quad: np.ndarray, angle_deg: float, shift_xy: tuple[float, float], scale: float) -> np.ndarray:
    """Turn ``quad`` (4, 2) by ``angle_deg`` about its centre, scale it by ``1 + scale``, and
    move it by ``shift_xy`` pixels. Returns a new (4, 2) float64 quad."""
    q = np.asarray(quad, dtype=np.float64)
    centre = q.mean(axis=0)
    t = math.radians(angle_deg)
    rot = np.array([[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]]) * (1.0 + scale)
    return (q - centre) @ rot.T + centre + np.asarray(shift_xy, dtype=np.float64)


def colour_temperature(patch: np.ndarray, shift: float) -> np.ndarray:
    """Warm (``shift`` > 0) or cool (< 0) a BGR uint8 patch by scaling red and blue."""
    gains = np.array([1.0 - TEMPERATURE_GAIN * shift, 1.0, 1.0 + TEMPERATURE_GAIN * shift], np.float32)
    return np.clip(patch.astype(np.float32) * gains, 0, 255).astype(np.uint8)


def brightness(patch: np.ndarray, factor: float) -> np.ndarray:
    """Multiply a uint8 patch by ``factor`` (> 0), clipping to 0..255."""
    return np.clip(patch.astype(np.float32) * factor, 0, 255).astype(np.uint8)


def blur(patch: np.ndarray, sigma: float) -> np.ndarray:
    """Gaussian blur with ``sigma`` pixels (0 leaves the patch unchanged)."""
    if sigma <= 0:
        return patch
    return cv2.GaussianBlur(patch, (0, 0), sigmaX=sigma, borderType=cv2.BORDER_REPLICATE)


def noise(patch: np.ndarray, std: float, rng: np.random.Generator) -> np.ndarray:
    """Add Gaussian noise of ``std`` 8-bit levels."""
    if std <= 0:
        return patch
    noisy = patch.astype(np.float32) + rng.normal(0.0, std, patch.shape).astype(np.float32)
    return np.clip(noisy, 0, 255).astype(np.uint8)


def random_quad(quad: np.ndarray, aug: Augmentation, rng: np.random.Generator) -> np.ndarray:
    """``quad`` with a random turn, shift and scale within ``aug``'s ranges."""
    q = np.asarray(quad, dtype=np.float64)
    side = float(np.mean(np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1)))
    shift = rng.uniform(-aug.shift, aug.shift, size=2) * side
    return jitter_quad(q, rng.uniform(-aug.rotation_deg, aug.rotation_deg), tuple(shift),
                       rng.uniform(-aug.scale, aug.scale))


def random_photometric(patch: np.ndarray, aug: Augmentation, rng: np.random.Generator) -> np.ndarray:
    """``patch`` (h, w, 3) uint8 BGR with random temperature, brightness, blur and noise."""
    out = colour_temperature(patch, rng.uniform(-aug.temperature, aug.temperature))
    out = brightness(out, 1.0 + rng.uniform(-aug.brightness, aug.brightness))
    out = blur(out, rng.uniform(0.0, aug.blur_sigma))
    return noise(out, rng.uniform(0.0, aug.noise_std), rng)
