"""Da Luigi from a single photograph: the marketplace, every ristorante, the piles.

The table markers give the homography; the zones give every spot where a cube, a card's
mark, a tile or a card edge can show (:mod:`.daluigi_zones`); the spot classifier reads them
in one batch (a supply's or a tile row's later places in a second, where needed:
:class:`Spots`); :mod:`.daluigi_decode` turns the probabilities into the rules'
:class:`~tableref.rules.daluigi.observation.Observation` (every place that
``observe(state)`` gives, ``"?"`` where something needed is covered).

How many play follows from the play area's size (two players sit on a narrower table) and,
between three and four, from whether the fourth seat's strip shows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from ...calibration.profile import Profile
from ...rules.daluigi.catalogue import SLOTS, load_deck
from ...rules.daluigi.observation import UNKNOWN, Item, Observation
from ..classifier import Classifier
from ..cover_map import MODEL_NAME as COVER_MAP_NAME
from ..cover_map import CoverMapModel, covered_share
from ..crop import crop_patches, in_image, to_tensor
from ..deblur import MotionBlur
from ..second_looks import with_second_looks
from .common import (RecognitionError, TableView, blur_report, card_beside, check_second_model, likeliest_size,
                     locate_table, model_card_path, one_edge, open_second_model, steady_view, table_area)
from .daluigi_colour import balance, gains_for
from .daluigi_decode import (MIN_SPOTS_SHOWN, UNKNOWN_AT, UNREAD, CardTable, Read, cube_row, decode_card,
                             pile_score, row_ends, tile_row)
from .daluigi_labels import ALLOWED, BLANK, LABELS
from .daluigi_model import DISH_MODEL_NAME, MODEL_NAME, MODELS_DIR, SECOND_DISH_MODEL_NAME, SECOND_MODEL_NAME
from .daluigi_table import plainly_not_table, shows_table, squares_mm, table_lab
from .daluigi_zones import CARD_GROUPS, DISH, Spot, Zones, zones_for
from .edges import unsure_beside_covered

#: A guest card (or its absence) read below this posterior probability is unknown.
MIN_CONFIDENCE = 0.5
#: A card place whose every spot is blank at least this surely holds no card (no decoding).
SURELY_BLANK = 0.98
#: Three or four players: four when the fourth seat's headers show a strip this surely (mean).
STRIP_SHOWS = 0.5
#: Rows read from their first place up to the first blank one, and how many of their places
#: are classified first (on validation renders 2000150..2000299, 97 % of the supplies held at
#: most 7 cubes). A player's tiles, counted by every place (:func:`.daluigi_decode.tile_row`),
#: are all classified at once (12 places a player).
ROW_HEADS = {"supply": 8}
#: A market field read below this confidence beside a field left unknown (a hand, an arm, a
#: cup over it) is unknown too (:mod:`.edges`): a hand over a field shows skin across its cube
#: places, which the classifier can take for an empty field. Chosen on validation renders
#: 2000150..2000449: of the fields read so below 0.9, 5 were wrong on fields covered (now unknown,
#: as asked) and 1 right one shown whole (now missed); below 0.8: 4 and 1; below 0.95: 6 and 2;
#: below 0.99: 7 and 6.
EDGE_CONFIDENCE = 0.9
#: A spot read below this (among its group's labels) is read by the second model too (the
#: order-field classifiers likewise). 0.97 until 2026-12-04 (evening); at 0.995, on validation
#: renders 2000450..2000749, scenes exactly right 195 -> 197 of 300 (cube recall 98.25 ->
#: 98.29 %, guest card error 1.98 -> 1.85 %), 2000750..2000899 as before (108 of 150), 4 ms
#: more per image (65 -> 69 ms in-process on 100 of them).
SECOND_OPINION_BELOW = 0.995
#: Places on the bare table whose spots, where they show the table's colour
#: (:mod:`.daluigi_table`), are read as not covered: the welcoming player's hand and revealed
#: card, which must be seen absent at every seat to be read as none, and the supplies. On
#: validation renders 2000750..2000899 and 2000600..2000749, scenes exactly right 98 -> 102 of
#: 150 and 91 -> 93 (the hand alone: 100 and 92); with the served piles too, fewer (a served
#: pile partly under a phone was read as ending there); with the supplies too, no more then
#: (102 and 93). With the models and rules of 2026-12-04 (evening) the supplies gain: an empty
#: supply on a wood table whose planks' seams cross it was read as covered (0.6-0.85) on
#: validation renders 2000472, 2000489 and 2000730; scenes exactly right 193 -> 195 of
#: 2000450..2000749 and 108 -> 108 of 2000750..2000899, cube recall 98.22 -> 98.25 % and
#: 98.50 -> 98.58 %, precision as before.
ON_THE_TABLE = ("hand", "revealed", "supply")
#: ... those leaning to covered at least this much (the table's look is measured only for them).
LEANS_COVERED = 0.05
#: Piles of shingled cards (a player's served guests, the welcoming player's hand). Their first
#: spot, where no card lies, shows the bare table; read blank there, it is covered instead
#: where its colour is plainly not the table's (:func:`~.daluigi_table.plainly_not_table`): a
#: pile under a sleeve or a sheet was read as none, surely (validation renders 2000608 and
#: 2000733, and 2000804 under a hand). On validation renders 2000450..2000749 and
#: 2000750..2000899, scenes exactly right 203 -> 205 of 300 and 109 -> 110 of 150; asked of
#: the supplies' places too, none more, and a supply beside a red cup left unknown (2000565);
#: of the tile places beside the strip, no change.
PILES = ("served", "hand")
#: A motion blur the markers show is undone before reading when at least this long (px; the
#: measure's line kernels are 3, 5, 7 ... px): the classifiers were trained on the twin's
#: blurred shots as they are, and undoing the shorter blurs added cubes that are not there.
#: Validation renders, scenes exactly right: 2000450..2000749, 186 without, 193 undoing every
#: blur (cube precision 99.60 -> 99.56 %), 192 from 6 px (99.59 %); 2000750..2000899, 104,
#: 105 (99.78 -> 99.73 %) and 108 (99.78 %).
DEBLUR_FROM_PX = 6.0
#: A spot of which the cover map (:mod:`~..cover_map`) finds at least this share covered is
#: read as covered, whatever the classifiers made of it: a sleeve, a phone or the back of a hand
#: over a row of dice or a market field looks much like the bare place beneath it in a spot's
#: small patch, and was read as empty, surely. Strip headers, which tell how many play, are
#: left to the classifier. Chosen on validation renders 2000450..2000749 (see
#: docs/daluigi-recognition.md, Figures).
COVER_MAP_AT = 0.65


@dataclass(frozen=True, eq=False)
class Recognition:
    """What one photograph shows: the observation, and where each place lies in the image.

    Attributes
    ----------
    observation : Observation
    places_px : dict place -> ndarray (4, 2)
        The image quad around each observed place (for drawing).
    players : int
    table_mm : (float, float)
    markers_used : tuple of int
    motion_blur : MotionBlur or None
        The blur measured on the markers (undone before reading from :data:`DEBLUR_FROM_PX`).
    """

    observation: Observation
    places_px: dict
    players: int
    table_mm: tuple[float, float]
    markers_used: tuple[int, ...]
    motion_blur: MotionBlur | None = None

    def to_json(self) -> dict:
        return {**self.observation.to_json(), "players": self.players, "table_mm": list(self.table_mm),
                "markers_used": list(self.markers_used),
                "motion_blur": blur_report(self.motion_blur, DEBLUR_FROM_PX)}


def locate_daluigi(image: np.ndarray, profile: Profile | None = None, zones: Zones | None = None) -> TableView:
    """Where the Da Luigi table lies in ``image`` (BGR uint8, H x W x 3), from its markers.

    Only where neither three markers nor two in opposite corners are found, even once the
    image's blur is undone, do two markers along one edge do (a hand, an arm or a cup over the
    other two): the table's other side is then unmeasured, and of the known sizes that agree
    with the measured side the largest is taken (:meth:`DaLuigiRecogniser.read` then takes the
    one whose strips show best). Trying them first loses the markers that undoing the blur
    finds: on test renders 3000000..3000299, 3 of 300 scenes read exactly right were lost so.

    Raises
    ------
    RecognitionError
        A blank image, or too few table markers (or markers that fit no table layout).
    """
    z = zones or zones_for(profile)
    return locate_table(image, z.marker_mm, profile, z.table_mm_choices, two_markers="opposite, then any")


def _within_groups(probs: np.ndarray, groups: np.ndarray, index: dict[str, int]) -> np.ndarray:
    """``probs`` (spots, labels) with each spot's probabilities of labels outside its group's
    (:data:`ALLOWED`) set to 0 and each row summing to 1 again; ``groups`` names each spot's
    group, ``index`` each label's column."""
    mine = np.zeros_like(probs)
    for group, allowed in ALLOWED.items():
        rows, cols = np.flatnonzero(groups == group), [index[label] for label in allowed]
        mine[np.ix_(rows, cols)] = probs[np.ix_(rows, cols)]
    return mine / np.maximum(mine.sum(axis=1, keepdims=True), 1e-12)


