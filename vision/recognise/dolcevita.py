"""Dolce Vita from a single photograph: the grid, the number cards, the players' cards.

The table markers give the homography; the zones give every spot where a card can show
(:mod:`.dolcevita_zones`); the card classifier reads each spot's crop as a card, ``empty`` or
``unknown`` (covered), restricted to the labels the spot allows. Structure the rules
guarantee is then used, never guessed past: a column fills from the bottom and a fan from
its start (a place that disagrees with the count that best explains them all,
:func:`.rows.best_fill`, is reported unknown), and a luxury good or number card (each exists once)
is never read at two places, while the cards read elsewhere are ruled out for an unsure spot
(:func:`once_each`). A slot read empty that a cover lies on (not the table's own colour,
:mod:`.bare_table`) is unknown, and a slot read covered, clear of the cards, that plainly shows
the table's own colour is empty. A spot read below :data:`MIN_CONFIDENCE` is unknown (below
:data:`ONE_EDGE_CONFIDENCE` when only two markers along one edge locate the table), and so is
a card face read below :data:`COVER_BELOW` where the cover model finds a hand or an object over
part of its spot (a card partly under a hand is reported unknown, never guessed: issue 5).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from ...calibration.profile import Profile
from ...models.card import CropSettings, Preprocessing
from ...rules.dolcevita.catalogue import COLUMNS, EMPTY, SLOTS, UNKNOWN, parse_number
from ...rules.dolcevita.observation import Item, Observation
from ..classifier import Classifier
from ..deblur import MotionBlur
from ..second_looks import View, with_second_looks
from .bare_table import TableColour, bare_above, covered_above, place_samples
from .common import (RecognitionError, TableView, blur_report, check_second_model, likeliest_size, load_zones,
                     locate_table, model_card_path, one_edge, open_second_model, steady_view, table_area)
from .cover import check_cover_model, covered, open_cover_model
from .dolcevita_labels import ALLOWED, GOOD_LABELS, LABELS, NUMBER_LABELS
from .dolcevita_zones import GOODS, MONEY, SLOT, UNDER, Zones, in_play_area
from .edges import unsure_beside_covered
from .rows import best_fill

#: The shipped classifier (``models/dolcevita-cards.onnx`` and its card).
MODEL_NAME = "dolcevita-cards"
#: The second model, trained like the first on other renders: a second opinion on unsure spots.
SECOND_MODEL_NAME = "dolcevita-cards-b"
#: The cover model: whether a hand or an object lies over part of a spot (asked of the cards
#: read unsurely; :data:`COVER_BELOW`).
COVER_MODEL_NAME = "dolcevita-cover"
#: How a spot becomes the classifier's input (written into the model card).
PREPROCESSING = Preprocessing(input_size=(40, 40), colour="rgb", mean=(0.5, 0.5, 0.5), std=(0.25, 0.25, 0.25),
                              crop=CropSettings(region="quad", margin=0.15))


def load_dolcevita_zones(overrides: Mapping[str, Any] | None = None) -> Zones:
    """The Dolce Vita zones (``data/dolcevita.zones.json``) with a profile's overrides."""
    data = load_zones("dolcevita", overrides)
    return Zones.from_json(data)


def zones_for(profile: Profile | None) -> Zones:
    """The zones with ``profile``'s ``zones.dolcevita`` overrides (the shipped ones without)."""
    overrides = None
    if profile is not None and profile.zones is not None:
        overrides = profile.zones.get("dolcevita")
    return load_dolcevita_zones(overrides)


def locate_dolcevita(image: np.ndarray, profile: Profile | None = None, zones: Zones | None = None) -> TableView:
    """Where the Dolce Vita table lies in ``image`` (BGR uint8, H x W x 3), from its markers.

    Needs no model, so bad input (a blank image, a photograph without the table markers) is
    refused before any model is loaded.

    Raises
    ------
    RecognitionError
        A blank image, or too few table markers (or markers that fit no table layout).
    """
    z = zones or zones_for(profile)
    # checks the photo first; any two markers will do (two along one edge: see ONE_EDGE_CONFIDENCE)
    return locate_table(image, z.marker_mm, profile, z.table_mm_choices, two_markers="any")


