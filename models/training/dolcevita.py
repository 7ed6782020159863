"""The ``dolcevita-cards`` recipe: the card classifier trained on renders of the digital twin.

Samples are made exactly as the recogniser reads a photograph: the table markers found in
the render give the homography (the motion blur they show undone first, as the recogniser
undoes it), the zones description gives each spot (the visible strip
of a card, or the place just beyond the last card of a fan), and the shared crop makes the
input. Labels come from the rules state behind the render; a spot covered by a hand or an
object is ``unknown`` when less than :data:`FIRM_SHARE_LOW` of it shows, and a spot between
that and :data:`FIRM_SHARE_HIGH` is left out (its truth is neither clearly readable nor
clearly hidden).

Seeds: training renders ``TRAIN_SEED ..``, validation renders ``VAL_SEED ..`` (two ranges,
recorded in the card); benchmarks and tests use ``TEST_SEED ..``, never used here. Rendering
costs about half a second per image, so each render's samples are cached as ``.npz`` under
``$TABLEREF_CACHE`` (default ``~/.cache/tableref``), outside the repository, in a folder of the
code that made them (:func:`.spots.cache_root`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np

from ...rules.dolcevita.catalogue import COLUMNS, EMPTY, SLOTS, UNKNOWN, money_label, number_label
from ...vision.crop import crop_patches, in_image, inner_quad
from ...vision.recognise.common import RecognitionError, TableView, check_both_sides, locate_table, steady_view
from ...vision.recognise.dolcevita import MODEL_NAME, PREPROCESSING, SECOND_MODEL_NAME, load_dolcevita_zones
from ...vision.recognise.dolcevita_labels import LABELS
from ...vision.recognise.dolcevita_zones import GOODS, MONEY, SLOT, UNDER, Zones, in_play_area
from ..card import CropSettings, Preprocessing
from .adapt import Photo
from .augment import Augmentation
from .recipes import Recipe, register
from .spots import (SpotSample, cache_root, cached_render, covered_share, fill_cache, firm_label, foreign_labels,
                    seeds_for, split_by_render)


#: Seed ranges: training renders, validation renders, and (never trained on) test renders.
TRAIN_SEED, VAL_SEED, TEST_SEED = 1_000_000, 2_000_000, 3_000_000
#: Training renders of the second model (the recogniser's second opinion on unsure spots):
#: a range of their own, so that the two models learn from different tables.
SECOND_TRAIN_SEED = 1_100_000
#: The share of the renders kept for validation: 151 of 1,260 (2000000..2000150, the same
#: validation renders as when 756 were made with a share of 0.2).
VAL_RATIO = 0.12
#: Spots per render, roughly (to turn a sample count into a number of renders).
SPOTS_PER_RENDER = 110
#: A spot showing at least this share is read; below FIRM_SHARE_LOW it is "unknown".
FIRM_SHARE_HIGH, FIRM_SHARE_LOW = 0.65, 0.35
#: Cached context around each spot: the spot plus this margin, at this size (h, w) px.
CONTEXT_MARGIN, CONTEXT_SIZE = 0.5, (64, 64)
CACHE_VERSION = "v2"


def cache_dir() -> Path:
    return cache_root("dolcevita-cards", CACHE_VERSION)


def card_label(label: str, shown: float) -> str | None:
    """The card model's training label of a spot holding ``label`` of which ``shown`` shows
    (:data:`FIRM_SHARE_HIGH`, :data:`FIRM_SHARE_LOW`); None leaves the spot out."""
    return firm_label(label, shown, UNKNOWN, FIRM_SHARE_HIGH, FIRM_SHARE_LOW)


#: How a spot's training label is made from what lies there and the share of it that shows.
Labeller = Callable[[str, float], "str | None"]


def truth_spots(zones: Zones, view: TableView, state, seen, render,
                label_of: Labeller = card_label) -> Iterator[tuple[str, np.ndarray, str]]:
    """(group, quad in image px, label) of every spot of a rendered state, labelled by
    ``label_of`` (spots it gives None left out)."""
    foreign = foreign_labels(render)
    return state_spots(zones, view, state, lambda ident: seen.parts.get(ident, 0.0),
                       lambda ident: seen.regions.get(ident, 0.0),
                       lambda quad: 1.0 - covered_share(render.labels, foreign, quad), label_of)


def state_spots(zones: Zones, view: TableView, state, part_shown: Callable[[str], float],
                region_shown: Callable[[str], float], empty_shown: Callable[[np.ndarray], float],
                firm: Labeller = card_label) -> Iterator[tuple[str, np.ndarray, str]]:
    """(group, quad in image px, label) of every spot of ``state`` laid out on the table seen
    through ``view``, firm ones only: how much shows of a card (by its twin ident,
    ``dv.slot.C.S``, ``dv.under.C.K``, ``dv.goods.P.K``, ``dv.money.P.K``), of an empty slot's
    region (``dv.slot.C.S``) and of an empty place after a fan (its image quad) is asked of the
    three functions (for a photograph of a table laid out as told, with nothing over it: 1);
    ``firm`` labels a spot from what lies there and that share (None: left out)."""

    def fan(group: str, cards: list[str], quad_mm_of, ident: str) -> Iterator[tuple[str, np.ndarray, str]]:
        """The cards of one fan (or a column's number cards) and the empty places after them."""
        n = len(cards)
        for k in range(max(n + 1, min(n + 2, zones.fixed_count(group) + 1))):
            quad_mm = quad_mm_of(k, n)
            if not in_play_area(quad_mm, table):
                continue
            quad = view.to_image(quad_mm)
            if k < n:
                label = firm(cards[k], part_shown(f"{ident}.{k}"))
            else:
                label = firm(EMPTY, empty_shown(quad))
            if label:
                yield group, quad, label

    table = view.table_mm
    for c in range(COLUMNS):
        for s in range(SLOTS):
            quad = view.to_image(zones.slot_quad(table, c, s))
            ident = f"dv.slot.{c}.{s}"
            if s < len(state.columns[c]):
                label = firm(state.columns[c][s], part_shown(ident))
            else:
                label = firm(EMPTY, region_shown(ident))
            if label:
                yield SLOT, quad, label
        under = [number_label(*card) for card in state.under[c]]
        yield from fan(UNDER, under, lambda k, n: zones.under_quad(table, c, k, n), f"dv.under.{c}")
    for p, seat in enumerate(zones.seats_for(state.players, table)):
        for group, cards in ((GOODS, list(state.goods[p])), (MONEY, [money_label(v) for v in state.money[p]])):
            yield from fan(group, cards, lambda k, n: zones.hold_quad(seat, group, k, n), f"dv.{group}.{p}")


def _context_prep() -> Preprocessing:
    return Preprocessing(CONTEXT_SIZE, "bgr", (0.0, 0.0, 0.0), (1.0, 1.0, 1.0),
                         CropSettings("quad", CONTEXT_MARGIN))


def render_photo(seed: int, label_of: Labeller = card_label) -> Photo:
    """Render ``seed`` and find every spot ``label_of`` labels: the image as the recogniser
    reads it (the motion blur undone), each spot's quad and label. A render whose markers
    cannot be found gives no spots (the recogniser cannot read it either)."""
    from ...vision.synthetic.dataset import sample

    s = sample("dolcevita", seed)
    zones = load_dolcevita_zones()
    def locate(image: np.ndarray) -> TableView:
        # three markers, as when the shipped model's renders were cut (its cache)
        return locate_table(image, zones.marker_mm, choices_mm=zones.table_mm_choices, two_markers="never")

    try:
        view = locate(s.image)
    except RecognitionError:
        return Photo(f"render {seed}", s.image, (), ())
    # the motion blur undone as the recogniser undoes it, so that the model learns the crops
    # it will be shown (the deconvolution's ringing included)
    image, view, _ = steady_view(s.image, view, locate)
    spots = list(truth_spots(zones, view, s.scene.state, s.seen, s.render, label_of))
    return Photo(f"render {seed}", image, tuple(q for _, q, _ in spots), tuple(label for _, _, label in spots))


def render_spots(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Render ``seed`` and cut every firm spot: (patches (N, 64, 64, 3) uint8, label indices (N,))."""
    photo = render_photo(seed)
    if not photo.quads:
        return np.empty((0, *CONTEXT_SIZE, 3), np.uint8), np.empty(0, np.int64)
    patches = crop_patches(photo.image, list(photo.quads), _context_prep())
    index = {label: i for i, label in enumerate(LABELS)}
    return patches, np.array([index[label] for label in photo.labels], np.int64)


def _cached(seed: int) -> tuple[np.ndarray, np.ndarray]:
    return cached_render(cache_dir() / f"{seed}.npz", lambda: render_spots(seed), ("patches", "labels"))


def build(seed: int, count: int) -> list[SpotSample]:
    """Samples of about ``count`` spots from training renders (seeds from ``seed``) and
    validation renders (seeds from :data:`VAL_SEED`), each render cached."""
    train_seeds, val_seeds = seeds_for(count, SPOTS_PER_RENDER, VAL_RATIO, TRAIN_SEED, VAL_SEED)
    offset = seed - TRAIN_SEED
    train_seeds = [s + offset for s in train_seeds]
    fill_cache(train_seeds + val_seeds, cache_dir(), _cached, "Dolce Vita")
    inner = inner_quad(CONTEXT_SIZE, CONTEXT_MARGIN)
    samples: list[SpotSample] = []
    for split, seeds in (("train", train_seeds), ("val", val_seeds)):
        for s in seeds:
            patches, labels = _cached(s)
            samples += [SpotSample(p, inner, LABELS[i], None, split) for p, i in zip(patches, labels)]
    return samples


RECIPE = register(Recipe(
    name=MODEL_NAME,
    description="Dolce Vita cards, number cards, empty places and covered places, from renders of the twin",
    labels=LABELS,
    preprocessing=PREPROCESSING,
    build=build,
    # 1,260 renders (1,109 for training), 9 epochs (2026-12-05): validation accuracy 98.03 % of
    # the 16,843 validation spots; before, 756 renders (605 for training), 14 epochs: 97.90 %
    samples=138_600,
    val_fraction=VAL_RATIO,
    measured_on=(f"spots of renders of the digital twin (validation render seeds {VAL_SEED}..; training seeds "
                 f"{TRAIN_SEED}..), cut by the recogniser's own geometry; not photographs of a real set"),
    augmentation=Augmentation(temperature=0.3, brightness=0.25, blur_sigma=1.0, noise_std=6.0,
                              rotation_deg=3.0, shift=0.08, scale=0.08),
    settings={"epochs": 9, "batch_size": 128, "learning_rate": 3e-3},
    train_seed=TRAIN_SEED,
    val_seed=VAL_SEED,
    widths=(16, 32, 96, 128),
    pool_grid=2,
    split=split_by_render,
))

#: The second model: the same network and recipe, trained on other renders from another start,
#: validated on the same renders as the first.
SECOND_RECIPE = register(replace(
    RECIPE, name=SECOND_MODEL_NAME, train_seed=SECOND_TRAIN_SEED,
    description="Dolce Vita cards, the recogniser's second opinion: the same recipe on other training renders",
    measured_on=(f"spots of renders of the digital twin (validation render seeds {VAL_SEED}..; training seeds "
                 f"{SECOND_TRAIN_SEED}..), cut by the recogniser's own geometry; not photographs of a real set")))


def enrolment_photo(name: str, image: np.ndarray, state, profile=None) -> Photo:
    """The spots of a photograph of the user's own set laid out as ``state`` says, nothing
    over it, cut as the recogniser cuts them (the table located by its markers through
    ``profile``, a motion blur undone): every card where the state puts it, every empty slot
    and the place after each fan, as far as they lie inside the image.

    Raises
    ------
    RecognitionError
        No table in the photograph, or only two markers along one edge (the far side of the
        table is then unmeasured and spots would be cut off their cards).
    """
    from ...vision.recognise.dolcevita import locate_dolcevita, zones_for

    zones = zones_for(profile)
    view = locate_dolcevita(image, profile, zones)
    image, view, _ = steady_view(image, view, lambda im: locate_dolcevita(im, profile, zones))
    check_both_sides(view, name)
    spots = [(q, label) for _, q, label in state_spots(zones, view, state, lambda _: 1.0, lambda _: 1.0, lambda _: 1.0)
             if in_image(q, image.shape)]
    return Photo(name, image, tuple(q for q, _ in spots), tuple(label for _, label in spots))


#: Renders whose spots lend an enrolment the labels its photographs do not show (validation
#: renders: the shipped models were never fitted on them).
ANCHOR_RENDERS = 8


def anchor_photos() -> list[Photo]:
    """The spots of :data:`ANCHOR_RENDERS` validation renders (seeds from :data:`VAL_SEED`)."""
    return [render_photo(seed) for seed in range(VAL_SEED, VAL_SEED + ANCHOR_RENDERS)]
