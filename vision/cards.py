"""Card detection on the rectified, top-down table view.

Cards are found as regions enclosed by edges (Canny on the three Lab channels, so a card is
told from a light table by its outline as well as from a dark one), then tested as
rectangles of the expected size:

* an *outline*: a region whose outer contour is a card-sized rectangle and whose pixels are
  mostly the light border (an isolated card);
* an *interior*: a region of the size of a card's picture, framed by light border pixels,
  grown by the border width (cards that touch or overlap partly merge their borders, but
  each keeps its own picture);
* a *partial* card: a light region too small or not rectangular (a hand or another object
  covers part of it). It is reported as uncertain with the box of what is visible, never
  guessed whole.

Quads follow :mod:`tableref.vision.crop`'s corner order with the card upright in portrait
(short side on top, the top edge nearer the image top); which end of a card is its head is
left to the classifier (a 180 degree ambiguity).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

import cv2
import numpy as np

from .errors import VisionError
from .frame import check_bgr_image

#: An interior-derived card scores a little below an outline of the same rectangularity.
INTERIOR_SCORE_FACTOR = 0.95
#: Partial cards score at most this (they are uncertain by definition).
PARTIAL_SCORE_MAX = 0.5
#: Two detections whose intersection covers this share of the smaller one are the same card.
SAME_CARD_OVERLAP = 0.5
#: 3x3 square: the edge map is thickened by one pixel to close gaps.
_KERNEL = np.ones((3, 3), np.uint8)
#: Pixels a region is grown by to give back what the thickened edge took from it (measured on
#: drawn cards: sides then come out within about 1 px of the truth).
GROW_PX = 2


class CardDetectionError(VisionError):
    """Settings or input that card detection cannot use."""


@dataclass(frozen=True)
class CardSettings:
    """Thresholds of card detection (a profile may override any of them).

    Attributes
    ----------
    card_mm : (float, float)
        Nominal card size (short side, long side) in millimetres.
    size_tolerance : float
        Accepted relative deviation of each side from nominal.
    border_mm : float
        Width of the card's light border in millimetres; 0 for cards without one (then only
        outlines are used and no light-pixel test is made).
    min_rectangularity : float
        Least ratio of a region's area to its minimum-area rectangle for a whole card.
    partial_min_fraction : float
        Least visible share of a card's area for a partly covered card to be reported.
    blur_mm : float
        Gaussian blur sigma before edge detection, in millimetres (suppresses table grain).
    canny_low, canny_high : float
        Hysteresis thresholds of the Canny edge detector on 8-bit Lab channels.
    white_min_value, white_max_saturation : int
        A border pixel is light when its HSV value is at least this and saturation at most this.
    min_white_fraction : float
        Least share of light pixels in a border (or a card region) for it to count as one.
    """

    card_mm: tuple[float, float] = (59.0, 91.0)
    size_tolerance: float = 0.08
    border_mm: float = 3.0
    min_rectangularity: float = 0.9
    partial_min_fraction: float = 0.2
    blur_mm: float = 0.4
    canny_low: float = 40.0
    canny_high: float = 120.0
    white_min_value: int = 190
    white_max_saturation: int = 50
    min_white_fraction: float = 0.6

    def __post_init__(self) -> None:
        short, long_ = (float(v) for v in self.card_mm)
        if not (0 < short <= long_ and math.isfinite(long_)):
            raise CardDetectionError(f"card_mm must be (short, long) millimetres, 0 < short <= long, got {self.card_mm}")
        object.__setattr__(self, "card_mm", (short, long_))
        fractions = ("size_tolerance", "min_rectangularity", "partial_min_fraction", "min_white_fraction")
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "card_mm":
                continue
            if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value) or value < 0:
                raise CardDetectionError(f"card setting {f.name} must be a number >= 0, got {value!r}")
            if f.name in fractions and value > 1:
                raise CardDetectionError(f"card setting {f.name} must be a fraction in [0, 1], got {value}")
        if 2 * self.border_mm >= short:
            raise CardDetectionError(f"border_mm {self.border_mm} leaves no picture on a {short} mm card")

    @classmethod
    def from_mapping(cls, overrides: dict) -> CardSettings:
        """Defaults with ``overrides`` (from a profile or settings file) applied."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(overrides) - known)
        if unknown:
            raise CardDetectionError(f"unknown card settings {unknown}; known: {sorted(known)}")
        values = dict(overrides)
        if "card_mm" in values:
            values["card_mm"] = tuple(values["card_mm"])
        return cls(**values)


