"""Training of the dice detector (``tableref train --model dice-detector``).

The detector learns from the labelled real photos of a folder (``images/`` and
``boxes.csv``, see :mod:`tableref.vision.dice.labels`), and only from its *tune* half: the
split is by file name, so the *held-out* half is never trained or tuned on. The run:

1. trains :class:`~.dice_net.DiceNet` on augmented crops of the tune photos (seeded, 2 threads);
2. exports it to ONNX and checks that onnxruntime gives PyTorch's maps;
3. picks the decoding's minimum confidence on the tune photos (best F1, then exact counts);
4. measures recall, precision and exact counts on the held-out photos, and writes
   ``dice-detector.onnx``, its card and its settings (without a verifier).

Then ``tableref train --model dice-verifier`` (:mod:`.dice_verifier`) trains the proposal
verifier on the same tune photos and completes the settings.
"""

from __future__ import annotations

import datetime as _dt
import logging
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from ...vision.dice.decode import HEAT, LOG_SIZE, OFFSET, DecodeSettings
from ...vision.dice.detect import LABELS, MODEL_NAME, SETTINGS_SUFFIX, DetectorSettings, DiceDetector, save_settings
from ...vision.dice.labels import HELD_OUT, TUNE, read_folder
from ...vision.dice.score import Totals
from ...vision.imageio import read_image
from ..card import MODEL_SUFFIX, CropSettings, ModelCard, Preprocessing, TrainingRecord, save_card
from . import TrainingError, require_torch

log = logging.getLogger(__name__)

#: The network sees photos scaled so that their longer side is 320 px (a 640 px photo at half size).
PREPROCESSING = Preprocessing(input_size=(320, 320), colour="rgb", mean=(0.5, 0.5, 0.5),
                              std=(0.25, 0.25, 0.25), crop=CropSettings())
#: Seed of the crops, augmentation and initial weights.
TRAIN_SEED = 7
#: The split is by file name hash, not seeded; recorded as 0 in the card.
SPLIT_SEED = 0
#: Minimum confidences tried on the tune half.
CONFIDENCE_GRID = tuple(round(0.2 + 0.05 * i, 2) for i in range(13))
#: onnxruntime and PyTorch must agree on every output map within this.
MAX_MAP_DIFF = 1e-3


@dataclass(frozen=True)
class DiceTrainSettings:
    """Optimiser settings of the detector.

    Attributes
    ----------
    steps : int
        Optimiser steps (each a batch of fresh augmented crops).
    batch_size : int
    learning_rate : float
        Peak AdamW learning rate, after a linear warm-up, with cosine decay to zero.
    warmup : int
        Warm-up steps.
    weight_decay : float
    size_weight, offset_weight : float
        Weights of the L1 losses of log-size and offset beside the focal centre loss.
    """

    steps: int = 800
    batch_size: int = 16
    learning_rate: float = 3e-3
    warmup: int = 50
    weight_decay: float = 1e-4
    size_weight: float = 1.0
    offset_weight: float = 1.0

    def __post_init__(self) -> None:
        for name in ("steps", "batch_size", "warmup"):
            value = getattr(self, name)
            least = 0 if name == "warmup" else 1
            if not isinstance(value, int) or isinstance(value, bool) or value < least:
                raise TrainingError(f"dice training {name} must be a whole number >= {least}, got {value!r}")


@dataclass(frozen=True)
class DiceTrainResult:
    """What a run produced."""

    card_path: Path
    card: ModelCard
    decode: DecodeSettings
    tune: Totals
    held_out: Totals
    max_map_diff: float
    seconds: float


def focal_loss(logits, target, alpha: float = 2.0, beta: float = 4.0):
    """Penalty-reduced focal loss of centre logits (N, h, w) against Gaussian targets, per centre."""
    torch = require_torch()
    p = torch.sigmoid(logits).clamp(1e-4, 1 - 1e-4)
    positive = target.ge(0.999).float()
    pos = -torch.log(p) * (1 - p) ** alpha * positive
    neg = -torch.log(1 - p) * p ** alpha * (1 - target) ** beta * (1 - positive)
    return (pos.sum() + neg.sum()) / positive.sum().clamp(min=1.0)


def detector_loss(out, maps, centres, settings: DiceTrainSettings):
    """Focal centre loss plus L1 of offsets and log-sizes at the centre cells."""
    torch = require_torch()
    heat = focal_loss(out[:, HEAT], maps[:, HEAT])
    mask = centres.unsqueeze(1)
    count = centres.sum().clamp(min=1.0)
    offset = (torch.abs(out[:, OFFSET] - maps[:, OFFSET]) * mask).sum() / count
    size = (torch.abs(out[:, LOG_SIZE] - maps[:, LOG_SIZE]) * mask).sum() / count
    return heat + settings.offset_weight * offset + settings.size_weight * size


