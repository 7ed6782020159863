"""``tableref export GAME_ID``: a game's whole record from the game log, as JSON."""

from __future__ import annotations

import json
from pathlib import Path

import click

from ..gamelog import DEFAULT_LOG, GameLog, LogError
from ..input import InputError


@click.command("export")
@click.argument("game_id")
@click.option("--log", "log_path", type=click.Path(path_type=Path), default=DEFAULT_LOG, show_default=True,
              help="The game log (SQLite) written by tableref serve.")
@click.option("--out", "out_path", type=click.Path(path_type=Path, dir_okay=False),
              help="Write the record to this file instead of printing it.")
def command(game_id: str, log_path: Path, out_path: Path | None) -> None:
    """Write the record of game GAME_ID (its players, every event and state) as JSON."""
    if not log_path.is_file():
        raise LogError(f"game log {str(log_path)!r} " + ("is a folder" if log_path.is_dir() else "does not exist")
                       + "; name the log with --log")
    gamelog = GameLog(log_path)
    try:
        text = json.dumps(gamelog.export(game_id), indent=2, ensure_ascii=False)
    finally:
        gamelog.close()
    if out_path is None:
        click.echo(text)
        return
    try:
        out_path.write_text(text + "\n", encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot write {str(out_path)!r}: {exc.strerror or exc}") from None
    click.echo(f"wrote game {game_id} to {out_path}", err=True)
