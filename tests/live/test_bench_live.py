"""``tableref bench --live`` end to end: it plays placements through a served session and reports
every figure the issue asks for, each saying what it was measured on (not a timed test)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tableref.bench.live import end_to_end
from tableref.bench.scripted import HAND_FRAMES, ScriptedTable, patch_box, scene_frame, scene_of
from tableref.vision.errors import SourceError, SourceLost, VisionError

FIGURES = ("loop frames per second sustained", "frames dropped by the loop", "loop frames per second, ceiling",
           "unchanged frame in the loop mean", "unchanged frame in the loop p95",
           "recognition latency of a settled scene mean", "placement to page mean", "placement to page max")


def test_the_end_to_end_figures_are_measured():
    figures = {f.name: f for f in end_to_end(placements=2, seed=3)}
    assert set(FIGURES) <= set(figures)
    assert all(math.isfinite(f.value) and f.value >= 0 for f in figures.values())
    assert "1280x720" in figures["placement to page mean"].measured_on
    assert "scene recogniser" in figures["placement to page mean"].measured_on
    assert figures["loop frames per second sustained"].value > 0
    # the page learns of a placement after it was recognised
    assert figures["placement to page mean"].value >= figures["recognition latency of a settled scene mean"].value


@pytest.mark.parametrize("size", [(320, 240), (1280, 720), (640, 480)])
@pytest.mark.parametrize("scene", [0, 1, 37, 300, 65535])
def test_a_scene_frame_carries_its_number(size, scene):
    image = scene_frame(scene, size)
    assert image.shape == (size[1], size[0], 3)
    number, (x, y, w, h) = scene_of(image)
    assert number == scene and (x, y, w) == patch_box(scene, size) and w == h


@pytest.mark.parametrize("scene,error", [(-1, VisionError), (65536, VisionError)])
def test_scene_numbers_out_of_range(scene, error):
    with pytest.raises(error, match="0..65535"):
        scene_frame(scene)


def test_the_scripted_table_places_by_hand_and_can_be_unplugged(tmp_path):
    table = ScriptedTable((320, 240), fps=None, noisy=True)
    table.open()
    assert scene_of(table.read())[0] == 0 and [s for s, _ in table.placed_at] == [0]
    table.show(5)
    hands = [table.read() for _ in range(HAND_FRAMES)]
    assert all(((h == (120, 160, 215)).all(axis=2)).sum() > 100 for h in hands)  # a hand over the table
    assert scene_of(hands[0])[0] == 0
    assert len(table.placed_at) == 1  # not placed while the hand is there
    placed = table.read()
    assert scene_of(placed)[0] == 5 and [s for s, _ in table.placed_at] == [0, 5]
    assert np.abs(placed.astype(int) - scene_frame(5).astype(int)).max() > 0  # noisy, but the code is exact
    table.unplug()
    with pytest.raises(SourceLost, match="unplugged"):
        table.read()
    with pytest.raises(SourceError, match="unplugged"):
        table.open()
