"""Typed errors of the digital twin."""

from __future__ import annotations

from ..errors import VisionError


class SyntheticError(VisionError):
    """Base of every error raised by ``tableref.vision.synthetic``."""


class LayoutError(SyntheticError):
    """A layout record that cannot be rendered: unknown kind, bad parameter, bad position."""


class SheetError(SyntheticError):
    """A print sheet that cannot be made: unknown game, unsupported output file."""
