"""Writing a raster page as a true-size PDF or PNG (no dependency beyond the standard library).

The PDF is minimal and valid (PDF 1.4): one page whose MediaBox is the paper size in points
(1 pt = 1/72 inch), showing one greyscale image (Flate-compressed) stretched over the whole
page, so each image pixel prints at the raster's dpi. The PNG carries a ``pHYs`` chunk with
the dpi so that image viewers print it at true size too.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import cv2
import numpy as np

from .errors import CalibrationError

MM_PER_INCH = 25.4
POINTS_PER_INCH = 72.0


def pdf_bytes(page: np.ndarray, paper_mm: tuple[float, float]) -> bytes:
    """A one-page PDF showing ``page`` over a ``paper_mm`` (width, height) page.

    Parameters
    ----------
    page : ndarray of shape (H, W), uint8
        Greyscale raster of the whole page, top row first.
    paper_mm : (width, height), millimetres
    """
    if page.ndim != 2 or page.dtype != np.uint8:
        raise CalibrationError(f"a PDF page is a greyscale uint8 image (H, W), got {page.dtype} {page.shape}")
    width_pt, height_pt = (v / MM_PER_INCH * POINTS_PER_INCH for v in paper_mm)
    rows, cols = page.shape
    data = zlib.compress(np.ascontiguousarray(page).tobytes(), 9)
    drawing = f"q {width_pt:.4f} 0 0 {height_pt:.4f} 0 0 cm /Im0 Do Q\n".encode("ascii")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        (f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {width_pt:.4f} {height_pt:.4f}] "
         "/Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>").encode("ascii"),
        (f"<< /Type /XObject /Subtype /Image /Width {cols} /Height {rows} /ColorSpace /DeviceGray "
         f"/BitsPerComponent 8 /Filter /FlateDecode /Length {len(data)} >>\nstream\n").encode("ascii")
        + data + b"\nendstream",
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
    """PNG bytes of ``page`` with a ``pHYs`` chunk saying ``dpi`` (pixels per metre in PNG terms)."""
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
