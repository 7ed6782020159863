"""The one preprocessing of the dice detector: a BGR photo -> the network's input tensor.

Training (:mod:`tableref.models.training.dice`) and run time (:mod:`.detect`) both call
:func:`prepare`, so the detector only ever sees images made the way it was trained on. The
card's ``preprocessing.input_size`` gives the side the photo's longer side is scaled to; the
shorter side keeps the aspect ratio and both are padded up to a multiple of :data:`ALIGN`
(the network halves its resolution four times).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from ...models.card import Preprocessing
from ..errors import ImageError
from ..frame import check_bgr_image

#: The network's coarsest feature map is 1/ALIGN of its input: inputs are padded to multiples.
ALIGN = 16
#: The detector's output maps are 1/STRIDE of its input (centre heatmap, offsets, sizes).
STRIDE = 4


@dataclass(frozen=True)
class Prepared:
    """A photo made ready for the network.

    Attributes
    ----------
    tensor : ndarray of shape (1, C, H, W), float32
        Normalised input; H and W are multiples of :data:`ALIGN`.
    scale : float
        Network pixels per photo pixel (a box in network pixels divided by ``scale`` is in
        photo pixels).
    image_size : (int, int)
        (height, width) of the photo in pixels.
    """

    tensor: np.ndarray
    scale: float
    image_size: tuple[int, int]

    def __post_init__(self) -> None:
        t = self.tensor
        if not isinstance(t, np.ndarray) or t.ndim != 4 or t.shape[0] != 1 or t.dtype != np.float32:
            got = t.shape if isinstance(t, np.ndarray) else type(t).__name__
            raise ImageError(f"prepared tensor must be float32 of shape (1, C, H, W), got {got}")
        if t.shape[2] % ALIGN or t.shape[3] % ALIGN:
            raise ImageError(f"prepared tensor sides must be multiples of {ALIGN}, got {t.shape[2:]}")
        if not self.scale > 0:
            raise ImageError(f"prepared scale must be > 0, got {self.scale}")


def scale_for(image_size: tuple[int, int], prep: Preprocessing) -> float:
    """Network pixels per photo pixel: the longer side of ``image_size`` (h, w) becomes the
    longer side of ``prep.input_size``."""
    return max(prep.input_size) / max(image_size)


def normalise(image: np.ndarray, prep: Preprocessing) -> np.ndarray:
    """A BGR uint8 image (H, W, 3) -> float32 (C, H, W) in the card's colour order and normalisation."""
    if prep.colour == "rgb":
        image = cv2.cvtColor(image, cv2.COLOR_BGR2RGB)
    elif prep.colour == "gray":
        image = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)[:, :, None]
    x = image.astype(np.float32) / 255.0
    x = (x - np.asarray(prep.mean, np.float32)) / np.asarray(prep.std, np.float32)
    return np.ascontiguousarray(x.transpose(2, 0, 1))


def pad_to_align(image: np.ndarray) -> np.ndarray:
    """Pad a BGR image (H, W, 3) at its bottom and right, repeating the edge, to multiples of
    :data:`ALIGN`."""
    h, w = image.shape[:2]
    bottom, right = -h % ALIGN, -w % ALIGN
    if bottom or right:
        image = cv2.copyMakeBorder(image, 0, bottom, 0, right, cv2.BORDER_REPLICATE)
    return image


def resize_for_network(image: np.ndarray, prep: Preprocessing) -> tuple[np.ndarray, float]:
    """Scale a BGR photo so its longer side is the card's; return (image, scale)."""
    h, w = image.shape[:2]
    scale = scale_for((h, w), prep)
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    if size != (w, h):
        image = cv2.resize(image, size, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    return image, scale


def prepare(image: np.ndarray, prep: Preprocessing) -> Prepared:
    """Turn a BGR photo into the detector's input.

    Parameters
    ----------
    image : ndarray of shape (H, W, 3), uint8
        BGR photo of any size.
    prep : Preprocessing
        The detector card's preprocessing (input size, colour order, mean, std).

    Returns
    -------
    Prepared
        The (1, C, H', W') tensor and the scale from photo to network pixels.
    """
    check_bgr_image(image, "photo")
    resized, scale = resize_for_network(image, prep)
    tensor = normalise(pad_to_align(resized), prep)[None]
    return Prepared(tensor, scale, (int(image.shape[0]), int(image.shape[1])))
