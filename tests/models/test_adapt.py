"""Adapting a shipped classifier's last layer (models/training/adapt.py): the split and the new
head agree with onnxruntime, the fit lowers its loss, the card says what it was measured on."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper

from tableref.models.card import load_card
from tableref.models.training import TrainingError
from tableref.models.training.adapt import (JITTER_SCALE, JITTER_SHIFT, SHIPPED, Head, Photo, _missing_from,
                                            adapt_model, fit_head, jittered, loss, split_head, with_head)
from tableref.vision.classifier import Classifier

NAME = "dolcevita-cards"


@pytest.fixture(scope="module")
def shipped():
    card = load_card(SHIPPED / f"{NAME}.card.json")
    return card, (SHIPPED / card.file).read_bytes()


def _run(model: bytes, x: np.ndarray) -> np.ndarray:
    session = ort.InferenceSession(model, providers=["CPUExecutionProvider"])
    return session.run(None, {session.get_inputs()[0].name: x})[0]


def test_features_and_head_give_the_model_logits_and_a_new_head_is_what_the_model_computes(shipped):
    card, model = shipped
    x = np.random.default_rng(0).normal(size=(4, *card.preprocessing.input_shape()[1:])).astype(np.float32)
    features_model, head = split_head(model)
    features = _run(features_model, x)
    assert head.weight.shape == (len(card.labels), features.shape[1])
    assert np.allclose(head.logits(features), _run(model, x), atol=1e-4)
    other = Head(head.weight * 0.5, head.bias + 1.0)
    assert np.allclose(_run(with_head(model, other), x), other.logits(features), atol=1e-4)


def test_fit_lowers_the_loss_and_a_strong_pull_keeps_the_prior():
    rng = np.random.default_rng(1)
    prior = Head(rng.normal(size=(5, 8)), np.zeros(5))
    x = rng.normal(size=(200, 8))
    y = (x[:, 0] > 0).astype(np.int64) * 3  # labels 0 and 3, which the prior knows nothing of
    fitted = fit_head(x, y, prior)
    assert loss(fitted, prior, x, y) < 0.5 * loss(prior, prior, x, y)
    assert np.mean(fitted.logits(x).argmax(axis=1) == y) > 0.95
    held = fit_head(x, y, prior, prior_weight=1e6)
    assert np.abs(held.weight - prior.weight).max() < 1e-3


@pytest.mark.parametrize("labels, message", [
    (np.array([0, 9]), r"indices 0\.\.4"),  # a label the head has not
    (np.array([0]), r"features and N labels, got \(2, 3\) and \(1,\)"),  # one label for two samples
])
def test_fit_refuses_labels_that_do_not_fit(labels, message):
    prior = Head(np.zeros((5, 3)), np.zeros(5))
    with pytest.raises(TrainingError, match=message):
        fit_head(np.zeros((2, 3)), labels, prior)


def test_a_model_not_ending_in_a_linear_layer_is_refused():
    graph = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "g",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])])
    model = helper.make_model(graph).SerializeToString()
    with pytest.raises(TrainingError, match="linear layer"):
        split_head(model)


def test_anchors_lend_only_labels_no_photograph_shows(shipped):
    card, _ = shipped
    quad = np.zeros((4, 2))
    photos = [Photo("a", np.zeros((2, 2, 3), np.uint8), (quad, quad), ("car:100000", "empty"))]
    anchor_labels = ("car:100000", "unknown", "empty")  # one anchor render's spots: features and labels
    anchors = (np.arange(6.0).reshape(3, 2), np.array([card.labels.index(label) for label in anchor_labels]))
    features, labels = _missing_from(photos, anchors, card)
    assert [card.labels[i] for i in labels] == ["unknown"] and features.tolist() == [[2.0, 3.0]]


def _photo(card, name: str, seed: int, n: int = 60) -> Photo:
    """A photograph of random 'spots': one image whose quads cover tiles of random colours."""
    rng = np.random.default_rng(seed)
    image = rng.integers(0, 255, (240, 400, 3), dtype=np.uint8)
    quads, labels = [], []
    for k in range(n):
        x, y = 40 * (k % 10), 40 * (k // 10)
        quads.append(np.array([[x, y], [x + 39, y], [x + 39, y + 39], [x, y + 39]], float))
        labels.append(card.labels[k % 3])
    return Photo(name, image, tuple(quads), tuple(labels))


def test_adapt_model_measures_on_the_last_photograph_held_out_and_writes_a_card_that_loads(shipped):
    card, model = shipped
    photos = [_photo(card, "one.jpg", 0), _photo(card, "two.jpg", 1)]
    adapted = adapt_model(card, model, photos, "tableref enrol test")
    assert adapted.held_out == 60 and 0.0 <= adapted.before <= 1.0 and 0.0 <= adapted.after <= 1.0
    assert adapted.card.training.val_accuracy == adapted.after and adapted.card.training.val_samples == 60
    assert "two.jpg" in adapted.card.training.measured_on and "held out" in adapted.card.training.measured_on
    assert adapted.card.training.command == "tableref enrol test"
    classifier = Classifier(adapted.card, adapted.model)  # the card's hash matches the bytes
    assert classifier.labels == card.labels
    one = adapt_model(card, model, photos[:1], "tableref enrol test")
    assert one.held_out == 0 and one.before is None and "not held out" in one.card.training.measured_on


def test_a_photograph_label_the_model_lacks_is_named(shipped):
    card, model = shipped
    bad = Photo("bad.jpg", np.zeros((50, 50, 3), np.uint8), (np.array([[0, 0], [9, 0], [9, 9], [0, 9]], float),),
                ("dragon:1",))
    with pytest.raises(TrainingError, match="bad.jpg.*dragon:1"):
        adapt_model(card, model, [bad], "x")


def test_onnx_of_the_adapted_model_is_valid(shipped):
    card, model = shipped
    features_model, head = split_head(model)
    onnx.checker.check_model(onnx.load_from_string(features_model))
    onnx.checker.check_model(onnx.load_from_string(with_head(model, head)))


def test_jittered_copies_move_each_quad_a_little_and_keep_the_labels():
    quad = np.array([[10, 10], [30, 10], [30, 30], [10, 30]], float)
    photo = Photo("a", np.zeros((50, 50, 3), np.uint8), (quad, quad + 5), ("x", "y"))
    out = jittered([photo], copies=3, seed=1)
    assert len(out) == 4 and out[0] is photo and all(p.labels == ("x", "y") for p in out)
    for p in out[1:]:
        for q, original in zip(p.quads, photo.quads):
            moved = np.abs(q - original).max()
            assert 0 < moved <= 20 * (JITTER_SCALE + JITTER_SHIFT) + 1e-9
    again = jittered([photo], copies=3, seed=1)
    assert all(np.array_equal(a, b) for p, r in zip(out, again) for a, b in zip(p.quads, r.quads))
