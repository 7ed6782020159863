"""The ``daluigi-spots`` recipe: the Da Luigi spot classifier trained on renders of the twin.

Samples are cut exactly as the recogniser reads a photograph: the table markers found in the
render give the homography, the zones give every spot (:mod:`tableref.vision.recognise.
daluigi_zones`), and the shared crop makes the input. Labels come from the rules state behind
the render (:func:`truth_spots`); a spot covered by a hand or an object is ``unknown`` when
less than :data:`FIRM_SHARE_LOW` of it shows, and one between that and :data:`FIRM_SHARE_HIGH`
is left out. Most spots of a table are blank: a seeded share :data:`BLANK_KEEP` of them is kept.

Seeds: training renders ``TRAIN_SEED ..``, validation renders ``VAL_SEED ..``; benchmarks and
tests use ``TEST_SEED ..`` (never used here). Renders are cached (:mod:`.daluigi_renders`), and
each render's cut spots again beside them.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace

import cv2
import numpy as np

from ...rules.daluigi.catalogue import COLOURS, MAX_DISHES, load_deck
from ...vision.crop import crop_patches, in_image, inner_quad
from ...vision.recognise.common import RecognitionError, TableView, check_both_sides, locate_table
from ...vision.recognise.daluigi_colour import balance, gains_for
from ...vision.recognise.daluigi_labels import BLANK, EDGE_LABEL, LABELS, STRIP_LABEL, UNKNOWN
from ...vision.recognise.daluigi_model import MODEL_NAME, PREPROCESSING, SECOND_MODEL_NAME
from ...vision.recognise.daluigi_zones import Spot, Zones, load_daluigi_zones
from ..card import CropSettings, Preprocessing
from . import daluigi_renders
from .adapt import Photo
from .augment import Augmentation
from .recipes import Recipe, register
from .spots import SpotSample, cached_arrays, firm_label, seeds_for, split_by_render

log = logging.getLogger(__name__)

#: Seed ranges: training renders, validation renders, and (never trained on) test renders.
TRAIN_SEED, VAL_SEED, TEST_SEED = 1_000_000, 2_000_000, 3_000_000
#: The second model's training renders (its validation renders are the first's).
SECOND_TRAIN_SEED = 1_100_000
#: Validation renders per training render.
VAL_RATIO = 0.05
#: Kept spots per render, roughly (to turn a sample count into a number of renders).
SPOTS_PER_RENDER = 150
#: A spot showing at least this share is labelled; below FIRM_SHARE_LOW it is "unknown".
FIRM_SHARE_HIGH, FIRM_SHARE_LOW = 0.65, 0.35
#: Share of blank spots kept when cutting (they are most of a table).
BLANK_KEEP = 0.25
#: Empty places after the last card of a pile that are cut as blank edges.
EDGES_BEYOND = 3
#: Cached context around each spot: the spot plus this margin, at this size (h, w) px.
CONTEXT_MARGIN, CONTEXT_SIZE = 0.25, (24, 24)
#: Version of the cached spots: bump it whenever cutting or labelling spots changes. "s3": spots
#: cached as "s2" by earlier code differed in 402 of 420 renders from what the code cuts now
#: (the renders themselves identical), so a warm cache trained on stale spots. "s4": the cubes'
#: spots cut at a cube's middle, where the camera sees it (the zones' ``cube_lift_mm``).
SPOTS_VERSION = "s4"


def dish_cubes(dishes: Sequence[str], cubes: Sequence[str]) -> list[str | None]:
    """Which cube lies on each dish field, as the twin places them: each cube on the first
    free field of its colour, else on the last field."""
    on: list[str | None] = [None] * len(dishes)
    free = list(dishes)
    for colour in cubes:
        k = free.index(colour) if colour in free else len(dishes) - 1
        free[k] = None
        on[k] = colour
    return on


def card_labels(card) -> list[str]:
    """Labels of a guest card's spots without cubes (dish fields, then points, wait, ability)."""
    dishes = [c for c, n in zip(COLOURS, card.order) for _ in range(n)]
    fields = [f"field:{c}" for c in dishes] + [BLANK] * (MAX_DISHES - len(dishes))
    return fields + [f"points:{card.points}", f"wait:{card.wait}", f"ability:{card.ability}"]


