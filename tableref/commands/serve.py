"""``tableref serve``: the live referee and its dashboard.

Opens the game log (resuming the game in play there), the frame source and the calibration
profile, then serves the dashboard on 127.0.0.1 unless told otherwise.
"""

from __future__ import annotations

import importlib
import ipaddress
import logging
import signal
from pathlib import Path

import click

from ..calibration.profile import load_profile
from ..gamelog import DEFAULT_LOG, GameLog, PlayerInfo
from ..input import InputError
from ..rules import GAMES, game
from ..rules.common import players_problem
from ..session import Session, SessionSettings
from ..vision.capture import CaptureSettings

log = logging.getLogger(__name__)

#: Colours given to players started from the command line (red, blue, green, yellow, purple).
DEFAULT_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#e6b800", "#9467bd")
#: Host names accepted in the Host header when serving on a loopback address.
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _load_plugins(modules: tuple[str, ...]) -> None:
    for name in modules:
        try:
            importlib.import_module(name)
        except ImportError as exc:
            raise InputError(f"--plugin {name!r} cannot be imported: {exc}") from None


def _stop_on_sigterm() -> None:
    def handler(signum: int, frame: object) -> None:
        raise KeyboardInterrupt
    signal.signal(signal.SIGTERM, handler)


@click.command("serve")
@click.option("--source", default="demo", show_default=True,
              help="Frames: 'demo' (the built-in virtual table), a camera index, a video file, an image folder or a "
                   "stream URL.")
@click.option("--game", "game_name", type=click.Choice(sorted(GAMES)), help="Start this game at once.")
@click.option("--players", type=click.IntRange(min=1), default=2, show_default=True,
              help="Players of the game started with --game.")
@click.option("--seed", type=click.IntRange(min=0),
              help="Seed of the setup's shuffle for the game started with --game, for a table laid out from the "
                   "same seed (default: none, the camera reads the setup from the table).")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(min=0, max=65535), default=8000, show_default=True,
              help="Port to listen on (0: any free port).")
@click.option("--log", "log_path", type=click.Path(path_type=Path), default=DEFAULT_LOG, show_default=True,
              help="The game log (SQLite); a game in play there is resumed.")
@click.option("--profile", "profile_path", type=click.Path(path_type=Path),
              help="Calibration profile (from tableref calibrate).")
@click.option("--fps", type=click.FloatRange(min=0.0, min_open=True),
              help="Rate at which an image folder or video file is played (frames per second).")
@click.option("--loop", "loop_files", is_flag=True, help="Start an image folder or video file again when it ends.")
@click.option("--plugin", "plugins", multiple=True, metavar="MODULE",
              help="Import MODULE first (it may register recognisers or frame sources); repeatable.")
@click.option("--withdraw-flags", type=click.IntRange(0, 10), default=3, show_default=True,
              help="The camera's open flags (in a row, latest first) that a later reading may withdraw when it is "
                   "legal from before them and plainly shows what they saw gone; 0: flags stay until decided.")
@click.option("--revise-moves", type=click.IntRange(0, 10), default=2, show_default=True,
              help="The moves accepted last (in a row, latest first) that a later reading may revise when it "
                   "plainly shows what they saw misread and is explained better from before them; 0: never.")
def command(source: str | None, game_name: str | None, players: int, seed: int | None, host: str, port: int,
            log_path: Path, profile_path: Path | None, fps: float | None, loop_files: bool,
            plugins: tuple[str, ...], withdraw_flags: int, revise_moves: int) -> None:
    """Referee a game live from the camera and serve the dashboard."""
    from werkzeug.serving import make_server

    from ..webui import create_app

    if not log.isEnabledFor(logging.DEBUG):
        logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request unless -v
    _load_plugins(plugins)
    profile = load_profile(profile_path) if profile_path is not None else None
    capture = CaptureSettings(loop=loop_files, retry_first_open=True)
    if fps is not None:
        capture = capture.replaced(folder_fps=fps, video_fps=fps)
    gamelog = GameLog(log_path)
    session = Session(gamelog, SessionSettings(capture=capture, withdraw_flags=withdraw_flags,
                                                       revise_moves=revise_moves), profile=profile,
                      launch_source=source)
    try:
        resumed = session.resume()
        if resumed is not None:
            if game_name is not None and (game_name != resumed.game or players != len(resumed.players)):
                raise InputError(f"the log {str(log_path)!r} has game {resumed.id} ({resumed.game}, "
                                 f"{len(resumed.players)} players) in play; stop it on the dashboard or use "
                                 "another --log")
            click.echo(f"resuming game {resumed.id} ({resumed.game})", err=True)
        elif game_name is not None:
            rules = game(game_name)
            problem = players_problem(game_name, players, rules.MIN_PLAYERS, rules.MAX_PLAYERS)
            if problem:
                raise InputError(problem)
            names = [PlayerInfo(f"Player {i + 1}", DEFAULT_COLOURS[i % len(DEFAULT_COLOURS)]) for i in range(players)]
            record = session.start_game(game_name, names, None, seed)
            click.echo(f"started game {record.id} ({game_name})", err=True)
        if source is not None:
            session.set_source(source)
        loopback = _is_loopback(host)
        if not loopback:
            log.warning("the dashboard listens on %s: anyone who can reach it can control the game", host)
        app = create_app(session, {"ALLOWED_HOSTS": LOOPBACK_NAMES if loopback else None})
        try:
            server = make_server(host, port, app, threaded=True)
        except (OSError, SystemExit):  # werkzeug exits when the address is taken
            raise InputError(f"cannot listen on {host}:{port}: the port is in use, or the address is not one of "
                             "this machine's; choose another --port or --host") from None
        _stop_on_sigterm()
        shown = f"[{host}]" if ":" in host else host
        click.echo(f"tableref dashboard: http://{shown}:{server.server_port}/", err=True)
        try:
            server.serve_forever()
        finally:
            server.server_close()
    finally:
        session.close()
        gamelog.close()
