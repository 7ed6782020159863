"""``tableref enrol --game dolcevita``: photographs of a set laid out as a state says adapt the
card models, recorded in the profile that analyze and the live recogniser then read with."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from tableref.bench.enrol import other_set
from tableref.calibration.profile import Profile, load_profile, save_profile
from tableref.rules import dolcevita as rules
from tableref.rules import ligretto
from tableref.vision.recognise.dolcevita import DolceVitaRecogniser
from tableref.vision.recognise.dolcevita_live import LiveDolceVita
from tableref.vision.synthetic.games import scene_for
from tableref.vision.synthetic.scene import RenderSettings, render

#: Layout and photograph seeds of the test (the benchmark's enrolment uses 4000000..).
SEED = 4_100_000


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """Two photographs of a dealt game of a stand-in set (hues turned), its state, a profile."""
    folder = tmp_path_factory.mktemp("enrol")
    state = rules.new_game(3, None, SEED)
    (folder / "deal.json").write_text(json.dumps(state.to_json()))
    layout = scene_for("dolcevita", state).layout
    photos = []
    for k in range(2):
        path = folder / f"deal{k}.png"
        cv2.imwrite(str(path), other_set(render(layout, SEED + k, RenderSettings(hands=(0, 0), distractors=(0, 0))).image))
        photos.append(path)
    save_profile(Profile(), folder / "table.json")
    return folder, photos


@pytest.fixture(scope="module")
def few_anchors():
    with pytest.MonkeyPatch.context() as mp:  # two anchor renders instead of eight: faster, the same path
        mp.setattr("tableref.models.training.dolcevita.ANCHOR_RENDERS", 2)
        yield


def test_enrolment_writes_the_models_and_the_profile_reads_with_them(run_cli, table, few_anchors):
    folder, photos = table
    result = run_cli("enrol", "--game", "dolcevita", "--state", folder / "deal.json", "--profile",
                     folder / "table.json", *photos)
    assert result.code == 0, result
    assert "held out" in result.out and "deal1.png" in result.out
    models = folder / "table-models"
    assert {p.name for p in models.iterdir()} == {"dolcevita-cards.onnx", "dolcevita-cards.card.json",
                                                   "dolcevita-cards-b.onnx", "dolcevita-cards-b.card.json"}
    profile = load_profile(folder / "table.json")
    assert profile.models == models.resolve()
    card = json.loads((models / "dolcevita-cards.card.json").read_text())
    assert card["training"]["command"].startswith("tableref enrol") and "deal1.png" in card["training"]["measured_on"]
    recogniser = DolceVitaRecogniser.open(profile=profile)
    assert recogniser.classifier.card.training.command.startswith("tableref enrol")
    assert recogniser.second.card.training.command.startswith("tableref enrol")
    assert DolceVitaRecogniser.open().classifier.card.training.command == "tableref train --model dolcevita-cards"
    # the live recogniser takes them up when the profile names them
    live = LiveDolceVita()
    image = cv2.imread(str(photos[0]))
    live.recognise(image, profile)
    assert live._recogniser.classifier.card.training.command.startswith("tableref enrol")
    live.recognise(image, None)
    assert live._recogniser.classifier.card.training.command == "tableref train --model dolcevita-cards"
    # analyze with the profile reads with them: the held-out layout's display mostly right
    result = run_cli("analyze", photos[1], "--game", "dolcevita", "--profile", folder / "table.json")
    assert result.code == 0, result
    state = rules.new_game(3, None, SEED)
    read = {i["where"]: i["label"] for i in json.loads(result.out)["items"]}
    right = sum(read.get(f"column:{c}:slot:{s}") == label for c, column in enumerate(state.columns)
                for s, label in enumerate(column))
    assert right >= 0.8 * sum(map(len, state.columns))


def test_a_photograph_with_its_own_state_file_needs_no_state_option(run_cli, table, tmp_path, few_anchors):
    folder, photos = table
    own = tmp_path / "mine.png"
    own.write_bytes(photos[0].read_bytes())
    (tmp_path / "mine.json").write_text((folder / "deal.json").read_text())
    result = run_cli("enrol", "--game", "dolcevita", "--out", tmp_path / "models", own)
    assert result.code == 0, result
    assert "give two photographs or more" in result.out
    assert (tmp_path / "models" / "dolcevita-cards.onnx").is_file()


@pytest.mark.parametrize("case, message", [
    ("no out", "give --out"),
    ("no state", "no state for"),
    ("blank photo", "blank.png: the image is blank"),
    ("noise photo", "noise.png: no table found"),
    ("other game", "is a state of 'ligretto'"),
    ("not json", "state file"),
])
def test_bad_input_is_named(run_cli, table, tmp_path, case, message):
    folder, photos = table
    args = ["enrol", "--game", "dolcevita", "--out", tmp_path / "models", "--state", folder / "deal.json", photos[0]]
    if case == "no out":
        args.remove("--out"), args.remove(tmp_path / "models")
    elif case == "no state":
        args = args[:5] + [photos[0]]
    elif case == "blank photo":
        blank = tmp_path / "blank.png"
        cv2.imwrite(str(blank), np.full((720, 1280, 3), 200, np.uint8))
        args[-1] = blank
    elif case == "noise photo":
        noise = tmp_path / "noise.png"
        cv2.imwrite(str(noise), np.random.default_rng(0).integers(0, 255, (720, 1280, 3), dtype=np.uint8))
        args[-1] = noise
    elif case == "other game":
        other = tmp_path / "lig.json"
        other.write_text(json.dumps(ligretto.new_game(2, None, 1).to_json()))
        args[args.index(folder / "deal.json")] = other
    else:
        broken = tmp_path / "broken.json"
        broken.write_text("{not json")
        args[args.index(folder / "deal.json")] = broken
    result = run_cli(*args)
    assert result.code == 2, result
    assert message in result.err
    assert not (tmp_path / "models").exists()


def test_da_luigi_enrolment_adapts_its_spot_model_for_analyze_and_live(run_cli, tmp_path, monkeypatch):
    from tableref.rules import daluigi
    from tableref.vision.recognise.daluigi import DaLuigiRecogniser
    from tableref.vision.recognise.daluigi_live import LiveDaLuigi

    monkeypatch.setattr("tableref.models.training.daluigi.ANCHOR_RENDERS", 2)
    monkeypatch.setenv("TABLEREF_CACHE", str(tmp_path / "cache"))  # the anchor renders' cache
    photos = []
    for k in range(2):  # two set-ups of a game, each in its own light
        state = daluigi.new_game(3, None, SEED + k)
        path = tmp_path / f"setup{k}.png"
        cv2.imwrite(str(path), other_set(render(scene_for("daluigi", state).layout, SEED + k,
                                                RenderSettings(hands=(0, 0), distractors=(0, 0))).image, 10))
        path.with_suffix(".json").write_text(json.dumps(state.to_json()))
        photos.append(path)
    save_profile(Profile(), tmp_path / "table.json")
    result = run_cli("enrol", "--game", "daluigi", "--profile", tmp_path / "table.json", *photos)
    assert result.code == 0, result
    assert "daluigi-spots:" in result.out and "daluigi-spots-b:" in result.out and "setup1.png held out" in result.out
    profile = load_profile(tmp_path / "table.json")
    recogniser = DaLuigiRecogniser.open(profile=profile)
    assert recogniser.classifier.card.training.command.startswith("tableref enrol")
    assert recogniser.second.card.training.command.startswith("tableref enrol")
    live = LiveDaLuigi()
    live.recognise(cv2.imread(str(photos[0])), profile)
    assert live._recogniser.classifier.card.training.command.startswith("tableref enrol")
    result = run_cli("analyze", photos[1], "--game", "daluigi", "--profile", tmp_path / "table.json")
    assert result.code == 0, result


@pytest.fixture(scope="module")
def ligretto_boards(tmp_path_factory):
    """Photographs of two Ligretto boards in play (8 x 12 and 8 x 20 spaces), each with its state."""
    from tableref.vision.synthetic.games import random_state

    folder = tmp_path_factory.mktemp("ligretto")
    paths = []
    for k, seed in enumerate((4_300_000, 4_300_002)):
        state = random_state("ligretto", seed)
        path = folder / f"board{k}.png"
        cv2.imwrite(str(path), other_set(render(scene_for("ligretto", state).layout, seed,
                                                RenderSettings(hands=(0, 0), distractors=(0, 0))).image, 10))
        path.with_suffix(".json").write_text(json.dumps(state.to_json()))
        paths.append(path)
    return paths


def test_ligretto_enrolment_adapts_the_cover_models_for_analyze_and_live(run_cli, ligretto_boards, tmp_path,
                                                                          monkeypatch):
    from tableref.vision.recognise.ligretto import LigrettoRecogniser

    monkeypatch.setattr("tableref.models.training.ligretto.ANCHOR_RENDERS", 2)
    save_profile(Profile(), tmp_path / "table.json")
    result = run_cli("enrol", "--game", "ligretto", "--profile", tmp_path / "table.json", *ligretto_boards)
    assert result.code == 0, result
    assert "ligretto-cells:" in result.out and "ligretto-cells-b:" in result.out
    profile = load_profile(tmp_path / "table.json")
    assert {p.name for p in profile.models.iterdir()} >= {"ligretto-cells.onnx", "ligretto-cells-b.card.json"}
    recogniser = LigrettoRecogniser.open(profile=profile)  # the token model stays the shipped one
    assert recogniser.cell_model.card.training.command.startswith("tableref enrol")
    assert recogniser.token_model.card.training.command.startswith("tableref train")
    assert recogniser.borders is None  # the twin's card model is not asked beside models adapted away from it
    live = LigrettoRecogniser.open()
    live.recognise(cv2.imread(str(ligretto_boards[0])), profile)
    assert live.cell_model.card.training.command.startswith("tableref enrol") and live.borders is None
    live.recognise(cv2.imread(str(ligretto_boards[0])), None)
    assert live.cell_model.card.training.command.startswith("tableref train") and live.borders is not None
    result = run_cli("analyze", ligretto_boards[1], "--game", "ligretto", "--profile", tmp_path / "table.json")
    assert result.code == 0, result


def test_a_ligretto_board_of_another_size_than_the_state_is_refused(run_cli, ligretto_boards, tmp_path):
    wrong = tmp_path / "wrong.json"
    wrong.write_text(ligretto_boards[0].with_suffix(".json").read_text())  # 8 x 12, the photograph 8 x 20
    result = run_cli("enrol", "--game", "ligretto", "--out", tmp_path / "models", "--state", wrong,
                     _copy(ligretto_boards[1], tmp_path))
    assert result.code == 2, result
    assert "the board read has 8 x 20 spaces, the state's 8 x 12" in result.err
    assert not (tmp_path / "models").exists()


def _copy(path, folder):
    """``path`` copied into ``folder`` without its state file (so --state is what counts)."""
    out = folder / path.name
    out.write_bytes(path.read_bytes())
    return out
