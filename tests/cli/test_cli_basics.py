"""The command line itself: help everywhere, the version, and the exit codes."""

from __future__ import annotations

import subprocess
import sys

import click
import pytest

from tableref import __version__
from tableref.cli import COMMANDS, cli


def _all_command_paths(group: click.Group, prefix=()):
    ctx = click.Context(group)
    for name in group.list_commands(ctx):
        sub = group.get_command(ctx, name)
        yield prefix + (name,)
        if isinstance(sub, click.Group):
            yield from _all_command_paths(sub, prefix + (name,))


@pytest.mark.parametrize("path", [()] + list(_all_command_paths(cli)), ids=lambda p: " ".join(p) or "tableref")
def test_every_command_has_help(path, run_cli):
    result = run_cli(*path, "--help")
    assert result.code == 0, result
    assert "Usage:" in result.out


def test_version(run_cli):
    result = run_cli("--version")
    assert result.code == 0 and __version__ in result.out


@pytest.mark.parametrize("words", [("no-such-command",), ("rules", "new"), ("bench", "--no-such-flag"),
                                   ("bench", "--in-sequence"), ("bench", "--flags", "--withdraw-flags", "2"),
                                   ("bench", "--flags", "--revise-moves", "1")])
def test_bad_usage_exits_2(words, run_cli):
    result = run_cli(*words)
    assert result.code == 2, result
    assert "Traceback" not in result.err


def test_python_dash_m_runs_the_same_command():
    done = subprocess.run([sys.executable, "-m", "tableref", "--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and __version__ in done.stdout


def test_every_registered_command_imports():
    ctx = click.Context(cli)
    assert sorted(cli.list_commands(ctx)) == sorted(COMMANDS)
    for name in COMMANDS:
        assert cli.get_command(ctx, name) is not None


def test_usage_error_is_one_line(run_cli):
    result = run_cli("rules", "new", "--game", "chess", "--players", "2")
    assert result.code == 2
    assert result.err.count("\n") == 1 and result.err.startswith("error: ") and "chess" in result.err
