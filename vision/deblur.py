"""Motion blur, measured on the table markers and undone by Wiener deconvolution.

A photograph taken while the camera or the table moved is smeared along a line: each point
becomes a short segment (the shutter's path), so a card's printed digits run into one
another. The table markers are a known target: their printed pattern (dictionary and id,
with the white quiet zone one module wide), warped to where the table's fit puts each marker,
is what a sharp camera would have seen there. The blur is the line kernel (length and angle,
on top of a little lens defocus) that, applied to that pattern, best explains the photograph's
pixels over the markers (:func:`measure_motion_blur`); :func:`deconvolve` then undoes it over
the whole image, as far as the noise allows.

Pure functions over arrays: the caller gives the image and where the markers lie.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from .errors import VisionError

#: A blur shorter than this (px) is left alone: the classifiers are trained on slightly soft
#: images, and deconvolution would only add noise (the measure's smallest line is 3 px).
MIN_LENGTH_PX = 2.0
#: Kernel sizes (odd, px) tried for the line, and its angles (degrees, 0 along +x, 90 along
#: +y as image rows run); the best angle is then refined in :data:`FINE_ANGLE_DEG` steps.
SIZES_PX = (3, 5, 7, 9, 11)
ANGLES_DEG = tuple(float(v) for v in range(0, 180, 15))
FINE_ANGLE_DEG = 2.5
#: Lens defocus (Gaussian sigma, px) tried alone and beneath the best line, so that a soft
#: but still camera is not taken for a moving one.
DEFOCUS_PX = (0.0, 0.8, 1.4)
#: A line kernel is kept only when it explains the marker pixels at least this much better
#: (residual ratio) than defocus alone.
MIN_GAIN = 0.65
#: Noise-to-signal ratio of the Wiener filter: larger keeps noise down and leaves more blur.
#: First 0.1, chosen on the 23 blurred Dolce Vita validation renders of 2000200..2000299; 0.07
#: since, on the 92 blurred ones of 2000300..2000599 (per-card error 9.1 % at 0.1, 8.8 % at
#: 0.07 and 0.05, 8.6 % at 0.03 with more misread; on the 23: 4.2, 3.9, 4.0 %).
NOISE_TO_SIGNAL = 0.07
#: Blur judged from the image alone (:func:`blind_motion`): the cepstrum's deepest point
#: between these radii (px) gives the line's direction and, roughly, its length.
CEPSTRUM_RADII_PX = (2.5, 14.0)
#: Pixels of the rendered pattern per marker module (the pattern is warped down to the image).
_PATTERN_PX_PER_MODULE = 8
#: Modules of the white quiet zone around a marker's black square.
_QUIET_MODULES = 1


class DeblurError(VisionError):
    """Blur could not be measured (no usable marker) or an input is malformed."""


@dataclass(frozen=True)
class MotionBlur:
    """A measured motion blur: a line of ``length_px`` (a kernel size: odd) at ``angle_deg``
    (0 along +x, 90 along +y), over a defocus of ``defocus_px``; ``gain`` is the marker
    pixels' residual with that line over their residual with the best defocus alone (smaller:
    the line explains more)."""

    length_px: float
    angle_deg: float
    defocus_px: float
    gain: float

    def __post_init__(self) -> None:
        for name in ("length_px", "angle_deg", "defocus_px", "gain"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
                raise DeblurError(f"motion blur {name} must be a finite number >= 0, got {value!r}")

    @property
    def moving(self) -> bool:
        """Whether the blur is long enough, and plain enough, to be undone."""
        return self.length_px >= MIN_LENGTH_PX and self.gain <= MIN_GAIN

    def to_json(self) -> dict:
        """The measure as reported (``moving``: :attr:`moving`; ``undone``: whether the image was
        deconvolved for it)."""
        return {"length_px": self.length_px, "angle_deg": round(self.angle_deg, 1), "defocus_px": self.defocus_px,
                "fit": round(self.gain, 3), "moving": self.moving, "undone": self.moving}


@dataclass(frozen=True, eq=False)
class MarkerTarget:
    """What a sharp camera sees of one marker: ``ideal`` (float32 0..1) over a box of the
    image, ``mask`` (bool, the same box), the pixels where any tried blur of ``ideal``
    depends only on the known pattern, and ``observed``, the image's grey values there
    (float32, their mean taken off)."""

    ideal: np.ndarray
    mask: np.ndarray
    observed: np.ndarray
    #: Flat indices of the masked pixels, and the observed values' sum of squares (derived).
    where: np.ndarray = field(init=False, repr=False)
    power: float = field(init=False)

    def __post_init__(self) -> None:
        if self.ideal.shape != self.mask.shape or self.observed.shape != (int(np.count_nonzero(self.mask)),):
            raise DeblurError(f"a marker target needs an ideal and a mask of one shape and a value per masked "
                              f"pixel, got {self.ideal.shape}, {self.mask.shape}, {self.observed.shape}")
        y = self.observed.astype(np.float64)
        object.__setattr__(self, "where", np.flatnonzero(self.mask))
        object.__setattr__(self, "power", float(y @ y))


@functools.lru_cache(maxsize=512)
def _line(n: int, angle_deg: float) -> np.ndarray:
    kernel = np.zeros((n, n), np.float32)
    a = math.radians(angle_deg)
    dx, dy = math.cos(a) * (n - 1) / 2, math.sin(a) * (n - 1) / 2
    c = (n - 1) / 2
    cv2.line(kernel, (round(c - dx), round(c - dy)), (round(c + dx), round(c + dy)), 1.0, 1, cv2.LINE_AA)
    kernel /= kernel.sum()
    kernel.setflags(write=False)
    return kernel


def line_kernel(length_px: float, angle_deg: float) -> np.ndarray:
    """The motion-blur kernel of a shutter that moved ``length_px`` along ``angle_deg``: an
    anti-aliased line across an odd square (the length rounded up to odd, at least 3 px;
    under 1.5 px, the identity), float32, summing to 1. The digital twin blurs its moving
    shots with this kernel too."""
    if not (math.isfinite(length_px) and math.isfinite(angle_deg)) or length_px < 0:
        raise DeblurError(f"a line kernel needs a finite length >= 0 and angle, got {length_px!r}, {angle_deg!r}")
    if length_px < 1.5:
        return np.ones((1, 1), np.float32)
    return _line(int(math.ceil(length_px)) | 1, float(angle_deg))


def marker_pattern(bits: np.ndarray) -> np.ndarray:
    """The printed marker, white quiet zone included, at :data:`_PATTERN_PX_PER_MODULE` px per
    module: float32 0 (black) .. 1 (white). ``bits`` is the marker's inner cells (k x k, 1 white)."""
    bits = np.asarray(bits)
    if bits.ndim != 2 or bits.shape[0] != bits.shape[1] or bits.shape[0] < 1:
        raise DeblurError(f"marker bits must be a square grid of cells, got shape {bits.shape}")
    k = bits.shape[0]
    cells = np.ones((k + 2 + 2 * _QUIET_MODULES,) * 2, np.float32)
    q = _QUIET_MODULES
    cells[q:q + k + 2, q:q + k + 2] = 0.0
    cells[q + 1:q + 1 + k, q + 1:q + 1 + k] = (bits > 0).astype(np.float32)
    return np.kron(cells, np.ones((_PATTERN_PX_PER_MODULE,) * 2, np.float32))