#: A spot is read only when its best allowed label has at least this probability; below it
#: the spot is reported unknown (never guessed).
MIN_CONFIDENCE = 0.6
#: ... and at least this when the table was located from two markers along one edge (a hand
#: or a cup over the other two): they do not measure the table's other side, whose places then
#: lie up to tens of mm off. On the 6 test renders (3000000..299) that show only two markers
#: along one edge: 250 of 575 cards wrong or unread and 2 misread, against 170 and 23 at 0.6
#: (refused before: all 575 unread). Since 2026-12-05 the markers the detector misses are looked
#: for by their pattern (:func:`.common.with_markers_missed`): 5 of those 6 renders are located
#: from three markers or four.
ONE_EDGE_CONFIDENCE = 0.9
#: A seat counts as used when its first goods or money place holds a card this surely.
SEAT_USED = 0.5
#: A spot at least this probably covered tells nothing of whether a card lies there.
COVERED = 0.5
#: Card faces of which the game has one card each (a second reading of one is a misreading).
UNIQUE = frozenset(GOOD_LABELS + NUMBER_LABELS)
#: The fewest luxury cards the display holds once dealt (measured over 200 random games of
#: the rules engine: 14); a reading with fewer than :data:`MIN_DISPLAY_CARDS` read there is
#: refused as not a Dolce Vita table (or one not dealt yet, or nearly all covered), never
#: reported. Another game's table read as Dolce Vita shows at most 2 there (144 renders of
#: Ligretto and Da Luigi, seeds 3000000..3000071 each); two arms across a dealt display left
#: 4 to 6 (3 of the 300 test renders of Dolce Vita, refused when the floor was 7).
DEALT_DISPLAY_MIN = 14
MIN_DISPLAY_CARDS = 4
#: A slot read below this probability beside a slot read unknown (a hand, an arm, a cup over
#: it) is unknown too: the slot may lie partly under it, and a card partly under a hand is
#: reported unknown, never guessed (issue 5). Chosen on validation renders 2000200..2000499
#: (the readings as they were, the rule applied to them): wrong places 108 to 100 and 273 to
#: 265, scenes exact 110 to 115 and 103 to 109 of 150 (below 0.8: 102 and 262, 112 and 108;
#: below 0.95: 105 and 274, 112 and 110; below 0.99: 125 and 290).
EDGE_CONFIDENCE = 0.9
#: How many of a spot's most probable faces a reading keeps as alternatives.
ALTERNATIVES = 3
#: A spot left unknown for want of confidence is read when, with the cards read elsewhere
#: ruled out, one face is at least this probable (40 validation renders 2000200..239: at 0.8,
#: 23 fewer misses and 6 more misreads than without; at 0.6, 6 fewer misses and 6 more
#: misreads again).
UNSURE_CONFIDENCE = 0.8
#: A column's cards lie from the bottom slot up with no gap (cards leave from the bottom, and
#: one that moves goes to the top): a slot left unknown (covered, or under a glare) above a
#: slot read empty at least this surely is empty too.
EMPTY_BELOW = 0.99
#: The confidence given a slot read covered that shows the bare table plainly, clear of the
#: cards (:func:`.bare_table.bare_above`): a colour test, not a probability; above
#: :data:`UNSURE_CONFIDENCE`, below what the classifier's sure readings carry.
BARE_CONFIDENCE = 0.9
#: A spot whose top probability is below SECOND_LOOK_BELOW is looked at again through these
#: windows (:mod:`..second_looks`: scaled by 0.92 and 1.08, shifted by 5 % either way along its
#: first side), its probabilities the geometric mean of the five looks. On validation renders
#: 2000200..2000299: per-card error 3.94 to 3.37 %, misread 0.83 to 0.69 %, scenes exact 38 to
#: 45 (every spot looked at again: no better; shifts of 3 % and scales of 0.95, 1.05: 3.44 %).
#: The bound was 0.9 until 2026-12-05; with the card models retrained that day, scenes exactly
#: right on validation renders 2000200..2000799 (wrong places): 472 of 600 (682) below 0.9, 475
#: (675) below 0.95, 476 (674) 0.97, 478 (664) 0.99, 479 (663) 0.995, 480 (667) 1.0. On
#: the test renders, 0.9 -> 0.995: per-card error 0.574 -> 0.545 %, misread 0.209 -> 0.177 %,
#: scenes exact 81.0 -> 81.3 %, 91 -> 111 ms mean per image (docs/benchmarks.md).
SECOND_LOOKS = (View(0.92), View(1.08), View(shift=(0.05, 0.0)), View(shift=(-0.05, 0.0)))
SECOND_LOOK_BELOW = 0.995
#: A card face read below COVER_BELOW is asked of the cover model too, and read unknown where a
#: hand or an object lies over part of the spot at least COVER_SURE probably
#: (:mod:`tableref.models.training.dolcevita_cover`). Chosen on validation renders
#: 2000200..2000599: scenes exactly right 317 of 400 without the cover model, 327 asking it
#: below 0.995, 330 below 0.97 or 0.98, 327 below 0.95, 323 below 0.999 (covered from 0.7);
#: covered from 0.6 or 0.8 below 0.98: 330 and 329 (docs/benchmarks.md).
COVER_BELOW, COVER_SURE = 0.98, 0.7
#: Folder of the shipped models.
MODELS_DIR = Path(__file__).resolve().parents[2] / "models"


