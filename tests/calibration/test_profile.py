"""Profiles: save/load round trip, and every kind of bad field named in the error."""

from __future__ import annotations

import copy
import json
import re

import numpy as np
import pytest

from tableref.calibration.errors import ProfileError
from tableref.calibration.intrinsics import Intrinsics
from tableref.calibration.markers import detect_markers
from tableref.calibration.profile import Profile, load_profile, save_profile
from tableref.calibration.table import calibrate_table

from .conftest import IMAGE_SIZE


@pytest.fixture(scope="module")
def full_profile(scenes) -> Profile:
    s = scenes["distorted"]
    table = calibrate_table(detect_markers(s.image), s.layout, IMAGE_SIZE, s.intrinsics)
    return Profile(intrinsics=s.intrinsics, table=table, zones={"pool": [[0, 0], [10, 10]]})


def test_save_and_load_round_trip(tmp_path, full_profile):
    path = tmp_path / "table.json"
    save_profile(full_profile, path)
    loaded = load_profile(path)
    assert loaded.to_json() == full_profile.to_json()
    assert json.loads(path.read_text())["version"] == 1
    assert loaded.colour_references is None and dict(loaded.zones) == {"pool": [[0, 0], [10, 10]]}
    np.testing.assert_array_equal(loaded.table.homography, full_profile.table.homography)


def test_an_empty_profile_round_trips(tmp_path):
    save_profile(Profile(), tmp_path / "p.json")
    assert load_profile(tmp_path / "p.json").to_json() == Profile().to_json()


def _edit(obj, path, value):
    """Set (or with value ... delete) the item at a dotted path of keys and list indices."""
    keys = [int(k) if k.isdigit() else k for k in path.split(".")]
    for k in keys[:-1]:
        obj = obj[k]
    if value is ...:
        del obj[keys[-1]]
    else:
        obj[keys[-1]] = value


@pytest.mark.parametrize(("path", "value", "message"), [
    ("version", ..., "field 'version' is missing"),
    ("version", 2, "unknown profile version 2"),
    ("version", "1", "field 'version' must be the integer 1, got the string '1'"),
    ("intrinsics.camera_matrix", ..., "field 'intrinsics.camera_matrix' is missing"),
    ("intrinsics.camera_matrix", [[1, 0, 0], [0, 1, 0]], "'intrinsics.camera_matrix' must be a 3x3 matrix of numbers, got shape 2x3"),
    ("intrinsics.camera_matrix", "eye(3)", "'intrinsics.camera_matrix' must be a 3x3 matrix of numbers, got the string"),
    ("intrinsics.dist_coeffs", [0.1, 0.2, 0.3], "'intrinsics.dist_coeffs' must be a list of 4 or 5 or 8 or 12 or 14 numbers"),
    ("intrinsics.image_size", [1280], "'intrinsics.image_size' must be [width, height] in pixels"),
    ("intrinsics.image_size.0", 12.5, "'intrinsics.image_size[0]' must be an integer >= 1"),
    ("intrinsics.rms", True, "'intrinsics.rms' must be a finite number, got a boolean"),
    ("table.homography", [[1, 0], [0, 1]], "'table.homography' must be a 3x3 matrix of numbers, got shape 2x2"),
    ("table.undistorted", "yes", "'table.undistorted' must be true or false"),
    ("table.reprojection.max_mm", ..., "field 'table.reprojection.max_mm' is missing"),
    ("table.layout.markers.2.corners_mm", [[0, 0], [1, 1]], "'table.layout.markers[2].corners_mm' must be a 4x2 matrix"),
    ("table.layout.markers.1.id", 0, "marker ids must be different"),
    ("table.layout.dictionary", "DICT_9X9", "unknown ArUco dictionary 'DICT_9X9'"),
    ("zones", [1, 2], "field 'zones' must be an object, got a list of 2"),
    ("models", 5, "field 'models' must be a folder path (text) or null"),
    ("models", " ", "field 'models' must be a folder path (text) or null"),
    ("extra", {}, "unknown field(s) ['extra']"),
])
def test_bad_profiles_name_the_field(tmp_path, full_profile, path, value, message):
    obj = copy.deepcopy(full_profile.to_json())
    _edit(obj, path, value)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(obj))
    with pytest.raises(ProfileError, match=re.escape(message)):
        load_profile(bad)


@pytest.mark.parametrize(("content", "message"), [
    (None, "does not exist"),
    ("{ not json", "is not valid JSON"),
    ("[1, 2]", "must be an object"),
])
def test_unreadable_profiles(tmp_path, content, message):
    path = tmp_path / "p.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(ProfileError, match=message):
        load_profile(path)


def test_intrinsics_are_frozen():
    k = Intrinsics(np.eye(3), np.zeros(5), (640, 480))
    with pytest.raises(ValueError):
        k.camera_matrix[0, 0] = 2.0


def test_a_models_folder_is_kept_and_a_relative_one_taken_from_the_profiles_folder(tmp_path):
    save_profile(Profile(models=tmp_path / "mine"), tmp_path / "a.json")
    assert load_profile(tmp_path / "a.json").models == tmp_path / "mine"
    (tmp_path / "b.json").write_text(json.dumps({**Profile().to_json(), "models": "set-models"}))
    loaded = load_profile(tmp_path / "b.json")
    assert loaded.models == (tmp_path / "set-models").resolve()
    assert loaded.model_card("dolcevita-cards") is None  # the folder holds none: the shipped one is read
    (tmp_path / "set-models").mkdir()
    (tmp_path / "set-models" / "dolcevita-cards.card.json").write_text("{}")
    assert loaded.model_card("dolcevita-cards") == (tmp_path / "set-models" / "dolcevita-cards.card.json").resolve()
    old = {k: v for k, v in Profile().to_json().items() if k != "models"}  # a profile written before the field
    (tmp_path / "c.json").write_text(json.dumps(old))
    assert load_profile(tmp_path / "c.json").models is None
