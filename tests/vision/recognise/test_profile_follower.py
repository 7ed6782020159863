"""ProfileFollower: when a live recogniser takes a new profile's zones, and when its models."""

from __future__ import annotations

from tableref.calibration.profile import Profile
from tableref.vision.recognise.common import ProfileFollower

NAME = "dolcevita-cards"


def _with_models(tmp_path, folder: str | None) -> Profile:
    if folder is None:
        return Profile()
    models = tmp_path / folder
    models.mkdir(exist_ok=True)
    (models / f"{NAME}.card.json").write_text("{}")
    return Profile(models=models)


def test_a_sequence_of_profiles(tmp_path):
    follower = ProfileFollower(NAME)
    plain, plain_too = _with_models(tmp_path, None), _with_models(tmp_path, None)
    mine, mine_again, theirs = (_with_models(tmp_path, "mine"), _with_models(tmp_path, "mine"),
                                _with_models(tmp_path, "theirs"))
    steps = [
        (None, None),        # no profile, as at the start: nothing changes
        (plain, False),      # a profile: its zones, the shipped models still
        (plain, None),       # the same profile object again: nothing to do
        (plain_too, False),  # another profile naming no models
        (mine, True),        # one naming adapted models: open them
        (mine_again, False),  # another profile naming the same models
        (theirs, True),      # other adapted models
        (None, True),        # none: back to the shipped models
        (None, None),
    ]
    for profile, expected in steps:
        assert follower.follow(profile) is expected


def test_a_models_folder_without_this_model_is_the_shipped_model(tmp_path):
    follower = ProfileFollower("ligretto-cells")  # the folder holds a Dolce Vita model only
    assert follower.follow(_with_models(tmp_path, "mine")) is False
