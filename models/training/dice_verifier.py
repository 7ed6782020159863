"""Training of the dice proposal verifier (``tableref train --model dice-verifier``).

The detector (:mod:`.dice`) proposes boxes; some are not dice (a dark hole in a tray, a
shadow). The verifier is a small crop classifier, ``die`` or ``other``, made with the shared
machinery of the card classifiers (:class:`~.net.SmallNet`, :func:`~.loop.train`, the shared
crop, :class:`~tableref.vision.classifier.Classifier`). It learns only from the *tune* half
of the labelled folder:

1. the shipped detector proposes boxes on every tune photo (down to a low centre score); a
   proposal overlapping a labelled die by IoU >= :data:`DIE_IOU` is ``die``, else ``other``;
   every labelled box is a ``die`` sample too;
2. the verifier is trained on these crops (a fifth of them, stratified, kept for its
   validation accuracy), exported to ONNX and checked against PyTorch;
3. the detector's least centre score and the verifier's least die probability are chosen
   together on the tune photos (best F1, then most exact counts);
4. the whole detector is measured on the held-out photos; the verifier, its card and the
   detector's settings (now naming the verifier) are written.
"""

from __future__ import annotations

import datetime as _dt
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from ...vision.dice.detect import (MODEL_NAME, SETTINGS_SUFFIX, VERIFIER_LABELS, DetectorSettings,
                                   DiceDetector, box_quads, save_settings)
from ...vision.dice.labels import HELD_OUT, TUNE, read_folder
from ...vision.dice.score import Totals, iou_matrix, score_photo, total
from ...vision.imageio import read_image
from ..card import MODEL_SUFFIX, CropSettings, ModelCard, Preprocessing, TrainingRecord, save_card
from . import TrainingError, require_torch
from .augment import Augmentation
from .dataset import Sample

log = logging.getLogger(__name__)

VERIFIER_NAME = "dice-verifier"
#: 32 x 32 crops of the box and a fifth of its side around it (the die's edges and some table).
PREPROCESSING = Preprocessing(input_size=(32, 32), colour="rgb", mean=(0.5, 0.5, 0.5), std=(0.25, 0.25, 0.25),
                              crop=CropSettings(region="quad", margin=0.2))
#: Proposals of the training crops: down to this centre score (many hard ``other`` crops).
TRAIN_PROPOSAL_CONFIDENCE = 0.1
#: A proposal is a die when it overlaps a labelled die at least this much (IoU).
DIE_IOU = 0.3
#: Grids of the detector's least centre score and the verifier's least die probability.
CONFIDENCE_GRID = (0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5)
PROBABILITY_GRID = tuple(round(0.1 * i, 1) for i in range(1, 10))
#: Box noise like the detector's, and the photometric changes of the card classifiers.
AUGMENTATION = Augmentation(temperature=0.3, brightness=0.25, blur_sigma=1.0, noise_std=6.0,
                            rotation_deg=8.0, shift=0.08, scale=0.1)
TRAIN_SETTINGS = {"epochs": 15, "batch_size": 64, "learning_rate": 3e-3}
WIDTHS = (16, 32, 64)
TRAIN_SEED, VAL_SEED = 11, 12
VAL_FRACTION = 0.2


@dataclass(frozen=True)
class VerifierResult:
    """What a run produced."""

    card_path: Path
    card: ModelCard
    settings: DetectorSettings
    tune: Totals
    held_out: Totals
    max_probability_diff: float
    seconds: float


def _samples(detector: DiceDetector, photos, images) -> list[Sample]:
    """``die`` and ``other`` crops of the tune photos (see the module docstring)."""
    loose = replace(detector.settings.decode, min_confidence=TRAIN_PROPOSAL_CONFIDENCE)
    samples = []
    for photo, image in zip(photos, images):
        boxes, _ = detector.photo_maps(image).boxes(loose)
        overlap = iou_matrix(boxes, photo.boxes).max(axis=1) if len(photo.boxes) else np.zeros(len(boxes))
        for quad, o in zip(box_quads(boxes), overlap):
            samples.append(Sample(image, quad, VERIFIER_LABELS[0] if o >= DIE_IOU else VERIFIER_LABELS[1]))
        samples += [Sample(image, quad, VERIFIER_LABELS[0]) for quad in box_quads(photo.boxes)]
    return samples


