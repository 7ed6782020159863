"""Training of the cover map (``daluigi-cover-map``): which pixels a hand or an object covers.

The network (:class:`CoverNet`, about 63,000 parameters) reads a whole photograph scaled to
320 pixels across (:func:`~tableref.vision.cover_map.to_input`) and gives a logit per point of a
map at half that scale. Its target is the share of each map point's pixels that the twin's hands,
arms, sleeves and objects cover (:func:`~.daluigi_renders.foreign_mask`, the mask by which the
twin's truth decides what shows), the mask by which the benchmark's hidden places are measured.
Three stride-2 stages, four dilated convolutions at an eighth of the input (each map point sees
about 250 of the input's 320 pixels across: an arm is told by where it runs, not by a patch of
its colour), and two stages back up with the earlier stages' maps beside them.

Data: the Da Luigi renders cached for the order-field models (:mod:`.daluigi_renders`, training
seeds :data:`TRAIN_SEED`..), validation renders :data:`VAL_SEED`.. (never trained on), each seen
mirrored left to right half the time. ``tableref train --model daluigi-cover-map`` runs
:func:`train_cover_map`: it renders what is not cached, trains, exports to ONNX, checks that
onnxruntime agrees with PyTorch and writes the card, whose accuracy is the share of the
validation maps' points whose side of one half (covered or not) the model gets right.
"""

from __future__ import annotations

import datetime as _dt
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from ...vision.cover_map import LABELS, MODEL_NAME, CoverMapModel, map_size, to_input
from ..card import MODEL_SUFFIX, CropSettings, ModelCard, Preprocessing, TrainingRecord, save_card
from . import TrainingError, require_torch
from . import daluigi_renders

torch = require_torch()
nn = torch.nn
F = torch.nn.functional

log = logging.getLogger(__name__)

#: Training renders (seeds TRAIN_SEED..), validation renders (VAL_SEED..), epochs, batch size
#: and peak learning rate (one cycle).
TRAIN_SEED, RENDERS, VAL_SEED, VAL_RENDERS = 1100000, 1000, 2000000, 100
EPOCHS, BATCH, LEARNING_RATE, WEIGHT_DECAY = 40, 8, 3e-3, 1e-4
#: Channels of the three stages.
WIDTHS = (16, 24, 32)
#: The input: the photograph 320 px across (height by its aspect), RGB, as the other models.
PREPROCESSING = Preprocessing((180, 320), "rgb", (0.5, 0.5, 0.5), (0.25, 0.25, 0.25), CropSettings("quad", 0.0))
#: onnxruntime's map must match PyTorch's within this (probabilities).
MAX_MAP_DIFF = 1e-4
MEASURED_ON = ("map points of Da Luigi renders of the digital twin (validation render seeds 2000000..; "
               "training seeds 1100000..), covered where at least half of a point's pixels are; "
               "not photographs of a real set")


def _stage(c_in: int, c_out: int, stride: int = 1, dilation: int = 1):
    return nn.Sequential(nn.Conv2d(c_in, c_out, 3, stride, padding=dilation, dilation=dilation, bias=False),
                         nn.BatchNorm2d(c_out), nn.ReLU(inplace=True))


class CoverNet(nn.Module):
    """Photograph (N, 3, H, W) -> covered logits (N, 1, H/2, W/2), odd sides rounded up."""

    def __init__(self, widths: tuple[int, int, int] = WIDTHS):
        super().__init__()
        a, b, c = widths
        self.down1, self.down2, self.down3 = _stage(3, a, 2), _stage(a, b, 2), _stage(b, c, 2)
        self.context = nn.Sequential(_stage(c, c), _stage(c, c, dilation=2), _stage(c, c, dilation=4),
                                     _stage(c, c, dilation=8))
        self.up2 = _stage(c + b, b)
        self.up1 = nn.Sequential(nn.Conv2d(b + a, a, 1, bias=False), nn.BatchNorm2d(a), nn.ReLU(inplace=True),
                                 _stage(a, a))
        self.head = nn.Conv2d(a, 1, 1)

    def forward(self, x):
        half = self.down1(x)
        quarter = self.down2(half)
        eighth = self.context(self.down3(quarter))
        up = F.interpolate(eighth, size=quarter.shape[2:], mode="bilinear", align_corners=False)
        quarter = self.up2(torch.cat([up, quarter], 1))
        up = F.interpolate(quarter, size=half.shape[2:], mode="bilinear", align_corners=False)
        return self.head(self.up1(torch.cat([up, half], 1)))


def target(foreign: np.ndarray, map_shape: tuple[int, int]) -> np.ndarray:
    """(h, w) float32: the share of each map point's pixels that ``foreign`` (H, W bool) covers."""
    h, w = map_shape
    return cv2.resize(foreign.astype(np.float32), (w, h), interpolation=cv2.INTER_AREA)


