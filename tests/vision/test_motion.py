"""The motion gate: phases over scripted frame sequences, masks, settings; the benchmark runs."""

from __future__ import annotations

import numpy as np
import pytest

from tableref.vision import motion
from tableref.vision.motion import GateState, MotionError, MotionSettings, Phase

SIZE = (240, 320)  # height, width of the test frames
SETTINGS = MotionSettings(thumb_width=160, settle_frames=2, occluded_settle_frames=4)


def _frame(seed: int = 0, piece: tuple[int, int] | None = None, hand: bool = False, noise: float = 2.0) -> np.ndarray:
    """A textured table; ``piece`` (x, y) adds a 16 px card; ``hand`` covers the left half."""
    base_rng = np.random.default_rng(1)
    base = np.clip(base_rng.normal(120, 25, (*SIZE, 3)), 0, 255).astype(np.float32)
    image = base + np.random.default_rng(seed).normal(0, noise, base.shape)
    if piece is not None:
        x, y = piece
        image[y:y + 16, x:x + 16] = (250, 250, 250)
    if hand:
        image[:, : SIZE[1] // 2] = (20, 40, 90)  # a dark sleeve
    return np.clip(image, 0, 255).astype(np.uint8)


def _run(frames: list[np.ndarray], settings: MotionSettings = SETTINGS, rebase_on_settled: bool = True) -> list[str]:
    gate, phases = GateState(), []
    for image in frames:
        gate = motion.step(gate, motion.thumbnail(image, settings.thumb_width), settings)
        phases.append(gate.phase.value)
        if gate.wants_recognition and rebase_on_settled:
            gate = motion.rebase(gate)
    return phases


EMPTY = [_frame(s) for s in range(6)]
PLACED = [_frame(s + 10, piece=(100, 80)) for s in range(6)]
HAND = [_frame(s + 20, piece=(100, 80), hand=True) for s in range(6)]

SEQUENCES = [
    # the first still scene is recognised once, then stays idle
    ("first scene", EMPTY[:5], ["moving", "settling", "settled", "idle", "idle"]),
    # a piece is placed: one moving frame, then settling until settled, then idle
    ("piece placed", EMPTY[:3] + PLACED[:4], ["moving", "settling", "settled", "moving", "settling", "settled", "idle"]),
    # a hand over the table: moving, then occluded while it rests, settled only after the long wait
    ("hand rests", EMPTY[:3] + HAND[:6], ["moving", "settling", "settled", "moving", "occluded", "occluded", "occluded",
                                          "settled", "idle"]),
    # the hand comes and goes: the table is as before, so nothing to recognise
    ("hand passes", EMPTY[:3] + HAND[:1] + EMPTY[3:6], ["moving", "settling", "settled", "moving", "moving", "idle",
                                                        "idle"]),
]


@pytest.mark.parametrize("name,frames,expected", SEQUENCES, ids=[s[0] for s in SEQUENCES])
def test_phases(name, frames, expected):
    assert _run(frames) == expected


def test_settled_repeats_until_rebased():
    assert _run(EMPTY[:5], rebase_on_settled=False) == ["moving", "settling", "settled", "settled", "settled"]


def test_mask_ignores_changes_off_the_table():
    settings = SETTINGS
    thumb_shape = motion.thumbnail(EMPTY[0], settings.thumb_width).shape
    right_half = motion.polygon_mask(thumb_shape, np.array([[80, 0], [159, 0], [159, 119], [80, 119]]))
    gate = GateState()
    for image in EMPTY[:3]:
        gate = motion.step(gate, motion.thumbnail(image, settings.thumb_width), settings, right_half)
    gate = motion.rebase(gate)
    left_piece = _frame(30, piece=(20, 80))  # on the left half: outside the mask
    gate = motion.step(gate, motion.thumbnail(left_piece, settings.thumb_width), settings, right_half)
    assert gate.phase is Phase.IDLE and gate.changed_px == 0


def test_thumbnail_shape_and_grey():
    image = np.zeros((720, 1280, 3), np.uint8)
    thumb = motion.thumbnail(image, 320)
    assert thumb.shape == (180, 320) and thumb.dtype == np.uint8


@pytest.mark.parametrize("change,message", [
    ({"thumb_width": 0}, "thumb_width"),
    ({"pixel_threshold": 300}, "pixel_threshold"),
    ({"occluded_fraction": 0.0}, "occluded_fraction"),
    ({"settle_frames": True}, "settle_frames"),
    ({"colour": 1}, "unknown motion setting"),
])
def test_bad_settings(change, message):
    with pytest.raises(MotionError, match=message):
        MotionSettings().replaced(**change)


@pytest.mark.parametrize("thumb,mask,message", [
    (np.zeros((10, 10, 3), np.uint8), None, "grey uint8"),
    (np.zeros((10, 10), np.float32), None, "grey uint8"),
    (np.zeros((10, 10), np.uint8), np.ones((5, 5), bool), "mask"),
])
def test_bad_arrays(thumb, mask, message):
    with pytest.raises(MotionError, match=message):
        motion.step(GateState(), thumb, SETTINGS, mask)


def test_frame_size_change_is_an_error():
    gate = motion.step(GateState(), np.zeros((10, 10), np.uint8), SETTINGS)
    with pytest.raises(MotionError, match="frame size changed"):
        motion.step(gate, np.zeros((12, 10), np.uint8), SETTINGS)


def test_rebase_needs_a_frame():
    with pytest.raises(MotionError, match="not seen a frame"):
        motion.rebase(GateState())


def test_unchanged_frame_benchmark_runs():
    """The benchmark of the 10 ms budget (tableref bench --live) runs and reports; not a timed test."""
    from tableref.bench.live import run

    figures = run(frames=5, seed=0)
    names = {f.name for f in figures}
    assert {"unchanged frame gate mean", "unchanged frame gate+encode p95"} <= names
    assert all(f.unit == "ms" and f.value > 0 for f in figures)
    assert "gate phases seen: idle" in figures[0].measured_on  # the frames really were unchanged