@dataclass(frozen=True, eq=False)
class Reading:
    """One spot as read.

    Attributes
    ----------
    where : str
        The observation's place (``column:3:slot:2``, ``column:3:under``, ``player:1``).
    group : str
        ``slot``, ``under``, ``goods`` or ``money``.
    index : int
        Slot number, or the card's place in its fan.
    quad_px : ndarray (4, 2)
        The spot in the image (crop order).
    label : str
        A card label, ``empty`` or ``unknown``.
    confidence : float
        Probability of ``label`` among the labels the spot allows (0 for unknown).
    alternatives : tuple of (label, probability)
        The most probable card faces the spot allows, best first (used to keep cards that
        exist once from being read twice).
    """

    where: str
    group: str
    index: int
    quad_px: np.ndarray
    label: str
    confidence: float
    alternatives: tuple[tuple[str, float], ...] = ()

    def to_json(self) -> dict:
        return {"where": self.where, "group": self.group, "index": self.index, "label": self.label,
                "confidence": round(self.confidence, 4), "quad_px": np.round(self.quad_px, 1).tolist()}


@dataclass(frozen=True, eq=False)
class Recognition:
    """What one photograph shows: the observation, every spot read with where it lies, and
    the motion blur measured on the table markers (undone before reading when ``undone``)."""

    observation: Observation
    readings: tuple[Reading, ...]
    players: int
    table_mm: tuple[float, float]
    markers_used: tuple[int, ...]
    motion_blur: MotionBlur | None = None

    def to_json(self) -> dict:
        return {**self.observation.to_json(), "players": self.players, "table_mm": list(self.table_mm),
                "markers_used": list(self.markers_used),
                "motion_blur": blur_report(self.motion_blur)}


@dataclass(frozen=True)
class Fan:
    """A row of fanned cards: its group, its observation place, and ``quad_mm(k, n)``, the
    spot (mm) of the k-th of n cards (k = n: the place just beyond the last)."""

    group: str
    where: str
    quad_mm: Callable[[int, int], np.ndarray]


class SpotRead(NamedTuple):
    """One spot as the classifier reads it (labels restricted to its group's): the label (a
    card face, ``empty``, or ``unknown`` when covered or below the confidence floor) and its
    confidence, P(card), the most probable card faces (:data:`ALTERNATIVES`) and P(covered);
    ``hidden`` when the cover model found a hand or an object over part of it (it is then
    unknown, its faces kept for weighing counts but never read)."""

    quad: np.ndarray
    label: str
    confidence: float
    card: float
    alternatives: tuple[tuple[str, float], ...]
    covered: float
    hidden: bool = False


