"""Reading and writing image files safely: every bad file is an ``ImageError`` naming it.

``cv2.imread`` returns ``None`` for a missing or unreadable file and may silently decode a
truncated JPEG (the missing rows come out grey). So the bytes are checked before decoding:
the format is recognised by its signature, a JPEG must reach its end-of-image marker
(0xFFD9), a PNG its ``IEND`` chunk with every chunk's CRC intact, a BMP or WebP must be as
long as its header says, and the pixel count is checked against a limit.
"""

from __future__ import annotations

import os
import struct
import zlib
from pathlib import Path

import cv2
import numpy as np

from .errors import ImageError
from .frame import check_bgr_image

#: Largest image accepted, in pixels (width x height): 50 megapixels, above any webcam or phone.
DEFAULT_MAX_PIXELS = 50_000_000
#: Largest image file read into memory, in bytes.
DEFAULT_MAX_BYTES = 256 * 1024 * 1024
#: File name endings read as images (lower case).
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
#: File name endings ``write_image`` can write.
WRITE_SUFFIXES = (".png", ".jpg", ".jpeg")
#: JPEG quality (0-100) used by ``write_image``.
DEFAULT_JPEG_QUALITY = 95

_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_JPEG_SOI = b"\xff\xd8\xff"
_JPEG_EOI, _JPEG_SOS, _JPEG_TEM = 0xD9, 0xDA, 0x01
_JPEG_RST = range(0xD0, 0xD8)
_JPEG_SOF = set(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}  # start-of-frame markers carry the size
_PNG_CHUNK_OVERHEAD = 12  # length (4) + type (4) + CRC (4)
_BMP_HEADER = 26


def _sniff(data: bytes) -> str | None:
    """Name the image format of ``data`` from its leading bytes, or None."""
    if data.startswith(_PNG_SIGNATURE):
        return "PNG"
    if data.startswith(_JPEG_SOI):
        return "JPEG"
    if data.startswith(b"BM"):
        return "BMP"
    if data[:4] in (b"II*\x00", b"MM\x00*"):
        return "TIFF"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "WebP"
    return None


def _check_jpeg(data: bytes) -> tuple[int, int] | None:
    """Walk the JPEG segments up to the end-of-image marker; return (width, height) if found.

    Raises ImageError when the data ends before the EOI marker or a segment is malformed.
    Bytes after EOI (camera trailers) are allowed.
    """
    n, i, size = len(data), 2, None
    truncated = ImageError("JPEG data ends before its end-of-image marker (truncated file?)")
    while True:
        if i >= n:
            raise truncated
        if data[i] != 0xFF:
            raise ImageError(f"JPEG data is corrupt: expected a marker at byte {i}")
        while i < n and data[i] == 0xFF:
            i += 1
        if i >= n:
            raise truncated
        marker = data[i]
        i += 1
        if marker == _JPEG_EOI:
            return size
        if marker in _JPEG_RST or marker == _JPEG_TEM:
            continue
        if i + 2 > n:
            raise truncated
        (length,) = struct.unpack_from(">H", data, i)
        if length < 2:
            raise ImageError(f"JPEG data is corrupt: segment length {length} at byte {i}")
        if marker in _JPEG_SOF and i + 7 <= n:
            height, width = struct.unpack_from(">HH", data, i + 3)
            size = (width, height)
        i += length
        if marker == _JPEG_SOS:
            i = _skip_entropy_data(data, i)
            if i < 0:
                raise truncated


def _skip_entropy_data(data: bytes, i: int) -> int:
    """Return the index of the marker that ends the scan starting at ``i``, or -1 if none."""
    n = len(data)
    while True:
        j = data.find(b"\xff", i)
        if j < 0 or j + 1 >= n:
            return -1
        following = data[j + 1]
        if following == 0x00 or following in _JPEG_RST or following == 0xFF:
            i = j + 1 if following == 0xFF else j + 2
            continue
        return j


def _check_png(data: bytes) -> tuple[int, int]:
    """Walk the PNG chunks up to IEND, checking each CRC; return (width, height)."""
    i, n, size = len(_PNG_SIGNATURE), len(data), None
    while True:
        if i + _PNG_CHUNK_OVERHEAD > n:
            raise ImageError("PNG data ends before its IEND chunk (truncated file?)")
        length, kind = struct.unpack_from(">I4s", data, i)
        end = i + _PNG_CHUNK_OVERHEAD + length
        if end > n:
            raise ImageError(f"PNG data ends inside its {kind.decode('latin-1')!r} chunk (truncated file?)")
        (crc,) = struct.unpack_from(">I", data, end - 4)
        if zlib.crc32(data[i + 4:end - 4]) != crc:
            raise ImageError(f"PNG data is corrupt: bad checksum in its {kind.decode('latin-1')!r} chunk")
        if kind == b"IHDR" and length >= 8:
            size = struct.unpack_from(">II", data, i + 8)
        if kind == b"IEND":
            if size is None:
                raise ImageError("PNG data is corrupt: no IHDR chunk")
            return size
        i = end


