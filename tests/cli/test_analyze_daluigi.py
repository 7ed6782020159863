"""``tableref analyze IMAGE --game daluigi``: the observation as JSON, the drawing, bad input."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from tableref.vision.synthetic.dataset import sample

#: A fresh test render (never used in training).
SEED = 3_100_100


@pytest.fixture(scope="module")
def photo(tmp_path_factory):
    s = sample("daluigi", SEED)
    path = tmp_path_factory.mktemp("analyze") / "table.png"
    cv2.imwrite(str(path), s.image)
    return path, s


def test_a_render_is_read_and_drawn(run_cli, photo, tmp_path):
    path, s = photo
    out = tmp_path / "drawn.png"
    result = run_cli("analyze", str(path), "--game", "daluigi", "--annotate", str(out))
    assert result.code == 0, result
    data = json.loads(result.out)
    assert data["game"] == "daluigi" and data["players"] == s.scene.state.players
    assert {it["where"] for it in data["items"]} == {it.where for it in s.observation.items}
    drawn = cv2.imread(str(out))
    assert drawn is not None and drawn.shape == s.image.shape


def _blank(path):
    cv2.imwrite(str(path), np.full((720, 1280, 3), 200, np.uint8))


def _garbage(path):
    path.write_bytes(b"not an image")


def _dolcevita(path):
    cv2.imwrite(str(path), sample("dolcevita", SEED).image)


@pytest.mark.parametrize("make, players, message", [
    (_blank, None, "blank"),
    (_garbage, None, "error: "),
    (_dolcevita, None, "Da Luigi"),
    (None, 5, "not 5"),
])
def test_bad_input_is_one_line(run_cli, photo, tmp_path, make, players, message):
    path = photo[0]
    if make is not None:
        path = tmp_path / "bad.png"
        make(path)
    result = run_cli("analyze", str(path), "--game", "daluigi", *(["--players", str(players)] if players else []))
    assert result.code == 2 and result.err.startswith("error: ") and message in result.err, result
