"""The detector runner: its records, its model files and what it refuses."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

from tableref.models.card import ModelCardError, ModelError
from tableref.vision.dice.decode import DecodeSettings
from tableref.vision.dice.detect import (DEFAULT_CARD, SETTINGS_SUFFIX, DetectorSettings, Die, DiceDetector,
                                         box_quads, load_settings, save_settings)
from tableref.vision.errors import ImageError, VisionError


@pytest.mark.parametrize("box, colour, confidence, error", [
    ((1, 2, 3, 4), "red", 0.5, None),
    ((1, 2, 1, 4), "red", 0.5, "box"),
    ((1, 2, 3), "red", 0.5, "box"),
    ((1, 2, float("nan"), 4), "red", 0.5, "box"),
    ((1, 2, 3, 4), "teal", 0.5, "colour"),
    ((1, 2, 3, 4), "red", 1.5, "confidence"),
])
def test_die_checks_itself(box, colour, confidence, error):
    if error is None:
        die = Die(box, colour, confidence)
        assert die.to_json() == {"box": [1.0, 2.0, 3.0, 4.0], "colour": "red", "confidence": 0.5}
    else:
        with pytest.raises(VisionError, match=error):
            Die(box, colour, confidence)


@pytest.fixture(scope="module")
def detector():
    return DiceDetector.open()


def test_blank_photo_has_no_dice(detector):
    assert detector.detect(np.full((480, 640, 3), 225, np.uint8)) == ()


@pytest.mark.parametrize("shape", [(37, 53), (640, 640), (720, 1280)])
def test_any_photo_size(detector, shape):
    image = np.random.default_rng(1).integers(0, 256, (*shape, 3), dtype=np.uint8)
    for die in detector.detect(image):
        assert 0 <= die.box[0] < die.box[2] <= shape[1] and 0 <= die.box[1] < die.box[3] <= shape[0]


def test_bad_photo(detector):
    with pytest.raises(ImageError, match="uint8"):
        detector.detect(np.zeros((10, 10, 3), np.float64))


@pytest.mark.parametrize("settings", [
    DetectorSettings(DecodeSettings(min_confidence=0.45, nms_iou=0.25, max_dice=50)),
    DetectorSettings(DecodeSettings(), "dice-verifier.card.json", 0.7),
])
def test_settings_round_trip(tmp_path, settings):
    assert load_settings(save_settings(settings, tmp_path / "x.settings.json")) == settings


@pytest.mark.parametrize("verifier, probability, error", [
    ("../x.card.json", 0.5, "bare file name"),
    ("x.onnx", 0.5, "bare file name"),
    (None, 1.0, "min_die_probability"),
    (None, -0.1, "min_die_probability"),
])
def test_bad_settings(verifier, probability, error):
    with pytest.raises(VisionError, match=error):
        DetectorSettings(DecodeSettings(), verifier, probability)


def test_box_quads_run_clockwise_from_top_left():
    np.testing.assert_array_equal(box_quads(np.array([[1, 2, 5, 7]])),
                                  [[[1, 2], [5, 2], [5, 7], [1, 7]]])


def _copy_model(tmp_path):
    for name in ("dice-detector.card.json", "dice-detector.onnx", f"dice-detector{SETTINGS_SUFFIX}",
                 "dice-verifier.card.json", "dice-verifier.onnx"):
        shutil.copy(DEFAULT_CARD.with_name(name), tmp_path)
    return tmp_path / "dice-detector.card.json"


SETTINGS = f"dice-detector{SETTINGS_SUFFIX}"


@pytest.mark.parametrize("spoil, error, message", [
    (lambda d: (d / "dice-detector.onnx").write_bytes(b"xx"), ModelError, "does not match its card"),
    (lambda d: (d / "dice-detector.onnx").unlink(), ModelError, "does not exist"),
    (lambda d: (d / SETTINGS).unlink(), ModelError, "do not exist"),
    (lambda d: (d / SETTINGS).write_text("{}"), ModelError, "exactly"),
    (lambda d: (d / SETTINGS).write_text(json.dumps({"min_confidence": 2, "nms_iou": 0.3, "max_dice": 5,
                                                     "verifier": None, "min_die_probability": 0.5})),
     VisionError, "min_confidence"),
    (lambda d: (d / "dice-verifier.onnx").write_bytes(b"xx"), ModelError, "does not match its card"),
    (lambda d: (d / "dice-verifier.card.json").unlink(), ModelCardError, "does not exist"),
    (lambda d: (d / "dice-detector.card.json").write_text("{"), ModelCardError, "not valid JSON"),
])
def test_broken_model_files(tmp_path, spoil, error, message):
    card = _copy_model(tmp_path)
    spoil(tmp_path)
    with pytest.raises(error, match=message):
        DiceDetector.open(card)


def test_wrong_labels(tmp_path):
    card = _copy_model(tmp_path)
    data = json.loads(card.read_text())
    data["labels"] = ["a", "b"]
    card.write_text(json.dumps(data))
    with pytest.raises(ModelError, match="labels"):
        DiceDetector.open(card)