def _check_structure(data: bytes, kind: str) -> tuple[int, int] | None:
    """Check that ``data`` of format ``kind`` is complete; return (width, height) when known."""
    if kind == "JPEG":
        return _check_jpeg(data)
    if kind == "PNG":
        return _check_png(data)
    if kind == "BMP":
        if len(data) < _BMP_HEADER:
            raise ImageError("BMP data ends inside its header (truncated file?)")
        (declared,) = struct.unpack_from("<I", data, 2)
        if declared > len(data):
            raise ImageError(f"BMP data is {len(data)} bytes but its header says {declared} (truncated file?)")
        width, height = struct.unpack_from("<ii", data, 18)
        return abs(width), abs(height)
    if kind == "WebP":
        (declared,) = struct.unpack_from("<I", data, 4)
        if declared + 8 > len(data):
            raise ImageError(f"WebP data is {len(data)} bytes but its header says {declared + 8} (truncated file?)")
    return None


def _check_pixels(width: int, height: int, max_pixels: int, name: str) -> None:
    if width < 1 or height < 1:
        raise ImageError(f"{name} is empty: {width}x{height} pixels")
    if width * height > max_pixels:
        raise ImageError(f"{name} is {width}x{height} = {width * height} pixels, more than the limit of "
                         f"{max_pixels}; shrink it or raise max_pixels")


def decode_image(data: bytes | bytearray | memoryview, *, name: str = "image data",
                 max_pixels: int = DEFAULT_MAX_PIXELS) -> np.ndarray:
    """Decode PNG, JPEG, BMP, TIFF or WebP bytes into a BGR image.

    Parameters
    ----------
    data : bytes
        The encoded file contents.
    name : str
        How to name the image in error messages (a file path, "uploaded image", ...).
    max_pixels : int
        Largest width x height accepted; checked from the header before decoding where the
        format allows (PNG, JPEG, BMP), so an oversized image is refused without decoding it.

    Returns
    -------
    ndarray of shape (H, W, 3), dtype uint8
        BGR pixels (grey images are expanded to three channels, alpha is dropped).

    Raises
    ------
    ImageError
        Empty data, an unrecognised format, a truncated or corrupt file, too many pixels, or
        data OpenCV cannot decode.
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise ImageError(f"{name}: expected bytes, got {type(data).__name__}")
    data = bytes(data)
    if not data:
        raise ImageError(f"{name} is empty (0 bytes)")
    kind = _sniff(data)
    if kind is None:
        raise ImageError(f"{name} is not an image: unrecognised format (expected PNG, JPEG, BMP, TIFF or WebP)")
    try:
        size = _check_structure(data, kind)
    except ImageError as exc:
        raise ImageError(f"{name}: {exc}") from None
    if size is not None:
        _check_pixels(size[0], size[1], max_pixels, name)
    image = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise ImageError(f"{name}: {kind} data could not be decoded (corrupt file?)")
    _check_pixels(image.shape[1], image.shape[0], max_pixels, name)
    return np.ascontiguousarray(check_bgr_image(image, name))


def read_image(path: str | os.PathLike[str], *, max_pixels: int = DEFAULT_MAX_PIXELS,
               max_bytes: int = DEFAULT_MAX_BYTES) -> np.ndarray:
    """Read the image file at ``path`` as a BGR ``uint8`` array of shape (H, W, 3).

    Raises
    ------
    ImageError
        Naming the file: it does not exist, is a folder, is empty or larger than ``max_bytes``,
        cannot be read, or is not a complete, decodable image (see ``decode_image``).
    """
    p = Path(path)
    name = f"image file {str(p)!r}"
    if not p.exists():
        raise ImageError(f"{name} does not exist")
    if p.is_dir():
        raise ImageError(f"{name} is a folder, not an image file")
    try:
        size = p.stat().st_size
        if size > max_bytes:
            raise ImageError(f"{name} is {size} bytes, more than the limit of {max_bytes}")
        data = p.read_bytes()
    except OSError as exc:
        raise ImageError(f"{name} cannot be read: {exc.strerror or exc}") from None
    return decode_image(data, name=name, max_pixels=max_pixels)


def write_image(path: str | os.PathLike[str], image: np.ndarray, *,
                jpeg_quality: int = DEFAULT_JPEG_QUALITY) -> Path:
    """Write a BGR image as PNG or JPEG (chosen by the file name's ending); return the path.

    The file is written under a temporary name and then renamed, so a reader never sees half
    a file. Raises ImageError for a bad image, an unsupported ending or a failed write.
    """
    p = Path(path)
    check_bgr_image(image, "image to write")
    suffix = p.suffix.lower()
    if suffix not in WRITE_SUFFIXES:
        raise ImageError(f"cannot write {str(p)!r}: the name must end in one of {', '.join(WRITE_SUFFIXES)}")
    params = [cv2.IMWRITE_JPEG_QUALITY, int(jpeg_quality)] if suffix in (".jpg", ".jpeg") else []
    ok, encoded = cv2.imencode(suffix, image, params)
    if not ok:
        raise ImageError(f"cannot encode the image as {suffix} for {str(p)!r}")
    partial = p.with_name(p.name + ".partial")
    try:
        partial.write_bytes(encoded.tobytes())
        os.replace(partial, p)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise ImageError(f"cannot write {str(p)!r}: {exc.strerror or exc}") from None
    return p
