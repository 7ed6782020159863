"""The ``ligretto-cells`` and ``ligretto-tokens`` recipes: Ligretto's space classifiers,
trained on renders of the digital twin.

Samples are the board's spaces as the camera shows them, cut from the render as the recogniser
reads it (a motion blur of :data:`~tableref.vision.recognise.ligretto.DEBLUR_FROM_PX` or more
undone first): each space's corners in the image come from the render's ground truth (the
recogniser's own spaces lie within about 3 px of them; the augmentation shifts, scales and
turns the crop by more than that). Cutting the samples where the recogniser finds the spaces
instead was tried and read no better. Labels come from the rules state: what covers the
space, whether a token stands on it. A space of which less than :data:`FIRM_SHARE_LOW` shows
(a hand, an object; about half of it) is ``hidden``; one between that and
:data:`FIRM_SHARE_HIGH` is left out. Places one and two spaces beyond the
board's edge are ``off``; the halves of the cards on the players' boards and the unused
jokers beside them add samples of every border style (a joker on the board is rare). The
training split is rebalanced (:data:`KEEP_SHARE`, :data:`TOKEN_ON_PIECE_COPIES`); the
validation split is kept as rendered.

Each crop is rolled by a random quarter turn (cards lie both ways on the board).

Seeds: training renders ``TRAIN_SEED ..``, validation renders ``VAL_SEED ..`` (recorded in the
cards); benchmarks and tests use ``TEST_SEED ..``, never used here. Each render's samples are
cached as ``.npz`` under ``$TABLEREF_CACHE`` (default ``~/.cache/tableref``), in a folder of the
code that made them (:func:`.spots.cache_root`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np

from ...rules.ligretto.catalogue import BORDERS
from ...rules.ligretto.state import FREE
from ...vision.crop import crop_patches, inner_quad
from ...vision.recognise.common import RecognitionError, steady_view
from ...vision.recognise.ligretto import DEBLUR_FROM_PX
from ...vision.recognise.ligretto_board import locate_ligretto, zones_for
from ...vision.recognise.ligretto_labels import (CELL_LABELS, CELLS_MODEL, EMPTY, HIDDEN, NO_TOKEN, OFF,
                                                 PREPROCESSING, SECOND_CELLS_MODEL, START, TOKEN, TOKEN_LABELS,
                                                 TOKENS_MODEL, card_label, joker_label)
from ..card import CropSettings, Preprocessing
from .adapt import Photo
from .augment import Augmentation
from .recipes import Recipe, register
from .spots import (SpotSample, cache_root, cached_render, covered_share, fill_cache, firm_label, foreign_labels,
                    seeds_for, split_by_render)


#: Seed ranges: training renders, validation renders, and (never trained on) test renders.
TRAIN_SEED, VAL_SEED, TEST_SEED = 1_000_000, 2_000_000, 3_000_000
#: Training renders of the second cover classifier (validated on the same renders as the first).
SECOND_TRAIN_SEED = 1_100_000
VAL_RATIO = 0.15
#: Samples per render, roughly (to turn a sample count into a number of renders).
SAMPLES_PER_RENDER = 170
#: A space showing at least this share is read; below FIRM_SHARE_LOW it is hidden. The band
#: between is left out. A space half under a hand or an object is hidden, not what shows of
#: it: the dark edge of a phone across half a free space looks like a card's border, and a
#: classifier that never saw such halves called them cards (a few tenths of a per cent of
#: the spaces of validation renders); a half-hidden space read as unknown costs nothing.
FIRM_SHARE_HIGH, FIRM_SHARE_LOW = 0.65, 0.55
#: Cached context around each sample: the quad plus this margin, at this size (h, w) px.
CONTEXT_MARGIN, CONTEXT_SIZE = 0.5, (64, 64)
#: Bumped when what is cut from a render changes: "v3" since the code that renders, labels and
#: locates moved on from what the v2 files hold (137 of the first 565 training and validation
#: renders cut differently, 2026-11-30), so that a warm cache never trains on stale samples;
#: "v4" since the spaces of a render with a long motion blur are cut from it deblurred
#: (2026-12-05).
CACHE_VERSION = "v4"


#: A cell's sample: a :class:`~.spots.SpotSample` (it remembers its render's split).
CellSample = SpotSample


def cache_dir() -> Path:
    return cache_root("ligretto-cells", CACHE_VERSION)


def _firm(shown: float, label: str) -> str | None:
    return firm_label(label, shown, HIDDEN, FIRM_SHARE_HIGH, FIRM_SHARE_LOW)


def _upright(corners_px) -> np.ndarray:
    """A region's corners (the twin lists them from the bottom-left, counter-clockwise seen
    from above) in the crop's order: top-left first, clockwise, row 0 away from the camera."""
    return np.asarray(corners_px, np.float64)[[3, 2, 1, 0], :2]


