"""Writing raster pages as a true-size PDF or PNG (no dependency beyond the standard library).

Used by the marker sheet and by the print-and-play sheets of the digital twin.  The PDF is
minimal and valid (PDF 1.4): pages whose MediaBox is the paper size in points (1 pt = 1/72
inch), each showing one image (greyscale or RGB, Flate-compressed) stretched over the whole
page, so each image pixel prints at the raster's dpi. The PNG carries a ``pHYs`` chunk with
the dpi so that image viewers print it at true size too.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path
from typing import Sequence

import cv2
import numpy as np

from .errors import CalibrationError

MM_PER_INCH = 25.4
POINTS_PER_INCH = 72.0


def _image_object(page: np.ndarray) -> bytes:
    """The PDF image XObject of one page: grey (H, W) or BGR (H, W, 3) uint8, Flate-compressed."""
    if page.dtype != np.uint8 or not (page.ndim == 2 or (page.ndim == 3 and page.shape[2] == 3)):
        raise CalibrationError(f"a PDF page is a uint8 image (H, W) or (H, W, 3), got {page.dtype} {page.shape}")
    if page.ndim == 2:
        colour_space, raw = "DeviceGray", page
    else:
        colour_space, raw = "DeviceRGB", cv2.cvtColor(page, cv2.COLOR_BGR2RGB)
    data = zlib.compress(np.ascontiguousarray(raw).tobytes(), 9)
    return (f"<< /Type /XObject /Subtype /Image /Width {page.shape[1]} /Height {page.shape[0]} "
            f"/ColorSpace /{colour_space} /BitsPerComponent 8 /Filter /FlateDecode /Length {len(data)} >>\n"
            "stream\n").encode("ascii") + data + b"\nendstream"


def pdf_bytes(pages: np.ndarray | Sequence[np.ndarray], paper_mm: tuple[float, float]) -> bytes:
    """A PDF with one page per raster, each stretched over a ``paper_mm`` (width, height) page.

    Parameters
    ----------
    pages : ndarray of shape (H, W) or (H, W, 3), uint8, or a sequence of them
        Raster of each whole page, top row first; greyscale or BGR.
    paper_mm : (width, height), millimetres
    """
    pages = [pages] if isinstance(pages, np.ndarray) else list(pages)
    if not pages:
        raise CalibrationError("a PDF needs at least one page")
    width_pt, height_pt = (v / MM_PER_INCH * POINTS_PER_INCH for v in paper_mm)
    drawing = f"q {width_pt:.4f} 0 0 {height_pt:.4f} 0 0 cm /Im0 Do Q\n".encode("ascii")
    kids = " ".join(f"{3 + 3 * k} 0 R" for k in range(len(pages)))
    # objects: 1 catalogue, 2 page tree, then per page k: 3+3k page, 4+3k image, 5+3k contents
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               f"<< /Type /Pages /Kids [{kids}] /Count {len(pages)} >>".encode("ascii")]
    for k, page in enumerate(pages):
        objects += [
            (f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {width_pt:.4f} {height_pt:.4f}] "
             f"/Resources << /XObject << /Im0 {4 + 3 * k} 0 R >> >> /Contents {5 + 3 * k} 0 R >>").encode("ascii"),
            _image_object(page),
            f"<< /Length {len(drawing)} >>\nstream\n".encode("ascii") + drawing + b"endstream",
        ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode("ascii") + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode("ascii")
    out += b"".join(f"{o:010d} 00000 n \n".encode("ascii") for o in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode("ascii")
    return bytes(out)


def png_bytes(page: np.ndarray, dpi: float) -> bytes:
    """PNG bytes of ``page`` (grey or BGR) with a ``pHYs`` chunk saying ``dpi`` (pixels per metre in PNG terms)."""
    ok, encoded = cv2.imencode(".png", page)
    if not ok:
        raise CalibrationError("the page could not be encoded as PNG")
    data = encoded.tobytes()
    per_metre = int(round(dpi / MM_PER_INCH * 1000))
    payload = struct.pack(">IIB", per_metre, per_metre, 1)  # unit 1: metre
    chunk = struct.pack(">I", len(payload)) + b"pHYs" + payload + struct.pack(">I", zlib.crc32(b"pHYs" + payload))
    ihdr_end = 8 + 4 + 4 + 13 + 4  # signature, then IHDR: length, type, 13 data bytes, CRC
    return data[:ihdr_end] + chunk + data[ihdr_end:]


def write_page(page: np.ndarray, paper_mm: tuple[float, float], dpi: float, path: str | Path) -> None:
    """Write the page as PDF or PNG, chosen by the file extension (``.pdf``, ``.png``)."""
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix == ".pdf":
        data = pdf_bytes(page, paper_mm)
    elif suffix == ".png":
        data = png_bytes(page, dpi)
    else:
        raise CalibrationError(f"cannot write {str(p)!r}: the marker sheet is written as .pdf or .png")
    try:
        p.write_bytes(data)
    except OSError as exc:
        raise CalibrationError(f"cannot write {str(p)!r}: {exc.strerror}") from None