def marker_target(gray: np.ndarray, bits: np.ndarray, corners_px: np.ndarray) -> MarkerTarget | None:
    """The :class:`MarkerTarget` of one marker whose black square's corners (ArUco order:
    the printed top-left, top-right, bottom-right, bottom-left) lie at ``corners_px`` in the
    grey image ``gray``; None when it lies too near the image's edge or is too small to tell."""
    corners = np.asarray(corners_px, np.float64).reshape(4, 2)
    pattern = marker_pattern(bits)
    k = np.asarray(bits).shape[0]
    m = _PATTERN_PX_PER_MODULE
    lo, hi = _QUIET_MODULES * m - 0.5, (_QUIET_MODULES + k + 2) * m - 0.5
    square = np.array([[lo, lo], [hi, lo], [hi, hi], [lo, hi]], np.float32)
    to_image = cv2.getPerspectiveTransform(square, corners.astype(np.float32))
    side = float(np.mean(np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1)))
    if not math.isfinite(side) or side < 3 * (k + 2):
        return None
    reach = _reach()
    edge = pattern.shape[0] - 0.5
    outline = cv2.perspectiveTransform(np.array([[[-0.5, -0.5], [edge, -0.5], [edge, edge], [-0.5, edge]]],
                                                 np.float32), to_image)[0]
    x0, y0 = np.floor(outline.min(axis=0)).astype(int) - reach
    x1, y1 = np.ceil(outline.max(axis=0)).astype(int) + reach + 1
    h, w = gray.shape[:2]
    if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
        return None
    shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
    warp = shift @ to_image
    size = (int(x1 - x0), int(y1 - y0))
    ideal = cv2.warpPerspective(pattern, warp, size, flags=cv2.INTER_LINEAR, borderValue=0.0)
    known = cv2.warpPerspective(np.ones_like(pattern), warp, size, flags=cv2.INTER_NEAREST, borderValue=0.0)
    mask = cv2.erode(known, np.ones((2 * reach + 1,) * 2, np.uint8)) > 0.5
    if np.count_nonzero(mask) < 16:
        return None
    observed = gray[y0:y1, x0:x1][mask].astype(np.float32)
    if float(observed.std()) < 1.0:
        return None  # a flat patch: covered, or not the marker
    return MarkerTarget(ideal, mask, observed - observed.mean())


