"""``tableref analyze --game ligretto``: a render read as JSON with its drawing; bad input one line, exit 2."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest


@pytest.fixture(scope="module")
def render(tmp_path_factory):
    from tableref.vision.synthetic.dataset import sample

    s = sample("ligretto", 3_100_100)
    path = tmp_path_factory.mktemp("lig") / "table.png"
    cv2.imwrite(str(path), s.image)
    return path, s.scene.state


def test_render_read_as_json(run_cli, render, tmp_path):
    path, state = render
    out = tmp_path / "read.png"
    result = run_cli("analyze", str(path), "--game", "ligretto", "--annotate", str(out))
    assert result.code == 0, result
    data = json.loads(result.out)
    assert (data["rows"], data["columns"]) == (state.board.height, state.board.width)
    assert data["observation"]["game"] == "ligretto"
    assert len(data["observation"]["cells"]) == state.board.height * state.board.width
    assert cv2.imread(str(out)).shape == (720, 1280, 3)


@pytest.mark.parametrize("make, message", [
    (lambda p: cv2.imwrite(str(p), np.zeros((720, 1280, 3), np.uint8)), "blank"),
    (lambda p: cv2.imwrite(str(p), np.random.default_rng(3).integers(0, 256, (720, 1280, 3), dtype=np.uint8)),
     "no table found"),
    (lambda p: p.write_bytes(b"not an image"), ""),
])
def test_bad_images_are_refused_clearly(run_cli, tmp_path, make, message):
    path = tmp_path / "in.png"
    make(path)
    result = run_cli("analyze", str(path), "--game", "ligretto")
    assert result.code == 2, result
    assert result.err.startswith("error: ") and "Traceback" not in result.err
    assert message in result.err


def test_told_the_players_only_their_border_styles_are_read(run_cli, tmp_path):
    from tableref.vision.synthetic.dataset import sample

    # validation render 2000527, two players: free spaces at a hand's edge read untold as a
    # dotted card's halves (tests/vision/recognise/test_ligretto.py)
    s = sample("ligretto", 2_000_527)
    path = tmp_path / "two.png"
    cv2.imwrite(str(path), s.image)

    def owners(*extra: str) -> set[int]:
        result = run_cli("analyze", str(path), "--game", "ligretto", *extra)
        assert result.code == 0, result
        return {c["owner"] for c in json.loads(result.out)["observation"]["cells"] if c.get("owner") is not None}

    assert max(owners()) >= s.scene.state.players == 2
    assert owners("--players", "2") <= {0, 1}


def test_a_number_of_players_ligretto_is_not_played_by_is_refused(run_cli, render):
    path, _ = render
    result = run_cli("analyze", str(path), "--game", "ligretto", "--players", "5")
    assert result.code == 2, result
    assert result.err.startswith("error: ") and "2 to 4 players, not 5" in result.err
