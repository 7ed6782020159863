"""The ONNX runner: loads a tiny model with its card, predicts softmax labels, and refuses a
card that does not fit (hash, input shape, labels) or a missing/corrupt model."""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from tableref.models.card import (CropSettings, ModelCard, ModelCardError, ModelError, Preprocessing,
                                  TrainingRecord, save_card)
from tableref.vision.classifier import Classifier, session_options, softmax

SIZE = (4, 4)
LABELS = ("blue", "red")
#: logits = mean colour (B, G, R) @ W: "blue" follows channel 0, "red" channel 2.
WEIGHTS = np.array([[4.0, -4.0], [0.0, 0.0], [-4.0, 4.0]], np.float32)


def tiny_model(channels: int = 3, size=SIZE, labels: int = 2) -> bytes:
    x = helper.make_tensor_value_info("input", TensorProto.FLOAT, ["batch", channels, *size])
    y = helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", labels])
    w = helper.make_tensor("w", TensorProto.FLOAT, [channels, labels], WEIGHTS[:channels, :labels].ravel())
    nodes = [helper.make_node("ReduceMean", ["input"], ["mean"], axes=[2, 3], keepdims=0),
             helper.make_node("MatMul", ["mean", "w"], ["logits"])]
    graph = helper.make_graph(nodes, "tiny", [x], [y], [w])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model.SerializeToString()


def card_for(data: bytes, **changes) -> ModelCard:
    card = ModelCard(
        name="tiny", labels=LABELS,
        preprocessing=Preprocessing(SIZE, "bgr", (0.0,) * 3, (1.0,) * 3, CropSettings("quad", 0.0)),
        training=TrainingRecord(1, 2, 1.0, 4, "drawn squares in this test", "2025-01-01", "test"),
        file="tiny.onnx", sha256=hashlib.sha256(data).hexdigest(), parameters=6)
    return replace(card, **changes)


@pytest.fixture
def model_dir(tmp_path):
    data = tiny_model()
    (tmp_path / "tiny.onnx").write_bytes(data)
    save_card(card_for(data), tmp_path)
    return tmp_path


def test_loads_and_predicts(model_dir):
    clf = Classifier.open(model_dir / "tiny.card.json")
    image = np.zeros((20, 40, 3), np.uint8)
    image[:, :20] = (255, 0, 0)   # blue half (BGR)
    image[:, 20:] = (0, 0, 255)   # red half
    quads = [[(0, 0), (19, 0), (19, 19), (0, 19)], [(20, 0), (39, 0), (39, 19), (20, 19)]] * 150
    pred = clf.classify(image, quads)
    assert pred.labels == ("blue", "red") * 150   # more than one internal batch
    assert pred.probabilities.shape == (300, 2) and pred.confidences.dtype == np.float32
    np.testing.assert_allclose(pred.probabilities.sum(axis=1), 1.0, rtol=1e-6)
    np.testing.assert_allclose(pred.confidences[:2], softmax(np.array([[4.0, -4.0]]))[0, 0], rtol=1e-5)
    empty = clf.predict(np.zeros((0, 3, *SIZE), np.float32))
    assert empty.labels == () and empty.probabilities.shape == (0, 2)


@pytest.mark.parametrize("make, message", [
    (lambda d: (card_for(d, sha256="0" * 64), d), "does not match its card"),
    (lambda d: (card_for(d, preprocessing=Preprocessing((8, 8), "bgr", (0,) * 3, (1,) * 3)), d), "takes input"),
    (lambda d: (card_for(d, preprocessing=Preprocessing(SIZE, "gray", (0,), (1,))), d), "takes input"),
    (lambda d: (card_for(d, labels=("a", "b", "c")), d), "3 labels"),
    (lambda d: (card_for(b"not a model"), b"not a model"), "cannot be loaded"),
])
def test_rejects_a_mismatched_pair(make, message):
    card, data = make(tiny_model())
    with pytest.raises(ModelError, match=message):
        Classifier(card, data, "tiny.onnx")


def test_rejects_missing_files_and_bad_input(model_dir):
    (model_dir / "tiny.onnx").unlink()
    with pytest.raises(ModelError, match="does not exist"):
        Classifier.open(model_dir / "tiny.card.json")
    with pytest.raises(ModelCardError, match="does not exist"):
        Classifier.open(model_dir / "nothing.card.json")
    data = tiny_model()
    clf = Classifier(card_for(data), data)
    with pytest.raises(ModelError, match="shape"):
        clf.predict(np.zeros((1, 3, 5, 5), np.float32))


def test_corrupt_card_names_the_field(model_dir):
    path = model_dir / "tiny.card.json"
    data = json.loads(path.read_text())
    data["preprocessing"]["std"] = [1, 0, 1]
    path.write_text(json.dumps(data))
    with pytest.raises(ModelCardError, match=r"tiny.card.json: .*'preprocessing.std\[1\]'"):
        Classifier.open(path)


def test_sessions_do_not_spin_between_runs():
    # several models share the 2 cores (Dolce Vita's two card models, Ligretto's cells and
    # tokens): a session's threads spinning after its run took the cores from the next one
    opts = session_options()
    assert opts.get_session_config_entry("session.intra_op.allow_spinning") == "0"
    assert opts.intra_op_num_threads <= 2 and opts.inter_op_num_threads == 1