def cover_label(state, i: int) -> str:
    """The cover classifier's label of board space ``i`` of ``state``."""
    n = state.cover[i]
    if n == FREE:
        return START if i in state.board.starts else EMPTY
    piece = state.pieces[n]
    border = BORDERS[piece.player]
    return card_label(border) if piece.kind == "card" else joker_label(border)


def truth_samples(s) -> Iterator[tuple[np.ndarray, str, str]]:
    """(quad in image px, cover label, token label) of every firm sample of a rendered state."""
    state, labels = s.scene.state, s.labels()
    board = state.board
    regions = labels["regions"]
    tokens = set(state.tokens)
    quads = {}
    for i in board.spaces():
        r, c = board.cell(i)
        region = regions[f"lig.cell.{r}.{c}"]
        quad = _upright(region["corners_px"])
        quads[r, c] = quad
        label = _firm(region["shown"], cover_label(state, i))
        if label is not None:
            yield quad, label, (HIDDEN if label == HIDDEN else TOKEN if i in tokens else NO_TOKEN)
    foreign = foreign_labels(s.render)
    for quad in _off_board(quads, board.height, board.width):
        label = _firm(1.0 - covered_share(s.render.labels, foreign, quad), OFF)
        if label is not None:
            yield quad, label, (HIDDEN if label == HIDDEN else NO_TOKEN)
    for o in labels["objects"]:
        ident = o["ident"]
        if o.get("shown", 0.0) < FIRM_SHARE_HIGH or not ident.startswith(("lig.onboard.", "lig.spare.")):
            continue
        p = np.asarray(o["polygon_px"], np.float64)
        if ident.startswith("lig.spare."):
            yield p, joker_label(o["params"]["border"]), NO_TOKEN
        else:
            top, bottom = (p[0] + p[1]) / 2, (p[3] + p[2]) / 2
            for half in (np.array([p[0], top, bottom, p[3]]), np.array([top, p[1], p[2], bottom])):
                yield half, card_label(o["params"]["border"]), NO_TOKEN


def _off_board(quads: dict, rows: int, cols: int) -> Iterator[np.ndarray]:
    """Places one and two spaces beyond each edge space of the board (px quads)."""
    for (r, c), q in quads.items():
        up, right = q[0] - q[3], q[1] - q[0]
        for k in (1, 2):
            if r == 0:
                yield q + k * up
            if r == rows - 1:
                yield q - k * up
            if c == 0:
                yield q - k * right
            if c == cols - 1:
                yield q + k * right


def _context_prep() -> Preprocessing:
    return Preprocessing(CONTEXT_SIZE, "bgr", (0.0, 0.0, 0.0), (1.0, 1.0, 1.0), CropSettings("quad", CONTEXT_MARGIN))


def _inner_quad(turns: int) -> np.ndarray:
    """Where a sample's quad lies inside its cached context patch (px), rolled by ``turns``
    quarter turns."""
    return np.roll(inner_quad(CONTEXT_SIZE, CONTEXT_MARGIN), turns, axis=0)


