"""``tableref capture``: saves numbered frames from any source; bad input exits 2 with one line."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from tableref.vision import capture

#: Seconds the command may take on a camera that does not exist (including Python start-up).
MISSING_CAMERA_LIMIT_S = 20.0


def _shots(folder: Path, count: int) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(count)
    for i in range(count):
        assert cv2.imwrite(str(folder / f"in_{i}.png"), rng.integers(0, 256, (30, 40, 3), dtype=np.uint8))
    return folder


def _missing_camera_index() -> str:
    """A camera index with no device behind it (7, as in the docs, unless this machine has a /dev/video7)."""
    index = 7
    while os.path.exists(f"/dev/video{index}"):
        index += 1
    return str(index)


def test_folder_frames_are_saved_as_numbered_pngs(tmp_path, run_cli):
    source = _shots(tmp_path / "in", 3)
    out = tmp_path / "out" / "new"
    result = run_cli("capture", source, "--count", "2", "--fps", "100", "--out", out)
    assert result.code == 0, result
    assert sorted(p.name for p in out.iterdir()) == ["frame_0001.png", "frame_0002.png"]
    for i in range(2):
        assert np.array_equal(cv2.imread(str(out / f"frame_000{i + 1}.png")), cv2.imread(str(source / f"in_{i}.png")))
    lines = result.out.splitlines()
    assert len(lines) == 2 and lines[0].startswith(f"saved {out / 'frame_0001.png'} (40x30, frame 0 of image folder")
    # a second run continues the numbering instead of overwriting
    result = run_cli("capture", source, "--count", "1", "--format", "jpg", "--prefix", "cal", "--out", out)
    result = run_cli("capture", source, "--count", "1", "--format", "jpg", "--prefix", "cal", "--out", out)
    assert result.code == 0 and (out / "cal_0002.jpg").is_file() and (out / "frame_0001.png").is_file()


def test_a_source_that_ends_early_saves_what_it_had(tmp_path, run_cli):
    source = _shots(tmp_path / "in", 2)
    result = run_cli("capture", source, "--count", "5", "--fps", "100", "--out", tmp_path / "out")
    assert result.code == 0, result
    assert len(list((tmp_path / "out").iterdir())) == 2
    assert result.out.splitlines()[-1].endswith("ended after 2 frame(s); saved 2 of 5")


def test_every_spaces_the_saved_frames(tmp_path, run_cli):
    source = _shots(tmp_path / "in", 1)
    started = time.monotonic()
    result = run_cli("capture", source, "--count", "3", "--every", "0.1", "--fps", "100", "--loop",
                     "--out", tmp_path / "out")
    assert result.code == 0, result
    assert time.monotonic() - started >= 0.2
    assert len(list((tmp_path / "out").iterdir())) == 3


@pytest.mark.parametrize(("words", "message"), [
    (("{tmp}/nowhere", "--out", "{tmp}/o"), "error: no such file or folder: '{tmp}/nowhere'"),
    (("{tmp}/in/*.jpg", "--out", "{tmp}/o"), "error: glob '{tmp}/in/*.jpg' matches no files"),
    (("ftp://example/x", "--out", "{tmp}/o"), "error: unsupported stream URL 'ftp://example/x'"),
    (("{tmp}/in", "--out", "{tmp}/in/in_0.png"), "error: --out '{tmp}/in/in_0.png' is a file, not a folder"),
    (("{tmp}/in", "--prefix", "a/b", "--out", "{tmp}/o"), "error: --prefix must be letters"),
    (("{tmp}/in", "--count", "0", "--out", "{tmp}/o"), "error: Invalid value for '--count'"),
    (("{tmp}/in",), "error: Missing option '--out'"),
], ids=["missing", "glob", "scheme", "out-is-file", "prefix", "count-0", "no-out"])
def test_bad_input_exits_2_with_one_line(tmp_path, run_cli, words, message):
    _shots(tmp_path / "in", 1)
    result = run_cli("capture", *(w.format(tmp=tmp_path) for w in words))
    assert result.code == 2, result
    assert message.format(tmp=tmp_path).lower() in result.err.lower()  # click's own errors may say "Error:"
    assert "Traceback" not in result.err and result.out == ""
    assert len(result.err.strip().splitlines()) == 1


def test_unopenable_camera_is_quiet_even_when_opencv_tries_it(monkeypatch, tmp_path, capfd):
    """Without the /dev check, OpenCV itself is asked; its warnings must not reach stderr."""
    from tableref.cli import main
    monkeypatch.setattr(capture, "CAMERA_DEVICE_PATTERN", None)
    with pytest.raises(SystemExit) as exit_info:
        main(["capture", _missing_camera_index(), "--out", str(tmp_path / "d")])
    err = capfd.readouterr().err
    assert exit_info.value.code == 2
    assert err.splitlines() == [f"error: camera {_missing_camera_index()} cannot be opened: "
                                "no such device, or it is in use by another program"]


def test_nonexistent_camera_exits_2_with_one_clear_line(tmp_path):
    index = _missing_camera_index()
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "tableref", "capture", index, "--out", str(tmp_path / "d")],
                          capture_output=True, text=True, timeout=MISSING_CAMERA_LIMIT_S, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines() == [f"error: camera {index} cannot be opened: no such device "
                                        f"(/dev/video{index} does not exist)"]
    assert done.stdout == "" and time.monotonic() - started < MISSING_CAMERA_LIMIT_S
