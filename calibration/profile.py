"""Calibration profiles: one versioned JSON file per table setup.

Format (version 1)::

    {
      "version": 1,
      "intrinsics": null | {"camera_matrix": 3x3, "dist_coeffs": [k1, k2, p1, p2, k3...],
                             "image_size": [w, h], "rms": px | null},
      "table": null | {"homography": 3x3 (image px -> table mm), "image_size": [w, h],
                        "undistorted": bool, "markers_used": [ids],
                        "reprojection": {"rms_mm", "max_mm", "rms_px", "max_px"},
                        "layout": {"dictionary", "marker_mm", "table_mm": [W, H],
                                   "markers": [{"id", "corners_mm": 4x2}]}},
      "colour_references": null | {...},   colours measured on this table (per game)
      "zones": null | {...},                per game, overrides of the shipped zones fields
      "models": null | "FOLDER"             classifiers adapted to this table's own set
    }

``models`` (optional; written by ``tableref enrol``) is a folder of model files and cards
(``NAME.onnx``, ``NAME.card.json``); a recogniser opened with the profile takes a model of its
name from there, and the shipped one where the folder holds none. A relative path is taken
from the profile file's folder.

Loading validates every field; an error names the file and the field.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from . import _fields as f
from .errors import ProfileError
from .intrinsics import Intrinsics
from .table import TableCalibration

#: The profile format this code writes and reads.
PROFILE_VERSION = 1
_KNOWN_KEYS = ("version", "intrinsics", "table", "colour_references", "zones", "models")


@dataclass(frozen=True, eq=False)
class Profile:
    """One table setup: camera intrinsics, table plane, and (later) colour references and zones."""

    intrinsics: Intrinsics | None = None
    table: TableCalibration | None = None
    colour_references: MappingProxyType | None = None
    zones: MappingProxyType | None = None
    version: int = PROFILE_VERSION
    #: Folder of models adapted to this table's set (None: the shipped ones).
    models: Path | None = None

    def __post_init__(self) -> None:
        if self.version != PROFILE_VERSION:
            raise ProfileError(f"unknown profile version {self.version!r}: this tableref reads version {PROFILE_VERSION}")
        if self.models is not None:
            if not isinstance(self.models, (str, Path)) or not str(self.models).strip():
                raise f.fail("models", "a folder path (text) or null", self.models)
            object.__setattr__(self, "models", Path(self.models))
        for name in ("colour_references", "zones"):
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, MappingProxyType(dict(value)))

    def with_intrinsics(self, intrinsics: Intrinsics) -> Profile:
        return replace(self, intrinsics=intrinsics)

    def with_table(self, table: TableCalibration) -> Profile:
        return replace(self, table=table)

    def with_models(self, folder: str | Path | None) -> Profile:
        return replace(self, models=folder)

    def model_card(self, name: str) -> Path | None:
        """The card of model ``name`` adapted for this profile, if its models folder holds one."""
        if self.models is None:
            return None
        card = self.models / f"{name}.card.json"
        return card if card.is_file() else None

    def to_json(self) -> dict[str, Any]:
        return {"version": self.version,
                "intrinsics": None if self.intrinsics is None else self.intrinsics.to_json(),
                "table": None if self.table is None else self.table.to_json(),
                "colour_references": None if self.colour_references is None else dict(self.colour_references),
                "zones": None if self.zones is None else dict(self.zones),
                "models": None if self.models is None else str(self.models)}

    @classmethod
    def from_json(cls, obj: Any) -> Profile:
        """Validate a parsed profile; a :class:`ProfileError` names the offending field."""
        obj = f.section(obj, "(the profile)")
        version = f.get(obj, "version", "")
        if not isinstance(version, int) or isinstance(version, bool):
            raise f.fail("version", f"the integer {PROFILE_VERSION}", version)
        if version != PROFILE_VERSION:
            raise ProfileError(f"unknown profile version {version}: this tableref reads version {PROFILE_VERSION} "
                               "(upgrade tableref, or calibrate again)")
        unknown = sorted(set(obj) - set(_KNOWN_KEYS))
        if unknown:
            raise ProfileError(f"unknown field(s) {unknown}: a version {PROFILE_VERSION} profile has {list(_KNOWN_KEYS)}")
        intrinsics = obj.get("intrinsics")
        table = obj.get("table")
        reserved = {}
        for name in ("colour_references", "zones"):
            value = obj.get(name)
            reserved[name] = None if value is None else f.section(value, name)
        return cls(intrinsics=None if intrinsics is None else Intrinsics.from_json(intrinsics),
                   table=None if table is None else TableCalibration.from_json(table), **reserved,
                   models=obj.get("models"))


def load_profile(path: str | Path) -> Profile:
    """Read and validate the profile at ``path``.

    Raises
    ------
    ProfileError
        The file is missing, unreadable, not JSON, or a field is missing, mistyped, of the
        wrong shape, or the version is unknown; the message names the file and field.
    """
    p = Path(path)
    if not p.is_file():
        raise ProfileError(f"profile {str(p)!r} " + ("is a folder, not a file" if p.is_dir() else "does not exist")
                           + ": create it with `tableref calibrate camera ... --out` or `tableref calibrate table ... --out`")
    try:
        obj = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ProfileError(f"profile {str(p)!r} cannot be read: {exc}") from None
    except json.JSONDecodeError as exc:
        raise ProfileError(f"profile {str(p)!r} is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    try:
        profile = Profile.from_json(obj)
    except ProfileError as exc:
        raise ProfileError(f"profile {str(p)!r}: {exc}") from None
    if profile.models is not None and not profile.models.is_absolute():
        profile = profile.with_models(p.resolve().parent / profile.models)
    return profile


def save_profile(profile: Profile, path: str | Path) -> None:
    """Write ``profile`` to ``path`` as indented JSON, atomically (a reader never sees half a file)."""
    p = Path(path)
    text = json.dumps(profile.to_json(), indent=2) + "\n"
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    except OSError as exc:
        raise ProfileError(f"profile {str(p)!r} cannot be written: {exc.strerror}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(tmp, p)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise ProfileError(f"profile {str(p)!r} cannot be written: {exc.strerror}") from None
