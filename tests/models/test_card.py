"""The model card: JSON round trip, and every malformed field named."""

from __future__ import annotations

import copy
import json

import pytest

from tableref.models.card import ModelCard, ModelCardError, card_path_for, load_card, save_card

GOOD = {
    "card_version": 1, "name": "smoke", "labels": ["a", "b", "c"],
    "preprocessing": {"input_size": [64, 48], "colour": "rgb", "mean": [0.5, 0.5, 0.5],
                      "std": [0.25, 0.25, 0.25], "crop": {"region": "quad", "margin": 0.05, "box_mm": None}},
    "training": {"train_seed": 1, "val_seed": 2, "val_accuracy": 0.97, "val_samples": 100,
                 "measured_on": "drawn cards", "date": "2025-01-31", "command": "tableref train --model smoke"},
    "model": {"file": "smoke.onnx", "sha256": "a" * 64, "parameters": 1000},
}


def with_change(path: str, value):
    data = copy.deepcopy(GOOD)
    *parents, last = path.split(".")
    target = data
    for p in parents:
        target = target[p]
    if value is KeyError:
        del target[last]
    else:
        target[last] = value
    return data


def test_round_trip(tmp_path):
    card = ModelCard.from_json(GOOD)
    assert card.to_json() == GOOD
    path = save_card(card, tmp_path)
    assert path == card_path_for(tmp_path / "smoke.onnx")
    assert load_card(path) == card
    assert card.preprocessing.input_shape() == ("batch", 3, 64, 48)


def test_box_mm_round_trip():
    data = with_change("preprocessing.crop", {"region": "box_mm", "margin": 0.0, "box_mm": [16, 16]})
    assert ModelCard.from_json(data).preprocessing.crop.box_mm == (16.0, 16.0)


@pytest.mark.parametrize("path, value, field", [
    ("card_version", 2, "card_version"),
    ("name", "Has Spaces", "name"),
    ("labels", ["a"], "labels"),
    ("labels", ["a", "a"], "labels"),
    ("labels", KeyError, "labels"),
    ("preprocessing.input_size", [64], "preprocessing.input_size"),
    ("preprocessing.input_size", [0, 64], "preprocessing.input_size"),
    ("preprocessing.colour", "hsv", "preprocessing.colour"),
    ("preprocessing.mean", [0.5], "preprocessing.mean"),
    ("preprocessing.std", [0.2, 0.0, 0.2], "preprocessing.std[1]"),
    ("preprocessing.crop.region", "circle", "preprocessing.crop.region"),
    ("preprocessing.crop.margin", -0.1, "preprocessing.crop.margin"),
    ("preprocessing.crop.box_mm", [10, 10], "preprocessing.crop.box_mm"),
    ("preprocessing.crop.region", KeyError, "preprocessing.crop.region"),
    ("training.train_seed", -1, "training.train_seed"),
    ("training.val_accuracy", 1.5, "training.val_accuracy"),
    ("training.val_samples", 0, "training.val_samples"),
    ("training.date", "31/01/2025", "training.date"),
    ("training.command", "", "training.command"),
    ("training.measured_on", KeyError, "training.measured_on"),
    ("model.file", "../x.onnx", "model.file"),
    ("model.file", "smoke.pt", "model.file"),
    ("model.sha256", "xyz", "model.sha256"),
    ("model.parameters", True, "model.parameters"),
    ("model", [], "model"),
])
def test_bad_field_is_named(path, value, field):
    with pytest.raises(ModelCardError) as info:
        ModelCard.from_json(with_change(path, value))
    assert f"'{field}'" in str(info.value)


@pytest.mark.parametrize("text, message", [("{", "not valid JSON"), ("[]", "must be an object")])
def test_bad_files(tmp_path, text, message):
    path = tmp_path / "x.card.json"
    path.write_text(text)
    with pytest.raises(ModelCardError, match=message):
        load_card(path)
    with pytest.raises(ModelCardError, match="does not exist"):
        load_card(tmp_path / "missing.card.json")


def test_card_json_is_plain(tmp_path):
    path = save_card(ModelCard.from_json(GOOD), tmp_path)
    assert json.loads(path.read_text()) == GOOD
