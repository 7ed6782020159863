"""Shared fixtures: where the repository and the shared real data lie."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
#: CI clones the repository into a fresh folder and lays shared/ beside it.
SHARED = REPO_ROOT.parent / "shared"


@pytest.fixture(scope="session")
def repo_root() -> Path:
    return REPO_ROOT


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """``shared/data/real``: the real photographs. Missing data is an error, never a skip."""
    path = SHARED / "data" / "real"
    if not path.is_dir():
        raise FileNotFoundError(f"the shared real data is missing: expected {path}")
    return path


class CliResult:
    """Exit code and output of one ``tableref`` run inside the test process."""

    def __init__(self, code: int, out: str, err: str):
        self.code, self.out, self.err = code, out, err

    def __repr__(self) -> str:
        return f"CliResult(code={self.code}, err={self.err[-300:]!r})"


@pytest.fixture
def run_cli(capsys):
    """``run_cli("rules", "new", ...)`` runs ``tableref`` with those words and returns a CliResult."""
    from tableref.cli import main

    def run(*args: str) -> CliResult:
        capsys.readouterr()
        with pytest.raises(SystemExit) as exit_info:
            main([str(a) for a in args])
        captured = capsys.readouterr()
        return CliResult(int(exit_info.value.code or 0), captured.out, captured.err)

    return run
