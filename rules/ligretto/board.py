"""The game board as data: a grid of coloured square spaces plus the tokens' start spaces.

Board JSON::

    {"name": "mine", "rows": ["RYG.", "GBRY"], "tokens": [[0, 0], [0, 2], [1, 1], [1, 3]],
     "sections": [[0, 0, 2, 4]], "assumed": false, "note": ""}

``rows`` holds one string per row, one letter per space (see ``catalogue.COLOUR_LETTERS``),
``.`` where the grid has no space.  Spaces are addressed as ``[row, column]``; internally by
the index ``row * width + column``.  ``sections`` (optional, informational) are
``[row, column, height, width]`` rectangles of the puzzle sections.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources

from ..common import require_dict, require_field
from ..errors import InvalidInput
from .catalogue import COLOUR_LETTERS, TOKENS

#: The letter of a grid position that is not a space of the board.
NO_SPACE = "."


@dataclass(frozen=True)
class Board:
    """A validated board.  ``colours[i]`` is the colour name of space ``i`` or ``None``."""

    name: str
    height: int
    width: int
    colours: tuple[str | None, ...]
    starts: tuple[int, ...]
    sections: tuple[tuple[int, int, int, int], ...] = ()
    assumed: bool = False
    note: str = ""
    edges: tuple[tuple[int, ...], ...] = field(default=(), compare=False, repr=False)
    corners: tuple[tuple[int, ...], ...] = field(default=(), compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.height < 1 or self.width < 1 or len(self.colours) != self.height * self.width:
            raise InvalidInput(f"board {self.name!r}: expected {self.height}x{self.width} spaces, "
                               f"got {len(self.colours)}")
        if len(self.starts) != TOKENS or len(set(self.starts)) != TOKENS:
            raise InvalidInput(f"board {self.name!r}: expected {TOKENS} distinct token start spaces, "
                               f"got {len(self.starts)} ({len(set(self.starts))} distinct)")
        for s in self.starts:
            if not 0 <= s < len(self.colours) or self.colours[s] is None:
                raise InvalidInput(f"board {self.name!r}: a token start {self.cell(s) if s >= 0 else s} "
                                   "is not a space of the board")
        for sec in self.sections:
            r, c, h, w = sec
            if h < 1 or w < 1 or r < 0 or c < 0 or r + h > self.height or c + w > self.width:
                raise InvalidInput(f"board {self.name!r}: section {list(sec)} lies outside the "
                                   f"{self.height}x{self.width} grid")
        object.__setattr__(self, "edges", tuple(self._around(i, ((-1, 0), (1, 0), (0, -1), (0, 1))) for i in range(len(self.colours))))
        object.__setattr__(self, "corners", tuple(self._around(i, ((-1, -1), (-1, 1), (1, -1), (1, 1))) for i in range(len(self.colours))))

    def _around(self, i: int, steps) -> tuple[int, ...]:
        r, c = divmod(i, self.width)
        out = []
        for dr, dc in steps:
            rr, cc = r + dr, c + dc
            if 0 <= rr < self.height and 0 <= cc < self.width and self.colours[rr * self.width + cc] is not None:
                out.append(rr * self.width + cc)
        return tuple(out)

    # -- addressing ----------------------------------------------------------------------
    def cell(self, index: int) -> tuple[int, int]:
        """``(row, column)`` of a space index."""
        return divmod(index, self.width)

    def index(self, cell, what: str = "cell") -> int:
        """The index of ``[row, column]``; raises InvalidInput outside the grid."""
        if (not isinstance(cell, (tuple, list)) or len(cell) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in cell)):
            raise InvalidInput(f"{what} must be [row, column] of integers, got {cell!r}")
        r, c = cell
        if not (0 <= r < self.height and 0 <= c < self.width):
            raise InvalidInput(f"{what} {[r, c]} lies outside the {self.height}x{self.width} board grid")
        return r * self.width + c

    def is_space(self, index: int) -> bool:
        return self.colours[index] is not None

    def spaces(self) -> tuple[int, ...]:
        return tuple(i for i, c in enumerate(self.colours) if c is not None)

    def distance2(self, a: int, b: int) -> int:
        """Squared centre distance of two spaces, in spaces squared."""
        (ra, ca), (rb, cb) = self.cell(a), self.cell(b)
        return (ra - rb) ** 2 + (ca - cb) ** 2

    # -- JSON ----------------------------------------------------------------------------
    def to_json(self) -> dict:
        letters = {v: k for k, v in COLOUR_LETTERS.items()}
        rows = ["".join(letters[c] if c else NO_SPACE for c in self.colours[r * self.width:(r + 1) * self.width])
                for r in range(self.height)]
        return {"name": self.name, "rows": rows, "tokens": [list(self.cell(s)) for s in self.starts],
                "sections": [list(s) for s in self.sections], "assumed": self.assumed, "note": self.note}

    @classmethod
    def from_json(cls, data) -> "Board":
        d = require_dict(data, "board")
        name = require_field(d, "name", str, "board")
        rows = require_field(d, "rows", list, f"board {name!r}")
        if not rows or not all(isinstance(r, str) for r in rows):
            raise InvalidInput(f"board {name!r}: 'rows' must be a non-empty list of strings")
        width = len(rows[0])
        if any(len(r) != width for r in rows):
            raise InvalidInput(f"board {name!r}: rows have different lengths {sorted({len(r) for r in rows})}")
        colours = []
        for r, row in enumerate(rows):
            for c, letter in enumerate(row):
                if letter == NO_SPACE:
                    colours.append(None)
                elif letter in COLOUR_LETTERS:
                    colours.append(COLOUR_LETTERS[letter])
                else:
                    raise InvalidInput(f"board {name!r}: letter {letter!r} at [{r}, {c}] is not one of "
                                       f"{', '.join(COLOUR_LETTERS)} or '{NO_SPACE}'")
        tokens = require_field(d, "tokens", list, f"board {name!r}")
        starts = []
        for t in tokens:
            if (not isinstance(t, list) or len(t) != 2
                    or not all(isinstance(x, int) and not isinstance(x, bool) for x in t)):
                raise InvalidInput(f"board {name!r}: a token start must be [row, column], got {t!r}")
            if not (0 <= t[0] < len(rows) and 0 <= t[1] < width):
                raise InvalidInput(f"board {name!r}: token start {t} lies outside the grid")
            starts.append(t[0] * width + t[1])
        sections = d.get("sections", [])
        if not isinstance(sections, list) or not all(
                isinstance(s, list) and len(s) == 4 and all(isinstance(x, int) for x in s) for s in sections):
            raise InvalidInput(f"board {name!r}: 'sections' must be a list of [row, column, height, width]")
        return cls(name=name, height=len(rows), width=width, colours=tuple(colours), starts=tuple(starts),
                   sections=tuple(tuple(s) for s in sections), assumed=bool(d.get("assumed", False)),
                   note=str(d.get("note", "")))


def _load_presets() -> dict[str, Board]:
    text = resources.files(__package__).joinpath("data/boards.json").read_text(encoding="utf-8")
    return {name: Board.from_json(b) for name, b in json.loads(text)["boards"].items()}


#: The shipped boards (assumed layouts; see ``data/boards.json``).
PRESETS: dict[str, Board] = _load_presets()


def preset(name: str) -> Board:
    if name not in PRESETS:
        raise InvalidInput(f"unknown board preset {name!r}; choose one of {', '.join(sorted(PRESETS))} "
                           "or give a board as a JSON object")
    return PRESETS[name]
