"""The README's two set-up commands stay true: CI runs the test command word for word."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _setup_commands() -> list[str]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text.split("## Set up on a fresh machine", 1)[1].split("\n## ", 1)[0]
    return [block.strip() for block in re.findall(r"```sh\n(.*?)```", section, re.S)]


def test_readme_has_exactly_two_setup_commands():
    commands = _setup_commands()
    assert len(commands) == 2, commands
    assert all("\n" not in c for c in commands), "each set-up command is one line"


def test_ci_runs_the_readme_test_command():
    ci_lines = [line.strip() for line in (REPO / ".ci" / "run").read_text().splitlines()]
    assert _setup_commands()[1] in ci_lines


def test_main_command_is_a_real_command():
    from tableref.cli import COMMANDS
    main = _setup_commands()[0]
    words = main.split(".venv/bin/tableref ", 1)[1].split()
    assert words[0] in COMMANDS
