"""Adapting a shipped classifier to a user's own set: its last layer fitted again.

The twin's renders teach the network what a card or a cube looks like; a real set prints its
faces in its own inks and papers. Enrolment shows the camera the user's set in a known
layout (:mod:`tableref.commands.enrol`); its spots, cut exactly as the recogniser cuts them,
refit the final linear layer (the ``Gemm`` that turns the pooled features into logits) while
every convolution stays as trained. The fit is multinomial logistic regression on the
features, pulled towards the shipped weights (an L2 penalty on the difference), so labels the
photographs show seldom or never keep what the renders taught. Pure numpy and onnx: no
PyTorch.

Functions: :func:`split_head` (the feature extractor and the head's weights of an ONNX
classifier), :func:`fit_head`, :func:`with_head` (the model with a new head), and
:func:`adapt_model`, which does all three for the spots of enrolment photographs.
"""

from __future__ import annotations

import datetime as _dt
import importlib
import io
from dataclasses import dataclass, replace
from pathlib import Path
from types import ModuleType

import numpy as np

from ...vision.crop import crop_patches, to_tensor
from ...vision.recognise.daluigi_colour import balance
from ..card import ModelCard
from . import TrainingError

#: Strength of the pull towards the shipped head, per sample (a larger one trusts the photos
#: less). On the enrolment benchmark's stand-in set (``tableref bench --enrol``, 30 renders),
#: 1e-3, 3e-4, 1e-4 and 1e-5 left 17.6, 14.3, 13.4 and 12.5 % of the cards wrong or unread.
PRIOR_WEIGHT = 1e-5
#: The shipped models' folder (the ``tableref.models`` package).
SHIPPED = Path(__file__).resolve().parents[1]
#: Each enrolment photograph's spots are also cut this many times again, each quad scaled by up
#: to JITTER_SCALE and moved by up to JITTER_SHIFT of its side (seeded), so that a card seen in
#: one place is learnt a little beyond it. On 30 renders of the enrolment benchmark's Dolce
#: Vita stand-in set: 13.6 % of the cards wrong or unread without, 11.7 % with 3 copies.
JITTER_COPIES, JITTER_SCALE, JITTER_SHIFT, JITTER_SEED = 3, 0.07, 0.05, 0
#: Optimiser steps (Adam, full batch) and their size.
STEPS, STEP_SIZE = 300, 0.01


#: Games whose recognisers can be enrolled: the models each adapts, and the training module
#: that cuts its enrolment photographs and anchors (``enrolment_photo``, ``anchor_photos``).
ENROLLABLE = {"dolcevita": (("dolcevita-cards", "dolcevita-cards-b"), "dolcevita"),
              "daluigi": (("daluigi-spots", "daluigi-spots-b"), "daluigi"),
              "ligretto": (("ligretto-cells", "ligretto-cells-b"), "ligretto")}


def enrolment_of(game: str) -> tuple[ModuleType, tuple[str, ...]]:
    """(the training module that cuts ``game``'s enrolment photographs, the models it adapts)."""
    names, module = ENROLLABLE[game]
    return importlib.import_module(f"{__package__}.{module}"), names


def _onnx():
    try:
        import onnx
        from onnx import numpy_helper
    except ImportError as exc:
        raise TrainingError(f"adapting a model needs the onnx package ({exc}); install the train extra: "
                            "pip install 'tableref[train]'") from None
    return onnx, numpy_helper


@dataclass(frozen=True, eq=False)
class Head:
    """A classifier's final linear layer: ``logits = features @ weight.T + bias``."""

    weight: np.ndarray  # (labels, features)
    bias: np.ndarray  # (labels,)

    def __post_init__(self) -> None:
        w, b = np.asarray(self.weight, np.float64), np.asarray(self.bias, np.float64)
        if w.ndim != 2 or b.shape != (w.shape[0],) or not (np.all(np.isfinite(w)) and np.all(np.isfinite(b))):
            raise TrainingError(f"a head is a finite (labels, features) weight and a (labels,) bias, got shapes "
                                f"{w.shape} and {b.shape}")
        object.__setattr__(self, "weight", w)
        object.__setattr__(self, "bias", b)

    def logits(self, features: np.ndarray) -> np.ndarray:
        return features @ self.weight.T + self.bias


