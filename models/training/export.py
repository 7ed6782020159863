"""Export to ONNX and the check that onnxruntime agrees with PyTorch."""

from __future__ import annotations

import io
import warnings

import numpy as np

from ...vision.classifier import Classifier
from ..card import Preprocessing
from . import TrainingError, require_torch
from .loop import probabilities

torch = require_torch()

OPSET = 17
INPUT_NAME, OUTPUT_NAME = "input", "logits"
#: onnxruntime and PyTorch must give the same probabilities within this (and the same argmax).
MAX_PROBABILITY_DIFF = 1e-4


def export_onnx(model, prep: Preprocessing) -> bytes:
    """The model as ONNX bytes: opset 17, input (batch, C, h, w), output (batch, labels) logits.

    Uses PyTorch's TorchScript-based exporter (the newer one needs onnxscript, which the
    ``train`` extra does not carry); its deprecation notice is silenced here only.
    """
    return _export(model, prep.input_shape(batch=2), OUTPUT_NAME, {INPUT_NAME: {0: "batch"}, OUTPUT_NAME: {0: "batch"}})


def export_map_onnx(model, input_size: tuple[int, int], output_name: str) -> bytes:
    """A fully convolutional model as ONNX bytes (opset 17): input (batch, 3, H, W) of any size
    (``input_size``, (height, width), only for tracing) -> maps (batch, C, h, w) named
    ``output_name``."""
    return _export(model, (1, 3, *input_size), output_name,
                   {INPUT_NAME: {0: "batch", 2: "height", 3: "width"},
                    output_name: {0: "batch", 2: "map_height", 3: "map_width"}})


def _export(model, input_shape: tuple[int, ...], output_name: str, dynamic_axes: dict) -> bytes:
    """``model`` traced on zeros of ``input_shape`` and exported to ONNX bytes (TorchScript
    exporter, its deprecation notice silenced here only)."""
    model.eval()
    dummy = torch.zeros(input_shape, dtype=torch.float32)
    buffer = io.BytesIO()
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=DeprecationWarning)
        warnings.filterwarnings("ignore", category=UserWarning)
        torch.onnx.export(model, (dummy,), buffer, opset_version=OPSET, dynamo=False,
                          input_names=[INPUT_NAME], output_names=[output_name], dynamic_axes=dynamic_axes)
    return buffer.getvalue()


def check_agreement(model, classifier: Classifier, inputs: np.ndarray) -> float:
    """Run both on ``inputs`` (N, C, h, w); return the largest probability difference.

    Raises
    ------
    TrainingError
        If the difference reaches :data:`MAX_PROBABILITY_DIFF` or any argmax differs.
    """
    expected = probabilities(model, inputs)
    got = classifier.predict(inputs).probabilities
    diff = float(np.max(np.abs(expected - got))) if len(inputs) else 0.0
    if diff >= MAX_PROBABILITY_DIFF:
        raise TrainingError(f"onnxruntime and PyTorch disagree: probabilities differ by up to {diff:.2e} "
                            f"(allowed < {MAX_PROBABILITY_DIFF:.0e})")
    flips = int(np.sum(expected.argmax(axis=1) != got.argmax(axis=1)))
    if flips:
        raise TrainingError(f"onnxruntime and PyTorch pick a different label for {flips} of {len(inputs)} samples")
    return diff