def dataset(seeds: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """Inputs (N, 3, H, W) and targets (N, 1, H/2, W/2) of the cached renders of ``seeds``
    (rendered first where missing)."""
    daluigi_renders.fill(seeds)
    xs, ys = [], []
    for seed in seeds:
        r = daluigi_renders.load(seed)
        x = to_input(r.image, PREPROCESSING)[0]
        xs.append(x)
        ys.append(target(r.foreign, map_size(x.shape[1:]))[None])
    return np.stack(xs), np.stack(ys)


def _predict(model, x: np.ndarray) -> np.ndarray:
    """Covered probabilities (N, 1, h, w) of inputs ``x``, 16 at a time."""
    model.eval()
    with torch.no_grad():
        return np.concatenate([torch.sigmoid(model(torch.from_numpy(x[i:i + 16]))).numpy()
                               for i in range(0, len(x), 16)])


def scores(probabilities: np.ndarray, targets: np.ndarray) -> tuple[float, float]:
    """(accuracy, IoU) of covered maps against targets, each side of one half."""
    p, t = probabilities >= 0.5, targets >= 0.5
    union = int(np.sum(p | t))
    return float(np.mean(p == t)), float(np.sum(p & t) / union) if union else 1.0


def export_onnx(model) -> bytes:
    """The network as ONNX bytes (opset 17), input (batch, 3, H, W) -> map (batch, 1, H/2, W/2)."""
    from .export import export_map_onnx
    return export_map_onnx(model, PREPROCESSING.input_size, "covered")


@dataclass(frozen=True)
class CoverMapResult:
    """What a run produced: the card (beside its ``.onnx``) and its figures."""

    card_path: Path
    card: ModelCard
    iou: float
    max_map_diff: float
    seconds: float


def train_cover_map(out_dir: str | Path, command: str, *, renders: int = RENDERS, val_renders: int = VAL_RENDERS,
                    epochs: int = EPOCHS, max_steps: int | None = None,
                    progress: Callable[[int, int, float], None] | None = None) -> CoverMapResult:
    """Train the cover map on ``renders`` training renders, validate it on ``val_renders``,
    export it to ``out_dir`` and write its card; ``progress(epoch, steps, mean loss)``."""
    if renders < BATCH or val_renders < 1:
        raise TrainingError(f"the cover map needs at least {BATCH} training renders and 1 validation render, "
                            f"got {renders} and {val_renders}")
    start = time.perf_counter()
    torch.manual_seed(TRAIN_SEED)
    x, y = dataset(list(range(TRAIN_SEED, TRAIN_SEED + renders)))
    xv, yv = dataset(list(range(VAL_SEED, VAL_SEED + val_renders)))
    model = CoverNet()
    optimiser = torch.optim.AdamW(model.parameters(), LEARNING_RATE, weight_decay=WEIGHT_DECAY)
    per_epoch = len(x) // BATCH
    total = epochs * per_epoch if max_steps is None else min(max_steps, epochs * per_epoch)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, LEARNING_RATE, total_steps=total)
    generator = torch.Generator().manual_seed(TRAIN_SEED)
    xt, yt = torch.from_numpy(x), torch.from_numpy(y)
    step = 0
    for epoch in range(epochs):
        model.train()
        order, losses = torch.randperm(len(x), generator=generator), []
        for i in range(per_epoch):
            if step >= total:
                break
            batch = order[i * BATCH:(i + 1) * BATCH]
            xb, yb = xt[batch], yt[batch]
            if torch.rand(1, generator=generator).item() < 0.5:  # the table seen from the other side
                xb, yb = xb.flip(3), yb.flip(3)
            loss = F.binary_cross_entropy_with_logits(model(xb), yb)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            losses.append(loss.item())
            step += 1
        if progress is not None and losses:
            progress(epoch + 1, step, float(np.mean(losses)))
    expected = _predict(model, xv)
    accuracy, iou = scores(expected, yv)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    data = export_onnx(model)
    from ...vision.classifier import sha256_of
    record = TrainingRecord(TRAIN_SEED, VAL_SEED, accuracy, int(yv.size), MEASURED_ON,
                            _dt.date.today().isoformat(), command)
    card = ModelCard(MODEL_NAME, LABELS, PREPROCESSING, record, f"{MODEL_NAME}{MODEL_SUFFIX}", sha256_of(data),
                     int(sum(p.numel() for p in model.parameters())))
    runtime = CoverMapModel(card, data, "the exported cover map")
    worst = max(float(np.max(np.abs(runtime.run(xv[i:i + 1])[:, None] - expected[i:i + 1])))
                for i in range(min(len(xv), 8)))
    if worst >= MAX_MAP_DIFF:
        raise TrainingError(f"onnxruntime and PyTorch disagree: covered maps differ by up to {worst:.2e} "
                            f"(allowed < {MAX_MAP_DIFF:.0e})")
    (out / card.file).write_bytes(data)
    path = save_card(card, out)
    log.info("cover map: accuracy %.4f, IoU %.3f on %d validation renders", accuracy, iou, len(xv))
    return CoverMapResult(path, card, iou, worst, time.perf_counter() - start)