def _final_gemm(model):
    node = model.graph.node[-1]
    attrs = {a.name: a for a in node.attribute}
    if (node.op_type != "Gemm" or len(node.input) != 3 or node.output[0] != model.graph.output[0].name
            or attrs.get("transB") is None or attrs["transB"].i != 1
            or any(a in attrs and attrs[a].f != 1.0 for a in ("alpha", "beta"))):
        raise TrainingError("the model does not end in a plain linear layer (Gemm with transB=1) giving its output; "
                            "only such classifiers can be adapted")
    inits = {t.name: t for t in model.graph.initializer}
    if node.input[1] not in inits or node.input[2] not in inits:
        raise TrainingError("the model's last layer takes its weights from outside the model; it cannot be adapted")
    return node, inits


def split_head(model_bytes: bytes) -> tuple[bytes, Head]:
    """(a model giving the features the final layer takes, that layer's weights)."""
    onnx, numpy_helper = _onnx()
    model = onnx.load_from_string(model_bytes)
    node, inits = _final_gemm(model)
    head = Head(numpy_helper.to_array(inits[node.input[1]]), numpy_helper.to_array(inits[node.input[2]]))
    features = onnx.load_from_string(model_bytes)
    features.graph.node.pop()
    for name in (node.input[1], node.input[2]):
        kept = [t for t in features.graph.initializer if t.name != name]
        del features.graph.initializer[:]
        features.graph.initializer.extend(kept)
    del features.graph.output[:]
    features.graph.output.append(onnx.helper.make_tensor_value_info(node.input[0], onnx.TensorProto.FLOAT,
                                                                    ["batch", head.weight.shape[1]]))
    return features.SerializeToString(), head


def with_head(model_bytes: bytes, head: Head) -> bytes:
    """The model with its final layer's weights replaced by ``head``'s (same shapes)."""
    onnx, numpy_helper = _onnx()
    model = onnx.load_from_string(model_bytes)
    node, inits = _final_gemm(model)
    for name, value in ((node.input[1], head.weight), (node.input[2], head.bias)):
        old = numpy_helper.to_array(inits[name])
        if old.shape != value.shape:
            raise TrainingError(f"the new head's {name} has shape {value.shape}, the model's {old.shape}")
        inits[name].CopyFrom(numpy_helper.from_array(value.astype(old.dtype), name))
    out = io.BytesIO()
    onnx.save_model(model, out)
    return out.getvalue()


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def loss(head: Head, prior: Head, features: np.ndarray, labels: np.ndarray,
         prior_weight: float = PRIOR_WEIGHT) -> float:
    """Mean cross-entropy of ``labels`` plus the pull towards ``prior`` (what :func:`fit_head` lowers)."""
    p = _softmax(head.logits(features))
    ce = -float(np.mean(np.log(p[np.arange(len(labels)), labels] + 1e-12)))
    pull = float(np.sum((head.weight - prior.weight) ** 2) + np.sum((head.bias - prior.bias) ** 2))
    return ce + 0.5 * prior_weight * pull


def fit_head(features: np.ndarray, labels: np.ndarray, prior: Head, prior_weight: float = PRIOR_WEIGHT,
             steps: int = STEPS, step_size: float = STEP_SIZE) -> Head:
    """The head that best explains ``labels`` (N,) int from ``features`` (N, F), starting from and
    pulled towards ``prior``: full-batch Adam on :func:`loss`. Deterministic."""
    x = np.asarray(features, np.float64)
    y = np.asarray(labels, np.int64)
    n_labels = prior.weight.shape[0]
    if x.ndim != 2 or x.shape[1] != prior.weight.shape[1] or y.shape != (len(x),) or not len(x):
        raise TrainingError(f"fitting a head needs (N, {prior.weight.shape[1]}) features and N labels, got "
                            f"{x.shape} and {y.shape}")
    if y.min() < 0 or y.max() >= n_labels:
        raise TrainingError(f"labels must be indices 0..{n_labels - 1}")
    onehot = np.eye(n_labels)[y]
    w, b = prior.weight.copy(), prior.bias.copy()
    moments = [np.zeros_like(w), np.zeros_like(w), np.zeros_like(b), np.zeros_like(b)]
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    for t in range(1, steps + 1):
        g = (_softmax(x @ w.T + b) - onehot) / len(x)
        grads = (g.T @ x + prior_weight * (w - prior.weight), g.sum(axis=0) + prior_weight * (b - prior.bias))
        for k, (param, grad) in enumerate(zip((w, b), grads)):
            m, v = moments[2 * k], moments[2 * k + 1]
            m *= beta1
            m += (1 - beta1) * grad
            v *= beta2
            v += (1 - beta2) * grad ** 2
            param -= step_size * (m / (1 - beta1 ** t)) / (np.sqrt(v / (1 - beta2 ** t)) + eps)
    return Head(w, b)


