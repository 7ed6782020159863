"""Benchmark of the dice detector on labelled real photos (``tableref bench --dice``).

Figures on the held-out half of the folder (never trained or tuned on: the split is by file
name, :func:`tableref.vision.dice.labels.split_of`) and on all of it: recall and precision of
die boxes (IoU >= 0.5, one-to-one greedy matching), the share of photos whose die count is
exactly right, and milliseconds per photo (detection and colour naming, not file reading).
"""

from __future__ import annotations

from pathlib import Path

from ..vision.dice.detect import DiceDetector
from ..vision.dice.evaluate import evaluate
from ..vision.dice.labels import HELD_OUT, read_folder
from ..vision.dice.score import MATCH_IOU
from . import Figure

#: Where the labelled dice photos lie in a checkout with shared/ beside it.
DEFAULT_DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "real" / "dice-photos"


def run(data: str | Path = DEFAULT_DATA, card: str | Path | None = None) -> list[Figure]:
    """Measure the (shipped) detector on the labelled photos of ``data``."""
    root = Path(data)
    photos = read_folder(root)
    result = evaluate(DiceDetector.open(card), photos)
    held = [p.name for p in photos if p.split == HELD_OUT]
    figures = []
    for part, keep in (("held-out", held), ("all", None)):
        totals = result.totals(keep)
        where = (f"{totals.photos} {'held-out ' if keep is not None else ''}real photos of {root.name}/ "
                 f"({totals.labelled} dice; IoU >= {MATCH_IOU})")
        figures += [
            Figure("dice", f"recall ({part})", round(totals.recall, 4), "share", where),
            Figure("dice", f"precision ({part})", round(totals.precision, 4), "share", where),
            Figure("dice", f"exact count ({part})", round(totals.exact_count_share, 4), "share of photos", where),
            Figure("dice", f"time per photo ({part})", round(result.ms_per_photo(keep), 1), "ms", where),
        ]
    return figures
