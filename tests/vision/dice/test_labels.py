"""The labelled folder reader and its fixed split by file name."""

from __future__ import annotations

import numpy as np
import pytest

from tableref.vision.dice.labels import HELD_OUT, TUNE, LabelsError, read_folder, split_of

HEADER = "file,face,xmin,ymin,xmax,ymax\n"


def _folder(tmp_path, rows, images=("a.jpg", "b.jpg")):
    (tmp_path / "images").mkdir()
    for name in images:
        (tmp_path / "images" / name).write_bytes(b"not read here")
    (tmp_path / "boxes.csv").write_text(rows, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("name, expected", [
    ("IMG_20191208_111228.jpg", split_of("IMG_20191208_111228.jpg")),
    ("a.jpg", TUNE if __import__("hashlib").sha256(b"a.jpg").digest()[0] % 2 == 0 else HELD_OUT),
])
def test_split_is_a_function_of_the_name(name, expected):
    assert split_of(name) == expected and split_of(name) in (TUNE, HELD_OUT)


def test_read_folder(tmp_path):
    root = _folder(tmp_path, HEADER + "b.jpg,1,1,2,3,4\na.jpg,6,10,10,20,20\nb.jpg,2,5,5,9,9\n")
    photos = read_folder(root)
    assert [p.name for p in photos] == ["a.jpg", "b.jpg"]
    np.testing.assert_array_equal(photos[1].boxes, [[1, 2, 3, 4], [5, 5, 9, 9]])
    halves = read_folder(root, TUNE) + read_folder(root, HELD_OUT)
    assert sorted(p.name for p in halves) == ["a.jpg", "b.jpg"]


@pytest.mark.parametrize("rows, split, error", [
    (None, None, "has no boxes.csv"),
    ("file,xmin\n", None, "lacks the columns"),
    (HEADER + "a.jpg,1,x,2,3,4\n", None, "must be numbers"),
    (HEADER + "a.jpg,1,5,2,3,4\n", None, "xmax > xmin"),
    (HEADER + "c.jpg,1,1,2,3,4\n", None, "does not exist"),
    (HEADER, "train", "split must be"),
])
def test_bad_folder(tmp_path, rows, split, error):
    if rows is None:
        root = tmp_path
    else:
        root = _folder(tmp_path, rows)
    with pytest.raises(LabelsError, match=error):
        read_folder(root, split)


def test_the_real_split_is_about_half(shared_data):
    photos = read_folder(shared_data / "dice-photos")
    held = sum(p.split == HELD_OUT for p in photos)
    assert len(photos) == 200 and 80 <= held <= 120