@dataclass(frozen=True, eq=False)
class Photo:
    """One enrolment photograph's spots: the image as the recogniser reads it, each spot's
    quad (4, 2) in image pixels, the label the known layout puts there, and the per-channel
    gains the recogniser scales its patches by (Da Luigi's white balance; None: none)."""

    name: str
    image: np.ndarray
    quads: tuple[np.ndarray, ...]
    labels: tuple[str, ...]
    gains: np.ndarray | None = None

    def __post_init__(self) -> None:
        if len(self.quads) != len(self.labels):
            raise TrainingError(f"{self.name}: {len(self.quads)} spots but {len(self.labels)} labels")

    def tensor(self, prep) -> np.ndarray:
        """The spots as the model's input, cut (and balanced) as the recogniser does."""
        patches = crop_patches(self.image, list(self.quads), prep)
        return to_tensor(patches if self.gains is None else balance(patches, self.gains), prep)


@dataclass(frozen=True, eq=False)
class Adapted:
    """A model adapted to a set: its bytes and card, and how its head did on a photograph held
    out of the fit (``held_out`` spots; accuracies None when only one photograph was given)."""

    card: ModelCard
    model: bytes
    held_out: int
    before: float | None
    after: float | None


def _photo_features(session, card: ModelCard, photo: Photo) -> tuple[np.ndarray, np.ndarray]:
    """(features (N, F), label indices (N,)) of one photograph's spots."""
    index = {label: i for i, label in enumerate(card.labels)}
    unknown = sorted(set(photo.labels) - set(index))
    if unknown:
        raise TrainingError(f"{photo.name}: model {card.name!r} has no label {unknown[0]!r}")
    if not photo.quads:
        return np.empty((0, 0)), np.empty(0, np.int64)
    x = photo.tensor(card.preprocessing)
    feats = np.concatenate([session.run(None, {session.get_inputs()[0].name: x[i:i + 256]})[0]
                            for i in range(0, len(x), 256)])
    return feats.astype(np.float64), np.array([index[label] for label in photo.labels], np.int64)