@dataclass(frozen=True, eq=False)
class Detection:
    """One card found in the rectified view.

    Attributes
    ----------
    quad : ndarray of shape (4, 2), float64
        Corners in image pixels: top-left, top-right, bottom-right, bottom-left of the card
        upright in portrait (see the module docstring).
    centre : (float, float)
        Centre in image pixels.
    angle : float
        Turn of the card's top edge from the image x axis, degrees in (-90, 90], clockwise on screen.
    size_mm : (float, float)
        (short side, long side) of the quad in millimetres.
    score : float
        Confidence that this is a whole card at this place, in [0, 1].
    uncertain : bool
        True when the card is partly hidden or its shape is off: the quad is what is visible.
    reason : str
        Why it is uncertain ("" when certain).
    """

    quad: np.ndarray
    centre: tuple[float, float]
    angle: float
    size_mm: tuple[float, float]
    score: float
    uncertain: bool = False
    reason: str = ""

    def __post_init__(self) -> None:
        quad = np.asarray(self.quad, dtype=np.float64)
        if quad.shape != (4, 2) or not np.all(np.isfinite(quad)):
            raise CardDetectionError(f"a detection quad must be 4x2 finite pixel coordinates, got shape {quad.shape}")
        quad.flags.writeable = False
        object.__setattr__(self, "quad", quad)
        if not 0.0 <= self.score <= 1.0:
            raise CardDetectionError(f"a detection score must be in [0, 1], got {self.score}")
        if self.uncertain != bool(self.reason):
            raise CardDetectionError("an uncertain detection needs a reason, and only an uncertain one has one")

    def to_json(self) -> dict:
        return {"quad": self.quad.round(2).tolist(), "centre": [round(c, 2) for c in self.centre],
                "angle": round(self.angle, 2), "size_mm": [round(s, 2) for s in self.size_mm],
                "score": round(self.score, 4), "uncertain": self.uncertain, "reason": self.reason}


def _portrait_quad(rect: tuple) -> tuple[np.ndarray, float, tuple[float, float]]:
    """A cv2 rotated rect -> (portrait quad in crop order, angle of its top edge, (short, long) px)."""
    (cx, cy), (w, h), angle = rect
    if w > h:
        w, h, angle = h, w, angle + 90.0
    angle = (angle + 90.0) % 180.0 - 90.0  # top edge angle in [-90, 90)
    if angle == -90.0:
        angle = 90.0
    t = math.radians(angle)
    rot = np.array([[math.cos(t), -math.sin(t)], [math.sin(t), math.cos(t)]])
    local = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    return local @ rot.T + np.array([cx, cy]), angle, (w, h)


def _light_mask(image: np.ndarray, s: CardSettings) -> np.ndarray:
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    return (hsv[..., 2] >= s.white_min_value) & (hsv[..., 1] <= s.white_max_saturation)


def _edges(image: np.ndarray, s: CardSettings, px_per_mm: float) -> np.ndarray:
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)
    sigma = s.blur_mm * px_per_mm
    if sigma > 0:
        lab = cv2.GaussianBlur(lab, (0, 0), sigma)
    edges = np.zeros(image.shape[:2], np.uint8)
    for c in range(3):
        edges |= cv2.Canny(np.ascontiguousarray(lab[..., c]), s.canny_low, s.canny_high, L2gradient=True)
    return cv2.dilate(edges, _KERNEL)


def _fraction_in(mask: np.ndarray, region: np.ndarray) -> float:
    n = int(region.sum())
    return float(mask[region].sum()) / n if n else 0.0


def _quad_mask(shape: tuple[int, int], quad: np.ndarray) -> np.ndarray:
    mask = np.zeros(shape, np.uint8)
    cv2.fillConvexPoly(mask, np.round(quad).astype(np.int32), 1)
    return mask.astype(bool)


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection area over the smaller quad's area."""
    inter, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    smaller = min(abs(cv2.contourArea(a.astype(np.float32))), abs(cv2.contourArea(b.astype(np.float32))))
    return float(inter) / smaller if smaller > 0 else 0.0


def _fits(size: tuple[float, float], nominal: tuple[float, float], tol: float) -> bool:
    return all(abs(got - want) <= tol * want for got, want in zip(size, nominal))