def card_evidence(reads: list[SpotRead | None]) -> list[float | None]:
    """Each spot's P(card) for :func:`.rows.best_fill`; None where it is covered (it tells nothing)
    or off the play area."""
    return [r.card if r is not None and r.covered < COVERED else None for r in reads]


def once_each(readings: list[Reading], min_confidence: float) -> list[Reading]:
    """``readings`` with no luxury good or number card read twice (each exists once).

    The surest reading of a card keeps it; a less sure one takes its next most probable face
    that nobody holds yet, if that face, given that the taken ones are ruled out, is at least
    ``min_confidence`` probable; otherwise it becomes unknown. Money cards are many of a kind.
    Then a spot left unknown for want of confidence is weighed the same way: with the cards
    read elsewhere ruled out, a face at least :data:`UNSURE_CONFIDENCE` (and
    ``min_confidence``) probable is read, surest first. A reading with no alternatives (the
    structure already ruled it unknown) stays unknown.
    """
    taken: set[str] = set()
    out = list(readings)
    order = sorted((i for i, r in enumerate(readings) if r.label in UNIQUE), key=lambda i: -readings[i].confidence)
    for i in order:
        r = readings[i]
        if r.label not in taken:
            taken.add(r.label)
            continue
        label, conf = _face_not_taken(r, taken, min_confidence)
        if label in UNIQUE:
            taken.add(label)
        out[i] = replace(r, label=label, confidence=conf)
    floor = max(min_confidence, UNSURE_CONFIDENCE)
    unsure = [(i, *_face_not_taken(r, taken, floor)) for i, r in enumerate(out) if r.label == UNKNOWN]
    for i, label, conf in sorted(unsure, key=lambda t: -t[2]):
        if label != UNKNOWN and label not in taken:
            if label in UNIQUE:
                taken.add(label)
            out[i] = replace(out[i], label=label, confidence=conf)
    return out


def beside_the_covered(readings: list[Reading]) -> list[Reading]:
    """``readings`` with each slot read below :data:`EDGE_CONFIDENCE` next to a slot read
    unknown (the slot above or below it in its column, or the same slot of a column beside)
    read unknown too; judged on the readings as they come, not again on its result."""
    def cell(r: Reading) -> tuple[int, int]:
        return int(r.where.split(":")[1]), r.index  # column:C:slot:S

    slots = [r for r in readings if r.group == SLOT]
    covered = {cell(r) for r in slots if r.label == UNKNOWN}
    unsure = unsure_beside_covered({cell(r): r.confidence for r in slots if r.label != UNKNOWN}, covered,
                                   EDGE_CONFIDENCE)
    return [replace(r, label=UNKNOWN, confidence=0.0, alternatives=())
            if r.group == SLOT and cell(r) in unsure else r for r in readings]


def _face_not_taken(r: Reading, taken: set[str], min_confidence: float) -> tuple[str, float]:
    """The face of ``r`` at least ``min_confidence`` probable once the ``taken`` cards are ruled
    out, and its probability; (unknown, 0) when none is."""
    ruled_out = sum(p for label, p in r.alternatives if label in taken)
    for alt, p in r.alternatives:
        # (a face all the rest of whose probability was ruled out comes to 1 give or take the
        # float32 probabilities' rounding: at most 1)
        posterior = min(p / max(1.0 - ruled_out, 1e-9), 1.0)
        if alt not in taken and posterior >= min_confidence:
            return alt, posterior
    return UNKNOWN, 0.0