def _stacked(parts: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """The photographs' features and labels one after the other."""
    parts = [(x, y) for x, y in parts if len(y)]
    if not parts:
        raise TrainingError("the photographs gave no spots to learn from")
    return np.concatenate([x for x, _ in parts]), np.concatenate([y for _, y in parts])


def jittered(photos: list[Photo], copies: int = JITTER_COPIES, seed: int = JITTER_SEED) -> list[Photo]:
    """``photos`` and ``copies`` more of each whose quads are scaled and moved a little (seeded)."""
    rng = np.random.default_rng(seed)
    out = list(photos)
    for photo in photos:
        for _ in range(copies):
            quads = []
            for q in photo.quads:
                centre, side = q.mean(axis=0), float(np.linalg.norm(q[1] - q[0]))
                scale = rng.uniform(1 - JITTER_SCALE, 1 + JITTER_SCALE)
                quads.append((q - centre) * scale + centre + rng.uniform(-JITTER_SHIFT, JITTER_SHIFT, 2) * side)
            out.append(Photo(photo.name, photo.image, tuple(quads), photo.labels, photo.gains))
    return out


def _missing_from(photos: list[Photo], anchors: tuple[np.ndarray, np.ndarray],
                  card: ModelCard) -> tuple[np.ndarray, np.ndarray]:
    """The anchors' spots (features, labels) whose labels none of ``photos`` shows."""
    shown = [card.labels.index(label) for label in {label for p in photos for label in p.labels}]
    keep = ~np.isin(anchors[1], shown)
    return anchors[0][keep], anchors[1][keep]


def adapt_model(card: ModelCard, model_bytes: bytes, photos: list[Photo], command: str,
                anchors: list[Photo] = (), prior_weight: float = PRIOR_WEIGHT) -> Adapted:
    """``card``'s model with its head fitted to ``photos``' spots (:func:`fit_head`).

    Every photograph's spots are fitted as cut and :data:`JITTER_COPIES` times a little moved
    (:func:`jittered`). ``anchors`` (renders of the twin with their truth) lend the fit their
    spots of labels that no photograph shows: above all ``unknown`` (a card under a hand;
    enrolment photographs show none) and cards the layouts left out, which would otherwise be
    pushed down by every photograph's spots. With two photographs or more, the head is first
    fitted without the last one and measured on it (the card's accuracy, and what it was
    measured on, say so); the model returned is fitted on all of them. Each photograph's (and
    anchor's) features are worked out once for both fits.
    """
    import onnxruntime as ort

    from ...vision.classifier import sha256_of

    features_bytes, prior = split_head(model_bytes)
    session = ort.InferenceSession(features_bytes, providers=["CPUExecutionProvider"])
    n, copies = len(photos), JITTER_COPIES
    every = [_photo_features(session, card, p) for p in jittered(photos, copies)]  # the photos, then their copies
    lent = [_photo_features(session, card, a) for a in anchors if a.quads]
    lent = _stacked(lent) if lent else (np.empty((0, prior.weight.shape[1])), np.empty(0, np.int64))
    before = after = None
    held = 0
    if n >= 2:
        # the photos but the last and their copies (the first copies drawn: jittered(photos[:-1]))
        x, y = _stacked(every[:n - 1] + every[n:n + (n - 1) * copies] + [_missing_from(photos[:-1], lent, card)])
        x_held, y_held = _stacked([every[n - 1]])
        fitted = fit_head(x, y, prior, prior_weight)
        held = len(y_held)
        before = float(np.mean(prior.logits(x_held).argmax(axis=1) == y_held))
        after = float(np.mean(fitted.logits(x_held).argmax(axis=1) == y_held))
    x, y = _stacked(every + [_missing_from(photos, lent, card)])
    head = fit_head(x, y, prior, prior_weight)
    model = with_head(model_bytes, head)
    if held:
        accuracy, samples = after, held
        measured = (f"spots of enrolment photograph {photos[-1].name} of the user's own set, held out: the head "
                    f"fitted on the other {n - 1} photograph(s) (the shipped head: {before:.4f}); the "
                    f"model written is fitted on all {n}")
    else:
        x, y = _stacked(every[:1])
        accuracy, samples = float(np.mean(head.logits(x).argmax(axis=1) == y)), len(y)
        measured = (f"spots of the one enrolment photograph {photos[0].name} it was fitted on (not held out: "
                    "give two photographs or more for an honest figure)")
    training = replace(card.training, val_accuracy=accuracy, val_samples=samples, measured_on=measured,
                       date=_dt.date.today().isoformat(), command=command)
    return Adapted(replace(card, training=training, sha256=sha256_of(model)), model, held, before, after)


def adapt_shipped(names: tuple[str, ...], photos: list[Photo], command: str, anchors: list[Photo] = ()
                  ) -> list[Adapted]:
    """Each shipped model of ``names`` adapted to ``photos`` (always from the shipped model;
    ``anchors`` as :func:`adapt_model`'s)."""
    from ..card import CARD_SUFFIX, load_card

    out = []
    for name in names:
        path = SHIPPED / f"{name}{CARD_SUFFIX}"
        card = load_card(path)
        out.append(adapt_model(card, path.with_name(card.file).read_bytes(), photos, command, anchors))
    return out


def write_adapted(adapted: list[Adapted], folder: Path) -> None:
    """Write each model and its card into ``folder`` (made if missing)."""
    from ..card import save_card

    try:
        folder.mkdir(parents=True, exist_ok=True)
        for a in adapted:
            (folder / a.card.file).write_bytes(a.model)
            save_card(a.card, folder)
    except OSError as exc:
        raise TrainingError(f"the adapted models cannot be written to {str(folder)!r}: {exc.strerror}") from None
