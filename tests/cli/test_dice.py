"""``tableref dice``: boxes, colours and confidences per photo; bad photos reported, not fatal."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

#: A real photo of the held-out half with a few dice.
PHOTO = "IMG_20191208_112434.jpg"


@pytest.fixture(scope="module")
def photo(shared_data):
    return shared_data / "dice-photos" / "images" / PHOTO


def _truncated(path, tmp_path):
    data = path.read_bytes()
    out = tmp_path / "cut.jpg"
    out.write_bytes(data[: len(data) // 2])
    return out


def _written(path, data):
    path.write_bytes(data)
    return path


def test_json_per_photo(run_cli, photo, shared_data):
    result = run_cli("dice", photo, "--json")
    assert result.code == 0, result
    entry = json.loads(result.out)
    assert entry["file"] == str(photo)
    labelled = sum(1 for line in (shared_data / "dice-photos" / "boxes.csv").read_text().splitlines()
                   if line.startswith(PHOTO))
    assert len(entry["dice"]) == labelled
    for die in entry["dice"]:
        assert sorted(die) == ["box", "colour", "confidence"] and len(die["box"]) == 4


def test_table_for_people(run_cli, photo):
    result = run_cli("dice", photo)
    assert result.code == 0, result
    first = result.out.splitlines()[0]
    assert first.startswith(f"{photo}: ") and first.endswith(("dice", "die"))
    assert "colour" in result.out


@pytest.mark.parametrize("make, message", [
    (lambda tmp, photo: tmp / "missing.jpg", "does not exist"),
    (lambda tmp, photo: tmp, "is a folder"),
    (lambda tmp, photo: (tmp / "x.jpg").write_text("hello") and tmp / "x.jpg", "not an image"),
    (lambda tmp, photo: _truncated(photo, tmp), "truncated"),
    (lambda tmp, photo: _written(tmp / "e.png", b""), "empty"),
    (lambda tmp, photo: _written(tmp / "p.png", cv2.imencode(".png", np.zeros((8, 8, 3), np.uint8))[1].tobytes()[:-20]),
     "truncated"),
])
def test_bad_photo_one_line_exit_2(run_cli, tmp_path, photo, make, message):
    bad = make(tmp_path, photo)
    result = run_cli("dice", bad, "--json")
    assert result.code == 2, result
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0]
    assert "Traceback" not in result.err
    assert json.loads(result.out)["error"]


def test_bad_photo_does_not_lose_the_others(run_cli, tmp_path, photo):
    result = run_cli("dice", photo, tmp_path / "missing.jpg", photo, tmp_path, "--json")
    assert result.code == 2, result
    entries = [json.loads(line) for line in result.out.splitlines()]
    assert [("dice" in e, "error" in e) for e in entries] == [(True, False), (False, True), (True, False),
                                                              (False, True)]
    assert entries[0] == entries[2]
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: 2 of 4 photos could not be read")


def test_needs_a_photo(run_cli):
    result = run_cli("dice")
    assert result.code == 2 and "Traceback" not in result.err
