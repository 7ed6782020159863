"""A folder of labelled dice photos and its fixed split into a tune half and a held-out half.

The folder holds ``images/NAME.jpg`` and ``boxes.csv`` with one row per die:
``file, face, xmin, ymin, xmax, ymax`` (pixels; ``face`` is read but not used). The split is
decided by the file name alone (:func:`split_of`), so the training, the benchmark and the
tests agree on which photos the detector was tuned on.
"""

from __future__ import annotations

import csv
import hashlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import VisionError

#: Names of the two halves.
TUNE, HELD_OUT = "tune", "held-out"
#: Columns ``boxes.csv`` must have.
COLUMNS = ("file", "xmin", "ymin", "xmax", "ymax")
IMAGES, BOXES = "images", "boxes.csv"


class LabelsError(VisionError):
    """A labelled dice folder that cannot be read (the message names the file and line)."""


def split_of(file_name: str) -> str:
    """``"tune"`` or ``"held-out"``: the parity of the first byte of the SHA-256 of the name."""
    return TUNE if hashlib.sha256(file_name.encode("utf-8")).digest()[0] % 2 == 0 else HELD_OUT


@dataclass(frozen=True, eq=False)
class LabelledPhoto:
    """One photo and its labelled dice.

    Attributes
    ----------
    path : Path
        The image file.
    boxes : ndarray of shape (N, 4), float32
        ``xmin, ymin, xmax, ymax`` of each die in pixels (N may be 0).
    """

    path: Path
    boxes: np.ndarray

    def __post_init__(self) -> None:
        b = self.boxes
        if not isinstance(b, np.ndarray) or b.ndim != 2 or b.shape[1] != 4:
            got = b.shape if isinstance(b, np.ndarray) else type(b).__name__
            raise LabelsError(f"boxes of {self.path.name} must have shape (N, 4), got {got}")
        if len(b) and not np.all((b[:, 2] > b[:, 0]) & (b[:, 3] > b[:, 1])):
            raise LabelsError(f"boxes of {self.path.name} must have xmax > xmin and ymax > ymin")

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def split(self) -> str:
        return split_of(self.name)


def read_folder(folder: str | Path, split: str | None = None) -> list[LabelledPhoto]:
    """Read ``folder/boxes.csv`` and the photos it names, sorted by file name.

    Parameters
    ----------
    folder : path
        The labelled folder (``images/`` and ``boxes.csv``).
    split : {"tune", "held-out"} or None
        Keep only that half; None keeps all.

    Raises
    ------
    LabelsError
        When the folder, its ``boxes.csv`` or a named photo is missing, or a row is malformed.
    """
    root = Path(folder)
    table = root / BOXES
    if not table.is_file():
        raise LabelsError(f"labelled dice folder {str(root)!r} has no {BOXES} (expected images/ and {BOXES})")
    if split not in (None, TUNE, HELD_OUT):
        raise LabelsError(f"split must be {TUNE!r}, {HELD_OUT!r} or None, got {split!r}")
    boxes: dict[str, list[list[float]]] = {}
    with table.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        missing = [c for c in COLUMNS if c not in (reader.fieldnames or ())]
        if missing:
            raise LabelsError(f"{table} lacks the columns {missing}")
        for line, row in enumerate(reader, start=2):
            try:
                box = [float(row[c]) for c in COLUMNS[1:]]
            except (TypeError, ValueError):
                raise LabelsError(f"{table} line {line}: box corners must be numbers, got {row}") from None
            boxes.setdefault(row["file"], []).append(box)
    photos = []
    for name in sorted(boxes):
        if split is not None and split_of(name) != split:
            continue
        path = root / IMAGES / name
        if not path.is_file():
            raise LabelsError(f"{table} names {name!r} but {path} does not exist")
        photos.append(LabelledPhoto(path, np.asarray(boxes[name], np.float32).reshape(-1, 4)))
    return photos