def _make(rect: tuple, px_per_mm: float, score: float, reason: str = "") -> Detection:
    quad, angle, (w, h) = _portrait_quad(rect)
    return Detection(quad, (float(rect[0][0]), float(rect[0][1])), angle, (w / px_per_mm, h / px_per_mm),
                     float(np.clip(score, 0.0, 1.0)), bool(reason), reason)


def detect_cards(image: np.ndarray, px_per_mm: float, settings: CardSettings = CardSettings()) -> list[Detection]:
    """Find cards in a rectified top-down table image.

    Parameters
    ----------
    image : ndarray of shape (H, W, 3), uint8
        BGR rectified table view.
    px_per_mm : float
        Its scale, pixels per millimetre (> 0).
    settings : CardSettings

    Returns
    -------
    list of Detection
        Whole cards first (by descending score), then uncertain (partly covered) ones.
    """
    check_bgr_image(image)
    if not (isinstance(px_per_mm, (int, float)) and math.isfinite(px_per_mm) and px_per_mm > 0):
        raise CardDetectionError(f"px_per_mm must be a positive number, got {px_per_mm!r}")
    s = settings
    card_px = (s.card_mm[0] * px_per_mm, s.card_mm[1] * px_per_mm)
    border_px = s.border_mm * px_per_mm
    inner_px = (card_px[0] - 2 * border_px, card_px[1] - 2 * border_px)
    card_area = card_px[0] * card_px[1]
    light = _light_mask(image, s)
    free = (_edges(image, s, px_per_mm) == 0).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(free, connectivity=4)
    whole, partial = [], []
    min_side = min(inner_px) * (1 - s.size_tolerance) * s.partial_min_fraction
    max_side = math.hypot(*card_px) * (1 + s.size_tolerance)
    for i in range(1, count):
        x, y, w, h, area = stats[i]
        if max(w, h) < min_side or max(w, h) > max_side:
            continue
        x0, y0 = max(x - GROW_PX, 0), max(y - GROW_PX, 0)
        x1, y1 = min(x + w + GROW_PX, image.shape[1]), min(y + h + GROW_PX, image.shape[0])
        region = cv2.dilate((labels[y0:y1, x0:x1] == i).astype(np.uint8), _KERNEL, iterations=GROW_PX)
        contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        contour = max(contours, key=cv2.contourArea) + np.array([x0, y0])
        filled = cv2.contourArea(contour)
        rect = cv2.minAreaRect(contour)
        size = tuple(sorted(rect[1]))
        if size[0] <= 0:
            continue
        rectangular = filled / (size[0] * size[1])
        region_light = _fraction_in(light[y0:y1, x0:x1], region.astype(bool))
        if (_fits(size, card_px, s.size_tolerance) and rectangular >= s.min_rectangularity
                and (s.border_mm == 0 or region_light >= s.min_white_fraction)):
            whole.append(_make(rect, px_per_mm, rectangular))
            continue
        if s.border_mm > 0 and _fits(size, inner_px, s.size_tolerance) and rectangular >= s.min_rectangularity:
            grown = (rect[0], (rect[1][0] + 2 * border_px, rect[1][1] + 2 * border_px), rect[2])
            outer = cv2.boxPoints(grown)
            band = _quad_mask(light.shape, outer) & ~_quad_mask(light.shape, cv2.boxPoints(rect))
            if _fraction_in(light, band) >= s.min_white_fraction:
                whole.append(_make(grown, px_per_mm, rectangular * INTERIOR_SCORE_FACTOR))
            continue
        # A covered card's border is cut open: its convex hull stands for the visible part.
        visible = cv2.contourArea(cv2.convexHull(contour))
        if ((s.border_mm == 0 or region_light >= s.min_white_fraction)
                and s.partial_min_fraction * card_area <= visible <= card_area * (1 + s.size_tolerance) ** 2):
            reason = ("smaller than a card: partly covered?" if rectangular >= s.min_rectangularity
                      else "not rectangular: partly covered?")
            score = min(visible / card_area, 1.0) * PARTIAL_SCORE_MAX
            partial.append(_make(rect, px_per_mm, score, reason))
    return _suppress(sorted(whole, key=lambda d: -d.score), sorted(partial, key=lambda d: -d.score))


def _suppress(whole: list[Detection], partial: list[Detection]) -> list[Detection]:
    kept: list[Detection] = []
    for d in whole + partial:
        if all(_overlap(d.quad, k.quad) < SAME_CARD_OVERLAP for k in kept):
            kept.append(d)
    return kept
