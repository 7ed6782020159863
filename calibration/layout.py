"""Where the table markers lie, in table millimetres.

The table frame (DESIGN, contracts): millimetres, seen from above with the camera at the
near (bottom) edge of its image; x to the right, y away from the camera, origin at the outer
corner of marker 0. In the default layout the play area is the rectangle
``[0, W] x [0, H]`` and one marker lies inside each of its corners, sides parallel to the
table's sides, printed upright (the marker's top edge faces away from the camera):

* marker ``ids[0]`` near left, its bottom-left corner at (0, 0) (the origin);
* marker ``ids[1]`` near right, its bottom-right corner at (W, 0);
* marker ``ids[2]`` far right, its top-right corner at (W, H);
* marker ``ids[3]`` far left, its top-left corner at (0, H).

"Corner" means the corner of the marker's black square, not of the paper around it.
Any other layout is given as each marker's 4 corners in table mm (:class:`MarkerLayout`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import _fields as f
from .errors import MarkerError
from .markers import DEFAULT_DICTIONARY, dictionary_size

#: Default marker ids, in layout order: near left, near right, far right, far left.
DEFAULT_IDS = (0, 1, 2, 3)
#: Default side of a marker's black square, millimetres (the printed sheet's default too).
DEFAULT_MARKER_MM = 50.0


@dataclass(frozen=True, eq=False)
class MarkerPlacement:
    """One marker of the layout: its id and its 4 corners in table mm (ArUco order).

    ``corners_mm`` has shape (4, 2): the printed marker's top-left, top-right, bottom-right
    and bottom-left corner, as (x, y) in table millimetres.
    """

    id: int
    corners_mm: np.ndarray

    def __post_init__(self) -> None:
        corners = np.asarray(self.corners_mm, dtype=np.float64)
        if corners.shape != (4, 2) or not np.all(np.isfinite(corners)):
            raise MarkerError(f"marker {self.id}: corners_mm must be 4x2 finite numbers, got shape {corners.shape}")
        object.__setattr__(self, "corners_mm", f.readonly(corners))
        object.__setattr__(self, "id", int(self.id))


@dataclass(frozen=True, eq=False)
class MarkerLayout:
    """The markers on the table: dictionary, marker side, play-area size and placements.

    Attributes
    ----------
    dictionary : str
        ArUco dictionary name, e.g. ``"DICT_4X4_50"``.
    marker_mm : float
        Side of each marker's black square, millimetres.
    table_mm : (width, height), millimetres
        The play area, ``[0, W] x [0, H]`` in the table frame (what a rectified view shows).
    markers : tuple of MarkerPlacement
        At least 3, ids unique and inside the dictionary.
    """

    dictionary: str
    marker_mm: float
    table_mm: tuple[float, float]
    markers: tuple[MarkerPlacement, ...]

    def __post_init__(self) -> None:
        size = dictionary_size(self.dictionary)  # raises on an unknown dictionary
        if not self.marker_mm > 0:
            raise MarkerError(f"marker size must be positive (mm), got {self.marker_mm}")
        if len(self.table_mm) != 2 or not min(self.table_mm) > 0:
            raise MarkerError(f"table size must be width x height > 0 (mm), got {self.table_mm}")
        ids = [m.id for m in self.markers]
        if len(ids) < 3:
            raise MarkerError(f"a layout needs at least 3 markers, got {len(ids)}")
        if len(set(ids)) != len(ids):
            raise MarkerError(f"marker ids must be different, got {ids}")
        bad = [i for i in ids if not 0 <= i < size]
        if bad:
            raise MarkerError(f"marker ids {bad} are not in {self.dictionary} (ids 0..{size - 1})")
        object.__setattr__(self, "marker_mm", float(self.marker_mm))
        object.__setattr__(self, "table_mm", (float(self.table_mm[0]), float(self.table_mm[1])))
        object.__setattr__(self, "markers", tuple(self.markers))

    @property
    def ids(self) -> tuple[int, ...]:
        return tuple(m.id for m in self.markers)

    def placement(self, marker_id: int) -> MarkerPlacement:
        for m in self.markers:
            if m.id == marker_id:
                return m
        raise MarkerError(f"marker {marker_id} is not in the layout (ids {list(self.ids)})")

    def to_json(self) -> dict[str, Any]:
        return {"dictionary": self.dictionary, "marker_mm": self.marker_mm, "table_mm": list(self.table_mm),
                "markers": [{"id": m.id, "corners_mm": m.corners_mm.tolist()} for m in self.markers]}

    @classmethod
    def from_json(cls, obj: Any, where: str = "table.layout") -> MarkerLayout:
        """Build from a profile's ``table.layout`` section (or a ``--layout`` file); errors name the field."""
        obj = f.section(obj, where)
        name = f.string(f.get(obj, "dictionary", where), f"{where}.dictionary")
        marker_mm = f.number(f.get(obj, "marker_mm", where), f"{where}.marker_mm", positive=True)
        table = f.matrix(f.get(obj, "table_mm", where), f"{where}.table_mm", (2,))
        items = f.get(obj, "markers", where)
        if not isinstance(items, list):
            raise f.fail(f"{where}.markers", "a list of {id, corners_mm}", items)
        placements = []
        for n, item in enumerate(items):
            at = f"{where}.markers[{n}]"
            item = f.section(item, at)
            placements.append(MarkerPlacement(f.integer(f.get(item, "id", at), f"{at}.id", minimum=0),
                                              f.matrix(f.get(item, "corners_mm", at), f"{at}.corners_mm", (4, 2))))
        try:
            return cls(name, marker_mm, (float(table[0]), float(table[1])), tuple(placements))
        except MarkerError as exc:
            raise f.ProfileError(f"field {where!r}: {exc}") from None


def upright_square(x0: float, y0: float, side: float) -> np.ndarray:
    """Corners (4, 2) in ArUco order of an upright marker whose bottom-left corner is (x0, y0).

    Upright: the marker's top edge faces +y (away from the camera), so top-left is
    (x0, y0 + side) and bottom-left is (x0, y0).
    """
    return np.array([[x0, y0 + side], [x0 + side, y0 + side], [x0 + side, y0], [x0, y0]], dtype=np.float64)


def default_layout(table_mm: tuple[float, float], marker_mm: float = DEFAULT_MARKER_MM,
                   ids: Sequence[int] = DEFAULT_IDS, dictionary: str = DEFAULT_DICTIONARY) -> MarkerLayout:
    """Four upright markers inside the corners of a ``W`` x ``H`` mm play area (module docstring)."""
    width, height = table_mm
    if len(ids) != 4:
        raise MarkerError(f"the corner layout takes exactly 4 marker ids (near left, near right, far right, "
                          f"far left), got {list(ids)}")
    if not (width >= 2 * marker_mm and height >= 2 * marker_mm):
        raise MarkerError(f"a {width:g}x{height:g} mm table cannot hold 2 markers of {marker_mm:g} mm side by side: "
                          "check --table (width x height in mm) and --marker-mm")
    s = marker_mm
    origins = [(0.0, 0.0), (width - s, 0.0), (width - s, height - s), (0.0, height - s)]
    placements = tuple(MarkerPlacement(i, upright_square(x, y, s)) for i, (x, y) in zip(ids, origins))
    return MarkerLayout(dictionary, marker_mm, (width, height), placements)
