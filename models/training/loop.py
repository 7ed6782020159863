"""The CPU training loop: seeded, two threads, fresh augmentation every epoch."""

from __future__ import annotations

import ctypes
import logging
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..card import Preprocessing
from . import TrainingError, require_torch
from .augment import Augmentation
from .dataset import Sample, label_indices, make_inputs

torch = require_torch()
log = logging.getLogger(__name__)

#: The referee's machine has 2 cores; training uses both and no more.
TRAIN_THREADS = 2
#: Convolutions train in channels-last layout: oneDNN's fast path on CPUs, about 1.4x the
#: speed of the default layout for these nets on the 2-core machine; the trained weights,
#: and so the exported ONNX model, do not depend on it beyond rounding.
TRAIN_LAYOUT = torch.channels_last
#: glibc's allocator gives large freed blocks back to the kernel, and every training step
#: then faults the pages of its activations in again (a sixth to a quarter of the training
#: command's CPU time was the kernel's on the 2-core machine). Blocks below this size stay
#: with the process instead: 100 steps of the Ligretto cover net took 5.5-5.7 s instead of
#: 6.7-8.4 s, with the same loss to the bit.
KEEP_FREED_BYTES = 1 << 30
#: mallopt's parameter numbers (glibc's malloc.h).
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3


@dataclass(frozen=True)
class TrainSettings:
    """Optimiser settings.

    Attributes
    ----------
    epochs : int
        Passes over the training samples (each with fresh augmentation).
    batch_size : int
    learning_rate : float
        Peak AdamW learning rate (cosine decay to zero over the run).
    weight_decay : float
    max_steps : int or None
        Stop after this many optimiser steps (quick checks); None runs every epoch.
    """

    epochs: int = 12
    batch_size: int = 64
    learning_rate: float = 3e-3
    weight_decay: float = 1e-4
    max_steps: int | None = None

    def __post_init__(self) -> None:
        for name in ("epochs", "batch_size"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise TrainingError(f"training {name} must be an integer >= 1, got {value!r}")
        if self.max_steps is not None and (not isinstance(self.max_steps, int) or self.max_steps < 1):
            raise TrainingError(f"training max_steps must be an integer >= 1 or None, got {self.max_steps!r}")
        for name in ("learning_rate", "weight_decay"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
                raise TrainingError(f"training {name} must be a finite number >= 0, got {value!r}")


def keep_freed_memory() -> bool:
    """Ask the C allocator to keep freed blocks below :data:`KEEP_FREED_BYTES` for reuse (glibc
    only; elsewhere nothing changes). True when it agreed. Changes speed, never a result."""
    try:
        mallopt = ctypes.CDLL("libc.so.6").mallopt
    except (OSError, AttributeError):
        return False
    return bool(mallopt(M_MMAP_THRESHOLD, KEEP_FREED_BYTES)) and bool(mallopt(M_TRIM_THRESHOLD, KEEP_FREED_BYTES))


def seed_everything(seed: int) -> np.random.Generator:
    """Set the process up for training (seed torch, fix its thread count, keep freed memory:
    :func:`keep_freed_memory`) and return the numpy generator for data and augmentation."""
    keep_freed_memory()
    torch.manual_seed(seed)
    torch.set_num_threads(TRAIN_THREADS)
    return np.random.default_rng(seed)


def train(model, samples: Sequence[Sample], labels: Sequence[str], prep: Preprocessing,
          settings: TrainSettings, aug: Augmentation, rng: np.random.Generator,
          progress: Callable[[int, int, float], None] | None = None) -> int:
    """Train ``model`` in place on ``samples``; return the number of optimiser steps taken.

    ``progress(epoch, steps, mean_loss)`` is called after each epoch.
    """
    if not samples:
        raise TrainingError("no training samples")
    targets = torch.from_numpy(label_indices(samples, labels))
    steps_per_epoch = math.ceil(len(samples) / settings.batch_size)
    total = steps_per_epoch * settings.epochs
    if settings.max_steps is not None:
        total = min(total, settings.max_steps)
    optimiser = torch.optim.AdamW(model.parameters(), lr=settings.learning_rate,
                                  weight_decay=settings.weight_decay)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimiser, lambda step: 0.5 * (1.0 + math.cos(math.pi * min(step, total) / total)))
    loss_fn = torch.nn.CrossEntropyLoss()
    model.to(memory_format=TRAIN_LAYOUT)
    steps = 0
    for epoch in range(settings.epochs):
        inputs = torch.from_numpy(make_inputs(samples, prep, aug, rng))
        order = torch.from_numpy(rng.permutation(len(samples)))
        model.train()
        losses = []
        for start in range(0, len(samples), settings.batch_size):
            batch = order[start:start + settings.batch_size]
            optimiser.zero_grad()
            loss = loss_fn(model(inputs[batch].contiguous(memory_format=TRAIN_LAYOUT)), targets[batch])
            loss.backward()
            optimiser.step()
            schedule.step()
            losses.append(loss.item())
            steps += 1
            if steps >= total:
                break
        mean_loss = float(np.mean(losses))
        log.info("epoch %d: %d steps, mean loss %.4f", epoch + 1, steps, mean_loss)
        if progress is not None:
            progress(epoch + 1, steps, mean_loss)
        if steps >= total:
            break
    model.to(memory_format=torch.contiguous_format)
    model.eval()
    return steps


def probabilities(model, inputs: np.ndarray) -> np.ndarray:
    """Softmax probabilities (N, L) float32 of ``model`` in eval mode on ``inputs`` (N, C, h, w)."""
    model.eval()
    with torch.no_grad():
        return torch.softmax(model(torch.from_numpy(inputs)).double(), dim=1).float().numpy()