class Spots:
    """Spots classified in one batch: each spot's probabilities over its group's labels.

    Every spot is cut by the shared crop, white-balanced by ``gains`` (as in training), and
    classified; a spot reaching outside the image counts as covered, and so does one the cover
    map ``cover`` (the photograph's, where given: :mod:`~..cover_map`) finds covered from
    :data:`COVER_MAP_AT` (strip headers aside). A row read up to its
    first blank place (a supply's cubes: :data:`ROW_HEADS`) is classified
    beyond its first places only where none of those is blank or covered (the places after
    one would not change its reading), in a second batch. A spot read below
    :data:`SECOND_OPINION_BELOW` among its group's labels is read by ``second`` too, where
    given, and takes the two models' normalised geometric mean
    (:func:`~..second_looks.with_second_looks`). A guest card's order fields are read by
    ``dishes``, where given: a classifier of the order fields alone
    (:mod:`tableref.models.training.daluigi_dishes`), which tells a cube from the bare field
    printed in its colour more surely than the spot classifiers do; a field it reads below
    :data:`SECOND_OPINION_BELOW` is read by ``second_dishes`` too, where given, as above. A
    spot of the places :data:`ON_THE_TABLE` whose middle has the bare table's colour
    (:mod:`.daluigi_table`) is not covered: its ``unknown`` share goes to ``blank``; the first
    spot of a pile (:data:`PILES`) read blank whose colour is plainly not the table's is
    covered: its ``blank`` share goes to ``unknown``.
    """

    def __init__(self, classifier: Classifier, image: np.ndarray, view: TableView, zones: Zones, spots: list[Spot],
                 gains: np.ndarray, second: Classifier | None = None, dishes: Classifier | None = None,
                 second_dishes: Classifier | None = None, cover: np.ndarray | None = None):
        self.spots, self.cover = spots, cover
        self.quads_px = zones.spots_to_image(view, spots)
        self._hidden = np.zeros(len(spots), bool)
        if cover is not None and len(spots):
            self._hidden = (covered_share(cover, self.quads_px, image.shape[1]) >= COVER_MAP_AT) & np.array(
                [s.place.split(":")[0] != "strip" for s in spots])
        self._image, self._gains, self._classifier, self._second = image, gains, classifier, second
        self._dishes, self._second_dishes = dishes, second_dishes
        self._view, self._table = view, _UNMEASURED  # the table's look, measured when first needed
        self._on_table = np.array([s.place.split(":")[0] in ON_THE_TABLE for s in spots], bool)
        self._pile_head = np.array([s.place.split(":")[0] in PILES and s.index == 0 for s in spots], bool)
        self.probs: list[np.ndarray | None] = [None] * len(spots)
        self._by_place: dict[str, list[int]] = {}
        for i, s in enumerate(spots):
            self._by_place.setdefault(s.place, []).append(i)
        later = {i for i, s in enumerate(spots) if s.index >= ROW_HEADS.get(s.place.split(":")[0], len(spots))}
        self._classify([i for i in range(len(spots)) if i not in later])
        self._classify([i for place, rows in self._by_place.items() if later.intersection(rows)
                        and not row_ends(self.of(place)) for i in rows if i in later])
        del (self._image, self._gains, self._classifier, self._second, self._dishes, self._second_dishes,
             self._view, self._table, self._on_table, self._pile_head, self._hidden)

    def _classify(self, which: list[int]) -> None:
        if not which:
            return
        image, classifier = self._image, self._classifier
        quads = self.quads_px[which]
        inside = in_image(quads, image.shape)
        prep = classifier.card.preprocessing
        patches = balance(crop_patches(image, list(quads), prep), self._gains)
        probs = classifier.predict(to_tensor(patches, prep)).probabilities.astype(np.float64)
        index = {label: i for i, label in enumerate(classifier.labels)}
        groups = np.array([self.spots[i].group for i in which])
        probs = _within_groups(probs, groups, index)
        if self._second is not None:  # not on the order fields, where the order-field classifier reads
            probs = self._second_opinion(probs, patches, groups != DISH if self._dishes is not None else None)
        if self._dishes is not None:
            probs = self._dish_reading(probs, patches, quads, groups, index)
        for group, allowed in ALLOWED.items():
            rows = np.flatnonzero(groups == group)
            if not len(rows):
                continue
            p = probs[np.ix_(rows, [index[label] for label in allowed])]
            at, blank = np.asarray(which)[rows], allowed.index(BLANK)  # the spots, their blank label
            on_table = self._on_table[at] & (p[:, -1] >= LEANS_COVERED)
            if on_table.any():  # a place on the bare table that shows the table is not covered
                table = on_table & shows_table(patches[rows], self._table_look(), prep.crop.margin)
                p[table, blank] += p[table, -1]
                p[table, -1] = 0.0
            head = self._pile_head[at] & (p.argmax(axis=1) == blank)
            if head.any():  # no card read at a pile's head: the table, or a sleeve over the pile?
                head[head] = plainly_not_table(patches[rows][head], self._table_look(), prep.crop.margin)
                p[head, -1] += p[head, blank]
                p[head, blank] = 0.0
            p[~inside[rows] | self._hidden[at]] = np.eye(len(allowed))[-1]  # off the image or under a cover
            p /= np.maximum(p.sum(axis=1, keepdims=True), 1e-12)
            for r, row in zip(rows, p):
                self.probs[which[r]] = row

    def _table_look(self) -> np.ndarray | None:
        """The bare table's colour (:func:`_measure_table`), measured once."""
        if self._table is _UNMEASURED:
            self._table = _measure_table(self._image, self._view, self._classifier, self._gains)
        return self._table

    def _second_opinion(self, probs: np.ndarray, patches: np.ndarray, asked: np.ndarray | None) -> np.ndarray:
        """``probs`` (spots, labels; each spot's within its group's labels) with each spot read
        below :data:`SECOND_OPINION_BELOW` given the second model's say too (of the spots
        ``asked``, where given: a bool per spot). The patches are cut already, so the spots go
        to :func:`~..second_looks.with_second_looks` as their indices in the batch, and the
        second model reads the patches of those it finds unsure."""
        prep = self._second.card.preprocessing
        rows = np.arange(len(probs)) if asked is None else np.flatnonzero(asked)

        def second(at: list) -> np.ndarray:
            return self._second.predict(to_tensor(patches[rows[[int(i) for i in at]]], prep)).probabilities

        out = probs.copy()
        out[rows] = with_second_looks(second, list(range(len(rows))), (), SECOND_OPINION_BELOW, first=probs[rows],
                                      others=[second])
        return out

    def _dish_reading(self, probs: np.ndarray, patches: np.ndarray, quads: np.ndarray, groups: np.ndarray,
                      index: dict[str, int]) -> np.ndarray:
        """``probs`` with the order fields' rows read by the order-field classifiers instead
        (their labels are the group's; each reads the patches already cut where it takes the
        spot classifier's input, else cuts its own as its card says)."""
        rows = np.flatnonzero(groups == DISH)
        if not len(rows):
            return probs
        def look(model: Classifier) -> Callable[[list], np.ndarray]:
            """How ``model`` reads order fields given as their places in ``rows``."""
            prep = model.card.preprocessing
            same = prep == self._classifier.card.preprocessing

            def read(at: list) -> np.ndarray:
                which = rows[[int(i) for i in at]]
                cut = patches[which] if same else balance(crop_patches(self._image, list(quads[which]), prep),
                                                          self._gains)
                return model.predict(to_tensor(cut, prep)).probabilities
            return read

        fields = list(range(len(rows)))
        first = look(self._dishes)(fields)
        others = [] if self._second_dishes is None else [look(self._second_dishes)]
        own = with_second_looks(look(self._dishes), fields, (), SECOND_OPINION_BELOW, first=first, others=others)
        out = probs.copy()
        out[rows] = 0.0
        out[np.ix_(rows, [index[label] for label in self._dishes.labels])] = own
        return out

    def of(self, place: str) -> np.ndarray:
        """Probabilities (spots, labels) of ``place``'s spots classified (all of one group), in
        index order."""
        return np.stack(self.rows(place))

    def rows(self, place: str) -> list[np.ndarray]:
        """Probabilities of each of ``place``'s spots classified over its group's labels, in
        index order (a row's places after its first blank one may not be)."""
        return [self.probs[i] for i in self._by_place[place] if self.probs[i] is not None]

    def quad(self, place: str) -> np.ndarray:
        """The smallest turned rectangle (4, 2) image px around ``place``'s spots."""
        pts = self.quads_px[self._by_place[place]].reshape(-1, 2).astype(np.float32)
        return cv2.boxPoints(cv2.minAreaRect(pts)).astype(np.float64)


