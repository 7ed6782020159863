"""Light and sensor: colour temperature, white balance, uneven light, glare, blur, noise, JPEG.

The light is applied as ``out = image * gain(x, y) * cast + glare(x, y)``: one smooth gain
field (exposure, a light pool, a gradient, vignetting), one colour cast left over after the
camera's automatic white balance, and additive glare spots.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np

from ..deblur import line_kernel

#: Approximate sRGB colour of a black body (R, G, B 0..255) at these temperatures (K).
_BLACKBODY = ((2500, (255, 161, 72)), (3000, (255, 180, 107)), (3500, (255, 196, 137)),
              (4000, (255, 209, 163)), (4500, (255, 219, 186)), (5000, (255, 228, 206)),
              (5500, (255, 236, 224)), (6000, (255, 243, 239)), (6500, (255, 249, 253)))
#: The light fields are computed this many times smaller than the image, then enlarged.
_FIELD_SHRINK = 8
#: Standard-normal quantiles of 256 equally likely bytes: turns random bytes into noise.


def _normal_quantiles() -> np.ndarray:
    """256 values whose empirical distribution approximates the standard normal."""
    p = (np.arange(256) + 0.5) / 256
    # Inverse normal CDF by bisection on math.erf (stdlib only, computed once).
    lo, hi = np.full(256, -6.0), np.full(256, 6.0)
    for _ in range(60):
        mid = (lo + hi) / 2
        cdf = 0.5 * (1 + np.vectorize(math.erf)(mid / math.sqrt(2)))
        lo, hi = np.where(cdf < p, mid, lo), np.where(cdf < p, hi, mid)
    return ((lo + hi) / 2).astype(np.float32)


_QUANTILES = _normal_quantiles()


def blackbody_rgb(kelvin: float) -> np.ndarray:
    """Relative (R, G, B) of light at ``kelvin`` (interpolated in a small table), G = 1."""
    ks = np.array([k for k, _ in _BLACKBODY], np.float64)
    rgb = np.array([c for _, c in _BLACKBODY], np.float64)
    out = np.array([np.interp(kelvin, ks, rgb[:, i]) for i in range(3)])
    return out / out[1]


@dataclass(frozen=True)
class LightRanges:
    """Ranges of the random light (uniform)."""

    kelvin: tuple[float, float] = (2700.0, 6500.0)
    white_balance: tuple[float, float] = (0.6, 1.0)
    exposure: tuple[float, float] = (0.8, 1.1)
    pool_strength: tuple[float, float] = (0.0, 0.35)
    gradient: tuple[float, float] = (0.0, 0.25)
    vignetting: tuple[float, float] = (0.0, 0.3)
    glare_probability: float = 0.5
    glare_strength: tuple[float, float] = (40.0, 140.0)
    glare_radius_px: tuple[float, float] = (15.0, 70.0)
    elevation_deg: tuple[float, float] = (40.0, 75.0)
    shadow_opacity: tuple[float, float] = (0.25, 0.55)


@dataclass(frozen=True, eq=False)
class Light:
    """One drawn light: what is applied to every pixel, and where shadows fall.

    Attributes
    ----------
    kelvin : float
    cast : ndarray (3,), BGR gains left after white balance
    gain : ndarray (H, W), float32: smooth brightness field
    glare : ndarray (H, W), float32: additive highlight (0..255 scale)
    direction : ndarray (3,): unit vector from the table towards the light
    shadow_opacity : float, 0..1
    """

    kelvin: float
    white_balance: float
    cast: np.ndarray
    gain: np.ndarray
    glare: np.ndarray
    direction: np.ndarray
    shadow_opacity: float

    @cached_property
    def colour_gain(self) -> np.ndarray:
        """Gain times colour cast per pixel, (H, W, 3) float32."""
        return np.ascontiguousarray(self.gain[..., None] * self.cast[None, None, :], np.float32)

    @cached_property
    def glare3(self) -> np.ndarray:
        """Glare per pixel and channel, (H, W, 3) float32."""
        return np.ascontiguousarray(np.repeat(self.glare[..., None], 3, axis=2))

    def to_json(self) -> dict:
        return {"kelvin": self.kelvin, "white_balance": self.white_balance, "cast_bgr": self.cast.tolist(),
                "direction": self.direction.tolist(), "shadow_opacity": self.shadow_opacity,
                "mean_gain": float(self.gain.mean())}


def random_light(rng: np.random.Generator, size: tuple[int, int], ranges: LightRanges = LightRanges()) -> Light:
    """Draw a light for an image of ``size`` (width, height) pixels."""
    w, h = size
    sw, sh = max(2, w // _FIELD_SHRINK), max(2, h // _FIELD_SHRINK)
    kelvin = float(rng.uniform(*ranges.kelvin))
    wb = float(rng.uniform(*ranges.white_balance))
    cast = blackbody_rgb(kelvin) ** (1.0 - wb)
    cast = (cast / cast.max())[::-1].copy()
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    xx, yy = xx / sw - 0.5, yy / sh - 0.5
    px, py = rng.uniform(-0.4, 0.4, 2)
    pool_r = rng.uniform(0.25, 0.6)
    pool = rng.uniform(*ranges.pool_strength) * np.exp(-((xx - px) ** 2 + (yy - py) ** 2) / (2 * pool_r**2))
    angle = rng.uniform(0, 2 * math.pi)
    grad = rng.uniform(*ranges.gradient) * (xx * math.cos(angle) + yy * math.sin(angle))
    vig = rng.uniform(*ranges.vignetting) * (xx**2 + yy**2) * 2
    field = rng.uniform(*ranges.exposure) * (1 + pool + grad - vig)
    gain = cv2.resize(field.astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    glare = np.zeros((h, w), np.float32)
    if rng.uniform() < ranges.glare_probability:
        gx, gy = rng.uniform(0.1, 0.9) * w, rng.uniform(0.1, 0.9) * h
        radius = rng.uniform(*ranges.glare_radius_px)
        strength = rng.uniform(*ranges.glare_strength)
        x0, x1 = int(max(0, gx - 3 * radius)), int(min(w, gx + 3 * radius))
        y0, y1 = int(max(0, gy - 3 * radius)), int(min(h, gy + 3 * radius))
        ly, lx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
        glare[y0:y1, x0:x1] = strength * np.exp(-((lx - gx) ** 2 + (ly - gy) ** 2) / (2 * radius**2))
    elev = math.radians(rng.uniform(*ranges.elevation_deg))
    az = rng.uniform(0, 2 * math.pi)
    direction = np.array([math.cos(elev) * math.cos(az), math.cos(elev) * math.sin(az), math.sin(elev)])
    return Light(kelvin, wb, cast.astype(np.float32), gain, glare, direction,
                 float(rng.uniform(*ranges.shadow_opacity)))


def flat_light(size: tuple[int, int]) -> Light:
    """Neutral light: no cast, gain 1, no glare, light from straight above, no shadows."""
    w, h = size
    return Light(6500.0, 1.0, np.ones(3, np.float32), np.ones((h, w), np.float32), np.zeros((h, w), np.float32),
                 np.array([0.0, 0.0, 1.0]), 0.0)


def apply_light(image: np.ndarray, light: Light, y0: int = 0, x0: int = 0) -> np.ndarray:
    """Light one image (or the region of it starting at row ``y0``, column ``x0``).

    Parameters
    ----------
    image : ndarray (h, w, 3) uint8, BGR: the unlit region
    Returns
    -------
    ndarray (h, w, 3) uint8
    """
    h, w = image.shape[:2]
    gain = light.colour_gain[y0:y0 + h, x0:x0 + w]
    glare = light.glare3[y0:y0 + h, x0:x0 + w]
    out = cv2.multiply(image, gain, dtype=cv2.CV_32F)
    return cv2.add(out, glare, dtype=cv2.CV_8U)


@dataclass(frozen=True)
class EffectRanges:
    """Ranges of the camera's optical and sensor effects."""

    defocus_sigma_px: tuple[float, float] = (0.0, 1.3)
    motion_probability: float = 0.25
    motion_length_px: tuple[float, float] = (2.0, 7.0)
    read_noise: tuple[float, float] = (1.0, 4.0)
    shot_noise: tuple[float, float] = (0.0, 0.12)
    jpeg_quality: tuple[int, int] = (60, 95)


