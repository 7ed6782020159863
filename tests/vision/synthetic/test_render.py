"""Rendering: deterministic bytes, and ground truth that lands on the right pixels."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from tableref.calibration.markers import detect_markers

from tableref.vision.synthetic import CLEAN, Layout, LayoutError, Placed, RenderSettings, render
from tableref.vision.synthetic.games.checks import cube_colour_hits, polygon_mask, render_light
from tableref.vision.synthetic.palette import FOOD
from tableref.vision.synthetic.photo import EffectRanges
from tableref.vision.synthetic.video import Hand, VideoScene

NO_PROPS = RenderSettings(hands=(0, 0), distractors=(0, 0))
#: Light, colour cast, glare, shadows, lens distortion, mild defocus and fine JPEG, but no
#: motion blur or sensor noise: those move ArUco's own corner estimate on a 30 px marker by
#: up to ~1.7 px (measured), so a 1-pixel check would test the detector, not the ground truth.
STEADY = RenderSettings(hands=(0, 0), distractors=(0, 0), effect_ranges=EffectRanges(
    defocus_sigma_px=(0.0, 0.6), motion_probability=0.0, read_noise=(0.0, 0.0), shot_noise=(0.0, 0.0),
    jpeg_quality=(92, 95)))
GUEST = {"dishes": ["pasta", "wine"], "points": 3, "wait": 40, "ability": "arrow"}
CARDS = [
    ("daluigi.guest", GUEST),
    ("dolcevita.luxury", {"good": "horse", "value": 500_000}),
    ("dolcevita.number", {"colour": "purple", "value": 4}),
    ("ligretto.card", {"colours": ["blue", "yellow"], "border": "double"}),
]


def mixed_layout(seed: int, cubes: int = 40) -> Layout:
    """Cards of all three games and loose cubes, scattered by ``seed``."""
    rng = np.random.default_rng(seed)
    names = list(FOOD)
    comps = [Placed(kind, params, float(rng.uniform(120, 580)), float(rng.uniform(120, 480)),
                    float(rng.uniform(-40, 40)), z_order=k) for k, (kind, params) in enumerate(CARDS)]
    comps += [Placed("daluigi.cube", {"colour": names[k % 6]}, float(rng.uniform(60, 640)),
                     float(rng.uniform(60, 540)), height_mm=float(rng.choice([0.0, 0.4])))
              for k in range(cubes)]
    return Layout((700, 600), tuple(comps))


def test_same_seed_same_bytes_other_seed_other_image():
    layout = mixed_layout(1)
    a, b = render(layout, 5), render(layout, 5)
    assert a.jpeg == b.jpeg and np.array_equal(a.image, b.image) and np.array_equal(a.labels, b.labels)
    assert a.truth.to_json() == b.truth.to_json()
    assert not np.array_equal(render(layout, 6).image, a.image)


def test_projection_matches_opencv():
    cam = render(mixed_layout(0, cubes=0), 3, CLEAN).truth.camera
    pts = np.random.default_rng(0).uniform([0, 0, 0], [700, 600, 80], (50, 3))
    ours = cam.project(pts)
    cv, _ = cv2.projectPoints(pts, cam.rvec, cam.t, cam.K, cam.dist)
    assert np.abs(ours - cv.reshape(-1, 2)).max() < 1e-6


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4, 5])
def test_marker_corners_match_aruco_detection(seed):
    result = render(mixed_layout(seed, cubes=0), seed, STEADY)
    found = {m.id: m.corners for m in detect_markers(result.image)}
    assert {0, 1, 2, 3} <= set(found)
    for m in result.truth.markers:
        assert m.visibility == 1.0
        assert np.abs(found[m.id] - m.corners_px).max() <= 1.0, (m.id, found[m.id], m.corners_px)


def test_visible_cube_centres_show_their_colour():
    """Over a batch of full renders (light, glare, hands, blur, noise, JPEG), the pixels at the
    centre of each visible cube's top face, the known light undone, are nearest its own colour
    in >= 99% (the issue's figure)."""
    right = total = 0
    for seed in range(8):
        layout = mixed_layout(seed, cubes=60)
        result = render(layout, seed)
        light = render_light(layout, seed, RenderSettings(), result.truth.camera)
        r, t = cube_colour_hits(result.image, result.labels, result.truth, light)
        right, total = right + r, total + t
    assert total >= 300
    assert right / total >= 0.99, (right, total)


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    return float((a & b).sum()) / float((a | b).sum())


@pytest.mark.parametrize("kind, params", CARDS)
@pytest.mark.parametrize("seed", [11, 12])
def test_card_polygon_covers_the_card_rendered_alone(kind, params, seed):
    table = Layout((700, 600))
    card = Layout((700, 600), (Placed(kind, params, 330, 280, 25.0),))
    empty, alone = render(table, seed, CLEAN), render(card, seed, CLEAN)
    drawn = np.abs(alone.image.astype(int) - empty.image.astype(int)).max(axis=2) > 0
    truth = alone.truth.objects[0]
    assert truth.visibility == 1.0 and truth.in_frame
    assert _iou(polygon_mask(drawn.shape, truth.polygon_px), drawn) >= 0.95


def test_label_image_agrees_with_polygons_and_visibility():
    result = render(mixed_layout(4), 4, RenderSettings(hands=(2, 2), distractors=(1, 1)))
    objects = result.truth.objects
    assert {o.kind for o in objects} >= {"hand", "daluigi.cube", "dolcevita.luxury"}
    for o in objects:
        own = result.labels == o.label
        assert own.sum() == 0 or o.bbox_px is not None
        if o.kind in dict(CARDS) and o.visibility == 1.0:
            # The polygon is rasterised exactly (pixels at least half inside), so it is held to the
            # issue's figure even on cards ~35 x 50 px wide.
            assert _iou(polygon_mask(own.shape, o.polygon_px), own) >= 0.95
        if o.visibility < 1.0:
            assert o.occluded_by and all(k > 0 for k in o.occluded_by)


def test_video_frames_redraw_only_what_moves():
    layout = mixed_layout(2, cubes=6)
    moving = Placed("daluigi.cube", {"colour": "water"}, 350, 300, ident="mover")
    first = Layout(layout.table_mm, layout.components + (moving,))
    scene = VideoScene(first, 9, moving={"mover"})
    frames = []
    for step in range(3):
        moved = dataclasses.replace(moving, x_mm=350 + 40 * step)
        frames.append(scene.frame(Layout(layout.table_mm, layout.components + (moved,)),
                                  hands=(Hand((200 + 30 * step, 250), 25.0, "left"),)))
    again = VideoScene(first, 9, moving={"mover"}).frame(
        Layout(layout.table_mm, layout.components + (moving,)), hands=(Hand((200, 250), 25.0, "left"),))
    assert np.array_equal(frames[0].labels, again.labels)
    mover = [o for f in frames for o in f.truth.objects if o.ident == "mover"]
    assert [round(m.pose[0] - mover[0].pose[0]) for m in mover] == [0, 40, 80]
    for f, m in zip(frames, mover):
        x, y = np.round(m.centre_px).astype(int)
        assert f.labels[y, x] == m.label
    assert any(o.kind == "hand" and o.bbox_px for o in frames[-1].truth.objects)


@pytest.mark.parametrize("seed, settings, message", [
    (-1, NO_PROPS, "seed must be a whole number"),
    (1.5, NO_PROPS, "seed must be a whole number"),
])
def test_bad_render_requests_raise(seed, settings, message):
    with pytest.raises(LayoutError, match=message):
        render(mixed_layout(0, cubes=0), seed, settings)


@pytest.mark.parametrize("changes, message", [
    ({"image_size": (10, 720)}, "image_size"),
    ({"surfaces": ("marble",)}, "surfaces must be some of"),
    ({"hands": (2, 1)}, "hands must be"),
])
def test_bad_settings_raise(changes, message):
    with pytest.raises(LayoutError, match=message):
        RenderSettings(**changes)


def test_an_object_drawn_onto_no_pixel_has_no_box_and_no_visibility():
    # a sliver at the frame's edge can be drawn with a box but no pixel of its own (a render of
    # the Dolce Vita training set once failed on it)
    from tableref.vision.synthetic.canvas import Drawn
    from tableref.vision.synthetic.scene import object_truth

    drawn = Drawn(7, (10, 12, 20, 22), np.zeros((2, 2), bool))
    poly = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0]])
    truth = object_truth(np.zeros((40, 40), np.int32), (40, 40), 7, "card", "x", 0, {}, None,
                         (drawn, poly, poly, (0.5, 0.5)))
    assert truth.bbox_px is None and truth.visibility == 0.0
