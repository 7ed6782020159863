"""``tableref capture SOURCE --out DIR``: save frames from any source as numbered images.

Handy for calibration photos: ``tableref capture 0 --count 20 --every 2 --out shots``.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import click

from ..input import InputError
from ..vision.capture import CaptureSettings, SourceState, open_source
from ..vision.errors import SourceError
from ..vision.imageio import write_image

#: Digits in the saved file numbers (frame_0001.png).
NUMBER_WIDTH = 4


def _next_number(out_dir: Path, prefix: str) -> int:
    """The number after the highest ``PREFIX_NNNN.png|jpg`` already in ``out_dir`` (1 if none)."""
    pattern = re.compile(rf"{re.escape(prefix)}_(\d+)\.(?:png|jpg)")
    numbers = [int(m.group(1)) for p in out_dir.iterdir() if (m := pattern.fullmatch(p.name))]
    return max(numbers, default=0) + 1


def _prepare(out_dir: Path) -> None:
    if out_dir.exists() and not out_dir.is_dir():
        raise InputError(f"--out {str(out_dir)!r} is a file, not a folder")
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"--out folder {str(out_dir)!r} cannot be created: {exc.strerror or exc}") from None


@click.command("capture")
@click.argument("source")
@click.option("--out", "out_dir", required=True, type=click.Path(path_type=Path),
              help="Folder to save into (created if missing); numbering continues after files already there.")
@click.option("--count", "-n", default=1, show_default=True, type=click.IntRange(min=1), help="Frames to save.")
@click.option("--every", default=0.0, show_default=True, type=click.FloatRange(min=0.0),
              help="Seconds between saved frames (0: each new frame).")
@click.option("--format", "fmt", default="png", show_default=True, type=click.Choice(["png", "jpg"]),
              help="Image format of the saved files.")
@click.option("--prefix", default="frame", show_default=True, help="File name prefix.")
@click.option("--fps", type=click.FloatRange(min=0.0, min_open=True),
              help="Rate at which to play an image folder, glob or video file (frames per second).")
@click.option("--loop", is_flag=True, help="Start a folder, glob or video file again when it ends.")
@click.option("--timeout", type=click.FloatRange(min=0.0, min_open=True),
              help="Give up when no frame arrives for this many seconds (default: the read timeout setting).")
def command(source: str, out_dir: Path, count: int, every: float, fmt: str, prefix: str,
            fps: float | None, loop: bool, timeout: float | None) -> None:
    """Grab frames from SOURCE and save them as numbered images in --out.

    SOURCE is a camera index (0, 1, ...), a video file, an image folder or glob, an
    rtsp:// or http(s):// stream URL, or a registered source name.
    """
    if not re.fullmatch(r"[A-Za-z0-9._-]+", prefix):
        raise InputError(f"--prefix must be letters, digits, '.', '_' or '-', got {prefix!r}")
    overrides: dict[str, object] = {"loop": loop, "every_frame": True}  # files and folders: drop nothing
    if fps is not None:
        overrides.update(folder_fps=fps, video_fps=fps)
    settings = CaptureSettings().replaced(**overrides)
    wait_s = timeout if timeout is not None else settings.read_timeout_s
    _prepare(out_dir)
    number = _next_number(out_dir, prefix)
    saved = 0
    with open_source(source, settings) as frames:
        next_due = time.monotonic()
        while saved < count:
            pause = next_due - time.monotonic()
            if pause > 0:
                time.sleep(pause)
            frame = frames.read(wait_s)
            if frame is None:
                status = frames.status()
                if status.state is SourceState.ENDED:
                    click.echo(f"{frames.name} ended after {status.frames} frame(s); saved {saved} of {count}")
                    return
                detail = f"; last error: {status.last_error}" if status.last_error else ""
                raise SourceError(f"no frame from {frames.name} within {wait_s:g} s "
                                  f"(state {status.state.value}{detail})")
            path = write_image(out_dir / f"{prefix}_{number:0{NUMBER_WIDTH}d}.{fmt}", frame.image)
            click.echo(f"saved {path} ({frame.width}x{frame.height}, frame {frame.sequence} of {frames.name})")
            saved += 1
            number += 1
            next_due = time.monotonic() + every
