"""What the setup page shows of the calibration: the profile's figures and the markers seen now."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ..calibration.errors import CalibrationError
from ..calibration.markers import DEFAULT_DICTIONARY, detect_markers
from ..calibration.profile import Profile
from ..models.card import CARD_SUFFIX, ModelError, load_card


def calibration_status(profile: Profile | None, frame_image: np.ndarray | None = None) -> dict[str, Any]:
    """The calibration as JSON for the setup page.

    Parameters
    ----------
    profile : Profile or None
        The profile given to ``tableref serve --profile`` (None: uncalibrated).
    frame_image : ndarray of shape (H, W, 3), uint8, or None
        The latest camera frame, to look for the markers in now; None: do not look.

    Returns
    -------
    dict
        ``profile`` (bool), ``intrinsics`` (image size, RMS px) or None, ``table`` (markers
        used, expected, reprojection errors in mm and px, table size in mm) or None,
        ``markers_seen`` (ids found in the frame, ids missing) or None, and ``models`` (the
        profile's models adapted to its set by ``tableref enrol``: folder, and per model its
        name, accuracy, what that was measured on and date; or an error) or None.
    """
    out: dict[str, Any] = {"profile": profile is not None, "intrinsics": None, "table": None, "markers_seen": None,
                           "models": None if profile is None or profile.models is None else _models(profile.models)}
    expected: list[int] = []
    dictionary = DEFAULT_DICTIONARY
    if profile is not None and profile.intrinsics is not None:
        out["intrinsics"] = {"image_size": list(profile.intrinsics.image_size), "rms_px": profile.intrinsics.rms}
    if profile is not None and profile.table is not None:
        table = profile.table
        expected = list(table.layout.ids)
        dictionary = table.layout.dictionary
        out["table"] = {"markers_used": list(table.markers_used), "markers_expected": expected,
                        "reprojection": table.reprojection.to_json(), "image_size": list(table.image_size),
                        "table_mm": list(table.layout.table_mm)}
    if frame_image is not None:
        try:
            found = sorted({m.id for m in detect_markers(frame_image, dictionary)})
        except CalibrationError as exc:
            out["markers_seen"] = {"error": str(exc)}
        else:
            out["markers_seen"] = {"ids": found, "missing": [i for i in expected if i not in found],
                                   "dictionary": dictionary}
    return out


def _models(folder: Path) -> dict[str, Any]:
    """The adapted models' cards in ``folder``, as the setup page shows them."""
    if not folder.is_dir():
        return {"folder": str(folder), "error": f"the profile's models folder {str(folder)!r} does not exist: the "
                                                "shipped models are read with"}
    cards = []
    for path in sorted(folder.glob(f"*{CARD_SUFFIX}")):
        try:
            card = load_card(path)
        except ModelError as exc:
            cards.append({"name": path.name, "error": str(exc)})
            continue
        t = card.training
        cards.append({"name": card.name, "accuracy": t.val_accuracy, "measured_on": t.measured_on, "date": t.date})
    return {"folder": str(folder), "cards": cards}
