"""The layout record: what lies where on the table, independent of any game's rules.

Positions are in the table frame (DESIGN.md): millimetres, origin at the outer corner of
marker 0, x to the right, y away from the camera's bottom edge. The four markers sit at the
corners of the play area, ``table_mm`` wide and deep, their outer corners at its corners.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .errors import LayoutError
from .kinds import kind, normalise_params

#: Side of the black square of each ArUco marker unless a layout says otherwise (mm).
DEFAULT_MARKER_MM = 40.0
#: The smallest play area that leaves room between the four markers (mm).
_MIN_TABLE_MM = 200.0
#: The largest play area the renderer accepts (mm): a big dining table.
_MAX_TABLE_MM = 3000.0
#: A component may lie at most this high above the table (a tall stack of boards and cards).
_MAX_HEIGHT_MM = 200.0


@dataclass(frozen=True)
class Placed:
    """One component lying on the table.

    Attributes
    ----------
    kind : str
        A kind of :mod:`~tableref.vision.synthetic.kinds`, e.g. ``"daluigi.guest"``.
    params : tuple of (name, value) pairs
        Appearance parameters (give a dict; they are checked and stored sorted).
    x_mm, y_mm : float
        Where the component's centre lies in the table frame (mm).
    rotation_deg : float
        Counter-clockwise turn seen from above; 0 means the part's top edge faces +y.
    z_order : int
        Drawing order among flat parts: higher lies on top.
    height_mm : float
        Height of the component's underside above the table (what it is stacked on).
    ident : str
        The caller's name for it, copied into the ground truth (may be empty).
    """

    kind: str
    params: Any = ()
    x_mm: float = 0.0
    y_mm: float = 0.0
    rotation_deg: float = 0.0
    z_order: int = 0
    height_mm: float = 0.0
    ident: str = ""

    def __post_init__(self) -> None:
        kind(self.kind)
        params = dict(self.params) if isinstance(self.params, (Mapping, tuple, list)) else None
        if params is None:
            raise LayoutError(f"{self.kind}: params must be a mapping of name -> value, got {type(self.params).__name__}")
        object.__setattr__(self, "params", normalise_params(self.kind, params))
        for name in ("x_mm", "y_mm", "rotation_deg", "height_mm"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise LayoutError(f"{self.kind} {self.ident!r}: {name} must be a finite number, got {value!r}")
            object.__setattr__(self, name, float(value))
        if not 0.0 <= self.height_mm <= _MAX_HEIGHT_MM:
            raise LayoutError(f"{self.kind} {self.ident!r}: height_mm must be 0..{_MAX_HEIGHT_MM:g}, got {self.height_mm:g}")
        if isinstance(self.z_order, bool) or not isinstance(self.z_order, int):
            raise LayoutError(f"{self.kind} {self.ident!r}: z_order must be a whole number, got {self.z_order!r}")
        if not isinstance(self.ident, str):
            raise LayoutError(f"{self.kind}: ident must be a string, got {self.ident!r}")

    @property
    def param(self) -> dict[str, Any]:
        """The appearance parameters as a dict."""
        return dict(self.params)


@dataclass(frozen=True)
class Layout:
    """A table with components on it.

    Attributes
    ----------
    table_mm : (width, depth)
        Size of the play area between the markers' outer corners (mm).
    components : tuple of Placed
    marker_mm : float
        Side of each marker's black square (mm).
    """

    table_mm: tuple[float, float]
    components: tuple[Placed, ...] = field(default=())
    marker_mm: float = DEFAULT_MARKER_MM

    def __post_init__(self) -> None:
        size = tuple(self.table_mm) if isinstance(self.table_mm, (tuple, list)) else ()
        if len(size) != 2 or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in size):
            raise LayoutError(f"table_mm must be (width, depth) in mm, got {self.table_mm!r}")
        if not all(_MIN_TABLE_MM <= v <= _MAX_TABLE_MM for v in size):
            raise LayoutError(f"table_mm must lie in {_MIN_TABLE_MM:g}..{_MAX_TABLE_MM:g} mm each way, got {size}")
        object.__setattr__(self, "table_mm", (float(size[0]), float(size[1])))
        if isinstance(self.marker_mm, bool) or not isinstance(self.marker_mm, (int, float)) \
                or not 10.0 <= self.marker_mm <= min(size) / 4:
            raise LayoutError(f"marker_mm must be 10 mm .. a quarter of the table's smaller side "
                              f"({min(size) / 4:g} mm), got {self.marker_mm!r}")
        object.__setattr__(self, "marker_mm", float(self.marker_mm))
        components = tuple(self.components)
        for k, c in enumerate(components):
            if not isinstance(c, Placed):
                raise LayoutError(f"component {k} must be a Placed record, got {type(c).__name__}")
            if not (0.0 <= c.x_mm <= size[0] and 0.0 <= c.y_mm <= size[1]):
                raise LayoutError(f"component {k} ({c.kind} {c.ident!r}) lies at ({c.x_mm:g}, {c.y_mm:g}) mm, "
                                  f"outside the play area 0..{size[0]:g} x 0..{size[1]:g} mm")
        idents = [c.ident for c in components if c.ident]
        twice = sorted({i for i in idents if idents.count(i) > 1})
        if twice:
            raise LayoutError(f"component idents must be unique; given more than once: {', '.join(twice)}")
        object.__setattr__(self, "components", components)

    def marker_corners_mm(self) -> dict[int, tuple[tuple[float, float], ...]]:
        """Each marker's black-square corners in ArUco order (the printed marker's top-left,
        top-right, bottom-right, bottom-left), markers printed upright (top towards +y).

        Marker 0 lies at the origin corner, 1 at (width, 0), 2 at (width, depth), 3 at (0, depth).
        """
        w, d = self.table_mm
        s = self.marker_mm
        lower_left = {0: (0.0, 0.0), 1: (w - s, 0.0), 2: (w - s, d - s), 3: (0.0, d - s)}
        return {i: ((x, y + s), (x + s, y + s), (x + s, y), (x, y)) for i, (x, y) in lower_left.items()}