def _proposals(detector: DiceDetector, images):
    return [detector.proposals(image) for image in images]


def _totals(proposals, labelled, confidence: float, probability: float) -> Totals:
    scores = []
    for (boxes, centre, die), truth in zip(proposals, labelled):
        keep = (centre >= confidence) & (die >= probability)
        scores.append(score_photo(boxes[keep], truth))
    return total(scores)


def _choose(proposals, labelled) -> tuple[float, float]:
    best, best_key = None, None
    for confidence in CONFIDENCE_GRID:
        for probability in PROBABILITY_GRID:
            t = _totals(proposals, labelled, confidence, probability)
            key = (round(t.f1, 6), t.counted_right)
            if best_key is None or key > best_key:
                best, best_key = (confidence, probability), key
    return best


def train_dice_verifier(data: str | Path, out_dir: str | Path, command: str, *,
                        epochs: int | None = None,
                        progress: Callable[[int, int, float], None] | None = None) -> VerifierResult:
    """Train the verifier for the detector in ``out_dir`` and complete the detector's settings.

    Parameters
    ----------
    data : path
        The labelled photo folder (``images/``, ``boxes.csv``).
    out_dir : path
        Folder holding ``dice-detector.card.json`` (and its model); the verifier and the
        updated settings are written there.
    command : str
        The command line recorded in the card.
    epochs : int, optional
        Override of the training epochs (quick runs).
    """
    require_torch()
    from ...vision.classifier import Classifier, sha256_of
    from .dataset import make_inputs, split, label_indices
    from .export import check_agreement, export_onnx
    from .loop import TrainSettings, seed_everything, train
    from .net import SmallNet, parameter_count

    started = time.perf_counter()
    out = Path(out_dir)
    detector_card = out / f"{MODEL_NAME}.card.json"
    base = DiceDetector.open(detector_card)
    base = DiceDetector(base.card, (out / base.card.file).read_bytes(), DetectorSettings(base.settings.decode),
                        base.source)
    tune, held = read_folder(data, TUNE), read_folder(data, HELD_OUT)
    if not tune or not held:
        raise TrainingError(f"{data} must hold photos of both halves; got {len(tune)} tune and {len(held)} held-out")
    tune_images = [read_image(p.path) for p in tune]
    rng = seed_everything(TRAIN_SEED)
    pool = _samples(base, tune, tune_images)
    train_set, val_set = split(pool, VAL_FRACTION, VAL_SEED)
    settings = TrainSettings(**{**TRAIN_SETTINGS, **({"epochs": epochs} if epochs else {})})
    model = SmallNet(PREPROCESSING.channels, len(VERIFIER_LABELS), WIDTHS)
    train(model, train_set, VERIFIER_LABELS, PREPROCESSING, settings, AUGMENTATION, rng, progress)

    model_bytes = export_onnx(model, PREPROCESSING)
    model_path = out / f"{VERIFIER_NAME}{MODEL_SUFFIX}"
    draft = ModelCard(
        name=VERIFIER_NAME, labels=VERIFIER_LABELS, preprocessing=PREPROCESSING,
        training=TrainingRecord(train_seed=TRAIN_SEED, val_seed=VAL_SEED, val_accuracy=0.0,
                                val_samples=len(val_set), measured_on="(pending)",
                                date=_dt.date.today().isoformat(), command=command),
        file=model_path.name, sha256=sha256_of(model_bytes), parameters=parameter_count(model))
    runner = Classifier(draft, model_bytes, str(model_path))
    val_inputs = make_inputs(val_set, PREPROCESSING)
    diff = check_agreement(model, runner, val_inputs)
    accuracy = float((runner.predict(val_inputs).probabilities.argmax(axis=1)
                      == label_indices(val_set, VERIFIER_LABELS)).mean())

    loosest = replace(base.settings.decode, min_confidence=min(CONFIDENCE_GRID))
    trial = DiceDetector(base.card, (out / base.card.file).read_bytes(),
                         DetectorSettings(loosest, f"{VERIFIER_NAME}.card.json"), base.source, runner)
    tune_proposals = _proposals(trial, tune_images)
    confidence, probability = _choose(tune_proposals, [p.boxes for p in tune])
    tune_totals = _totals(tune_proposals, [p.boxes for p in tune], confidence, probability)
    held_proposals = _proposals(trial, [read_image(p.path) for p in held])
    held_totals = _totals(held_proposals, [p.boxes for p in held], confidence, probability)
    chosen = DetectorSettings(replace(base.settings.decode, min_confidence=confidence),
                              f"{VERIFIER_NAME}.card.json", probability)
    measured_on = (f"val_accuracy: {len(val_set)} crops (a stratified fifth, seed {VAL_SEED}) of detector "
                   f"proposals and labelled dice in the {len(tune)} tune photos of {Path(data).name}/. "
                   f"Detector with this verifier on the {len(held)} held-out photos ({held_totals.labelled} dice, "
                   f"never trained or tuned on): recall {held_totals.recall:.4f}, precision "
                   f"{held_totals.precision:.4f}, exact count in {held_totals.exact_count_share:.4f} of photos "
                   f"(IoU >= 0.5)")
    card = replace(draft, training=replace(draft.training, val_accuracy=round(accuracy, 6), measured_on=measured_on))
    model_path.write_bytes(model_bytes)
    card_path = save_card(card, out)
    save_settings(chosen, out / f"{MODEL_NAME}{SETTINGS_SUFFIX}")
    seconds = time.perf_counter() - started
    log.info("dice-verifier: crop accuracy %.4f; held-out recall %.4f precision %.4f exact %.4f; %.1f s",
             accuracy, held_totals.recall, held_totals.precision, held_totals.exact_count_share, seconds)
    return VerifierResult(card_path, card, chosen, tune_totals, held_totals, diff, seconds)


