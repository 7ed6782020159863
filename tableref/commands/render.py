"""``tableref render``: the digital twin's outputs: labelled renders of random game states,
contact sheets, print-and-play sheets.

``tableref render --game G --n N --out DIR [--seed S]`` writes N JPEG images and N JSON label
files (image k uses seed S + k; see ``tableref.vision.synthetic.dataset``).
"""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path

import click

log = logging.getLogger(__name__)

_GAMES = ("daluigi", "dolcevita", "ligretto")


#: Contact sheet JPEG quality (keeps a 24-tile sheet well under 600 KB).
_CONTACT_QUALITY = 85


@click.group("render", invoke_without_command=True)
@click.option("--game", type=click.Choice(_GAMES), help="Which game to render.")
@click.option("--n", "count", type=click.IntRange(min=1), help="How many images to write.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path),
              help="Folder for the images and labels (made if missing).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Seed of the first image; image k uses seed + k.")
@click.pass_context
def command(ctx: click.Context, game: str | None, count: int | None, out: Path | None, seed: int) -> None:
    """Render random states of a game as webcam photographs with JSON labels (ground truth:
    state, perfect observation, polygons, markers, camera); or a sub-command below."""
    if ctx.invoked_subcommand is not None:
        return
    missing = [name for name, value in (("--game", game), ("--n", count), ("--out", out)) if value is None]
    if missing:
        raise click.UsageError(f"missing {', '.join(missing)}: tableref render --game G --n N --out DIR [--seed S]",
                               ctx)
    _write_renders(game, count, out, seed)


def _write_renders(game: str, count: int, out: Path, seed: int) -> None:
    from tableref.vision.synthetic.dataset import sample

    if out.exists() and not out.is_dir():
        raise click.BadParameter(f"{out} exists and is not a folder", param_hint="--out")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise click.BadParameter(f"cannot make the folder {out}: {exc.strerror}", param_hint="--out") from None
    with click.progressbar(range(seed, seed + count), label=f"rendering {game}", file=sys.stderr) as seeds:
        for s in seeds:
            result = sample(game, s)
            stem = out / f"{game}-{s:06d}"
            stem.with_suffix(".jpg").write_bytes(result.jpeg)
            stem.with_suffix(".json").write_text(json.dumps(result.labels(), separators=(",", ":")), encoding="utf-8")
    log.info("wrote %d renders of %s to %s", count, game, out)
    click.echo(f"{count} image(s) and label file(s) of {game} in {out}")


@command.command("contact-sheet")
@click.option("--game", type=click.Choice(_GAMES), required=True, help="Which game to render.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), required=True, help="FILE.jpg to write.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True, help="Seed of the first render.")
def contact_sheet_(game: str, out: Path, seed: int) -> None:
    """Write 24 random renders of one game in a 6 x 4 grid of 320-pixel tiles (JPEG)."""
    import cv2

    from tableref.vision.synthetic.dataset import contact_sheet

    if out.suffix.lower() not in (".jpg", ".jpeg"):
        raise click.BadParameter(f"must end in .jpg, got {out.name!r}", param_hint="--out")
    if not out.parent.is_dir():
        raise click.BadParameter(f"the folder does not exist: {out.parent}", param_hint="--out")
    sheet = contact_sheet(game, seed)
    _, data = cv2.imencode(".jpg", sheet, [cv2.IMWRITE_JPEG_QUALITY, _CONTACT_QUALITY])
    out.write_bytes(data.tobytes())
    click.echo(f"{out}: {sheet.shape[1]} x {sheet.shape[0]} px, {len(data) // 1024} KB")


@command.command("print")
@click.option("--game", type=click.Choice(_GAMES), required=True, help="Which game's components to print.")
@click.option("--out", "out", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="FILE.pdf for one PDF, or FILE.png for numbered PNG pages (FILE-01.png, ...).")
def print_(game: str, out: Path) -> None:
    """Write true-size A4 pages at 300 dpi of one game's printed parts."""
    from tableref.vision.synthetic.errors import SheetError
    from tableref.calibration.pdf import pdf_bytes, png_bytes
    from tableref.vision.synthetic.sheets import A4_MM, DPI, print_sheet

    suffix = out.suffix.lower()
    if suffix not in (".pdf", ".png"):
        raise SheetError(f"--out must end in .pdf or .png, got {out.name!r}")
    if not out.parent.is_dir():
        raise SheetError(f"the folder for --out does not exist: {out.parent}")
    sheet = print_sheet(game)
    if suffix == ".pdf":
        out.write_bytes(pdf_bytes(list(sheet.pages), A4_MM))
        written = [out]
    else:
        written = []
        for k, page in enumerate(sheet.pages, start=1):
            path = out.with_name(f"{out.stem}-{k:02d}.png")
            path.write_bytes(png_bytes(page, DPI))
            written.append(path)
    log.info("wrote %d page(s) for %s", len(sheet.pages), game)
    click.echo(f"{len(sheet.pages)} A4 page(s) at {DPI} dpi: " + ", ".join(str(p) for p in written))
