"""What the setup page shows of a profile: the models adapted to its set among the figures."""

from __future__ import annotations

import shutil

from tableref.calibration.profile import Profile
from tableref.live.calibration_status import calibration_status
from tableref.models.training.adapt import SHIPPED


def test_no_profile_and_a_profile_without_models_show_none():
    assert calibration_status(None)["models"] is None
    assert calibration_status(Profile())["models"] is None


def test_the_adapted_models_cards_are_shown(tmp_path):
    for name in ("dolcevita-cards.card.json", "dolcevita-cards.onnx"):
        shutil.copy(SHIPPED / name, tmp_path / name)
    (tmp_path / "broken.card.json").write_text("{")
    models = calibration_status(Profile(models=tmp_path))["models"]
    assert models["folder"] == str(tmp_path)
    shown = {c["name"]: c for c in models["cards"]}
    assert shown["dolcevita-cards"]["accuracy"] > 0.9 and "renders" in shown["dolcevita-cards"]["measured_on"]
    assert "error" in shown["broken.card.json"]


def test_a_missing_models_folder_is_named(tmp_path):
    models = calibration_status(Profile(models=tmp_path / "gone"))["models"]
    assert "does not exist" in models["error"] and "gone" in models["error"]
