"""Which frame sources the dashboard may switch to.

The dashboard never opens a path or URL it is sent: it may choose the source given on the
command line (``tableref serve --source``), a camera by index, or a registered source by its
bare name (such as ``demo``). Files, folders and streams are chosen on the command line only.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..input import InputError
from ..vision.capture import registered_sources

#: Highest camera index offered (Linux numbers video devices from 0).
MAX_CAMERA_INDEX = 63
#: What the dashboard sends to mean "the source given on the command line".
LAUNCH = "launch"


@dataclass(frozen=True)
class SourceChoice:
    """A source the session may open: its spec, and how the dashboard names it."""

    spec: str
    label: str


def allowed_source(spec: object, launch_source: str | None) -> SourceChoice:
    """Check a source asked for by the dashboard (or the command line's own) and return it.

    Raises
    ------
    InputError
        ``spec`` is not the launch source, a camera index or a registered source name.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise InputError("a source is 'launch', a camera index (0, 1, ...) or a registered source name")
    spec = spec.strip()
    if launch_source is not None and spec in (LAUNCH, launch_source):
        return SourceChoice(launch_source, launch_source)
    if spec.isascii() and spec.isdigit() and int(spec) <= MAX_CAMERA_INDEX:
        return SourceChoice(spec, f"camera {int(spec)}")
    if spec in registered_sources():
        return SourceChoice(spec, spec)
    offered = ", ".join(["camera indices 0, 1, ...", *registered_sources()] +
                        ([f"'launch' ({launch_source})"] if launch_source else []))
    raise InputError(f"the dashboard cannot open source {spec!r}: choose one of {offered}; files, folders and "
                     "streams are given on the command line (tableref serve --source)")
