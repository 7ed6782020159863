"""The ONNX classifier runner: a model and its card -> labels with confidences.

A :class:`Classifier` is opened from a model card (``NAME.card.json``); it checks that the
``.onnx`` beside it is the one the card describes (SHA-256, input and output shapes), runs it
on the CPU with few threads (the whole referee shares 2 cores), and classifies crops made by
the one crop function with the card's preprocessing.
"""

from __future__ import annotations

import hashlib
import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import onnxruntime as ort

from ..models.card import ModelCard, ModelError, load_card
from .crop import Region, crop

log = logging.getLogger(__name__)

#: Threads inside one operator. The referee runs on 2 cores beside capture and the web server;
#: more threads than cores only adds contention.
MAX_INTRA_OP_THREADS = 2
#: Largest batch run at once (bounds memory on a crowded table; larger inputs are chunked).
MAX_BATCH = 256
PROVIDERS = ("CPUExecutionProvider",)
#: The errors onnxruntime raises for a file that is not a usable model.
_ORT_ERRORS = (RuntimeError, ValueError, ort.capi.onnxruntime_pybind11_state.Fail,
               ort.capi.onnxruntime_pybind11_state.InvalidProtobuf,
               ort.capi.onnxruntime_pybind11_state.InvalidGraph,
               ort.capi.onnxruntime_pybind11_state.InvalidArgument,
               ort.capi.onnxruntime_pybind11_state.NoSuchFile,
               ort.capi.onnxruntime_pybind11_state.NotImplemented)


@dataclass(frozen=True, eq=False)
class Prediction:
    """Classifier output for a batch of N crops.

    Attributes
    ----------
    labels : tuple of str, length N
        The most probable label of each crop.
    confidences : ndarray of shape (N,), float32
        Its softmax probability, in [0, 1].
    probabilities : ndarray of shape (N, L), float32
        Softmax over the card's L labels, rows summing to 1.
    """

    labels: tuple[str, ...]
    confidences: np.ndarray
    probabilities: np.ndarray

    def __post_init__(self) -> None:
        n = len(self.labels)
        if self.confidences.shape != (n,) or self.probabilities.ndim != 2 or self.probabilities.shape[0] != n:
            raise ModelError(f"prediction shapes disagree: {n} labels, confidences {self.confidences.shape}, "
                             f"probabilities {self.probabilities.shape}")


def softmax(logits: np.ndarray) -> np.ndarray:
    """Row-wise softmax of (N, L) logits, computed stably in float64, returned as float32."""
    z = np.asarray(logits, dtype=np.float64)
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return (e / e.sum(axis=1, keepdims=True)).astype(np.float32)


def sha256_of(data: bytes) -> str:
    """Hex SHA-256 of ``data``."""
    return hashlib.sha256(data).hexdigest()


def session_options(threads: int | None = None) -> ort.SessionOptions:
    """CPU session options: at most :data:`MAX_INTRA_OP_THREADS` intra-op threads, one inter-op."""
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads or min(MAX_INTRA_OP_THREADS, os.cpu_count() or 1)
    opts.inter_op_num_threads = 1
    opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    opts.log_severity_level = 3  # errors only: warnings go through our own messages
    # Threads sleep between runs instead of spinning: several models share the cores (Dolce
    # Vita's two card models, Ligretto's cells and tokens), and one session's spinning threads
    # took them from the next (Dolce Vita with both models: 243 -> 117 ms CPU per image).
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return opts


def read_model(card_path: str | Path) -> tuple[ModelCard, bytes, Path]:
    """The card at ``card_path``, the bytes of the ``.onnx`` file it names (beside it) and that
    file's path.

    Raises
    ------
    ModelError
        When the card is invalid or the model file is missing or unreadable.
    """
    card = load_card(card_path)
    model_path = Path(card_path).with_name(card.file)
    if not model_path.is_file():
        raise ModelError(f"model file {str(model_path)!r} named by card {card.name!r} does not exist")
    try:
        return card, model_path.read_bytes(), model_path
    except OSError as exc:
        raise ModelError(f"model file {str(model_path)!r} cannot be read: {exc}") from None


def load_session(card: ModelCard, model_bytes: bytes, source: str = "model",
                 threads: int | None = None) -> ort.InferenceSession:
    """An onnxruntime session of ``model_bytes``, after checking they are the model ``card`` names.

    Raises
    ------
    ModelError
        When the bytes do not match the card's hash or onnxruntime cannot load them.
    """
    digest = sha256_of(model_bytes)
    if digest != card.sha256:
        raise ModelError(f"{source} does not match its card {card.name!r}: sha256 {digest[:12]}... "
                         f"but the card says {card.sha256[:12]}...; retrain or restore the pair")
    try:
        return ort.InferenceSession(model_bytes, session_options(threads), providers=list(PROVIDERS))
    except _ORT_ERRORS as exc:
        raise ModelError(f"{source} cannot be loaded by onnxruntime: {str(exc).splitlines()[0][:300]}") from None


