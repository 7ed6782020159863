"""Image helpers of calibration (files are read by ``tableref.vision.imageio``; calibration takes arrays)."""

from __future__ import annotations

import cv2
import numpy as np

from .errors import CalibrationError


def to_gray(image: np.ndarray) -> np.ndarray:
    """Return a single-channel ``uint8`` view of a BGR or grey image of shape (H, W[, 3])."""
    if image.ndim == 2:
        return image
    if image.ndim == 3 and image.shape[2] == 3:
        return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    raise CalibrationError(f"expected a BGR image of shape (H, W, 3) or a grey one (H, W), got shape {image.shape}")
