"""Reading image files for calibration, refusing missing, non-image and truncated files."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from .errors import CalibrationError, ImageFileError

_JPEG_SOI = b"\xff\xd8"
_JPEG_SOS = b"\xff\xda"  # start of scan: entropy-coded data follows
_JPEG_EOI = b"\xff\xd9"  # end of image
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_PNG_IEND = b"IEND"


def check_complete(data: bytes, name: str) -> None:
    """Raise :class:`ImageFileError` when JPEG or PNG bytes are cut short.

    A decoder may silently return the top part of a truncated JPEG with the rest grey, so
    completeness is checked on the bytes: a JPEG must carry an end-of-image marker after its
    last start-of-scan marker (inside scan data 0xFF bytes are stuffed, so the marker cannot
    occur there by chance), and a PNG must contain its ``IEND`` chunk. Other formats are left
    to the decoder.

    Parameters
    ----------
    data : bytes
        The whole file.
    name : str
        The file's name, for the message.
    """
    if data.startswith(_JPEG_SOI):
        last_scan = data.rfind(_JPEG_SOS)
        if last_scan < 0 or data.rfind(_JPEG_EOI) < last_scan:
            raise ImageFileError(f"image {name!r} is a truncated JPEG (no end-of-image marker after "
                                 "its image data): copy the file again from the camera")
    elif data.startswith(_PNG_SIGNATURE) and _PNG_IEND not in data[-64:]:
        raise ImageFileError(f"image {name!r} is a truncated PNG (no IEND chunk): save the file again")


def read_image(path: str | Path) -> np.ndarray:
    """Read an image file as a BGR ``uint8`` array of shape (H, W, 3).

    Parameters
    ----------
    path : str or Path
        The image file (any format OpenCV decodes: JPEG, PNG, BMP, TIFF...).

    Returns
    -------
    ndarray of shape (H, W, 3), dtype uint8
        The image, BGR.

    Raises
    ------
    ImageFileError
        The file does not exist, is a folder, cannot be read, is truncated, or is not an image.
    """
    p = Path(path)
    name = str(p)
    if not p.exists():
        raise ImageFileError(f"image {name!r} does not exist")
    if p.is_dir():
        raise ImageFileError(f"image {name!r} is a folder, not an image file")
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise ImageFileError(f"image {name!r} cannot be read: {exc.strerror}") from None
    if not data:
        raise ImageFileError(f"image {name!r} is empty (0 bytes)")
    check_complete(data, name)
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise ImageFileError(f"{name!r} is not an image OpenCV can decode (JPEG, PNG, BMP, TIFF...)")
    return image


def to_gray(image: np.ndarray) -> np.ndarray:
    """Return a single-channel ``uint8`` view of a BGR or grey image of shape (H, W[, 3])."""
    if image.ndim == 2:
        return image
    if image.ndim == 3 and image.shape[2] == 3:
        return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    raise CalibrationError(f"expected a BGR image of shape (H, W, 3) or a grey one (H, W), got shape {image.shape}")
