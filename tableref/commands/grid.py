"""``tableref grid IMAGE``: find a board of square cells in a photograph, no markers needed.

Prints the number of rows and columns and, per cell, its four corners in image pixels and its
mean colour (BGR, with a plain colour name). Rows run down the image, columns across it; see
docs/grid.md for the conventions. ``--annotate OUT.png`` draws the cells found.
"""

from __future__ import annotations

import json
from pathlib import Path

import click
import numpy as np


@click.command("grid")
@click.argument("image", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print every cell as JSON (else a short summary).")
@click.option("--annotate", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the image with the cells found drawn on it (PNG or JPEG).")
def command(image: Path, as_json: bool, annotate: Path | None) -> None:
    """Find the board of square cells in IMAGE: rows, columns, each cell's corners and colour."""
    import cv2

    from ..vision.imageio import read_image, write_image
    from ..vision.lattice import cell_colours, find_lattice, lattice_json

    picture = read_image(image)
    lattice = find_lattice(picture)
    colours = cell_colours(picture, lattice)
    if annotate is not None:
        out = picture.copy()
        for quad in lattice.cell_quads().reshape(-1, 4, 2):
            cv2.polylines(out, [np.round(quad).astype(np.int32)], True, (0, 255, 0), 1, cv2.LINE_AA)
        write_image(annotate, out)
    if as_json:
        click.echo(json.dumps({"image": str(image), **lattice_json(lattice, colours)}, indent=2))
    else:
        click.echo(f"{lattice.rows} rows x {lattice.columns} columns, cells about {lattice.cell_size_px():.0f} px "
                   f"(corners stray {lattice.rms_px:.1f} px from a flat grid)")