@dataclass(frozen=True)
class Effects:
    """The drawn effects of one photograph."""

    defocus_sigma_px: float
    motion_length_px: float
    motion_angle_deg: float
    read_noise: float
    shot_noise: float
    jpeg_quality: int | None

    def to_json(self) -> dict:
        return dict(self.__dict__)


def random_effects(rng: np.random.Generator, ranges: EffectRanges = EffectRanges()) -> Effects:
    """Draw the effects of one photograph."""
    moving = rng.uniform() < ranges.motion_probability
    return Effects(float(rng.uniform(*ranges.defocus_sigma_px)),
                   float(rng.uniform(*ranges.motion_length_px)) if moving else 0.0,
                   float(rng.uniform(0, 180)), float(rng.uniform(*ranges.read_noise)),
                   float(rng.uniform(*ranges.shot_noise)),
                   int(rng.integers(ranges.jpeg_quality[0], ranges.jpeg_quality[1] + 1)))


NO_EFFECTS = Effects(0.0, 0.0, 0.0, 0.0, 0.0, None)


def blur(image: np.ndarray, effects: Effects) -> np.ndarray:
    """Defocus (Gaussian) and motion blur (a line kernel) of the lens and the shutter."""
    out = image
    if effects.defocus_sigma_px > 0.05:
        out = cv2.GaussianBlur(out, (0, 0), effects.defocus_sigma_px)
    if effects.motion_length_px >= 1.5:
        out = cv2.filter2D(out, -1, line_kernel(effects.motion_length_px, effects.motion_angle_deg))
    return out


def noise_field(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    """Standard-normal-like noise of ``shape``, float32 (random bytes through a quantile table)."""
    raw = np.frombuffer(rng.bytes(int(np.prod(shape))), np.uint8).reshape(shape)
    return _QUANTILES[raw]


def add_noise(image: np.ndarray, effects: Effects, rng: np.random.Generator) -> np.ndarray:
    """Sensor noise: Gaussian with variance ``read**2 + shot * value`` per pixel."""
    if effects.read_noise <= 0 and effects.shot_noise <= 0:
        return image
    img = image.astype(np.float32)
    sigma = np.sqrt(effects.read_noise**2 + effects.shot_noise * img)
    out = img + sigma * noise_field(rng, image.shape)
    return np.clip(out, 0, 255, out=out).astype(np.uint8)


def jpeg(image: np.ndarray, quality: int | None) -> tuple[np.ndarray, bytes | None]:
    """Compress and decompress as a webcam's JPEG stream would; returns (image, bytes)."""
    if quality is None:
        return image, None
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    data = buf.tobytes()
    return cv2.imdecode(buf, cv2.IMREAD_COLOR), data