def _reach() -> int:
    """Pixels a tried blur reaches from its centre (the longest line and widest defocus)."""
    return int(max(SIZES_PX) // 2 + math.ceil(3 * max(DEFOCUS_PX)))


def _residual(target: MarkerTarget, blurred: np.ndarray) -> float:
    """Share of the observed pixels' variance that the best gain and offset of ``blurred``
    leave unexplained (1 - r squared; 0 is a perfect fit). ``target.observed`` has mean 0,
    so the offset drops out of the cross term."""
    x = blurred.ravel()[target.where].astype(np.float64)
    sx = float(x.sum())
    xx = float(x @ x) - sx * sx / len(x)
    xy = float(x @ target.observed)
    if xx <= 0 or target.power <= 0:
        return 1.0
    return 1.0 - xy * xy / (xx * target.power)


def _defocused(ideal: np.ndarray, sigma: float) -> np.ndarray:
    return ideal if sigma <= 0 else cv2.GaussianBlur(ideal, (0, 0), sigma)


def measure_motion_blur(targets: Sequence[MarkerTarget]) -> MotionBlur:
    """The line kernel (over a defocus) that best explains every target's pixels.

    Raises
    ------
    DeblurError
        No target to measure on.
    """
    if not targets:
        raise DeblurError("no table marker fit to measure blur on (all too small, too near the edge, or missing)")
    soft = {s: [_defocused(t.ideal, s) for t in targets] for s in DEFOCUS_PX}

    def cost(length: float, angle: float, sigma: float) -> float:
        kernel = line_kernel(length, angle)
        return sum(_residual(t, cv2.filter2D(b, -1, kernel, borderType=cv2.BORDER_REPLICATE))
                   for t, b in zip(targets, soft[sigma]))

    still = {s: cost(0.0, 0.0, s) for s in DEFOCUS_PX}
    # the line first over a sharp lens, then the defocus and the neighbouring sizes beneath
    # it, then the angle to a finer step
    best = min((cost(n, angle, 0.0), n, angle, 0.0) for n in SIZES_PX for angle in ANGLES_DEG)
    _, n, angle, _ = best
    best = min([best] + [(cost(m, angle, s), m, angle, s) for s in DEFOCUS_PX
                         for m in (n - 2, n, n + 2) if m >= min(SIZES_PX) and (m, s) != (n, 0.0)])
    _, n, angle, s = best
    fine = [(cost(n, (angle + da) % 180, s), n, (angle + da) % 180, s)
            for da in np.arange(-3, 4) * FINE_ANGLE_DEG if da]
    value, n, angle, s = min([best] + fine)
    return MotionBlur(float(n), float(angle), float(s), float(value / max(min(still.values()), 1e-12)))


def deconvolve(image: np.ndarray, kernel: np.ndarray, noise_to_signal: float = NOISE_TO_SIGNAL) -> np.ndarray:
    """``image`` (H x W x C or H x W, uint8) with ``kernel`` undone by a Wiener filter.

    The image is mirrored at its edges before the transform, so its borders do not wrap.
    """
    img = np.asarray(image)
    if img.dtype != np.uint8 or img.ndim not in (2, 3) or min(img.shape[:2]) < 2:
        raise DeblurError(f"deconvolve needs an H x W (x C) uint8 image, got {img.dtype} {img.shape}")
    kernel = np.asarray(kernel, np.float32)
    if kernel.ndim != 2 or kernel.shape[0] != kernel.shape[1] or kernel.shape[0] % 2 == 0 or not kernel.sum() > 0:
        raise DeblurError(f"deconvolve needs an odd square kernel with a positive sum, got shape {kernel.shape}")
    if not (math.isfinite(noise_to_signal) and noise_to_signal > 0):
        raise DeblurError(f"the noise-to-signal ratio must be a finite number > 0, got {noise_to_signal!r}")
    n = kernel.shape[0]
    if n == 1:
        return img.copy()
    pad = 2 * n
    h, w = img.shape[:2]
    rows, cols = cv2.getOptimalDFTSize(h + 2 * pad), cv2.getOptimalDFTSize(w + 2 * pad)
    psf = np.zeros((rows, cols), np.float32)
    psf[:n, :n] = kernel / kernel.sum()
    psf = np.roll(psf, (-(n // 2), -(n // 2)), axis=(0, 1))
    otf = cv2.dft(psf, flags=cv2.DFT_COMPLEX_OUTPUT)
    re, im = otf[..., 0], otf[..., 1]
    power = re * re + im * im + np.float32(noise_to_signal)
    wiener = np.dstack([re / power, -im / power])
    channels = img.reshape(h, w, -1)
    out = np.empty_like(channels)
    for c in range(channels.shape[2]):
        plane = cv2.copyMakeBorder(channels[..., c], pad, rows - h - pad, pad, cols - w - pad, cv2.BORDER_REFLECT)
        spectrum = cv2.dft(plane.astype(np.float32), flags=cv2.DFT_COMPLEX_OUTPUT)
        sharp = cv2.idft(cv2.mulSpectrums(spectrum, wiener, 0), flags=cv2.DFT_SCALE | cv2.DFT_REAL_OUTPUT)
        out[..., c] = np.clip(sharp[pad:pad + h, pad:pad + w], 0, 255).astype(np.uint8)
    return out.reshape(img.shape)


#: :func:`deconvolve_within` undoes the blur over the points' bounding box widened by this many
#: kernel sides: the Wiener filter mirrors the image at the box's edge, and what that invents
#: there rings inwards about a kernel's side.
WITHIN_MARGIN_KERNELS = 4


def deconvolve_within(image: np.ndarray, kernel: np.ndarray, points: np.ndarray,
                      noise_to_signal: float = NOISE_TO_SIGNAL) -> np.ndarray:
    """``image`` with ``kernel`` undone (:func:`deconvolve`) around ``points`` (N x 2, px) only:
    over their bounding box widened by :data:`WITHIN_MARGIN_KERNELS` kernel sides (clipped to
    the image); the rest of the image as it is. A reader that looks at one part of the table
    (a board) pays for that part's transform, not the whole photograph's."""
    img = np.asarray(image)
    pts = np.asarray(points, np.float64).reshape(-1, 2)
    if img.ndim not in (2, 3) or not len(pts) or not np.all(np.isfinite(pts)):
        raise DeblurError(f"deconvolve_within needs an image and finite points, got {img.shape} and {pts.shape}")
    h, w = img.shape[:2]
    margin = WITHIN_MARGIN_KERNELS * int(np.asarray(kernel).shape[0])
    x0, y0 = (max(int(np.floor(v)) - margin, 0) for v in pts.min(axis=0))
    x1, y1 = (min(int(np.ceil(v)) + margin + 1, n) for v, n in zip(pts.max(axis=0), (w, h)))
    if x1 - x0 < 2 or y1 - y0 < 2:
        return img.copy()
    out = img.copy()
    out[y0:y1, x0:x1] = deconvolve(img[y0:y1, x0:x1], kernel, noise_to_signal)
    return out


@dataclass(frozen=True)
class BlindMotion:
    """A motion blur judged from a whole image without a known target: the direction
    (``angle_deg``, as :class:`MotionBlur`'s) and a rough ``length_px``; ``kernel_sizes`` are
    the odd sizes worth trying, the likeliest first."""

    angle_deg: float
    length_px: float

    def __post_init__(self) -> None:
        if not (0.0 <= self.angle_deg < 180.0 and self.length_px > 0):
            raise DeblurError(f"a blind motion needs an angle in [0, 180) and a length > 0, got "
                              f"{self.angle_deg!r}, {self.length_px!r}")

    @property
    def kernel_sizes(self) -> tuple[int, ...]:
        # the cepstrum reads the line about a pixel long (a line of n px has its first
        # spectral zero at 1/n): the size below it first
        return tuple(sorted(SIZES_PX[1:], key=lambda n: abs(n - (self.length_px - 1.0))))[:3]


def blind_motion(gray: np.ndarray) -> BlindMotion:
    """The motion blur of a grey uint8 image (H x W), judged from the image alone: a line
    blur multiplies the image's spectrum by a sinc along the motion, whose log becomes, in
    the cepstrum (the inverse transform of the log spectrum), a dip the line's length away
    from the origin along the motion. For photographs whose markers are too smeared to be
    found, so that :func:`measure_motion_blur` has nothing to measure on; the caller checks
    the guess by what deconvolving with it finds."""
    img = np.asarray(gray)
    if img.dtype != np.uint8 or img.ndim != 2 or min(img.shape) < 4 * CEPSTRUM_RADII_PX[1]:
        raise DeblurError(f"blind_motion needs an H x W uint8 image of at least {4 * CEPSTRUM_RADII_PX[1]:g} px a "
                          f"side, got {img.dtype} {img.shape}")
    h, w = img.shape
    plane = img.astype(np.float32)
    plane -= plane.mean()
    plane *= np.outer(np.hanning(h), np.hanning(w)).astype(np.float32)
    spectrum = cv2.dft(plane, flags=cv2.DFT_COMPLEX_OUTPUT)
    log_magnitude = np.log1p(cv2.magnitude(spectrum[..., 0], spectrum[..., 1]))
    # the log spectrum is real and even, so its forward transform is the cepstrum (real, scaled)
    cepstrum = cv2.dft(log_magnitude, flags=cv2.DFT_COMPLEX_OUTPUT)[..., 0]
    reach = int(CEPSTRUM_RADII_PX[1]) + 1
    near = np.roll(cepstrum, (reach, reach), axis=(0, 1))[:2 * reach + 1, :2 * reach + 1]  # origin at the centre
    dy, dx = np.mgrid[-reach:reach + 1, -reach:reach + 1]
    radius = np.hypot(dx, dy)
    # one half-plane (the cepstrum is symmetric about the origin)
    ring = (radius >= CEPSTRUM_RADII_PX[0]) & (radius <= CEPSTRUM_RADII_PX[1]) & ((dy > 0) | ((dy == 0) & (dx > 0)))
    row, col = np.unravel_index(np.argmin(np.where(ring, near, np.inf)), near.shape)
    # the dip's centre to a fraction of a pixel: the mean of its 3 x 3 neighbourhood weighted
    # by how far each lies below the neighbourhood's highest
    box = (slice(row - 1, row + 2), slice(col - 1, col + 2))
    depth = near[box].max() - near[box]
    x, y = float((depth * dx[box]).sum() / depth.sum()), float((depth * dy[box]).sum() / depth.sum())
    return BlindMotion(math.degrees(math.atan2(y, x)) % 180.0, math.hypot(x, y))