def fan_score(places: list[SpotRead | None], n: int) -> float:
    """Mean log-likelihood per place of ``n`` fanned cards and the free place after them:
    each card place by its likeliest face (a place off the fan's true step reads less sure),
    the place after by P(no card); places off the play area (None) are left out.

    A place read as covered counts too: under a wrong count the places straddle two cards'
    strips and read as covered, so leaving those out favoured wrong counts (all 4 fans of
    eight number cards under a column on validation renders 2000200..2000499 were read as
    six). Counting them: cards wrong or unread 469 to 463 there (number cards 95 to 89,
    misreads 138 to 140), 379 to 366 on 2000500..2000799 (78 to 65, misreads the same);
    scoring a covered place at least log 0.5 or log 0.1 instead: 464 and 368, 464 and 366.
    """
    score = 0.0
    for k, place in enumerate(places):
        if place is None:
            continue
        p = (place.alternatives[0][1] if place.alternatives else 0.0) if k < n else 1.0 - place.card
        score += math.log(max(p, 1e-9))
    return score / max(len(places), 1)


def _fan_readings(fan: Fan, places: list[SpotRead | None], n: int) -> list[Reading]:
    """The readings of the first ``n`` places of a fan (a place read empty among them is
    unknown: it disagrees with the count)."""
    out = []
    for k, place in enumerate(places[:n]):
        if place is None:
            continue
        label, conf, alternatives = place.label, place.confidence, place.alternatives
        if label == EMPTY or place.hidden:
            label, conf, alternatives = UNKNOWN, 0.0, ()
        out.append(Reading(fan.where, fan.group, k, place.quad, label, conf, alternatives))
    return out