def load_map_session(card: ModelCard, model_bytes: bytes, labels: tuple[str, ...], kind: str,
                     source: str = "model", threads: int | None = None) -> tuple[ort.InferenceSession, str]:
    """The session of a network that maps a whole photograph (one 4-D input, one output) and its
    input's name, after checking that ``card`` has ``labels`` (``kind`` names the network in
    messages) and that the bytes are the model it names (:func:`load_session`).

    Raises
    ------
    ModelError
        When the labels differ, the bytes do not match the card or cannot be loaded, or the
        network does not have one 4-D input and one output.
    """
    if tuple(card.labels) != labels:
        raise ModelError(f"{source}: a {kind}'s card must have labels {list(labels)}, got {list(card.labels)}")
    session = load_session(card, model_bytes, source, threads)
    inputs, outputs = session.get_inputs(), session.get_outputs()
    if len(inputs) != 1 or len(outputs) != 1 or len(inputs[0].shape) != 4:
        raise ModelError(f"{source} must have one 4-D input and one output")
    return session, inputs[0].name


class Classifier:
    """An ONNX classifier bound to its model card.

    Parameters
    ----------
    card : ModelCard
        The validated card.
    model_bytes : bytes
        The ``.onnx`` file's content; must hash to ``card.sha256``.
    source : str
        How to name the model in messages (its path).

    Raises
    ------
    ModelError
        When the bytes do not match the card's hash, are not a model onnxruntime can load, or
        the model's input/output shapes disagree with the card.
    """

    def __init__(self, card: ModelCard, model_bytes: bytes, source: str = "model",
                 threads: int | None = None):
        self._session = load_session(card, model_bytes, source, threads)
        self.card = card
        self._check_io(source)

    @classmethod
    def open(cls, card_path: str | Path, threads: int | None = None) -> Classifier:
        """Open the model described by the card at ``card_path`` (the ``.onnx`` lies beside it)."""
        card, data, model_path = read_model(card_path)
        return cls(card, data, str(model_path), threads)

    def _check_io(self, source: str) -> None:
        inputs, outputs = self._session.get_inputs(), self._session.get_outputs()
        if len(inputs) != 1 or len(outputs) != 1:
            raise ModelError(f"{source} must have one input and one output, has {len(inputs)} and {len(outputs)}")
        prep = self.card.preprocessing
        shape = list(inputs[0].shape)
        if len(shape) != 4 or [d for d in shape[1:]] != [prep.channels, *prep.input_size]:
            raise ModelError(f"{source} takes input {shape} but its card says "
                             f"[batch, {prep.channels}, {prep.input_size[0]}, {prep.input_size[1]}]")
        out = list(outputs[0].shape)
        if len(out) != 2 or out[1] != len(self.card.labels):
            raise ModelError(f"{source} gives output {out} but its card has {len(self.card.labels)} labels")
        self._input_name = inputs[0].name

    @property
    def labels(self) -> tuple[str, ...]:
        return self.card.labels

    def predict(self, tensor: np.ndarray) -> Prediction:
        """Classify a normalised batch.

        Parameters
        ----------
        tensor : ndarray of shape (N, C, h, w), float32
            As made by :func:`tableref.vision.crop.crop` with this card's preprocessing.
        """
        prep = self.card.preprocessing
        expected = (prep.channels, *prep.input_size)
        if not isinstance(tensor, np.ndarray) or tensor.ndim != 4 or tensor.shape[1:] != expected:
            got = tensor.shape if isinstance(tensor, np.ndarray) else type(tensor).__name__
            raise ModelError(f"{self.card.name}: input must have shape (N, {', '.join(map(str, expected))}), got {got}")
        tensor = np.ascontiguousarray(tensor, dtype=np.float32)
        if len(tensor) == 0:
            probs = np.empty((0, len(self.labels)), np.float32)
        else:
            chunks = [self._session.run(None, {self._input_name: tensor[i:i + MAX_BATCH]})[0]
                      for i in range(0, len(tensor), MAX_BATCH)]
            probs = softmax(np.concatenate(chunks))
        best = probs.argmax(axis=1)
        return Prediction(tuple(self.labels[i] for i in best),
                          probs[np.arange(len(probs)), best].astype(np.float32), probs)

    def classify(self, image: np.ndarray, regions: Sequence[Region], px_per_mm: float | None = None) -> Prediction:
        """Crop ``regions`` of a BGR ``image`` as the card says and classify them."""
        return self.predict(crop(image, regions, self.card.preprocessing, px_per_mm))
