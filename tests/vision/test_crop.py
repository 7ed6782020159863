"""The one crop: known quads give known pixels (rotation, corner order, margin), and the
normalisation follows the card."""

from __future__ import annotations

import numpy as np
import pytest

from tableref.models.card import CropSettings, Preprocessing
from tableref.vision.crop import Box, CropError, as_quad, crop, crop_patches, in_image, order_corners, to_tensor

# A 4x4 grid of distinct colours, each cell 10x10 px, on a 40x40 image at offset (20, 20).
CELL, GRID, OFFSET = 10, 4, 20


def grid_image() -> np.ndarray:
    img = np.zeros((80, 80, 3), np.uint8)
    for r in range(GRID):
        for c in range(GRID):
            img[OFFSET + r * CELL:OFFSET + (r + 1) * CELL, OFFSET + c * CELL:OFFSET + (c + 1) * CELL] = \
                (10 + 60 * r, 10 + 60 * c, 200)
    return img


def prep(size=(4, 4), margin=0.0, colour="bgr", region="quad", box_mm=None) -> Preprocessing:
    n = 1 if colour == "gray" else 3
    return Preprocessing(size, colour, (0.0,) * n, (1.0,) * n, CropSettings(region, margin, box_mm))


# The grid's outer corners (pixel edges), top-left first, clockwise.
TL, TR, BR, BL = (19.5, 19.5), (59.5, 19.5), (59.5, 59.5), (19.5, 59.5)
CELLS = grid_image()[OFFSET + CELL // 2::CELL, OFFSET + CELL // 2::CELL][:GRID, :GRID]

CASES = [
    # name, region, preprocessing, expected 4x4 cell colours
    ("upright", [TL, TR, BR, BL], prep(), CELLS),
    ("corner order rolled by one: turned 90 deg", [TR, BR, BL, TL], prep(), np.rot90(CELLS, 1)),
    ("rolled by two: 180 deg", [BR, BL, TL, TR], prep(), np.rot90(CELLS, 2)),
    ("rolled by three: 270 deg", [BL, TL, TR, BR], prep(), np.rot90(CELLS, 3)),
    ("mirrored order", [TR, TL, BL, BR], prep(), CELLS[:, ::-1]),
    ("box, no turn", Box((39.5, 39.5), (40, 40), 0), prep(), CELLS),
    ("box turned 90 deg clockwise", Box((39.5, 39.5), (40, 40), 90), prep(), np.rot90(CELLS, 1)),
    ("inner 2x2 with margin 0.5 shows 4x4",
     [(29.5, 29.5), (49.5, 29.5), (49.5, 49.5), (29.5, 49.5)], prep(margin=0.5), CELLS),
]


@pytest.mark.parametrize("name, region, settings, expected", CASES, ids=[c[0] for c in CASES])
def test_crop_gives_known_cells(name, region, settings, expected):
    # Sample the crop at cell centres: an 8x8 crop holds 2x2 pixels per cell.
    big = Preprocessing((8, 8), settings.colour, settings.mean, settings.std, settings.crop)
    (patch,) = crop_patches(grid_image(), [region], big)
    centres = patch[::2, ::2]
    assert np.abs(centres.astype(int) - expected.astype(int)).max() <= 1


def test_turned_card_is_made_upright():
    """A quad given for a turned item comes out as the upright item."""
    import cv2
    upright = np.zeros((30, 20, 3), np.uint8)
    upright[:10] = (0, 0, 255)   # red head
    upright[10:] = (255, 0, 0)
    box = Box((50.0, 50.0), (20.0, 30.0), 35.0)
    src = np.array([[0, 0], [20, 0], [20, 30], [0, 30]], np.float32) - 0.5
    m = cv2.getPerspectiveTransform(src, box.quad().astype(np.float32))
    scene = cv2.warpPerspective(upright, m, (100, 100), flags=cv2.INTER_NEAREST)
    (patch,) = crop_patches(scene, [box], prep(size=(30, 20)))
    assert (patch[2:8, 3:17] == (0, 0, 255)).all(axis=-1).mean() > 0.95
    assert (patch[14:28, 3:17] == (255, 0, 0)).all(axis=-1).mean() > 0.95


@pytest.mark.parametrize("colour, channel_values", [
    ("bgr", (10, 20, 30)), ("rgb", (30, 20, 10)), ("gray", None)])
def test_to_tensor_follows_card(colour, channel_values):
    n = 1 if colour == "gray" else 3
    settings = Preprocessing((2, 3), colour, (0.5,) * n, (0.25,) * n)
    patches = np.zeros((2, 2, 3, 3), np.uint8)
    patches[:] = (10, 20, 30)
    x = to_tensor(patches, settings)
    assert x.dtype == np.float32 and x.shape == (2, n, 2, 3) and x.flags.c_contiguous
    if channel_values:
        expected = (np.array(channel_values) / 255.0 - 0.5) / 0.25
        np.testing.assert_allclose(x[0, :, 0, 0], expected, rtol=1e-6)
    else:
        gray = 0.114 * 10 + 0.587 * 20 + 0.299 * 30
        assert x[0, 0, 0, 0] == pytest.approx((gray / 255 - 0.5) / 0.25, abs=0.02)


def test_batch_and_empty_batch():
    img = grid_image()
    regions = [[TL, TR, BR, BL], Box((39.5, 39.5), (20, 20), 45)]
    x = crop(img, regions, prep(size=(16, 16)))
    assert x.shape == (2, 3, 16, 16)
    np.testing.assert_array_equal(crop(img, regions[:1], prep(size=(16, 16)))[0], x[0])
    assert crop(img, [], prep()).shape == (0, 3, 4, 4)
    assert crop(img, [], prep(colour="gray")).shape == (0, 1, 4, 4)


def test_many_quads_at_once_crop_as_each_alone():
    """Plain corner arrays are checked in one pass; the patches are the same as one at a time."""
    rng = np.random.default_rng(5)
    img = rng.integers(0, 256, (90, 120, 3), dtype=np.uint8)
    centres = rng.uniform(15, 75, (50, 2))
    quads = np.stack([Box(tuple(c), tuple(rng.uniform(4, 30, 2)), rng.uniform(-180, 180)).quad() for c in centres])
    settings = prep(size=(12, 12), margin=0.2)
    together = crop_patches(img, list(quads), settings)
    assert together.shape == (50, 12, 12, 3)
    for quad, patch in zip(quads, together):  # beside a Box, each region is checked on its own
        np.testing.assert_array_equal(crop_patches(img, [quad, Box((10, 10), (5, 5))], settings)[0], patch)
    np.testing.assert_array_equal(crop_patches(img, quads, settings), together)  # an (N, 4, 2) array too


@pytest.mark.parametrize("bad, message", [
    ([[0, 0], [0, 0], [0, 0], [0, 0]], "at least one pixel"),
    ([[0, 0], [1, 0], [np.inf, 1], [0, 1]], "finite"),
    ([[0, 0], [1, 0], [1, 1]], "shape"),
])
def test_one_bad_quad_among_many_is_named(bad, message):
    good = [[TL, TR, BR, BL]] * 3
    with pytest.raises(CropError, match=message):
        crop_patches(grid_image(), good + [bad], prep())


def test_box_mm_region_uses_scale():
    settings = prep(size=(8, 8), region="box_mm", box_mm=(10.0, 10.0))
    # A tiny quad at the grid centre; the card asks for 10 mm at 4 px/mm = the whole grid.
    tiny = Box((39.5, 39.5), (2.0, 2.0), 0).quad()
    (patch,) = crop_patches(grid_image(), [tiny], settings, px_per_mm=4.0)
    assert np.abs(patch[::2, ::2].astype(int) - CELLS.astype(int)).max() <= 1
    with pytest.raises(CropError, match="px_per_mm"):
        crop_patches(grid_image(), [tiny], settings)


def test_order_corners():
    shuffled = np.array([BR, TL, BL, TR])
    np.testing.assert_array_equal(order_corners(shuffled), np.array([TL, TR, BR, BL]))


@pytest.mark.parametrize("corners, inside", [
    ([[0, 0], [79, 0], [79, 59], [0, 59]], True),           # the whole 80 x 60 image, pixel centres
    ([[10, 10], [20, 10], [20, 20], [10, 20]], True),
    ([[-0.5, 0], [79, 0], [79, 59], [0, 59]], False),        # half a pixel off the left edge
    ([[0, 0], [79.5, 0], [79, 59], [0, 59]], False),         # off the right edge
    ([[0, 0], [79, 0], [79, 60], [0, 59]], False),           # off the bottom
])
def test_in_image(corners, inside):
    quad = np.array(corners, float)
    assert in_image(quad, (60, 80, 3)) == inside
    both = in_image(np.stack([quad, np.array([[1, 1], [2, 1], [2, 2], [1, 2]], float)]), (60, 80))
    assert both.tolist() == [inside, True]


@pytest.mark.parametrize("region, message", [
    (np.zeros((3, 2)), "shape"),
    ([[0, 0], [1, 0], [np.nan, 1], [0, 1]], "finite"),
    ([[0, 0], [0, 0], [0, 0], [0, 0]], "at least one pixel"),
    ("quad", "shape|Box"),
])
def test_bad_regions_are_named(region, message):
    with pytest.raises(CropError, match=message):
        as_quad(region)


@pytest.mark.parametrize("kwargs, message", [
    ({"centre": (0, 0), "size": (0, 5)}, "positive"),
    ({"centre": (0, "x"), "size": (5, 5)}, "centre"),
    ({"centre": (0, 0), "size": (5, 5), "angle": float("inf")}, "angle"),
])
def test_bad_boxes_are_named(kwargs, message):
    with pytest.raises(CropError, match=message):
        Box(**kwargs)


def test_bad_patches_and_images():
    with pytest.raises(CropError, match="patches"):
        to_tensor(np.zeros((1, 5, 4, 3), np.uint8), prep())
    with pytest.raises(ValueError, match="uint8"):
        crop(np.zeros((10, 10, 3), np.float32), [[TL, TR, BR, BL]], prep())
