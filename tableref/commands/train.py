"""``tableref train``: run a registered training recipe; the model and its card land in --out."""

from __future__ import annotations

import shlex
from pathlib import Path

import click

from .. import models

#: Shipped models live in the ``tableref.models`` package folder.
DEFAULT_OUT = Path(models.__file__).resolve().parent
#: Models trained on labelled real photos (--data) rather than by a recipe.
PHOTO_MODELS = {"dice-detector": "dice boxes in ordinary photos (trained on the tune half of --data)",
                "dice-verifier": "die-or-not check of dice-detector's proposals (run after dice-detector)"}
#: Models that map a whole photograph rather than classify crops, trained by their own loop.
MAP_MODELS = {"daluigi-cover-map": "which pixels of a Da Luigi photo a hand or an object covers (a map)"}
#: Where the labelled dice photos lie in a checkout with shared/ beside it.
DEFAULT_DICE_DATA = DEFAULT_OUT.parent.parent / "shared" / "data" / "real" / "dice-photos"


@click.command("train")
@click.option("--model", "name", metavar="NAME", help="The recipe to run (see --list).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder for NAME.onnx and NAME.card.json [default: the models package folder].")
@click.option("--epochs", type=click.IntRange(min=1), default=None, help="Override the recipe's epochs.")
@click.option("--max-steps", type=click.IntRange(min=1), default=None, help="Stop after this many steps.")
@click.option("--samples", type=click.IntRange(min=8), default=None, help="Override the recipe's pool size.")
@click.option("--data", type=click.Path(file_okay=False, path_type=Path), default=None,
              help=f"Labelled photo folder for dice-detector and dice-verifier [default: {DEFAULT_DICE_DATA}].")
@click.option("--list", "list_only", is_flag=True, help="List the recipes and exit.")
def command(name: str | None, out: Path | None, epochs: int | None, max_steps: int | None,
            samples: int | None, data: Path | None, list_only: bool) -> None:
    """Train a classifier by recipe name, export it to ONNX, check it, and write its card.

    Needs the optional train extra (PyTorch): pip install 'tableref[train]'.
    """
    from ..models.training.recipes import get_recipe, recipes, run_recipe

    if list_only:
        for recipe in recipes().values():
            click.echo(f"{recipe.name}\t{recipe.description}")
        for other, description in {**PHOTO_MODELS, **MAP_MODELS}.items():
            click.echo(f"{other}\t{description}")
        return
    if not name:
        raise click.UsageError("give --model NAME (or --list to see the recipes)")
    if name in PHOTO_MODELS:
        from ..models.training import dice, dice_verifier
        run, length = ((dice.train_from_cli, max_steps) if name == "dice-detector"
                       else (dice_verifier.verifier_from_cli, epochs))
        for line in run(data or DEFAULT_DICE_DATA, out if out is not None else DEFAULT_OUT, length,
                        data is not None, progress=lambda text: click.echo(f"  {text}", err=True)):
            click.echo(line)
        return
    recipe = None if name in MAP_MODELS else get_recipe(name)
    from ..models.training import require_torch
    require_torch()
    out = out if out is not None else DEFAULT_OUT
    words = ["tableref", "train", "--model", name]
    for flag, value in (("--epochs", epochs), ("--max-steps", max_steps), ("--samples", samples)):
        if value is not None:
            words += [flag, str(value)]

    def progress(epoch: int, steps: int, loss: float) -> None:
        click.echo(f"  epoch {epoch}: {steps} steps, mean loss {loss:.4f}", err=True)

    if recipe is None:
        _train_map(out, shlex.join(words), epochs, max_steps, samples, progress)
        return

    result = run_recipe(recipe, out, shlex.join(words), epochs=epochs, max_steps=max_steps,
                        samples=samples, progress=progress)
    training = result.card.training
    click.echo(f"{result.card.name}: validation accuracy {training.val_accuracy:.4f} on "
               f"{training.val_samples} samples ({training.measured_on}); "
               f"{result.card.parameters} parameters; onnxruntime agrees with PyTorch within "
               f"{result.max_probability_diff:.1e}; {result.seconds:.1f} s")
    click.echo(f"wrote {result.card_path.with_name(result.card.file)} and {result.card_path}")


def _train_map(out: Path, command_line: str, epochs: int | None, max_steps: int | None, samples: int | None,
               progress) -> None:
    """Train the cover map (``--samples``: its training renders)."""
    from ..models.training import cover_map

    result = cover_map.train_cover_map(out, command_line, renders=samples or cover_map.RENDERS,
                                       epochs=epochs or cover_map.EPOCHS, max_steps=max_steps, progress=progress)
    training = result.card.training
    click.echo(f"{result.card.name}: validation accuracy {training.val_accuracy:.4f} and IoU {result.iou:.3f} "
               f"on {training.val_samples} map points ({training.measured_on}); {result.card.parameters} "
               f"parameters; onnxruntime agrees with PyTorch within {result.max_map_diff:.1e}; "
               f"{result.seconds:.1f} s")
    click.echo(f"wrote {result.card_path.with_name(result.card.file)} and {result.card_path}")