def _batches(photos, images, prep, aug, rng, batch_size):
    from .dice_data import make_sample
    while True:
        picks = rng.integers(len(photos), size=batch_size)
        samples = [make_sample(images[i], photos[i].boxes, prep, aug, rng) for i in picks]
        yield tuple(np.stack(parts) for parts in zip(*samples))


def _train(model, photos, images, settings: DiceTrainSettings, rng,
           progress: Callable[[int, int, float], None] | None) -> None:
    torch = require_torch()
    from .dice_data import DiceAugmentation
    optimiser = torch.optim.AdamW(model.parameters(), lr=settings.learning_rate,
                                  weight_decay=settings.weight_decay)

    def rate(step: int) -> float:
        if step < settings.warmup:
            return (step + 1) / settings.warmup
        t = (step - settings.warmup) / max(1, settings.steps - settings.warmup)
        return 0.5 * (1.0 + math.cos(math.pi * min(t, 1.0)))

    schedule = torch.optim.lr_scheduler.LambdaLR(optimiser, rate)
    batches = _batches(photos, images, PREPROCESSING, DiceAugmentation(), rng, settings.batch_size)
    model.train()
    losses = []
    report_every = max(1, settings.steps // 20)
    for step in range(settings.steps):
        inputs, maps, centres = (torch.from_numpy(a) for a in next(batches))
        optimiser.zero_grad()
        loss = detector_loss(model(inputs), maps, centres, settings)
        loss.backward()
        optimiser.step()
        schedule.step()
        losses.append(loss.item())
        if (step + 1) % report_every == 0 or step + 1 == settings.steps:
            mean = float(np.mean(losses[-report_every:]))
            log.info("step %d/%d: mean loss %.4f", step + 1, settings.steps, mean)
            if progress is not None:
                progress(step + 1, settings.steps, mean)
    model.eval()


def export_onnx(model) -> bytes:
    """The detector as ONNX bytes (opset 17), input (batch, 3, H, W) -> maps (batch, 5, H/4, W/4)."""
    from .export import export_map_onnx
    return export_map_onnx(model, PREPROCESSING.input_size, "maps")


def _check_agreement(model, detector: DiceDetector, tensors: list[np.ndarray]) -> float:
    torch = require_torch()
    worst = 0.0
    with torch.no_grad():
        for tensor in tensors:
            expected = model(torch.from_numpy(tensor)).numpy()
            worst = max(worst, float(np.max(np.abs(expected - detector.maps(tensor)))))
    if worst >= MAX_MAP_DIFF:
        raise TrainingError(f"onnxruntime and PyTorch disagree: output maps differ by up to {worst:.2e} "
                            f"(allowed < {MAX_MAP_DIFF:.0e})")
    return worst


def _pick_confidence(detector: DiceDetector, photos, images) -> DecodeSettings:
    """The minimum confidence with the best F1 on ``photos`` (ties: more exact counts, then lower)."""
    from ...vision.dice.evaluate import evaluate_maps
    maps = [detector.photo_maps(image) for image in images]
    best, best_key = None, None
    for confidence in CONFIDENCE_GRID:
        settings = replace(detector.settings.decode, min_confidence=confidence)
        totals = evaluate_maps(maps, [p.boxes for p in photos], settings)
        key = (round(totals.f1, 6), totals.counted_right)
        log.info("min_confidence %.2f: recall %.4f precision %.4f exact %.3f",
                 confidence, totals.recall, totals.precision, totals.exact_count_share)
        if best_key is None or key > best_key:
            best, best_key = settings, key
    return best


def train_dice_detector(data: str | Path, out_dir: str | Path, command: str, *,
                        settings: DiceTrainSettings = DiceTrainSettings(),
                        progress: Callable[[int, int, float], None] | None = None) -> DiceTrainResult:
    """Train, export, tune and measure the dice detector; write it with its card into ``out_dir``.

    Parameters
    ----------
    data : path
        The labelled photo folder (``images/``, ``boxes.csv``).
    out_dir : path
        Folder for ``dice-detector.onnx``, its card and its decoding settings.
    command : str
        The command line recorded in the card.
    """
    require_torch()
    from ...vision.classifier import sha256_of
    from ...vision.dice.evaluate import evaluate_maps
    from .dice_net import DiceNet
    from .loop import seed_everything
    from .net import parameter_count

    started = time.perf_counter()
    rng = seed_everything(TRAIN_SEED)
    tune = read_folder(data, TUNE)
    held = read_folder(data, HELD_OUT)
    if not tune or not held:
        raise TrainingError(f"{data} must hold photos of both halves; got {len(tune)} tune and {len(held)} held-out")
    tune_images = [read_image(p.path) for p in tune]
    model = DiceNet()
    _train(model, tune, tune_images, settings, rng, progress)

    model_bytes = export_onnx(model)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    model_path = out / f"{MODEL_NAME}{MODEL_SUFFIX}"
    draft = ModelCard(
        name=MODEL_NAME, labels=LABELS, preprocessing=PREPROCESSING,
        training=TrainingRecord(train_seed=TRAIN_SEED, val_seed=SPLIT_SEED, val_accuracy=0.0,
                                val_samples=len(held), measured_on="(pending)",
                                date=_dt.date.today().isoformat(), command=command),
        file=model_path.name, sha256=sha256_of(model_bytes), parameters=parameter_count(model))
    detector = DiceDetector(draft, model_bytes, DetectorSettings(), str(model_path))
    tensors = [detector.prepare(image).tensor for image in tune_images[:4]]
    diff = _check_agreement(model, detector, tensors)
    decode = _pick_confidence(detector, tune, tune_images)
    detector = DiceDetector(draft, model_bytes, DetectorSettings(decode), str(model_path))
    tune_totals = evaluate_maps([detector.photo_maps(i) for i in tune_images], [p.boxes for p in tune], decode)
    held_totals = evaluate_maps([detector.photo_maps(read_image(p.path)) for p in held],
                                [p.boxes for p in held], decode)
    measured_on = (f"{len(held)} held-out real photos of {Path(data).name}/ (split by SHA-256 of the file "
                   f"name, never trained or tuned on; {held_totals.labelled} dice): val_accuracy is the F1 of "
                   f"die boxes at IoU >= 0.5; recall {held_totals.recall:.4f}, precision "
                   f"{held_totals.precision:.4f}, exact count in {held_totals.exact_count_share:.4f} of photos")
    card = replace(draft, training=replace(draft.training, val_accuracy=round(held_totals.f1, 6),
                                           measured_on=measured_on))
    model_path.write_bytes(model_bytes)
    card_path = save_card(card, out)
    save_settings(DetectorSettings(decode), out / f"{MODEL_NAME}{SETTINGS_SUFFIX}")
    seconds = time.perf_counter() - started
    log.info("dice-detector: held-out recall %.4f precision %.4f exact %.4f; %.1f s",
             held_totals.recall, held_totals.precision, held_totals.exact_count_share, seconds)
    return DiceTrainResult(card_path, card, decode, tune_totals, held_totals, diff, seconds)


def train_from_cli(data: Path, out_dir: Path, max_steps: int | None, explicit_data: bool,
                   progress: Callable[[str], None] | None = None) -> list[str]:
    """Run :func:`train_dice_detector` for ``tableref train --model dice-detector``; return the
    lines to print (figures and files written).

    ``max_steps`` overrides the number of steps (quick runs); ``explicit_data`` says whether
    ``--data`` was given (then it is recorded in the card's command).
    """
    import shlex
    words = ["tableref", "train", "--model", MODEL_NAME]
    if explicit_data:
        words += ["--data", str(data)]
    settings = DiceTrainSettings()
    if max_steps is not None:
        words += ["--max-steps", str(max_steps)]
        settings = replace(settings, steps=max_steps, warmup=min(settings.warmup, max_steps))

    def report(step: int, steps: int, loss: float) -> None:
        if progress is not None:
            progress(f"step {step}/{steps}: mean loss {loss:.4f}")

    result = train_dice_detector(data, out_dir, shlex.join(words), settings=settings, progress=report)
    lines = []
    for name, totals in (("tune", result.tune), ("held-out", result.held_out)):
        lines.append(f"{MODEL_NAME} on {totals.photos} {name} photos ({totals.labelled} dice): recall "
                     f"{totals.recall:.4f}, precision {totals.precision:.4f}, exact count in "
                     f"{totals.exact_count_share:.4f} of photos")
    lines.append(f"min_confidence {result.decode.min_confidence} (chosen on the tune photos); "
                 f"{result.card.parameters} parameters; onnxruntime agrees with PyTorch within "
                 f"{result.max_map_diff:.1e}; {result.seconds:.1f} s")
    lines.append(f"wrote {result.card_path.with_name(result.card.file)} and {result.card_path}")
    return lines
