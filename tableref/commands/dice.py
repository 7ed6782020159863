"""``tableref dice IMAGE...``: find every die in ordinary photos (no markers, no calibration).

Per photo, the dice's boxes (photo pixels), colour names and confidences: a short table, or
with ``--json`` one JSON object per photo and line (JSON Lines), in the order given::

    {"file": "a.jpg", "dice": [{"box": [xmin, ymin, xmax, ymax], "colour": "red", "confidence": 0.93}]}

A photo that cannot be read (missing, a folder, not an image, truncated) does not stop the
others: its entry is ``{"file": ..., "error": "..."}`` (a row ``error: ...`` in the table),
and after every photo is done the command ends with one line ``error: ...`` on stderr and
exit code 2.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from ..vision.errors import ImageError


def _table(file: str, dice) -> list[str]:
    lines = [f"{file}: {len(dice)} {'die' if len(dice) == 1 else 'dice'}"]
    if dice:
        lines.append(f"  {'#':>3}  {'colour':<7} {'conf':>5}  box (xmin ymin xmax ymax, px)")
        for i, die in enumerate(dice, start=1):
            box = " ".join(f"{v:.0f}" for v in die.box)
            lines.append(f"  {i:>3}  {die.colour:<7} {die.confidence:>5.2f}  {box}")
    return lines


@click.command("dice")
@click.argument("images", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="One JSON object per photo and line.")
@click.option("--model", "card", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="A detector's card (NAME.card.json) [default: the shipped dice-detector].")
def command(images: tuple[Path, ...], as_json: bool, card: Path | None) -> None:
    """Find every die in each photo IMAGE: box, colour and confidence.

    Works on top-down photos where a die is roughly 3% to 11% of the photo's longer side
    (see docs/dice.md for what was measured).
    """
    from ..vision.dice.detect import DiceDetector
    from ..vision.imageio import read_image

    detector = DiceDetector.open(card)
    failures = []
    for path in images:
        try:
            dice = detector.detect(read_image(path))
        except ImageError as exc:
            failures.append(str(exc))
            entry = {"file": str(path), "error": str(exc)}
            click.echo(json.dumps(entry) if as_json else f"{path}: error: {exc}")
            continue
        if as_json:
            click.echo(json.dumps({"file": str(path), "dice": [d.to_json() for d in dice]}))
        else:
            click.echo("\n".join(_table(str(path), dice)))
    if len(failures) == 1:
        raise ImageError(failures[0])
    if failures:
        raise ImageError(f"{len(failures)} of {len(images)} photos could not be read: {'; '.join(failures)}")
