"""``tableref render``: the digital twin's outputs (print-and-play sheets)."""

from __future__ import annotations

import logging
from pathlib import Path

import click

log = logging.getLogger(__name__)

_GAMES = ("daluigi", "dolcevita", "ligretto")


@click.group("render")
def command() -> None:
    """Render the games' components: print-and-play sheets."""


@command.command("print")
@click.option("--game", type=click.Choice(_GAMES), required=True, help="Which game's components to print.")
@click.option("--out", "out", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="FILE.pdf for one PDF, or FILE.png for numbered PNG pages (FILE-01.png, ...).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Seed of the sample parts whose list is not published (guest cards, Ligretto sections).")
def print_(game: str, out: Path, seed: int) -> None:
    """Write true-size A4 pages at 300 dpi of one game's printed parts."""
    from tableref.vision.synthetic.errors import SheetError
    from tableref.calibration.pdf import pdf_bytes, png_bytes
    from tableref.vision.synthetic.sheets import A4_MM, DPI, print_sheet

    suffix = out.suffix.lower()
    if suffix not in (".pdf", ".png"):
        raise SheetError(f"--out must end in .pdf or .png, got {out.name!r}")
    if not out.parent.is_dir():
        raise SheetError(f"the folder for --out does not exist: {out.parent}")
    sheet = print_sheet(game, seed=seed)
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