def _colours(counts) -> list[str]:
    return [c for c, n in zip(COLOURS, counts) for _ in range(n)]


def labelled_spots(zones: Zones, state) -> Iterator[tuple[Spot, str]]:
    """Every spot of a table showing ``state`` with the label a perfect reader gives it."""
    deck = load_deck(state.options.deck)
    for spot in zones.market_spots(state.players):
        f = int(spot.place.split(":")[1])
        cubes = _colours(state.market[f])
        if len(cubes) <= len(zones.data["field_spots"]):
            yield spot, f"cube:{cubes[spot.index]}" if spot.index < len(cubes) else BLANK
    seats = zones.seats(state.players)
    spare = zones.seats(4)[3] if state.players == 3 else None
    if spare is not None:
        yield from ((s, BLANK) for s in zones.header_spots(3, spare))
    for p, seat in enumerate(seats):
        supply = _colours(state.supply[p])
        for spot in zones.supply_spots(p, seat)[:len(supply) + EDGES_BEYOND]:
            yield spot, f"cube:{supply[spot.index]}" if spot.index < len(supply) else BLANK
        yield from ((s, STRIP_LABEL) for s in zones.header_spots(p, seat))
        for s, guest in enumerate(state.strips[p]):
            spots = zones.slot_spots(p, seat, s)
            if guest is None:
                yield from ((spot, BLANK) for spot in spots)
                continue
            card = deck.card(guest.card)
            labels = card_labels(card)
            dishes = [c for c, n in zip(COLOURS, card.order) for _ in range(n)]
            for k, colour in enumerate(dish_cubes(dishes, _colours(guest.cubes))):
                if colour is not None:
                    labels[k] = f"cube:{colour}"
            yield from zip(spots, labels)
        tiles = abs(state.tiles[p])
        side = "flower" if state.tiles[p] > 0 else "lemon"
        for spot in zones.tile_spots(p, seat)[:tiles + EDGES_BEYOND]:
            yield spot, f"tile:{side}" if spot.index < tiles else BLANK
        yield from _pile(zones, "served", f"served:{p}", seat, len(state.served[p]))
        active = p == state.active
        yield from _pile(zones, "hand", "hand", seat, state.hand if active else 0)
        revealed = state.revealed if active else None
        spots = zones.revealed_spots(seat)
        labels = card_labels(deck.card(revealed)) if revealed else [BLANK] * len(spots)
        yield from zip(spots, labels)


def _pile(zones: Zones, pile: str, place: str, seat, n: int) -> Iterator[tuple[Spot, str]]:
    for spot in zones.edge_spots(pile, place, seat, n, n + EDGES_BEYOND):
        yield spot, EDGE_LABEL if spot.index < n else BLANK


def shown_share(foreign: np.ndarray, quad_px: np.ndarray) -> float:
    """Share of a quad (image px) inside the image and not covered by a hand or distractor."""
    h, w = foreign.shape
    area = abs(cv2.contourArea(quad_px.astype(np.float32)))
    if area < 1:
        return 0.0
    x0, y0 = np.floor(quad_px.min(axis=0)).astype(int)
    x1, y1 = np.ceil(quad_px.max(axis=0)).astype(int) + 1
    cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if cx1 <= cx0 or cy1 <= cy0:
        return 0.0
    mask = np.zeros((cy1 - cy0, cx1 - cx0), np.uint8)
    cv2.fillConvexPoly(mask, np.round(quad_px - [cx0, cy0]).astype(np.int32), 1)
    inside = mask.astype(bool)
    clear = int((~foreign[cy0:cy1, cx0:cx1] & inside).sum())
    return float(min(1.0, clear / area))


