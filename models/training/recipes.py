"""Training recipes: named ways to make one model, and the pipeline that runs one.

A recipe says which samples to build, which labels and preprocessing the model has, how to
augment and how long to train. Recipes register themselves by name; ``tableref train --model
NAME`` runs one. Later recipes (one per game's recogniser) add a module to
:data:`RECIPE_MODULES`. Nothing here imports PyTorch until a recipe is run.
"""

from __future__ import annotations

import datetime as _dt
import importlib
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..card import MODEL_SUFFIX, ModelCard, Preprocessing, TrainingRecord, save_card
from . import TrainingError, require_torch
from .augment import Augmentation
from .dataset import Sample

log = logging.getLogger(__name__)

#: Modules whose import registers recipes (each calls :func:`register`).
RECIPE_MODULES = ("tableref.models.training.smoke", "tableref.models.training.dolcevita",
                  "tableref.models.training.dolcevita_cover",
                  "tableref.models.training.ligretto", "tableref.models.training.daluigi",
                  "tableref.models.training.daluigi_dishes", "tableref.models.training.ligretto_borders",
                  "tableref.models.training.ligretto_hidden", "tableref.models.training.ligretto_seams")

#: Builds the sample pool: ``build(seed, count)`` -> at least ``count`` samples.
Builder = Callable[[int, int], Sequence[Sample]]


@dataclass(frozen=True)
class Recipe:
    """How to make one model.

    Attributes
    ----------
    name : str
        The model's name (card and file name).
    description : str
        One line for ``tableref train --list``.
    labels : tuple of str
    preprocessing : Preprocessing
        Written into the card; the shared crop uses it in training and at run time.
    build : Builder
        Makes the pool of samples; seeded.
    samples : int
        Size of the pool (train plus validation).
    val_fraction : float
        Share of the pool kept for validation (stratified split).
    measured_on : str
        What the validation images are, for the card's accuracy claim.
    augmentation : Augmentation
    settings : TrainSettings-like keyword mapping
        Keyword arguments for :class:`~.loop.TrainSettings` (kept as a dict so that this
        module imports without PyTorch).
    train_seed, val_seed : int
        Seeds of the pool (and training), and of the split.
    widths : tuple of int
        Channels of the network's blocks.
    pool_grid : int
        Side of the grid the last block's map is averaged to before the classifier layer
        (1: global pooling; 2 or more keeps where on the crop a feature lies).
    split : callable, optional
        Splits the pool into (train, validation) itself (e.g. by render seed ranges);
        None: a stratified random split with ``val_seed`` and ``val_fraction``.
    """

    name: str
    description: str
    labels: tuple[str, ...]
    preprocessing: Preprocessing
    build: Builder
    samples: int
    val_fraction: float
    measured_on: str
    augmentation: Augmentation = Augmentation()
    settings: dict = field(default_factory=dict)
    train_seed: int = 1
    val_seed: int = 2
    widths: tuple[int, ...] = (16, 32, 64, 128)
    pool_grid: int = 1
    split: Callable[[Sequence[Sample]], tuple[list[Sample], list[Sample]]] | None = None


@dataclass(frozen=True)
class TrainResult:
    """What a run produced: the card (beside its ``.onnx``) and the checks' figures."""

    card_path: Path
    card: ModelCard
    steps: int
    max_probability_diff: float
    seconds: float


_REGISTRY: dict[str, Recipe] = {}


def register(recipe: Recipe) -> Recipe:
    """Add ``recipe`` under its name (a second recipe of the same name is an error)."""
    if recipe.name in _REGISTRY and _REGISTRY[recipe.name] is not recipe:
        raise TrainingError(f"a training recipe named {recipe.name!r} is already registered")
    _REGISTRY[recipe.name] = recipe
    return recipe


def recipes() -> dict[str, Recipe]:
    """Every registered recipe by name (imports :data:`RECIPE_MODULES` first)."""
    for module in RECIPE_MODULES:
        importlib.import_module(module)
    return dict(sorted(_REGISTRY.items()))


def get_recipe(name: str) -> Recipe:
    """The recipe called ``name``, or a :class:`TrainingError` listing the known ones."""
    known = recipes()
    if name not in known:
        raise TrainingError(f"no training recipe named {name!r}; known: {', '.join(known) or 'none'}")
    return known[name]


def run_recipe(recipe: Recipe, out_dir: str | Path, command: str, *, epochs: int | None = None,
               max_steps: int | None = None, samples: int | None = None,
               progress: Callable[[int, int, float], None] | None = None) -> TrainResult:
    """Build the samples, train, export ``NAME.onnx``, check it, and write ``NAME.card.json``.

    Parameters
    ----------
    recipe : Recipe
    out_dir : path
        Folder for the model and its card (created if missing).
    command : str
        The command line recorded in the card.
    epochs, max_steps, samples : int, optional
        Overrides of the recipe's length and pool size (quick runs).

    Raises
    ------
    TrainingError
        Without PyTorch, or when the exported model disagrees with PyTorch.
    """
    require_torch()
    from ...vision.classifier import Classifier, sha256_of
    from .dataset import label_indices, make_inputs, split
    from .export import check_agreement, export_onnx
    from .loop import TrainSettings, seed_everything, train
    from .net import SmallNet, parameter_count

    started = time.perf_counter()
    settings = TrainSettings(**recipe.settings)
    if epochs is not None or max_steps is not None:
        settings = replace(settings, epochs=epochs or settings.epochs, max_steps=max_steps)
    rng = seed_everything(recipe.train_seed)
    pool = list(recipe.build(recipe.train_seed, samples or recipe.samples))
    if recipe.split is not None:
        train_set, val_set = recipe.split(pool)
    else:
        train_set, val_set = split(pool, recipe.val_fraction, recipe.val_seed)
    if not val_set:
        raise TrainingError(f"recipe {recipe.name!r} left no validation samples; build more samples")
    prep = recipe.preprocessing
    model = SmallNet(prep.channels, len(recipe.labels), recipe.widths, recipe.pool_grid)
    steps = train(model, train_set, recipe.labels, prep, settings, recipe.augmentation, rng, progress)

    val_inputs = make_inputs(val_set, prep)
    val_targets = label_indices(val_set, recipe.labels)
    model_bytes = export_onnx(model, prep)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    model_path = out / f"{recipe.name}{MODEL_SUFFIX}"
    draft = ModelCard(
        name=recipe.name, labels=recipe.labels, preprocessing=prep,
        training=TrainingRecord(train_seed=recipe.train_seed, val_seed=recipe.val_seed,
                                val_accuracy=0.0, val_samples=len(val_set), measured_on=recipe.measured_on,
                                date=_dt.date.today().isoformat(), command=command),
        file=model_path.name, sha256=sha256_of(model_bytes), parameters=parameter_count(model))
    runner = Classifier(draft, model_bytes, str(model_path))
    diff = check_agreement(model, runner, val_inputs)
    predicted = runner.predict(val_inputs).probabilities.argmax(axis=1)
    accuracy = float((predicted == val_targets).mean())
    card = replace(draft, training=replace(draft.training, val_accuracy=accuracy))
    model_path.write_bytes(model_bytes)
    card_path = save_card(card, out)
    seconds = time.perf_counter() - started
    log.info("%s: %d steps, validation accuracy %.4f on %d samples, max |p_ort - p_torch| %.2e, %.1f s",
             recipe.name, steps, accuracy, len(val_set), diff, seconds)
    return TrainResult(card_path, card, steps, diff, seconds)