def verifier_from_cli(data: Path, out_dir: Path, epochs: int | None, explicit_data: bool,
                      progress: Callable[[str], None] | None = None) -> list[str]:
    """Run :func:`train_dice_verifier` for ``tableref train --model dice-verifier``; return the
    lines to print."""
    import shlex
    words = ["tableref", "train", "--model", VERIFIER_NAME]
    if explicit_data:
        words += ["--data", str(data)]
    if epochs is not None:
        words += ["--epochs", str(epochs)]

    def report(epoch: int, steps: int, loss: float) -> None:
        if progress is not None:
            progress(f"epoch {epoch}: {steps} steps, mean loss {loss:.4f}")

    result = train_dice_verifier(data, out_dir, shlex.join(words), epochs=epochs, progress=report)
    lines = [f"{VERIFIER_NAME}: crop accuracy {result.card.training.val_accuracy:.4f} on "
             f"{result.card.training.val_samples} validation crops of tune photos"]
    for name, totals in (("tune", result.tune), ("held-out", result.held_out)):
        lines.append(f"{MODEL_NAME} with verifier on {totals.photos} {name} photos ({totals.labelled} dice): "
                     f"recall {totals.recall:.4f}, precision {totals.precision:.4f}, exact count in "
                     f"{totals.exact_count_share:.4f} of photos")
    s = result.settings
    lines.append(f"min_confidence {s.decode.min_confidence}, min_die_probability {s.min_die_probability} "
                 f"(chosen on the tune photos); onnxruntime agrees with PyTorch within "
                 f"{result.max_probability_diff:.1e}; {result.seconds:.1f} s")
    lines.append(f"wrote {result.card_path.with_name(result.card.file)}, {result.card_path} and "
                 f"{Path(out_dir) / (MODEL_NAME + SETTINGS_SUFFIX)}")
    return lines