def truth_spots(zones: Zones, view: TableView, render, groups: frozenset[str] | None = None
                ) -> Iterator[tuple[np.ndarray, str]]:
    """(quad in image px, label) of every firm spot of a cached render (of ``groups`` only, where given)."""
    spots = [(spot, label) for spot, label in labelled_spots(zones, render.state)
             if groups is None or spot.group in groups]
    quads = zones.spots_to_image(view, [spot for spot, _ in spots])
    for quad, (spot, label) in zip(quads, spots):
        firm = firm_label(label, shown_share(render.foreign, quad), UNKNOWN, FIRM_SHARE_HIGH, FIRM_SHARE_LOW)
        if firm is not None:
            yield quad, firm


def context_prep(size: tuple[int, int] = CONTEXT_SIZE, margin: float = CONTEXT_MARGIN) -> Preprocessing:
    """How spots are cut for the cache: ``size`` (h, w) px around each spot and ``margin``
    of it on each side, raw BGR (the recipe's crop and augmentation cut the model's input
    from it)."""
    return Preprocessing(size, "bgr", (0.0, 0.0, 0.0), (1.0, 1.0, 1.0), CropSettings("quad", margin))


def render_photo(seed: int, groups: frozenset[str] | None = None) -> Photo:
    """Every firm spot of render ``seed`` (cached; of ``groups`` only, where given): its quad,
    its label and the white balance the recogniser applies. A render whose markers cannot be
    found gives no spots (the recogniser cannot read it either)."""
    r = daluigi_renders.load(seed)
    zones = load_daluigi_zones()
    try:
        # three markers, as when the shipped model's renders were cut (its cache)
        view = locate_table(r.image, zones.marker_mm, choices_mm=zones.table_mm_choices, two_markers="never")
    except RecognitionError:
        return Photo(f"render {seed}", r.image, (), ())
    spots = list(truth_spots(zones, view, r, groups))
    return Photo(f"render {seed}", r.image, tuple(q for q, _ in spots), tuple(label for _, label in spots),
                 gains_for(r.image, view))


def cut_spots(seed: int, labels: Sequence[str] = LABELS, blank_keep: float = BLANK_KEEP,
              groups: frozenset[str] | None = None, context: Preprocessing | None = None
              ) -> tuple[np.ndarray, np.ndarray]:
    """Cut the firm spots of render ``seed`` (of ``groups`` only, where given) as ``context``
    cuts them (default :func:`context_prep`): (patches (N, h, w, 3) uint8, label indices (N,)
    into ``labels``), white-balanced as the recogniser balances them
    (:mod:`~tableref.vision.recognise.daluigi_colour`).

    Blank spots are kept with probability ``blank_keep`` (seeded by ``seed``). A render
    whose markers cannot be found gives no samples (the recogniser cannot read it either).
    """
    context = context or context_prep()
    photo = render_photo(seed, groups)
    rng = np.random.default_rng(seed)
    spots = [(q, label) for q, label in zip(photo.quads, photo.labels) if label != BLANK or rng.random() < blank_keep]
    if not spots:
        return np.empty((0, *context.input_size, 3), np.uint8), np.empty(0, np.int64)
    patches = balance(crop_patches(photo.image, [q for q, _ in spots], context), photo.gains)
    index = {label: i for i, label in enumerate(labels)}
    return patches, np.array([index[label] for _, label in spots], np.int64)


def samples_of(seed: int, count: int, per_render: int, version: str,
               cut: Callable[[int], tuple[np.ndarray, np.ndarray]], labels: Sequence[str],
               context: Preprocessing | None = None) -> list[SpotSample]:
    """Samples of about ``count`` spots (about ``per_render`` a render) from training renders
    (seeds from ``seed``) and validation renders (seeds from :data:`VAL_SEED`): each render
    cached, and its spots as ``cut(seed)`` cuts them (label indices into ``labels``; patches as
    ``context`` cuts them, default :func:`context_prep`) cached beside it in the folder
    ``version``."""
    train_seeds, val_seeds = seeds_for(count, per_render, VAL_RATIO, seed, VAL_SEED)
    daluigi_renders.fill(train_seeds + val_seeds)
    context = context or context_prep()
    inner = inner_quad(context.input_size, context.crop.margin)
    samples: list[SpotSample] = []
    for split_name, seeds in (("train", train_seeds), ("val", val_seeds)):
        for s in seeds:
            def make(s: int = s) -> dict[str, np.ndarray]:
                patches, indices = cut(s)
                return {"patches": patches, "labels": indices}

            arrays = cached_arrays(daluigi_renders.cache_dir() / version / f"{s}.npz", make)
            samples += [SpotSample(p, inner, labels[i], None, split_name)
                        for p, i in zip(arrays["patches"], arrays["labels"])]
    return samples


