"""The ``tableref`` command line.

Exit codes: 0 ok; 2 bad usage or bad input (one line naming what is wrong, no traceback);
3 an illegal move (``tableref rules apply``); 1 an internal error.
"""

from __future__ import annotations

import importlib
import logging
import sys

import click

from . import __version__

log = logging.getLogger("tableref")

EXIT_OK, EXIT_INTERNAL, EXIT_INPUT, EXIT_ILLEGAL = 0, 1, 2, 3

#: Sub-command modules under ``tableref.commands``; each exposes a click command ``command``.
COMMANDS = ("analyze", "bench", "calibrate", "capture", "dice", "enrol", "export", "grid", "render", "rules", "serve",
            "train")


class _LazyGroup(click.Group):
    """Import a sub-command's module only when it is used (keeps ``--help`` fast)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        return importlib.import_module(f"tableref.commands.{name}").command


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="tableref")
@click.option("-v", "--verbose", is_flag=True, help="Debug logging (and tracebacks on internal errors).")
@click.pass_context
def cli(ctx: click.Context, verbose: bool) -> None:
    """tableref: a camera referee for Da Luigi, Dolce Vita and Ligretto: Das Brettspiel."""
    logging.basicConfig(level=logging.DEBUG if verbose else logging.WARNING,
                        format="%(levelname)s %(name)s: %(message)s")
    ctx.obj = {"verbose": verbose}


def _input_errors() -> tuple[type[BaseException], ...]:
    from .input import InputError
    from .rules.errors import RulesError
    from .calibration.errors import CalibrationError
    from .vision.errors import VisionError
    return (InputError, RulesError, CalibrationError, VisionError)


def main(argv: list[str] | None = None) -> None:
    """Entry point of the console script: run the command, map errors to exit codes."""
    from .rules.errors import IllegalMove
    args = list(argv) if argv is not None else sys.argv[1:]
    verbose = "-v" in args or "--verbose" in args
    try:
        cli.main(args=args, prog_name="tableref", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(EXIT_INPUT)
    except click.UsageError as exc:
        where = exc.ctx.command_path if exc.ctx is not None else "tableref"
        click.echo(f"error: {exc.format_message()} (see '{where} --help')", err=True)
        sys.exit(EXIT_INPUT)
    except click.ClickException as exc:
        click.echo(f"error: {exc.format_message()}", err=True)
        sys.exit(EXIT_INPUT)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except IllegalMove as exc:
        click.echo(f"illegal move ({exc.code}): {exc.sentence}", err=True)
        sys.exit(EXIT_ILLEGAL)
    except _input_errors() as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_INPUT)
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as exc:  # the one place that turns an unexpected failure into exit 1
        if verbose:
            log.exception("internal error")
        click.echo(f"internal error: {type(exc).__name__}: {exc} (run with -v for details)", err=True)
        sys.exit(EXIT_INTERNAL)
    sys.exit(EXIT_OK)