#: The table's look before it is measured (None: it could not be).
_UNMEASURED = object()


def _measure_table(image: np.ndarray, view: TableView, classifier: Classifier, gains: np.ndarray
                   ) -> np.ndarray | None:
    """The bare table's colour in ``image`` (:func:`~.daluigi_table.table_lab`), from the squares
    along the play area's edges that lie in the image, cut and balanced as the spots are."""
    prep = classifier.card.preprocessing
    quads = view.quads_to_image(squares_mm(view.table_mm))
    quads = quads[in_image(quads, image.shape)]
    if not len(quads):
        return None
    return table_lab(balance(crop_patches(image, list(quads), prep), gains), prep.crop.margin)


class DaLuigiRecogniser:
    """Reads Da Luigi from one photograph with the spot classifier and the zones.

    Parameters
    ----------
    classifier : Classifier
        The spot classifier (labels :data:`~.daluigi_labels.LABELS`).
    zones : Zones, optional
    deck : str
        The guest deck file ('' for the shipped one), as the rules option ``deck``.
    min_confidence : float
    second : Classifier, optional
        A second spot classifier with the same labels and input, asked about unsure spots too
        (:data:`~.daluigi_model.SECOND_MODEL_NAME`).
    dishes : Classifier, optional
        The order-field classifier (:data:`~.daluigi_model.DISH_MODEL_NAME`; labels those of
        the order-field group, its own input), which reads the order fields.
    second_dishes : Classifier, optional
        A second order-field classifier (:data:`~.daluigi_model.SECOND_DISH_MODEL_NAME`), asked
        about the fields ``dishes`` reads unsurely; only beside ``dishes``.
    cover_map : CoverMapModel, optional
        The cover map (:mod:`~..cover_map`): a spot it finds covered is read as covered.
    """

    def __init__(self, classifier: Classifier, zones: Zones | None = None, deck: str = "",
                 min_confidence: float = MIN_CONFIDENCE, second: Classifier | None = None,
                 dishes: Classifier | None = None, second_dishes: Classifier | None = None,
                 cover_map: CoverMapModel | None = None):
        missing = sorted(set(LABELS) - set(classifier.labels))
        if missing:
            raise RecognitionError(f"model {classifier.card.name!r} lacks Da Luigi labels {missing[:5]}")
        check_second_model(classifier, second, "spots")
        for model in (dishes, second_dishes):
            if model is not None and model.labels != ALLOWED[DISH]:
                raise RecognitionError(f"model {model.card.name!r} does not read order fields: its labels are not "
                                       f"the {len(ALLOWED[DISH])} of that group")
        if second_dishes is not None and dishes is None:
            raise RecognitionError(f"model {second_dishes.card.name!r} is a second opinion on order fields, "
                                   "asked only beside a first order-field model")
        self.classifier, self.second, self.dishes, self.second_dishes = classifier, second, dishes, second_dishes
        self.cover_map = cover_map
        self.zones = zones or zones_for(None)
        self.cards = CardTable.of(load_deck(deck))
        self.min_confidence = min_confidence
        self._layouts: dict[tuple[int, int], list[Spot]] = {}

    @classmethod
    def open(cls, model_dir: str | Path | None = None, profile: Profile | None = None) -> DaLuigiRecogniser:
        """The shipped models (or those in ``model_dir``, or those adapted to ``profile``'s set:
        :func:`~.common.model_card_path`) with the zones of ``profile``; the second and the
        order-field classifier where their cards lie beside the first's
        (:func:`~.common.open_second_model`), and the second order-field classifier beside
        the first; the cover map beside the first, else the shipped one (no enrolment adapts
        it: docs/daluigi-recognition.md says what that means for a real set)."""
        first = model_card_path(MODEL_NAME, model_dir, profile, MODELS_DIR)
        dishes = open_second_model(first, DISH_MODEL_NAME)
        cover = card_beside(first, COVER_MAP_NAME, MODELS_DIR / f"{MODEL_NAME}.card.json")
        return cls(Classifier.open(first), zones_for(profile), second=open_second_model(first, SECOND_MODEL_NAME),
                   dishes=dishes,
                   second_dishes=open_second_model(first, SECOND_DISH_MODEL_NAME) if dishes is not None else None,
                   cover_map=CoverMapModel.open(cover) if cover is not None else None)

    def read(self, image: np.ndarray, profile: Profile | None = None, players: int | None = None,
             view: TableView | None = None) -> Recognition:
        """Read ``image`` (BGR uint8, H x W x 3) as a Da Luigi table.

        ``view`` is the table already located in this image (:func:`locate_daluigi`), if any.
        Located without a profile by two markers along one edge, the table's other side is
        unmeasured: of the known sizes that agree with the side measured, the one under which
        the first two seats' strips show best is taken (:meth:`_likeliest_size`). A motion blur
        the markers show, of at least :data:`DEBLUR_FROM_PX`, is undone first
        (:func:`~.common.steady_view`, the table where it was found).

        Raises
        ------
        RecognitionError
            No table markers (or too few) in the image, or a blank image.
        """
        z = self.zones
        if view is None:
            view = locate_daluigi(image, profile, z)
        image, view, blur = steady_view(image, view, None, DEBLUR_FROM_PX, within=table_area(view))
        if profile is None and one_edge(view):
            view = self._likeliest_size(image, view)
        counts = z.player_counts(view.table_mm)
        if players is not None and players not in counts:
            width, depth = view.table_mm
            raise RecognitionError(f"a Da Luigi table of {width:.0f} x {depth:.0f} mm is laid out "
                                   f"for {' or '.join(map(str, counts))} players, not {players}")
        gains = gains_for(image, view, profile.colour_references if profile is not None else None)
        cover = self.cover_map.predict(image) if self.cover_map is not None else None
        read = Spots(self.classifier, image, view, self.zones, self._spots(max(counts)), gains, self.second, self.dishes,
                     self.second_dishes, cover)
        strips = [float(read.of(f"strip:{p}")[:, 0].mean()) for p in range(min(counts))]
        if max(strips) < STRIP_SHOWS:
            raise RecognitionError("the table markers are there but no Da Luigi ristorante strip shows where the "
                                   "layout puts them: is this Da Luigi, laid out as the zones describe?")
        if players is None:
            players = self._players(read, counts)
        items, places = self._decode(read, image, view, players, gains)
        return Recognition(Observation(tuple(items)), places, players, view.table_mm,
                           view.calibration.markers_used, blur)

    def _likeliest_size(self, image: np.ndarray, view: TableView) -> TableView:
        """``view`` (located by two markers along one edge) or the view of another known table
        size that agrees with the side they measure, whichever shows the first two seats'
        ristorante strips the most surely (a wrong size moves every seat's places)."""
        return likeliest_size(image, view, self.zones.marker_mm, self.zones.table_mm_choices,
                              lambda v: self._strips_shown(image, v))

    def _strips_shown(self, image: np.ndarray, view: TableView) -> float:
        """How surely the strips of the first two seats show under ``view`` (the sum of their
        header spots' mean probability of a strip)."""
        strips = [s for s in self._spots(min(self.zones.player_counts(view.table_mm)))
                  if s.place in ("strip:0", "strip:1")]
        read = Spots(self.classifier, image, view, self.zones, strips, gains_for(image, view, None))
        return sum(float(read.of(place)[:, 0].mean()) for place in ("strip:0", "strip:1"))

    def _spots(self, players: int) -> list[Spot]:
        """Every spot of a table laid out for ``players`` (made once per layout)."""
        key = (id(self.zones), players)
        if key not in self._layouts:
            z = self.zones
            spots = z.market_spots(players)
            for p, seat in enumerate(z.seats(players)):
                spots += z.supply_spots(p, seat) + z.header_spots(p, seat) + z.tile_spots(p, seat)
                for s in range(SLOTS):
                    spots += z.slot_spots(p, seat, s)
                spots += z.edge_spots("served", f"served:{p}", seat, 1, z.full_step_count("served") + 1)
                spots += z.edge_spots("hand", f"hand:{p}", seat, 1, z.full_step_count("hand") + 1)
                spots += [Spot(f"revealed:{p}", s.index, s.group, s.quad_mm) for s in z.revealed_spots(seat)]
            self._layouts[key] = spots
        return self._layouts[key]

    @staticmethod
    def _players(read: Spots, counts: tuple[int, ...]) -> int:
        """Fewest players whose layout explains the strips that show."""
        for n in sorted(counts)[:-1]:
            extra = read.of(f"strip:{n}")
            if float(extra[:, 0].mean()) < STRIP_SHOWS:
                return n
        return max(counts)

    def _decode(self, read: Spots, image, view, players: int, gains: np.ndarray) -> tuple[list[Item], dict]:
        items: list[Item] = []
        places: dict[str, np.ndarray] = {}

        def put(where: str, r: Read, place: str) -> None:
            items.append(Item(where, UNKNOWN, 0.0) if r.label is None else Item(where, r.label, r.confidence))
            places[where] = read.quad(place)

        grid = self.zones.market_grid()
        market = [cube_row(read.of(f"market:{f}")) for f in range(len(grid))]
        for f, r in enumerate(beside_the_covered(market, grid)):
            put(f"market:{f}", r, f"market:{f}")
        hands, shown = [], []
        for p in range(players):
            for s in range(SLOTS):
                card, cubes = self._card(read.rows(f"slot:{p}:{s}"), s)
                put(f"slot:{p}:{s}", card, f"slot:{p}:{s}")
                if card.label != "":  # a card there (or unknown): its order
                    put(f"order:{p}:{s}", cubes, f"slot:{p}:{s}")
            put(f"supply:{p}", cube_row(read.of(f"supply:{p}")), f"supply:{p}")
            lemons, flowers = tile_row(read.of(f"tiles:{p}"))
            put(f"lemons:{p}", lemons, f"tiles:{p}")
            put(f"flowers:{p}", flowers, f"tiles:{p}")
            put(f"served:{p}", self._pile(read, image, view, gains, "served", f"served:{p}", p), f"served:{p}")
            hands.append((self._pile(read, image, view, gains, "hand", f"hand:{p}", p), f"hand:{p}"))
            shown.append((self._card(read.rows(f"revealed:{p}"))[0], f"revealed:{p}"))
        put("hand", *_welcoming(hands, "0"))
        put("revealed", *_welcoming(shown, ""))
        return each_guest_once(items), places

    def _card(self, rows: list[np.ndarray], slot: int | None = None) -> tuple[Read, Read]:
        """A guest card's place from its spots' probabilities (dish fields, points, wait, ability);
        ``slot``: its strip slot (None: the revealed card's place)."""
        if sum(float(row[-1]) < UNKNOWN_AT for row in rows) < MIN_SPOTS_SHOWN:
            return UNREAD, UNREAD  # too little shows to tell a card from none (as decode_card)
        blank = [float(row[-2] / max(row[:-1].sum(), 1e-12)) for row in rows]
        if min(blank) >= SURELY_BLANK:  # every spot surely blank: no card (the common case, fast)
            return Read("", min(blank)), UNREAD
        dishes = CARD_GROUPS.count(DISH)
        card, cubes = decode_card(np.stack(rows[:dishes]), rows[dishes], rows[dishes + 1], rows[dishes + 2],
                                  self.cards, self.min_confidence, slot)
        if card.label is not None and card.confidence < self.min_confidence:
            card = UNREAD  # the cubes may still be known: cards alike in their dish fields
        return card, cubes

    def _pile(self, read: Spots, image, view, gains, pile: str, place: str, p: int) -> Read:
        """How many cards lie shingled in ``pile``: edges at the full step up to the first
        blank place; when those read as many cards as lie at the full step, the closer steps
        of longer piles too, whichever explains its places best. (They were weighed only when
        the place after the last full step read as an edge: a hand of five, whose fifth edge
        lies a few millimetres short of that place, read as four on 5 of the 450 validation
        renders 2000450..2000899.) The closer steps are weighed too where a place after the
        count's end reads an edge: twelve served cards lie closer than the full step, whose
        places drift off their edges after the sixth and read blank, then edges again (read
        as 6 and 5 on validation renders 2000770 and 2000817). A pile read as ending just
        before a covered place is unknown: the place read blank there lies at the edge of a
        hand or an object and is often a card's edge partly under it (a hand over a served
        pile's last cards read as 5, a pile under a mug as none). On validation renders
        2000450..2000899, replayed on the served piles' spots, 9 piles hidden in part and
        read wrong became unknown and none read right did."""
        probs = read.of(place)
        covered = probs[:, 2] >= UNKNOWN_AT
        blank = ~covered & (probs[:, 1] > probs[:, 0])
        edge = ~covered & (probs[:, 0] > probs[:, 1])
        stop = int(np.argmax(blank)) if np.any(blank) else len(probs) - 1
        if np.any(covered[:stop + 1]):
            return UNREAD
        full = self.zones.full_step_count(pile)
        scores = {n: pile_score(probs, n) for n in range(full + 1)}
        best = max(scores, key=scores.get)
        if best == full or edge[best + 1:].any():
            seat = self.zones.seats(max(self.zones.player_counts(view.table_mm)))[p]
            longer = [s for n in range(full + 1, self.zones.data[pile]["max"] + 1)
                      for s in self.zones.edge_spots(pile, f"{n}", seat, n, n + 1)]
            more = Spots(self.classifier, image, view, self.zones, longer, gains, self.second, cover=read.cover)
            for n in range(full + 1, self.zones.data[pile]["max"] + 1):
                scores[n] = pile_score(more.of(f"{n}"), n)
            best = max(scores, key=scores.get)
        if best + 1 < len(probs) and covered[best + 1]:
            return UNREAD
        total = np.exp(np.array(list(scores.values())) - max(scores.values()))
        return Read(str(best), float(1.0 / total.sum()))


