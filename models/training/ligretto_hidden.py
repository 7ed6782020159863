"""The ``ligretto-hidden`` recipe: whether a hand or an object lies over part of a Ligretto space.

The cover classifier (``ligretto-cells``) reads a space from 65 % of it shown, so the edge of a
hand or a sleeve across a free space is read as a card's border, and a card half under a
finger as another player's: on validation renders 2000450..2000749, 18 of the 74 spaces wrong
were partly covered (less than 95 % shown, where the benchmark lets them be unknown) and read
wrong. This model answers that one question alone (:mod:`.covers`), and the recogniser asks it
only of the spaces read unsurely (:data:`~tableref.vision.recognise.ligretto.HIDDEN_BELOW`).

Samples are the board's spaces and the places beside it, cut as the cover classifier's are
(at the render's true space corners, a long motion blur undone first, each crop rolled by a
random quarter turn), labelled by the share of each that shows and kept as :mod:`.covers`
says. The card halves on the players' own boards, which the cover classifier also learns from,
are left out: the recogniser asks this model of the board's spaces only.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np

from ...vision.crop import crop_patches
from ...vision.recognise.common import RecognitionError, steady_view
from ...vision.recognise.ligretto import DEBLUR_FROM_PX
from ...vision.recognise.ligretto_board import locate_ligretto, zones_for
from ...vision.recognise.ligretto_labels import HIDDEN_MODEL, PREPROCESSING
from .covers import CLEAR_PER_COVERED, LABELS, kept_samples, share_label
from .ligretto import (CELLS_RECIPE, CONTEXT_SIZE, SAMPLES_PER_RENDER, TRAIN_SEED, VAL_RATIO, VAL_SEED, _context_prep,
                       _inner_quad, _off_board, _upright)
from .recipes import register
from .spots import SpotSample, cache_root, cached_render, covered_share, fill_cache, foreign_labels, seeds_for

CACHE_VERSION = "v1"


def cache_dir() -> Path:
    return cache_root(HIDDEN_MODEL, CACHE_VERSION)


def render_spaces(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Render ``seed`` and cut every labelled space and place beside the board: (patches (N, 64,
    64, 3) uint8, label indices (N,)). A render whose markers cannot be found gives none."""
    from ...vision.synthetic.dataset import sample

    s = sample("ligretto", seed)
    empty = (np.empty((0, *CONTEXT_SIZE, 3), np.uint8), np.empty(0, np.int64))
    try:  # located as the cover classifier's renders are
        view = locate_ligretto(s.image, None, zones_for(None), two_markers="opposite")
    except RecognitionError:
        return empty
    board = s.scene.state.board
    regions = s.labels()["regions"]
    foreign = foreign_labels(s.render)
    found, quads = [], {}
    for i in board.spaces():
        r, c = board.cell(i)
        region = regions[f"lig.cell.{r}.{c}"]
        quads[r, c] = quad = _upright(region["corners_px"])
        found.append((quad, share_label(region["shown"])))
    found += [(quad, share_label(1.0 - covered_share(s.render.labels, foreign, quad)))
              for quad in _off_board(quads, board.height, board.width)]
    found = [(quad, label) for quad, label in found if label is not None]
    if not found:
        return empty
    image, _, _ = steady_view(s.image, view, None, DEBLUR_FROM_PX)
    patches = crop_patches(image, [quad for quad, _ in found], _context_prep())
    return patches, np.array([LABELS.index(label) for _, label in found], np.int64)


def _cached(seed: int) -> tuple[np.ndarray, np.ndarray]:
    return cached_render(cache_dir() / f"{seed}.npz", lambda: render_spaces(seed), ("patches", "labels"))


def build(seed: int, count: int) -> list[SpotSample]:
    """Samples of the spaces of about ``count`` / :data:`SAMPLES_PER_RENDER` training renders
    (seeds from ``seed``) and of the validation renders (seeds from :data:`VAL_SEED`), each
    render cached; every covered one, and :data:`CLEAR_PER_COVERED` clear ones for each."""
    train_seeds, val_seeds = seeds_for(count, SAMPLES_PER_RENDER, VAL_RATIO, TRAIN_SEED, VAL_SEED)
    train_seeds = [s + seed - TRAIN_SEED for s in train_seeds]
    fill_cache(train_seeds + val_seeds, cache_dir(), _cached, "Ligretto (hidden)")
    rng = np.random.default_rng(seed)
    # each crop rolled by a random quarter turn, as the cover classifier's are
    return kept_samples((("train", train_seeds), ("val", val_seeds)), _cached, rng,
                        lambda: _inner_quad(int(rng.integers(4))))


RECIPE = register(replace(
    CELLS_RECIPE,
    name=HIDDEN_MODEL,
    description="Ligretto spaces partly under a hand or an object, from renders of the twin",
    labels=LABELS,
    preprocessing=PREPROCESSING,
    build=build,
    # 600 renders (510 for training), 10 epochs (2026-12-06): 98.85 % of the 10,280 validation samples
    samples=102_000,
    measured_on=(f"spaces of renders of the digital twin (validation render seeds {VAL_SEED}..; training seeds "
                 f"{TRAIN_SEED}..), cut at the render's true space corners, every covered space and "
                 f"{CLEAR_PER_COVERED} clear ones for each; not photographs of a real set"),
    settings={"epochs": 10, "batch_size": 128, "learning_rate": 3e-3},
    widths=(16, 32, 64, 96),
))
