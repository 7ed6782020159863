"""Ground truth of one rendered image: where every object and marker landed, and how."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .camera import Camera


def _floats(a) -> list:
    return np.round(np.asarray(a, np.float64), 4).tolist()


@dataclass(frozen=True, eq=False)
class ObjectTruth:
    """One object in the image.

    Attributes
    ----------
    label : int
        Its value in the render's label image.
    kind : str
        The component kind, or ``distractor.mug|phone|pen``, or ``hand``.
    ident : str
        The layout's ident (components), else empty.
    index : int or None
        Its index in ``Layout.components`` (None for distractors and hands).
    params : dict
        Appearance parameters.
    pose : (x_mm, y_mm, rotation_deg, z_mm)
        Where it was drawn (layout position plus the renderer's jitter); z = its underside.
    polygon_mm : ndarray (N, 2)
        Footprint on the table frame (flat parts: the printed face's corners in printed
        order top-left, top-right, bottom-right, bottom-left).
    polygon_px : ndarray (N, 2)
        Flat parts: the printed face's corners in the image; solids: their silhouette hull.
    centre_px : ndarray (2,)
        Image position of the object's centre (solids: the 3-D centre).
    bbox_px : (x0, y0, x1, y1) or None
        Bounding box of its unoccluded pixels (x1, y1 exclusive); None when out of view.
    visibility : float
        Share of its own pixels not covered by anything drawn over it (0..1).
    occluded_by : tuple of int
        Labels drawn over it.
    in_frame : bool
        Whether all of ``polygon_px`` lies inside the image.
    """

    label: int
    kind: str
    ident: str
    index: int | None
    params: dict
    pose: tuple[float, float, float, float]
    polygon_mm: np.ndarray
    polygon_px: np.ndarray
    centre_px: np.ndarray
    bbox_px: tuple[int, int, int, int] | None
    visibility: float
    occluded_by: tuple[int, ...]
    in_frame: bool

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "kind": self.kind, "ident": self.ident, "index": self.index,
                "params": {k: list(v) if isinstance(v, tuple) else v for k, v in self.params.items()},
                "pose": _floats(self.pose), "polygon_mm": _floats(self.polygon_mm),
                "polygon_px": _floats(self.polygon_px), "centre_px": _floats(self.centre_px),
                "bbox_px": list(self.bbox_px) if self.bbox_px else None,
                "visibility": round(self.visibility, 4), "occluded_by": list(self.occluded_by),
                "in_frame": self.in_frame}


@dataclass(frozen=True, eq=False)
class MarkerTruth:
    """One ArUco marker: corners in ArUco order (printed top-left, top-right, bottom-right,
    bottom-left) in the table frame (mm) and in the image (px)."""

    id: int
    label: int
    corners_mm: np.ndarray
    corners_px: np.ndarray
    visibility: float

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "label": self.label, "corners_mm": _floats(self.corners_mm),
                "corners_px": _floats(self.corners_px), "visibility": round(self.visibility, 4)}


@dataclass(frozen=True, eq=False)
class Truth:
    """Everything known about one rendered image."""

    seed: int
    camera: Camera
    surface: str
    px_per_mm: float
    light: dict
    effects: dict
    objects: tuple[ObjectTruth, ...]
    markers: tuple[MarkerTruth, ...]
    extra: dict = field(default_factory=dict)

    def by_label(self) -> dict[int, ObjectTruth]:
        return {o.label: o for o in self.objects}

    def to_json(self) -> dict[str, Any]:
        """Plain JSON-ready dict (numbers rounded to 1e-4)."""
        return {"seed": self.seed, "camera": self.camera.to_json(), "surface": self.surface,
                "texture_px_per_mm": self.px_per_mm, "light": self.light, "effects": self.effects,
                "markers": [m.to_json() for m in self.markers], "objects": [o.to_json() for o in self.objects],
                **self.extra}
