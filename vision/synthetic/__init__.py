"""The digital twin: render any table layout of the three games as a webcam photograph with
exact ground truth, and print the same designs as print-and-play sheets.

Start with :class:`Layout` / :class:`Placed` and :func:`render`; see docs/rendering.md.
"""

from .errors import LayoutError, SheetError, SyntheticError
from .kinds import KINDS, anchors
from .layout import Layout, Placed
from .scene import CLEAN, Render, RenderSettings, render

__all__ = ["CLEAN", "KINDS", "Layout", "LayoutError", "Placed", "Render", "RenderSettings", "SheetError",
           "SyntheticError", "anchors", "render"]
