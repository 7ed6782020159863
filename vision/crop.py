"""The one crop function: an item's region of an image -> a model's input tensor.

Training and run time both call :func:`crop` (or its two halves, :func:`crop_patches` then
:func:`to_tensor`, with augmentation in between during training), reading every setting from
the model card's :class:`~tableref.models.card.Preprocessing`. Nothing else makes model inputs.

Geometry conventions
--------------------
A *quad* is a float array of shape (4, 2): image pixel coordinates (x right, y down) of the
item's corners in the order **top-left, top-right, bottom-right, bottom-left of the item** -
clockwise as seen on screen, the edge from corner 0 to corner 1 being the item's top. The
crop turns the item upright: corner 0 lands at the crop's top-left. Rolling the corner order
by one therefore turns the crop by 90 degrees.

A :class:`Box` is a centre, a size and an angle (OpenCV's rotated-rectangle convention: the
angle in degrees turns the item's x axis towards +y, i.e. clockwise on screen).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Union

import cv2
import numpy as np

from ..models.card import Preprocessing
from .errors import VisionError
from .frame import check_bgr_image

#: Largest value of an 8-bit pixel; inputs are scaled by it to [0, 1] before normalisation.
PIXEL_MAX = 255.0
#: Pixels outside the image are filled by replicating the border (no black frames in crops).
BORDER_MODE = cv2.BORDER_REPLICATE


class CropError(VisionError):
    """A region or setting that cannot be cropped (bad quad, missing pixels per mm...)."""


@dataclass(frozen=True)
class Box:
    """A turned rectangle in image pixels.

    Attributes
    ----------
    centre : (float, float)
        (x, y) in pixels.
    size : (float, float)
        (width, height) in pixels, both > 0; width runs along the item's top edge.
    angle : float
        Degrees, clockwise on screen (OpenCV convention).
    """

    centre: tuple[float, float]
    size: tuple[float, float]
    angle: float = 0.0

    def __post_init__(self) -> None:
        for field, value in (("centre", self.centre), ("size", self.size)):
            arr = np.asarray(value, dtype=float) if _is_numeric_pair(value) else None
            if arr is None or not np.all(np.isfinite(arr)):
                raise CropError(f"box {field} must be two finite numbers, got {value!r}")
            object.__setattr__(self, field, (float(arr[0]), float(arr[1])))
        if min(self.size) <= 0:
            raise CropError(f"box size must be positive (width, height) in pixels, got {self.size}")
        if not isinstance(self.angle, (int, float)) or not math.isfinite(self.angle):
            raise CropError(f"box angle must be a finite number of degrees, got {self.angle!r}")
        object.__setattr__(self, "angle", float(self.angle))

    def quad(self) -> np.ndarray:
        """Corners (4, 2) float64 in the documented order (item top-left first, clockwise)."""
        w, h = self.size
        local = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
        theta = math.radians(self.angle)
        rot = np.array([[math.cos(theta), -math.sin(theta)], [math.sin(theta), math.cos(theta)]])
        return local @ rot.T + np.asarray(self.centre)


Region = Union[np.ndarray, Box, Sequence[Sequence[float]]]


def _is_numeric_pair(value: object) -> bool:
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        return False
    return arr.shape == (2,)


def as_quad(region: Region, *, check_area: bool = True) -> np.ndarray:
    """``region`` (a quad or a :class:`Box`) as a validated (4, 2) float64 quad.

    Raises
    ------
    CropError
        For a wrong shape, non-finite corners, or (with ``check_area``) a degenerate,
        zero-area or self-crossing quad.
    """
    if isinstance(region, Box):
        return region.quad()
    try:
        quad = np.asarray(region, dtype=np.float64)
    except (TypeError, ValueError):
        raise CropError(f"a region must be a Box or 4x2 corner coordinates, got {type(region).__name__}") from None
    if quad.shape != (4, 2):
        raise CropError(f"a quad must have shape (4, 2) (x, y per corner), got {quad.shape}")
    if not np.all(np.isfinite(quad)):
        raise CropError("a quad's corners must be finite numbers")
    if check_area and abs(cv2.contourArea(quad.astype(np.float32))) < 1.0:
        raise CropError(f"a quad must enclose at least one pixel, got corners {quad.tolist()}")
    return quad


def order_corners(points: np.ndarray) -> np.ndarray:
    """Order four corners of a convex quad as top-left, top-right, bottom-right, bottom-left
    *as seen in the image* (for items whose own orientation is not known).

    Parameters
    ----------
    points : ndarray of shape (4, 2)
        Corners in any order, image pixels.

    Returns
    -------
    ndarray of shape (4, 2), float64
        Clockwise on screen, starting with the corner nearest the top-left of the image
        (smallest x + y).
    """
    pts = as_quad(points, check_area=False)
    centre = pts.mean(axis=0)
    # atan2 in image coordinates (y down): increasing angle runs clockwise on screen.
    order = np.argsort(np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0]))
    pts = pts[order]
    start = int(np.argmin(pts.sum(axis=1)))
    return np.roll(pts, -start, axis=0)


def region_quad(region: Region, prep: Preprocessing, px_per_mm: float | None = None) -> np.ndarray:
    """The quad a model sees for ``region``, before the margin: the region itself for
    ``crop.region == "quad"``, or a box of ``crop.box_mm`` millimetres about its centre,
    turned like its top edge, for ``"box_mm"`` (needs ``px_per_mm`` > 0)."""
    quad = as_quad(region)
    if prep.crop.region == "quad":
        return quad
    if px_per_mm is None or not (isinstance(px_per_mm, (int, float)) and px_per_mm > 0):
        raise CropError(f"the model crops a box in millimetres: give px_per_mm > 0 (got {px_per_mm!r})")
    top = quad[1] - quad[0]
    angle = math.degrees(math.atan2(top[1], top[0]))
    w_mm, h_mm = prep.crop.box_mm
    return Box(tuple(quad.mean(axis=0)), (w_mm * px_per_mm, h_mm * px_per_mm), angle).quad()


def inner_quad(size: tuple[int, int], margin: float) -> np.ndarray:
    """Where a quad's corners land in an upright crop ((4, 2) px, corner order as quads): the
    region itself inside the patch cut around it.

    Parameters
    ----------
    size : (int, int)
        (height, width) of the crop in pixels.
    margin : float
        Fraction of each side added on every side: the quad fills the central
        ``1 / (1 + 2 * margin)`` of the crop in each direction.
    """
    h, w = size
    inset = margin / (1.0 + 2.0 * margin)
    # Pixel centres run 0..w-1; corners of the crop are at -0.5 and w-0.5.
    x0, x1 = -0.5 + inset * w, w - 0.5 - inset * w
    y0, y1 = -0.5 + inset * h, h - 0.5 - inset * h
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])


def in_image(quads: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """(N,) bool: whether each quad (N, 4, 2) px lies wholly within an image of ``shape``
    (its pixel centres 0..w-1, 0..h-1)."""
    h, w = shape[:2]
    return np.all((np.asarray(quads) >= 0) & (np.asarray(quads) <= [w - 1, h - 1]), axis=(-2, -1))


def _as_quads(regions: Sequence[Region]) -> np.ndarray | None:
    """``regions`` as validated (N, 4, 2) float64 quads in one pass when they are all plain
    corner arrays (what the recognisers pass, hundreds at a time); None when some region is a
    :class:`Box`, or not four finite corners, or encloses less than a pixel (:func:`as_quad`
    then checks each on its own and names what is wrong)."""
    if not len(regions) or any(isinstance(r, Box) for r in regions):
        return None
    try:
        quads = np.asarray(regions, dtype=np.float64)
    except (TypeError, ValueError):
        return None
    if quads.shape != (len(regions), 4, 2) or not np.all(np.isfinite(quads)):
        return None
    x, y = quads[..., 0], quads[..., 1]
    area = 0.5 * np.abs((x * np.roll(y, -1, axis=1) - np.roll(x, -1, axis=1) * y).sum(axis=1))
    return quads if bool(np.all(area >= 1.0)) else None


def crop_patches(image: np.ndarray, regions: Sequence[Region], prep: Preprocessing,
                 px_per_mm: float | None = None) -> np.ndarray:
    """Cut and warp each region of ``image`` to the card's input size.

    Parameters
    ----------
    image : ndarray of shape (H, W, 3), uint8
        BGR image (typically the rectified table view).
    regions : sequence of quads (4, 2) or :class:`Box`
        One per item, image pixels.
    prep : Preprocessing
        The model card's preprocessing (input size, crop region and margin).
    px_per_mm : float, optional
        Scale of ``image``; needed when the card crops a box in millimetres.

    Returns
    -------
    ndarray of shape (N, h, w, 3), uint8
        BGR patches, upright (corner 0 of each quad at the top-left). N may be 0.
    """
    check_bgr_image(image)
    h, w = prep.input_size
    out = np.empty((len(regions), h, w, 3), dtype=np.uint8)
    quads = _as_quads(regions) if prep.crop.region == "quad" else None
    if quads is None:
        quads = [region_quad(region, prep, px_per_mm) for region in regions]
    corners = inner_quad((h, w), prep.crop.margin).astype(np.float32)
    for i, quad in enumerate(quads):  # the perspective transform taking the quad onto the crop
        matrix = cv2.getPerspectiveTransform(quad.astype(np.float32), corners)
        out[i] = cv2.warpPerspective(image, matrix, (w, h), flags=cv2.INTER_LINEAR, borderMode=BORDER_MODE)
    return out


def to_tensor(patches: np.ndarray, prep: Preprocessing) -> np.ndarray:
    """BGR uint8 patches -> the model's normalised float32 NCHW input.

    Parameters
    ----------
    patches : ndarray of shape (N, h, w, 3), uint8
        BGR patches at the card's input size (from :func:`crop_patches`, perhaps augmented).
    prep : Preprocessing

    Returns
    -------
    ndarray of shape (N, C, h, w), float32
        Channels in the card's colour order, ``(x / 255 - mean) / std``.
    """
    patches = np.asarray(patches)
    expected = (*prep.input_size, 3)
    if patches.dtype != np.uint8 or patches.ndim != 4 or patches.shape[1:] != expected:
        raise CropError(f"patches must be uint8 of shape (N, {expected[0]}, {expected[1]}, 3), "
                        f"got {patches.dtype} {patches.shape}")
    if prep.colour == "gray":
        x = np.stack([cv2.cvtColor(p, cv2.COLOR_BGR2GRAY) for p in patches])[..., None] if len(patches) \
            else np.empty((0, *prep.input_size, 1), np.uint8)
    elif prep.colour == "rgb":
        x = patches[..., ::-1]
    else:
        x = patches
    # (x / 255 - mean) / std as one scale and one offset per channel, on the bytes already in
    # NCHW order: a tenth of the time of the three whole-array passes it replaces
    x = np.ascontiguousarray(x.transpose(0, 3, 1, 2)).astype(np.float32)
    std = np.asarray(prep.std, np.float32)
    x *= (np.float32(1.0) / (np.float32(PIXEL_MAX) * std))[:, None, None]
    x -= (np.asarray(prep.mean, np.float32) / std)[:, None, None]
    return x


def crop(image: np.ndarray, regions: Sequence[Region], prep: Preprocessing,
         px_per_mm: float | None = None) -> np.ndarray:
    """Crop, warp and normalise: ``to_tensor(crop_patches(...))``. Returns (N, C, h, w) float32."""
    return to_tensor(crop_patches(image, regions, prep, px_per_mm), prep)
