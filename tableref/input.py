"""Reading user-supplied files (JSON) with errors that name the file and the problem."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


class InputError(ValueError):
    """A file or argument given by the user that cannot be used."""


def read_json(path: str | Path, what: str = "JSON file") -> Any:
    """Parse the JSON file at ``path``; raise :class:`InputError` naming it when that fails."""
    p = Path(path)
    if not p.exists():
        raise InputError(f"{what} {str(p)!r} does not exist")
    if p.is_dir():
        raise InputError(f"{what} {str(p)!r} is a folder, not a file")
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{what} {str(p)!r} cannot be read: {exc}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{what} {str(p)!r} is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