def beside_the_covered(fields: list[Read], grid: Sequence[tuple[int, int]]) -> list[Read]:
    """The market ``fields`` read, each read below :data:`EDGE_CONFIDENCE` beside a field left
    unknown (``grid``: each field's row and column) unknown too."""
    unsure = unsure_beside_covered({grid[f]: r.confidence for f, r in enumerate(fields) if r.label is not None},
                                   {grid[f] for f, r in enumerate(fields) if r.label is None}, EDGE_CONFIDENCE)
    return [UNREAD if grid[f] in unsure else r for f, r in enumerate(fields)]


#: The places that hold one guest card each.
GUEST_PLACES = ("slot", "revealed")


def each_guest_once(items: list[Item]) -> list[Item]:
    """``items`` with no guest card read at two places: the game has "90 different guest
    cards" (the rulebook's components). The surest reading keeps the card; each other place
    that reads it is unknown (its order's cubes, read apart, stand)."""
    guests = {i for i, it in enumerate(items)
              if it.where.split(":")[0] in GUEST_PLACES and it.label not in ("", UNKNOWN)}
    keeper: dict[str, int] = {}
    for i in sorted(guests, key=lambda i: (-items[i].confidence, i)):  # ties: the first place
        keeper.setdefault(items[i].label, i)
    return [Item(it.where, UNKNOWN, 0.0) if i in guests and keeper[it.label] != i else it
            for i, it in enumerate(items)]


def _welcoming(reads: list[tuple[Read, str]], nothing: str) -> tuple[Read, str]:
    """The welcoming player's hand or revealed card: lies at one seat only (the active
    player's); the surest seat showing something, else unknown if any seat is covered, else
    ``nothing``."""
    some = [r for r in reads if r[0].label not in (None, nothing)]
    if some:
        return max(some, key=lambda r: r[0].confidence)
    covered = [r for r in reads if r[0].label is None]
    if covered:
        return covered[0]
    return Read(nothing, min(r.confidence for r, _ in reads)), reads[0][1]
