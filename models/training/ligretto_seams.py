"""The ``ligretto-seams`` recipe: whether two neighbouring card halves are one card.

The recogniser pairs the spaces it reads as card halves into cards (:mod:`~tableref.vision.
recognise.ligretto_pairs`); which neighbour is a half's partner was first judged by how pale
the strip between them is (one card's halves meet at a thin white split, two pieces side by
side show their margins, their borders' ink and the board between them). Under a dim or a
washed-out light the colours themselves fall below any fixed paleness, and true partners were
left apart: their owners were then read from one half each (validation renders 2000673,
2000778, 2000801: a dashed half read as double). This classifier looks at the two spaces as
``ligretto-borders`` looks at a card (lengthwise, a tenth of its size around it) and says
whether they are ``one`` card or ``two`` pieces.

Samples are the pairs of neighbouring board spaces of each render that pieces cover, a card
on at least one of them, both showing at least :data:`FIRM_SHARE`; each pair cut at the
render's true space corners with :func:`~tableref.vision.recognise.ligretto_labels.card_quad`
(as the recogniser cuts it from the spaces it finds), from the photograph as taken, and turned
by a random half turn. The label comes from the rules state: the same piece on both is
``one``. Seeds as :mod:`.ligretto`'s: training renders ``TRAIN_SEED ..``, validation renders
``VAL_SEED ..``; each render's pairs are cached as ``.npz`` under ``$TABLEREF_CACHE``.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ...rules.ligretto.state import FREE
from ...vision.recognise.ligretto_labels import (BORDERS_PREPROCESSING, CARD, ONE_CARD, SEAM_LABELS, SEAMS_MODEL,
                                                 TWO_PIECES, card_quad)
from .ligretto import AUGMENT, TRAIN_SEED, VAL_RATIO, VAL_SEED, _upright
from .ligretto_borders import lengthwise_samples, render_lengthwise
from .recipes import Recipe, register
from .spots import SpotSample, cache_root, cached_render, split_by_render

#: Both spaces of a pair show at least this share; less is left out.
FIRM_SHARE = 0.65
#: Pairs per render, roughly (to turn a sample count into a number of renders).
SAMPLES_PER_RENDER = 60
CACHE_VERSION = "v1"


def cache_dir():
    return cache_root(SEAMS_MODEL, CACHE_VERSION)


def pair_samples(s) -> Iterator[tuple[np.ndarray, str]]:
    """(the two spaces' quad in image px, lengthwise; ``one`` or ``two``) of every pair of
    neighbouring board spaces of a render that pieces cover, a card on at least one, both
    showing at least :data:`FIRM_SHARE`."""
    state, regions = s.scene.state, s.labels()["regions"]
    board = state.board
    piece, quad = {}, {}
    for i in board.spaces():
        cell = board.cell(i)
        region = regions[f"lig.cell.{cell[0]}.{cell[1]}"]
        if state.cover[i] != FREE and region["shown"] >= FIRM_SHARE:
            piece[cell], quad[cell] = state.cover[i], _upright(region["corners_px"])
    for (r, c), n in sorted(piece.items()):
        for other in ((r, c + 1), (r + 1, c)):
            m = piece.get(other)
            if m is None or CARD not in (state.pieces[n].kind, state.pieces[m].kind):
                continue
            yield card_quad(quad[r, c], quad[other], (r, c), other), ONE_CARD if n == m else TWO_PIECES


def render_pairs(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Render ``seed`` and cut its pairs: (patches (N, 64, 128, 3) uint8, label indices (N,))."""
    return render_lengthwise(seed, pair_samples, SEAM_LABELS)


def _cached(seed: int) -> tuple[np.ndarray, np.ndarray]:
    return cached_render(cache_dir() / f"{seed}.npz", lambda: render_pairs(seed), ("patches", "labels"))


def build_seams(seed: int, count: int) -> list[SpotSample]:
    """About ``count`` pair samples from training and validation renders (cached)."""
    return lengthwise_samples(seed, count, SAMPLES_PER_RENDER, cache_dir(), _cached, SEAM_LABELS,
                              "Ligretto (card seams)")


MEASURED_ON = (f"pairs of neighbouring card-covered spaces of renders of the digital twin (validation render "
               f"seeds {VAL_SEED}..; training seeds {TRAIN_SEED}..), both at least {FIRM_SHARE:.0%} shown, cut at "
               "the render's true space corners; not photographs of a real set")
#: Pairs sampled (about SAMPLES_PER_RENDER a render): 667 renders, 100 of them for validation
#: (2026-12-06: 99.91 % of their 3,480 pairs after 12 epochs).
SEAMS_SAMPLES = 40_000

SEAMS_RECIPE = register(Recipe(
    name=SEAMS_MODEL,
    description="Ligretto: two neighbouring card halves, one card or two pieces side by side",
    labels=SEAM_LABELS, preprocessing=BORDERS_PREPROCESSING, build=build_seams, samples=SEAMS_SAMPLES,
    val_fraction=VAL_RATIO, measured_on=MEASURED_ON, augmentation=AUGMENT,
    settings={"epochs": 12, "batch_size": 64, "learning_rate": 3e-3},
    train_seed=TRAIN_SEED, val_seed=VAL_SEED, widths=(16, 32, 48, 64), pool_grid=1, split=split_by_render,
))
