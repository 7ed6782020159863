"""Training of the detector: the crops and their boxes, the loss, and a tiny end-to-end run."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

from tableref.models.card import load_card
from tableref.models.training.dice import PREPROCESSING, DiceTrainSettings, train_dice_detector
from tableref.models.training.dice_verifier import train_dice_verifier
from tableref.models.training.dice_data import DiceAugmentation, _turn, make_sample
from tableref.models.training import TrainingError
from tableref.vision.dice.decode import HEAT
from tableref.vision.dice.detect import DiceDetector
from tableref.vision.dice.labels import HELD_OUT, TUNE, read_folder, split_of


@pytest.mark.parametrize("turns, mirror", [(0, False), (1, False), (2, False), (3, False), (1, True), (0, True)])
def test_turning_moves_boxes_with_the_pixels(turns, mirror):
    image = np.zeros((40, 60, 3), np.uint8)
    image[5:15, 20:32] = 255
    box = np.array([[20, 5, 32, 15]], np.float32)
    turned, moved = _turn(image, box, turns, mirror)
    ys, xs = np.nonzero(turned[..., 0])
    np.testing.assert_array_equal(moved[0], [xs.min(), ys.min(), xs.max() + 1, ys.max() + 1])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_samples_are_seeded_and_shaped(shared_data, seed):
    photo = read_folder(shared_data / "dice-photos", TUNE)[0]
    from tableref.vision.imageio import read_image
    image = read_image(photo.path)
    aug = DiceAugmentation()
    a = make_sample(image, photo.boxes, PREPROCESSING, aug, np.random.default_rng(seed))
    b = make_sample(image, photo.boxes, PREPROCESSING, aug, np.random.default_rng(seed))
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)
    tensor, maps, centres = a
    assert tensor.shape == (3, aug.crop, aug.crop) and maps.shape[1:] == centres.shape == (aug.crop // 4,) * 2
    assert maps[HEAT].max() <= 1.0


@pytest.mark.parametrize("settings, error", [
    (dict(steps=0), "steps"),
    (dict(batch_size=0), "batch_size"),
    (dict(warmup=-1), "warmup"),
])
def test_bad_settings(settings, error):
    with pytest.raises(TrainingError, match=error):
        DiceTrainSettings(**settings)


def test_tiny_run_writes_a_model_that_opens(shared_data, tmp_path):
    source = shared_data / "dice-photos"
    photos = read_folder(source)
    chosen = [p for p in photos if p.split == TUNE][:2] + [p for p in photos if p.split == HELD_OUT][:1]
    data = tmp_path / "data"
    (data / "images").mkdir(parents=True)
    rows = ["file,face,xmin,ymin,xmax,ymax"]
    for p in chosen:
        shutil.copy(p.path, data / "images")
        rows += [f"{p.name},1,{b[0]},{b[1]},{b[2]},{b[3]}" for b in p.boxes]
    (data / "boxes.csv").write_text("\n".join(rows) + "\n")
    result = train_dice_detector(data, tmp_path / "out", "test run",
                                 settings=DiceTrainSettings(steps=1, batch_size=2, warmup=0))
    card = load_card(result.card_path)
    assert card == result.card and card.training.command == "test run" and card.training.val_samples == 1
    assert result.held_out.photos == 1 and result.tune.photos == 2
    assert split_of(chosen[-1].name) == HELD_OUT and "held-out" in card.training.measured_on
    settings = json.loads((tmp_path / "out" / "dice-detector.settings.json").read_text())
    assert settings["min_confidence"] == result.decode.min_confidence and settings["verifier"] is None
    DiceDetector.open(result.card_path).detect(np.full((64, 64, 3), 200, np.uint8))
    verified = train_dice_verifier(data, tmp_path / "out", "test run 2", epochs=1)
    assert load_card(verified.card_path).labels == ("die", "other")
    assert DiceDetector.open(result.card_path).verifier is not None
