"""``tableref render --game G --n N --out DIR``: image and label pairs, and bad input."""

from __future__ import annotations

import json

import pytest


def test_render_writes_n_image_and_label_pairs(run_cli, tmp_path):
    out = tmp_path / "renders"
    result = run_cli("render", "--game", "ligretto", "--n", "2", "--out", out, "--seed", "4")
    assert result.code == 0, result
    names = sorted(p.name for p in out.iterdir())
    assert names == ["ligretto-000004.jpg", "ligretto-000004.json", "ligretto-000005.jpg", "ligretto-000005.json"]
    assert (out / "ligretto-000004.jpg").read_bytes()[:2] == b"\xff\xd8"
    labels = json.loads((out / "ligretto-000005.json").read_text())
    assert labels["seed"] == 5 and labels["game"] == "ligretto"
    again = tmp_path / "again"
    assert run_cli("render", "--game", "ligretto", "--n", "1", "--out", again, "--seed", "4").code == 0
    assert (again / "ligretto-000004.jpg").read_bytes() == (out / "ligretto-000004.jpg").read_bytes()


@pytest.mark.parametrize("args, message", [
    (["--game", "chess", "--n", "1", "--out", "OUT"], "'chess' is not one of"),
    (["--game", "ligretto", "--n", "0", "--out", "OUT"], "0 is not in the range"),
    (["--game", "ligretto", "--n", "1", "--out", "OUT", "--seed", "-3"], "-3 is not in the range"),
    (["--game", "ligretto"], "missing --n, --out"),
    (["--game", "ligretto", "--n", "1", "--out", "FILE"], "is a file"),
])
def test_render_rejects_bad_input(run_cli, tmp_path, args, message):
    (tmp_path / "FILE").write_text("x")
    result = run_cli("render", *[str(tmp_path / a) if a in ("OUT", "FILE") else a for a in args])
    assert result.code == 2 and message in result.err and "Traceback" not in result.err, result
    assert not (tmp_path / "OUT").exists()


@pytest.mark.parametrize("out, message", [("sheet.png", "must end in .jpg"), ("missing/sheet.jpg", "does not exist")])
def test_contact_sheet_rejects_bad_output(run_cli, tmp_path, out, message):
    result = run_cli("render", "contact-sheet", "--game", "ligretto", "--out", tmp_path / out)
    assert result.code == 2 and message in result.err, result