class DolceVitaRecogniser:
    """Reads Dolce Vita from one photograph with the card classifier and the zones.

    Parameters
    ----------
    classifier : Classifier
        The card classifier (labels :data:`~.dolcevita_labels.LABELS`).
    zones : Zones, optional
        The layout; default the shipped description.
    min_confidence : float
    second : Classifier, optional
        A second card classifier with the same labels and input, asked about unsure spots too
        (:data:`SECOND_MODEL_NAME`).
    steady : bool
        Undo the motion blur the table markers show before reading (:func:`.common.steady_view`).
    cover : Classifier, optional
        The cover model (labels ``clear``, ``covered``; :data:`COVER_MODEL_NAME`), asked of the
        card faces read below :data:`COVER_BELOW`.
    """

    def __init__(self, classifier: Classifier, zones: Zones | None = None,
                 min_confidence: float = MIN_CONFIDENCE, second: Classifier | None = None, steady: bool = True,
                 cover: Classifier | None = None):
        missing = sorted(set(LABELS) - set(classifier.labels))
        if missing:
            raise RecognitionError(f"model {classifier.card.name!r} lacks Dolce Vita labels {missing[:5]}...")
        check_second_model(classifier, second, "spots")
        check_cover_model(cover)
        self.classifier, self.second, self.cover = classifier, second, cover
        self.zones = zones or load_dolcevita_zones()
        self.min_confidence = min_confidence
        self.steady = steady
        index = {label: i for i, label in enumerate(classifier.labels)}
        self._allowed = {group: np.array([index[label] for label in labels]) for group, labels in ALLOWED.items()}

    @classmethod
    def open(cls, model_dir: str | Path | None = None, profile: Profile | None = None,
             steady: bool = True) -> DolceVitaRecogniser:
        """The shipped models (or those in ``model_dir``, or those adapted to ``profile``'s set:
        :func:`~.common.model_card_path`) with the zones of ``profile`` (``steady``: as the
        constructor's); the second where its card lies beside the first's
        (:func:`~.common.open_second_model`); the cover model beside the first's, else the
        shipped one (an enrolment adapts the card models, not the cover model)."""
        first = model_card_path(MODEL_NAME, model_dir, profile, MODELS_DIR)
        cover = open_cover_model(first, MODELS_DIR / f"{MODEL_NAME}.card.json", COVER_MODEL_NAME)
        return cls(Classifier.open(first), zones_for(profile), second=open_second_model(first, SECOND_MODEL_NAME),
                   steady=steady, cover=cover)

    # --- classification of spots -------------------------------------------------------

    def _classify(self, image: np.ndarray, quads: list[np.ndarray], groups: list[str],
                  ask_cover: bool = True) -> list[SpotRead]:
        """Each spot (image quad) read with the labels of its group allowed; with ``ask_cover``,
        a card face read below :data:`COVER_BELOW` where the cover model finds a hand or an
        object over part of the spot is unknown (:attr:`SpotRead.hidden`)."""
        if not quads:
            return []
        others = [] if self.second is None else [lambda qs: self.second.classify(image, qs).probabilities]
        probs = with_second_looks(lambda qs: self.classifier.classify(image, qs).probabilities, quads,
                                  SECOND_LOOKS, SECOND_LOOK_BELOW, others=others)
        reads = [self._read_spot(quad, row, group) for quad, row, group in zip(quads, probs, groups)]
        if ask_cover and self.cover is not None:
            unsure = [i for i, r in enumerate(reads) if r.label not in (EMPTY, UNKNOWN) and r.confidence < COVER_BELOW]
            for i, hidden in zip(unsure, covered(self.cover, image, [quads[i] for i in unsure], COVER_SURE)):
                if hidden:
                    reads[i] = reads[i]._replace(label=UNKNOWN, confidence=0.0, hidden=True)
        return reads

    def _read_spot(self, quad: np.ndarray, row: np.ndarray, group: str) -> SpotRead:
        """One spot from its probabilities over every label, restricted to its group's."""
        p = row[self._allowed[group]]
        p = p / max(float(p.sum()), 1e-12)
        best = int(np.argmax(p))
        label, conf = ALLOWED[group][best], float(p[best])
        card = 1.0 - float(p[-2]) - float(p[-1])  # the last two allowed are empty, unknown
        top = np.argsort(-p[:-2])[:ALTERNATIVES]
        alternatives = tuple((ALLOWED[group][i], float(p[i])) for i in top)
        if label == UNKNOWN or conf < self.min_confidence:
            label, conf = UNKNOWN, 0.0
        return SpotRead(quad, label, conf, card, alternatives, float(p[-1]))

    # --- reading -------------------------------------------------------------------------

    def read(self, image: np.ndarray, profile: Profile | None = None, players: int | None = None,
             view: TableView | None = None) -> Recognition:
        """Read ``image`` (BGR uint8, H x W x 3) as a Dolce Vita table.

        ``view`` is the table already located in this image (:func:`locate_dolcevita`), if any.
        Located here without a profile by two markers along one edge, the table's other side
        is unmeasured: of the known sizes that fit, the one under which the display reads
        most cards is taken (:meth:`_likeliest_size`).

        Raises
        ------
        RecognitionError
            No table markers (or too few) in the image, a blank image, or a photograph in
            which fewer than :data:`MIN_DISPLAY_CARDS` Dolce Vita cards show in the display.
        """
        z = self.zones
        located = view is None
        if view is None:
            view = locate_dolcevita(image, profile, z)
        blur = None
        if self.steady:
            image, view, blur = steady_view(image, view,
                                            (lambda im: locate_dolcevita(im, profile, z)) if located else None,
                                            within=table_area(view))
        edge_only = one_edge(view)
        if edge_only and located and profile is None:
            view = self._likeliest_size(image, view)
        if edge_only and self.min_confidence < ONE_EDGE_CONFIDENCE:
            surer = DolceVitaRecogniser(self.classifier, z, ONE_EDGE_CONFIDENCE, self.second, steady=False,
                                        cover=self.cover)
            return replace(surer.read(image, profile, players, view), motion_blur=blur)
        table = view.table_mm
        columns = self._columns(image, view)
        unders = self._fans(image, view, [Fan(UNDER, f"column:{c}:under",
                                              lambda k, n, c=c: z.under_quad(table, c, k, n))
                                          for c in range(COLUMNS)])
        if players is None:
            players = self._players(image, view, unders)
        fans = [Fan(group, f"player:{p}", lambda k, n, s=seat, g=group: z.hold_quad(s, g, k, n))
                for p, seat in enumerate(z.seats_for(players, table)) for group in (GOODS, MONEY)]
        readings: list[Reading] = []
        for c in range(COLUMNS):
            readings += columns[c] + unders[c]
        for row in self._fans(image, view, fans):
            readings += row
        readings = beside_the_covered(once_each(readings, self.min_confidence))
        items = [Item(r.label, r.where, r.confidence) for r in readings]
        shown = sum(r.label not in (EMPTY, UNKNOWN) for r in readings if r.group == SLOT)
        if shown < MIN_DISPLAY_CARDS:
            raise RecognitionError(f"the table markers are there but only {shown} Dolce Vita cards show in the display "
                                   f"where the layout puts them (a dealt game shows at least {DEALT_DISPLAY_MIN}): is "
                                   "this Dolce Vita, dealt, uncovered, and laid out as the zones describe?")
        return Recognition(Observation(tuple(items)), tuple(readings), players, table,
                           view.calibration.markers_used, blur)

    def _likeliest_size(self, image: np.ndarray, view: TableView) -> TableView:
        """``view`` or the view of another known table size that agrees with the side its
        markers measure, whichever reads the most display cards (the layout is centred on
        the table, so a wrong width moves every column)."""
        return likeliest_size(image, view, self.zones.marker_mm, self.zones.table_mm_choices,
                              lambda v: self._display_cards(image, v))

    def _slots(self, image: np.ndarray, view: TableView, ask_cover: bool = True) -> list[SpotRead]:
        """Every slot of the display read (one batch), column by column from the bottom
        (``ask_cover``: as :meth:`_classify`'s)."""
        table = view.table_mm
        slots = [self.zones.slot_quad(table, c, s) for c in range(COLUMNS) for s in range(SLOTS)]
        quads = list(view.quads_to_image(slots))
        return self._classify(image, quads, [SLOT] * len(quads), ask_cover)

    def _display_cards(self, image: np.ndarray, view: TableView) -> int:
        """How many of the display's slots read as a card under ``view``."""
        return sum(r.label not in (EMPTY, UNKNOWN) for r in self._slots(image, view, ask_cover=False))

    def _columns(self, image, view: TableView) -> list[list[Reading]]:
        """The 9 slots of every column: cards from the bottom up, then empty slots."""
        every = self._slots(image, view)
        columns = []
        for c in range(COLUMNS):
            read = every[c * SLOTS:(c + 1) * SLOTS]
            best_n = best_fill(card_evidence(read))
            out = []
            empty_below = 0.0  # the surest empty slot of this column so far
            for s, r in enumerate(read):
                label, conf, alternatives = r.label, r.confidence, () if r.hidden else r.alternatives
                if label != UNKNOWN and (label == EMPTY) != (s >= best_n):
                    label, conf, alternatives = UNKNOWN, 0.0, ()  # the slot disagrees with its column: do not guess
                elif label == UNKNOWN and s >= best_n and empty_below >= EMPTY_BELOW:
                    label, conf = EMPTY, empty_below  # a column has no gaps: above an empty slot all are empty
                if label == EMPTY and s >= best_n:
                    empty_below = max(empty_below, conf)
                out.append(Reading(f"column:{c}:slot:{s}", SLOT, s, r.quad, label, conf, alternatives))
            columns.append(out)
        return self._uncover(columns, image, view)

    def _uncover(self, columns: list[list[Reading]], image: np.ndarray, view: TableView) -> list[list[Reading]]:
        """``columns`` with the slots read empty that a cover lies on (:func:`.bare_table.covered_above`:
        not the table's own colour, clear of the cards' faces) unknown instead, and those read
        covered that plainly show the bare table (:func:`.bare_table.bare_above`) empty."""
        z, table_mm = self.zones, view.table_mm
        table = TableColour.around(image, view.to_image, z.display_mm(table_mm))
        if table is None:
            return columns
        reach = max(0, math.ceil((z.luxury_mm[1] - z.slot_step_mm) / z.slot_step_mm))
        out = []
        for c, column in enumerate(columns):
            samples: dict[int, np.ndarray] = {}

            def samples_of(k: int, c: int = c) -> np.ndarray:
                if k not in samples:
                    samples[k] = place_samples(image, view.to_image, z.slot_quad(table_mm, c, k))
                return samples[k]

            labels = [r.label for r in column]
            covered = covered_above(labels, samples_of, table, EMPTY, reach)
            bare = bare_above(labels, samples_of, table, EMPTY, UNKNOWN, reach)
            out.append([replace(r, label=UNKNOWN, confidence=0.0, alternatives=()) if k in covered
                        else replace(r, label=EMPTY, confidence=BARE_CONFIDENCE) if k in bare else r
                        for k, r in enumerate(column)])
        return out

    def _fans(self, image, view: TableView, fans: list[Fan]) -> list[list[Reading]]:
        """Cards fanned from a start place. The places at the full step (one batch for every
        fan) give the count that best explains them, as a column's slots do; when that count
        fills them all, fans of more cards at closer steps are read too (another batch) and
        the one whose places are read surest per place is kept."""
        z = self.zones
        first = self._places(image, view, [(fan, z.fixed_count(fan.group)) for fan in fans])
        out: list[list[Reading]] = []
        longer = []
        for i, places in enumerate(first):
            fixed = z.fixed_count(fans[i].group)
            n = min(best_fill(card_evidence(places)), fixed)
            out.append(_fan_readings(fans[i], places, n))
            if n == fixed:
                longer.append(i)
        jobs = [(fans[i], n) for i in longer
                for n in range(z.fixed_count(fans[i].group) + 1,
                               (z.under_max if fans[i].group == UNDER else z.hold_max) + 1)]
        tries = self._places(image, view, jobs)
        for i in longer:
            fixed = z.fixed_count(fans[i].group)
            best, best_score = out[i], fan_score(first[i], fixed)
            for (fan, n), places in zip(jobs, tries):
                if fan is not fans[i]:
                    continue
                score = fan_score(places, n)
                if score > best_score:
                    best, best_score = _fan_readings(fan, places, n), score
            out[i] = best
        return out

    def _places(self, image, view: TableView, jobs: list[tuple[Fan, int]]) -> list[list[SpotRead | None]]:
        """Read each (fan, n) as ``n`` cards and the place after them, in one batch: per job,
        each of its n + 1 places read, None for a place off the play area."""
        table = view.table_mm
        spots, quads_mm, groups = [], [], []
        results: list[list[SpotRead | None]] = []
        for j, (fan, n) in enumerate(jobs):
            results.append([None] * (n + 1))
            for k in range(n + 1):
                q = fan.quad_mm(k, n)
                if in_play_area(q, table):
                    spots.append((j, k))
                    quads_mm.append(q)
                    groups.append(fan.group)
        for (j, k), read in zip(spots, self._classify(image, list(view.quads_to_image(quads_mm)), groups)):
            results[j][k] = read
        return results

    def _players(self, image, view: TableView, unders: list[list[Reading]]) -> int:
        """How many play: the seating that explains the used seats and the number cards' colours."""
        z = self.zones
        table = view.table_mm
        sides = sorted({side for sides in z.seating.values() for side in sides})
        every = z.seats_for_sides(sides, table)
        quads, groups, owners = [], [], []
        for seat in every:
            for group in (GOODS, MONEY):
                q = z.hold_quad(seat, group, 0, 1)
                if in_play_area(q, table):
                    quads.append(view.to_image(q))
                    groups.append(group)
                    owners.append(seat.side)
        used = {owner for owner, r in zip(owners, self._classify(image, quads, groups, ask_cover=False))
                if r.label != UNKNOWN and r.card >= SEAT_USED}
        colours = [parse_number(r.label)[0] + 1 for rs in unders for r in rs if parse_number(r.label) is not None]
        needed = max(colours, default=0)
        options = sorted(int(n) for n in z.seating)
        options = [n for n in options if z.seating_fits(n, table)] or options
        return min(options, key=lambda n: (len(used - set(z.seating[str(n)])) + (n < needed) * len(options), n))