def build(seed: int, count: int) -> list[SpotSample]:
    """Samples of about ``count`` spots from training renders (seeds from ``seed``) and
    validation renders (seeds from :data:`VAL_SEED`), each render and its spots cached."""
    return samples_of(seed, count, SPOTS_PER_RENDER, SPOTS_VERSION, cut_spots, LABELS)


RECIPE = register(Recipe(
    name=MODEL_NAME,
    description="Da Luigi spots: cube colours, order fields, card marks, tiles, pile edges, from renders of the twin",
    labels=LABELS,
    preprocessing=PREPROCESSING,
    build=build,
    samples=63_000,
    val_fraction=VAL_RATIO,
    measured_on=(f"spots of renders of the digital twin (validation render seeds {VAL_SEED}..; training seeds "
                 f"{TRAIN_SEED}..), cut by the recogniser's own geometry; not photographs of a real set"),
    augmentation=Augmentation(temperature=0.4, brightness=0.3, blur_sigma=0.7, noise_std=5.0,
                              rotation_deg=6.0, shift=0.1, scale=0.08),
    settings={"epochs": 20, "batch_size": 256, "learning_rate": 4e-3},
    train_seed=TRAIN_SEED,
    val_seed=VAL_SEED,
    widths=(40, 80, 128),
    pool_grid=3,  # 24 px halved by each of the three blocks: a 3 x 3 grid
    split=split_by_render,
))

#: The second model: the same network and recipe, trained on other renders from another start,
#: validated on the same renders as the first.
SECOND_RECIPE = register(replace(
    RECIPE, name=SECOND_MODEL_NAME, train_seed=SECOND_TRAIN_SEED,
    description="Da Luigi spots, the recogniser's second opinion: the same recipe on other training renders",
    measured_on=(f"spots of renders of the digital twin (validation render seeds {VAL_SEED}..; training seeds "
                 f"{SECOND_TRAIN_SEED}..), cut by the recogniser's own geometry; not photographs of a real set")))


#: Renders whose spots lend an enrolment the labels its photographs do not show (validation
#: renders: the shipped model was never fitted on them).
ANCHOR_RENDERS = 8


def enrolment_photo(name: str, image: np.ndarray, state, profile=None) -> Photo:
    """The spots of a photograph of the user's own set laid out as ``state`` says, nothing
    over it, cut and white-balanced as the recogniser does (the table located by its markers
    through ``profile``): every cube, guest card mark, tile, pile edge and blank place the
    state puts on the table, as far as they lie inside the image.

    Raises
    ------
    RecognitionError
        No table in the photograph (or too few markers).
    """
    from ...vision.recognise.daluigi import locate_daluigi
    from ...vision.recognise.daluigi_zones import zones_for

    zones = zones_for(profile)
    view = locate_daluigi(image, profile, zones)
    check_both_sides(view, name)
    labelled = list(labelled_spots(zones, state))
    quads = zones.spots_to_image(view, [s for s, _ in labelled])
    spots = [(q, label) for q, (_, label) in zip(quads, labelled) if in_image(q, image.shape)]
    gains = gains_for(image, view, profile.colour_references if profile is not None else None)
    return Photo(name, image, tuple(q for q, _ in spots), tuple(label for _, label in spots), gains)


def anchor_photos() -> list[Photo]:
    """The firm spots of :data:`ANCHOR_RENDERS` validation renders (seeds from :data:`VAL_SEED`)."""
    return [render_photo(seed) for seed in range(VAL_SEED, VAL_SEED + ANCHOR_RENDERS)]