def render_cells(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Render ``seed`` and cut every firm sample: (patches (N, 64, 64, 3) uint8, cover label
    indices (N,), token label indices (N,)). A render whose markers cannot be found gives none."""
    from ...vision.synthetic.dataset import sample

    s = sample("ligretto", seed)
    empty = (np.empty((0, *CONTEXT_SIZE, 3), np.uint8), np.empty(0, np.int64), np.empty(0, np.int64))
    try:  # a render whose table cannot be located (three markers, or two in opposite corners) is left out
        view = locate_ligretto(s.image, None, zones_for(None), two_markers="opposite")
    except RecognitionError:
        return empty
    found = list(truth_samples(s))
    if not found:
        return empty
    # a long motion blur undone as the recogniser undoes it before the space classifiers look
    # (the deconvolution's ringing included), so that they learn the crops they are shown
    image, _, _ = steady_view(s.image, view, None, DEBLUR_FROM_PX)
    patches = crop_patches(image, [q for q, _, _ in found], _context_prep())
    cover = {label: i for i, label in enumerate(CELL_LABELS)}
    token = {label: i for i, label in enumerate(TOKEN_LABELS)}
    return (patches, np.array([cover[c] for _, c, _ in found], np.int64),
            np.array([token[t] for _, _, t in found], np.int64))


def _cached(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return cached_render(cache_dir() / f"{seed}.npz", lambda: render_cells(seed), ("patches", "cover", "token"))


def _build(which: str, seed: int, count: int) -> list[CellSample]:
    train_seeds, val_seeds = seeds_for(count, SAMPLES_PER_RENDER, VAL_RATIO, TRAIN_SEED, VAL_SEED)
    offset = seed - TRAIN_SEED
    train_seeds = [s + offset for s in train_seeds]
    fill_cache(train_seeds + val_seeds, cache_dir(), _cached, "Ligretto")
    rng = np.random.default_rng(seed)
    labels = CELL_LABELS if which == "cover" else TOKEN_LABELS
    samples: list[CellSample] = []
    for split, seeds in (("train", train_seeds), ("val", val_seeds)):
        for s in seeds:
            patches, cover, token = _cached(s)
            for p, c, t in zip(patches, cover, token):
                label = labels[c if which == "cover" else t]
                copies = _copies(CELL_LABELS[c], TOKEN_LABELS[t], rng) if split == "train" else 1
                samples += [CellSample(p, _inner_quad(int(rng.integers(4))), label, None, split)
                            for _ in range(copies)]
    return samples


#: Training (never validation) keeps this share of the plentiful places (beside the board,
#: free spaces: three quarters of all samples) and repeats cards and jokers with a token on
#: them (about 730 of 57,000 samples; the classifier called many of them hidden).
KEEP_SHARE = {OFF: 0.35, EMPTY: 0.6}
TOKEN_ON_PIECE_COPIES = 4


def _copies(cover: str, token: str, rng: np.random.Generator) -> int:
    """How many times a training sample of this cover and token label enters the pool."""
    if cover.startswith(("card:", "joker:")) and token == TOKEN:
        return TOKEN_ON_PIECE_COPIES
    return int(rng.random() < KEEP_SHARE.get(cover, 1.0))


def build_cells(seed: int, count: int) -> list[CellSample]:
    """Cover samples of about ``count`` spaces (cached renders; see the module docstring)."""
    return _build("cover", seed, count)


def build_tokens(seed: int, count: int) -> list[CellSample]:
    """Token samples of the same spaces."""
    return _build("token", seed, count)


MEASURED_ON = (f"spaces of renders of the digital twin (validation render seeds {VAL_SEED}..; training seeds "
               f"{TRAIN_SEED}..), cut at the render's true space corners; not photographs of a real set")
AUGMENT = Augmentation(temperature=0.3, brightness=0.3, blur_sigma=1.2, noise_std=6.0, rotation_deg=4.0,
                       shift=0.12, scale=0.1)
#: Spaces sampled (about SAMPLES_PER_RENDER a render): the cover classifier's from 1,130 renders
#: (960 for training, 170 for validation; 565 until 2026-12-05), the token classifier's from the
#: same renders (until 2026-12-06 from the first 283 of them: tokens plainly shown on washed-out
#: or dim cards were read as none; 97.3 % of the 39,453 validation spaces now, 95.98 % then).
CELLS_SAMPLES, TOKENS_SAMPLES = 192_000, 192_000

CELLS_RECIPE = register(Recipe(
    name=CELLS_MODEL,
    description="Ligretto board spaces: empty, start mark, card or joker by border style, hidden, off the board",
    labels=CELL_LABELS, preprocessing=PREPROCESSING, build=build_cells, samples=CELLS_SAMPLES,
    val_fraction=VAL_RATIO, measured_on=MEASURED_ON, augmentation=AUGMENT,
    # 9 epochs of 1,130 renders (2026-12-05): 98.95 % of the 39,453 validation spaces; before, 16
    # epochs of 565 renders: 98.8 % of 19,402 (from 283 renders: 98.3 %, 98.2 % after 10 epochs)
    settings={"epochs": 9, "batch_size": 128, "learning_rate": 3e-3},
    train_seed=TRAIN_SEED, val_seed=VAL_SEED, widths=(16, 32, 64, 96), pool_grid=2, split=split_by_render,
))

#: The second cover classifier: the same network and recipe on other training renders.
SECOND_CELLS_RECIPE = register(replace(
    CELLS_RECIPE, name=SECOND_CELLS_MODEL, train_seed=SECOND_TRAIN_SEED,
    description="Ligretto board spaces, the recogniser's second opinion: the same recipe on other training renders",
    measured_on=(f"spaces of renders of the digital twin (validation render seeds {VAL_SEED}..; training seeds "
                 f"{SECOND_TRAIN_SEED}..), cut at the render's true space corners; not photographs of a real set")))

TOKENS_RECIPE = register(Recipe(
    name=TOKENS_MODEL,
    description="Ligretto board spaces: a black token standing on it or not (or hidden)",
    labels=TOKEN_LABELS, preprocessing=PREPROCESSING, build=build_tokens, samples=TOKENS_SAMPLES,
    val_fraction=VAL_RATIO,
    measured_on=MEASURED_ON, augmentation=AUGMENT,
    # 4 epochs (3 until 2026-12-06); twice the width read the validation boards no better and
    # cost 13 ms an image
    settings={"epochs": 4, "batch_size": 128, "learning_rate": 3e-3},
    train_seed=TRAIN_SEED, val_seed=VAL_SEED, widths=(8, 16, 32, 48), pool_grid=1, split=split_by_render,
))


#: Renders whose spaces lend an enrolment the labels its photographs do not show (validation
#: renders: the shipped models were never fitted on them).
ANCHOR_RENDERS = 8


def enrolment_photo(name: str, image: np.ndarray, state, profile=None) -> Photo:
    """The spaces of a photograph of the user's own board laid out as ``state`` says (row 0 on
    the table's far side), nothing over it: the board found and its spaces cut as the
    recogniser does, each labelled with what covers it (nothing or a start mark, a card or a
    joker of its owner's border; a place of the board's rectangle that is no space, off).

    Raises
    ------
    RecognitionError
        No table or board in the photograph, or a board read with another number of rows or
        columns than the state's (then the spaces would be labelled wrong).
    """
    from ...vision.recognise.ligretto import LigrettoRecogniser

    reading = LigrettoRecogniser.open(profile=profile).read(image, profile)
    board = state.board
    if (reading.rows, reading.columns) != (board.height, board.width):
        raise RecognitionError(f"{name}: the board read has {reading.rows} x {reading.columns} spaces, the state's "
                               f"{board.height} x {board.width}: lay the board out as the state says, all of it in view")
    quads = {s.cell: np.asarray(s.quad_px, np.float64) for s in reading.spaces}
    spaces = set(board.spaces())
    cells = [(r, c) for r in range(board.height) for c in range(board.width)]
    labels = tuple(cover_label(state, r * board.width + c) if r * board.width + c in spaces else OFF for r, c in cells)
    return Photo(name, image, tuple(quads[cell] for cell in cells), labels)


def anchor_photos() -> list[Photo]:
    """The firm spaces of :data:`ANCHOR_RENDERS` validation renders (seeds from :data:`VAL_SEED`)."""
    from ...vision.synthetic.dataset import sample

    out = []
    for seed in range(VAL_SEED, VAL_SEED + ANCHOR_RENDERS):
        s = sample("ligretto", seed)
        found = list(truth_samples(s))
        out.append(Photo(f"render {seed}", s.image, tuple(q for q, _, _ in found), tuple(c for _, c, _ in found)))
    return out
