"""Shared geometry of the recognisers: the table from the markers in the image, zones in mm.

A recogniser never needs a profile: the four table markers in the photograph give the
homography from the image to the table frame (DESIGN.md: millimetres, origin at marker 0's
outer corner, y away from the camera). Without a profile the size of the play area is not
known either; it is estimated from where the markers lie, since every marker is a square of
known side in a known corner (:func:`locate_table`). With a profile, its marker layout and
lens intrinsics are used.

Zones are rectangles on the table (a slot, the visible strip of a card) given in mm; they
become image quads in the crop order of :mod:`tableref.vision.crop` (the item's top-left
first, clockwise as seen from above with the item upright).
"""

from __future__ import annotations

import functools
import json
import logging
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from ...calibration.errors import CalibrationError, MarkerError
from ...calibration.intrinsics import Intrinsics
from ...calibration.layout import DEFAULT_IDS, MarkerLayout, default_layout
from ...calibration.lens import estimate_lens
from ...calibration.markers import DEFAULT_DICTIONARY, DetectedMarker, detect_markers, dictionary
from ...calibration.profile import Profile
from ...calibration.table import TableCalibration, calibrate_table, spans
from ..classifier import Classifier
from ..deblur import (DeblurError, MotionBlur, blind_motion, deconvolve, deconvolve_within, line_kernel, marker_target,
                      measure_motion_blur)
from ..errors import VisionError
from ..frame import check_bgr_image
from ..marker_search import find_near
from ..parallax import ParallaxError, camera_centre_mm, lift

log = logging.getLogger(__name__)

#: Marker corners may lie this far (mm) from the fitted layout: markers of 50 mm are 25-35 px
#: wide in a 1280x720 view of a whole table, so a pixel of corner noise is about 2 mm.
MAX_CORNER_ERROR_MM = 8.0
#: Rounds of the play-area size estimate (fit the plane, move the layout, fit again).
SIZE_ROUNDS = 8
#: Smallest and largest play area believed (mm per side); outside is a misdetection.
TABLE_SIDE_RANGE_MM = (200.0, 3000.0)
#: When too few markers are found (motion blur smears their edges), detection runs once more
#: on an unsharp-masked copy (sigma in px, amount); on the twin's renders with 6-7 px of
#: motion blur this finds all four markers where the plain image gives none to two.
SHARPEN_SIGMA_PX, SHARPEN_AMOUNT = 3.0, 2.0
#: Play-area sizes whose fits' RMS corner errors lie within this (mm) fit alike: the markers
#: seen do not tell them apart (a fit to the wrong size of a measured side is off by
#: millimetres; the corners' own noise is a few tenths).
ALIKE_MM = 0.05
#: A lens distortion estimated from the markers is used when its fit's residual is at most
#: this share of a plain homography's.
LENS_GAIN = 0.7
#: Images whose grey levels spread less than this (std, 8-bit) are blank.
BLANK_STD = 2.0
#: The blank test looks at every BLANK_STRIDE-th pixel in x and y (a 1280x720 image: 57,600
#: pixels, plenty to tell a blank frame, at a sixteenth of the cost).
BLANK_STRIDE = 4


class RecognitionError(VisionError):
    """An image that cannot be read as a game: no table markers, a blank image, and so on."""


class ZonesError(RecognitionError):
    """A zones description (file or profile override) that is malformed; names the field."""


def check_second_model(first: Any, second: Any, what: str) -> None:
    """Raise unless ``second`` (a :class:`~..classifier.Classifier`, or None) reads ``what`` as
    ``first`` does: the same labels and the same input, so that its probabilities can join the
    first's (:func:`~..second_looks.with_second_looks`)."""
    if second is not None and (second.labels != first.labels or second.card.preprocessing != first.card.preprocessing):
        raise RecognitionError(f"model {second.card.name!r} does not read {what} as {first.card.name!r} "
                               "does (labels or input differ)")


@dataclass(frozen=True, eq=False)
class TableView:
    """Where the table lies in one image.

    Attributes
    ----------
    calibration : TableCalibration
        Homography image px -> table mm, fitted to the markers of this image.
    intrinsics : Intrinsics or None
        The profile's lens, when the fit used undistorted corners.
    """

    calibration: TableCalibration
    intrinsics: Intrinsics | None = None

    @property
    def table_mm(self) -> tuple[float, float]:
        """(width, depth) of the play area in mm."""
        return self.calibration.layout.table_mm

    def to_image(self, points_mm: np.ndarray) -> np.ndarray:
        """Table mm (..., 2) -> image pixels (..., 2) as the camera sees them."""
        pts = np.asarray(points_mm, np.float64)
        return self.calibration.table_to_image(pts.reshape(-1, 2), self.intrinsics).reshape(pts.shape)

    @functools.cached_property
    def camera_mm(self) -> np.ndarray | None:
        """Where the camera stands: its centre (3,) in table mm, z its height above the table
        (:func:`~tableref.vision.parallax.camera_centre_mm`); None where the fit gives none."""
        try:
            return camera_centre_mm(self.calibration.inverse, self.calibration.image_size)
        except ParallaxError:
            return None

    def quads_to_image(self, quads_mm: Sequence[np.ndarray], heights_mm: Sequence[float] | None = None) -> np.ndarray:
        """Quads (each 4 x 2) in table mm -> image pixels (N, 4, 2), mapped in one call; each
        raised ``heights_mm`` above the table where given (where the camera sees a thing that
        high: :func:`~tableref.vision.parallax.lift`)."""
        if len(quads_mm) == 0:
            return np.empty((0, 4, 2))
        quads = np.stack(quads_mm).astype(np.float64)
        heights = None if heights_mm is None else np.asarray(heights_mm, np.float64)
        if heights is not None and heights.shape != (len(quads),):
            raise ValueError(f"one height per quad: {len(quads)} quads, heights of shape {heights.shape}")
        if heights is not None and self.camera_mm is not None:
            for h in np.unique(heights[heights > 0]):
                try:
                    quads[heights == h] = lift(quads[heights == h], float(h), self.camera_mm)
                except ParallaxError:  # a camera no higher than the thing: left on the table
                    pass
        return self.to_image(quads)

    def px_per_mm(self, at_mm: tuple[float, float]) -> float:
        """Image scale near ``at_mm`` (pixels per mm, mean of x and y)."""
        x, y = at_mm
        p = self.to_image(np.array([[x, y], [x + 1.0, y], [x, y + 1.0]]))
        return float((np.linalg.norm(p[1] - p[0]) + np.linalg.norm(p[2] - p[0])) / 2)


def adapted_card(profile: Profile | None, name: str) -> Path | None:
    """The card of model ``name`` adapted to ``profile``'s own set (``tableref enrol``), if any;
    a live recogniser whose answer changes with the profile opens its models again."""
    return profile.model_card(name) if profile is not None else None


class ProfileFollower:
    """What a live recogniser needs of the profile each frame comes with: whether it is another
    profile than the last (its zones then apply) and whether that one names another adapted
    model ``name`` (:func:`adapted_card`; the models are then opened again)."""

    def __init__(self, name: str):
        self.name = name
        self._profile: Profile | None = None
        self._adapted: Path | None = None  # the adapted model's card in use, if any

    def follow(self, profile: Profile | None) -> bool | None:
        """None: the profile of the last frame; False: another profile, the same models; True:
        another profile whose adapted model differs (or that names none where one was in use)."""
        if profile is self._profile:
            return None
        self._profile = profile
        adapted = adapted_card(profile, self.name)
        if adapted == self._adapted:
            return False
        self._adapted = adapted
        return True


def model_card_path(name: str, model_dir: str | Path | None, profile: Profile | None, shipped: Path) -> Path:
    """Where model ``name``'s card lies: in ``model_dir`` when one is given; else the model
    adapted to ``profile``'s own set (:func:`adapted_card`); else the shipped one in ``shipped``."""
    if model_dir is not None:
        return Path(model_dir) / f"{name}.card.json"
    adapted = adapted_card(profile, name)
    return adapted if adapted is not None else shipped / f"{name}.card.json"


def card_beside(first: Path, name: str, shipped: Path | None = None) -> Path | None:
    """The card of model ``name`` beside the card ``first``, else (with ``shipped``) beside
    that; None where neither folder holds it (:func:`open_second_model`)."""
    cards = [beside.with_name(f"{name}.card.json") for beside in (first, shipped) if beside is not None]
    return next((card for card in cards if card.is_file()), None)


def open_second_model(first: Path, name: str, shipped: Path | None = None) -> Classifier | None:
    """The second model ``name`` whose card lies beside the first model's card ``first`` (in
    the same folder: the shipped models, a given folder, or the models adapted to a profile's
    set), opened; else, with ``shipped`` (the first model's shipped card), the one beside that;
    or None. A second opinion from another folder (the shipped model beside one adapted to the
    user's own set, say by an enrolment made before the game had a second model) would pull the
    reading back towards what the first was adapted away from; ``shipped`` is for models no
    enrolment adapts (a hand over a spot, a card's seam look the same on any set)."""
    card = card_beside(first, name, shipped)
    return Classifier.open(card) if card is not None else None


def check_photo(image: np.ndarray) -> np.ndarray:
    """``image`` if it is a BGR uint8 photograph with something in it; else RecognitionError."""
    check_bgr_image(image)
    few = image[::BLANK_STRIDE, ::BLANK_STRIDE]
    if float(few.std()) < BLANK_STD:
        raise RecognitionError(f"the image is blank (all pixels about {float(few.mean()):.0f}): nothing to read")
    return image


def locate_table(image: np.ndarray, marker_mm: float, profile: Profile | None = None,
                 choices_mm: tuple[tuple[float, float], ...] = (),
                 max_corner_error_mm: float = MAX_CORNER_ERROR_MM, two_markers: str = "opposite",
                 lens_from_markers: bool = True, find_missing: bool = True) -> TableView:
    """Find the table plane from the markers visible in ``image``.

    Parameters
    ----------
    image : ndarray (H, W, 3) uint8, BGR
    marker_mm : float
        Side of each marker's black square (mm), when no profile gives the layout.
    profile : Profile, optional
        Its table layout (marker places, play-area size) and intrinsics are used when present.
    choices_mm : tuple of (width, depth)
        Play-area sizes the game is laid out on (from its zones); without a profile the one
        whose corner layout fits the markers best is taken, else the size is estimated.
    max_corner_error_mm : float
    two_markers : {"opposite", "any", "one", "never", "opposite, then any"}
        Which two markers locate the table when no third is found (after the sharpened copy
        was tried too): two in opposite corners by default; any two for a game found by its
        own geometry in the view (Ligretto's board of square spaces), where a tilt of the far
        side by tens of mm does not matter; with a pair along one edge, of the sizes that fit
        alike the largest is taken, so the view holds the whole play area; "one": any two,
        or one marker alone (the largest size is taken); "opposite, then any": as "opposite",
        and only when that finds nothing, even on the image with its blur undone, any two.
    lens_from_markers : bool
        Without a lens calibration in the profile, estimate the lens's distortion from the
        markers (:func:`estimated_lens`); False: a plain homography.
    find_missing : bool
        Located from two markers (or one), look for the others by their pattern where those put
        them (:func:`with_markers_missed`).

    Raises
    ------
    RecognitionError
        Fewer than 3 table markers in view (and not 2 that ``two_markers`` accepts), or
        markers that fit no table layout.
    """
    check_photo(image)
    size = (image.shape[1], image.shape[0])
    intrinsics = profile.intrinsics if profile is not None else None
    if intrinsics is not None and tuple(intrinsics.image_size) != size:
        intrinsics = None  # a lens calibrated at another resolution does not apply
    layout_given = profile.table.layout if profile is not None and profile.table is not None else None
    dictionary = layout_given.dictionary if layout_given is not None else DEFAULT_DICTIONARY

    layouts = [layout_given] if layout_given is not None else [default_layout(tuple(c), marker_mm) for c in choices_mm]

    def fit_found(markers, pair: str) -> TableView:
        lens = intrinsics
        if lens is None and lens_from_markers:
            lens = estimated_lens(markers, layouts, size)
        if layout_given is not None:
            table = calibrate_table(markers, layout_given, size, lens, max_corner_error_mm, pair)
        else:
            table = _fit_choices(markers, marker_mm, size, lens, choices_mm, max_corner_error_mm, pair)
        return _view(table, lens)

    def fit(markers, pair: str) -> TableView:
        """The table from ``markers``; located from two (or one), with the markers missed found
        where those say they lie, when they agree (:func:`with_markers_missed`)."""
        view = fit_found(markers, pair)
        return view if pair == "never" or not find_missing else with_markers_missed(image, view, markers, fit_found)

    last_resort = two_markers == "opposite, then any"
    if last_resort:
        two_markers = "opposite"
    markers = detect_markers(image, dictionary)
    try:
        return fit(markers, "never")
    except CalibrationError as exc:
        first = exc
    # motion blur smears the markers' edges: try once more on a sharpened copy; only then
    # settle for two markers, as ``two_markers`` allows (a hand or a cup over the other two)
    sharp = detect_markers(sharpen(image), dictionary)
    tries = [(sharp, "never"), (markers, two_markers), (sharp, two_markers)]
    if two_markers == "one":  # two markers, in either copy, before one alone
        tries[1:] = [(markers, "any"), (sharp, "any"), (markers, "one"), (sharp, "one")]
    for found, pair in tries:
        try:
            return fit(found, pair)
        except CalibrationError as exc:
            last = exc
    # markers smeared past finding: judge the blur from the whole image, undo it, look again
    import cv2

    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    try:
        blind = blind_motion(gray)
    except DeblurError:  # an image too small to judge
        blind = None
    found_sets = [markers, sharp]
    for kernel_px in blind.kernel_sizes if blind is not None else ():
        # the detector reads grey: one plane to undo, not three
        steadied = detect_markers(deconvolve(gray, line_kernel(kernel_px, blind.angle_deg)), dictionary)
        found_sets.append(steadied)
        for pair in dict.fromkeys(("never", "any" if two_markers == "one" else two_markers)):
            try:
                view = fit(steadied, pair)
            except CalibrationError:
                continue
            log.debug("table found once a blur of %d px at %.0f deg (judged from the image) was undone", kernel_px,
                      blind.angle_deg)
            return view
    for found in found_sets if last_resort else ():
        try:
            return fit(found, "any")
        except CalibrationError as exc:
            last = exc
    found = sorted({m.id for m in markers} | {m.id for m in sharp})
    reason = last if "(or " in str(last) else first
    raise RecognitionError(f"no table found: {reason} (markers found: {found or 'none'}; is this a photo of "
                           "the table with its four printed markers?)") from None


def with_markers_missed(image: np.ndarray, view: TableView, markers: Sequence[DetectedMarker],
                        fit: Callable[[list, str], TableView]) -> TableView:
    """``view`` (located from fewer than three markers) located again with the markers the
    detector missed, each found by its pattern where ``view`` puts it
    (:func:`~tableref.vision.marker_search.find_near`: a pen, a die or a sleeve's edge across a
    marker); ``fit(markers, "never")`` locates the table from three or more, and ``view`` stays
    when none is found or they do not agree with the others (the fit fails)."""
    layout = view.calibration.layout
    have = {m.id for m in markers}
    more = []
    for placement in layout.markers:
        if placement.id not in have:
            hit = find_near(image, placement.id, view.to_image(np.asarray(placement.corners_mm, np.float64)),
                            layout.dictionary)
            if hit is not None:
                more.append(hit[0])
    if not more:
        return view
    try:
        located = fit([m for m in markers if m.id in layout.ids] + more, "never")
    except CalibrationError:
        return view
    log.debug("table located with markers %s found by their pattern", [m.id for m in more])
    return located


def estimated_lens(markers, layouts: Sequence[MarkerLayout], size: tuple[int, int]) -> Intrinsics | None:
    """The lens distortion the markers show (:mod:`tableref.calibration.lens`) for a camera
    without a lens calibration, against the layouts the table may have; kept when it explains
    the corners clearly better than a plain homography (residual at most :data:`LENS_GAIN`
    of it); else None."""
    estimate = estimate_lens(markers, layouts, size)
    return estimate.intrinsics if estimate is not None and estimate.gain <= LENS_GAIN else None


def _view(table: TableCalibration, intrinsics: Intrinsics | None) -> TableView:
    return TableView(table, intrinsics if table.undistorted else None)


def motion_blur(image: np.ndarray, view: TableView) -> MotionBlur | None:
    """The motion blur of ``image``, measured on the markers that located the table in it
    (:mod:`tableref.vision.deblur`); None when none of them can be measured on."""
    import cv2

    layout = view.calibration.layout
    cells = dictionary(layout.dictionary)
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    targets = []
    for marker_id in view.calibration.markers_used:
        # the marker drawn one pixel per cell: its black border, and inside it the bits
        bits = cells.generateImageMarker(marker_id, cells.markerSize + 2)[1:-1, 1:-1] > 127
        target = marker_target(gray, bits, view.to_image(layout.placement(marker_id).corners_mm))
        if target is not None:
            targets.append(target)
    return measure_motion_blur(targets) if targets else None


def steady_view(image: np.ndarray, view: TableView, relocate: Callable[[np.ndarray], TableView] | None,
                from_px: float = 0.0, within: np.ndarray | None = None,
                ) -> tuple[np.ndarray, TableView, MotionBlur | None]:
    """``image`` with the motion blur its markers show undone, the table's view in it, and the
    blur measured (None when no marker could be measured on). A blur shorter than ``from_px``
    is measured but left as it is. With ``within`` (points, N x 2 px) the blur is undone only
    around them (:func:`~tableref.vision.deblur.deconvolve_within`: what the reader will look
    at), the rest of the image left as it is.

    When the blur is undone the table is located again by ``relocate`` on the new image (its
    markers are sharper now, their corners surer); ``view`` is kept when ``relocate`` is None,
    as for a view the caller gave, or fails. An image with no blur to undo is returned as it is.
    """
    blur = motion_blur(image, view)
    if blur is None or not blur.moving or blur.length_px < from_px:
        return image, view, blur
    kernel = line_kernel(blur.length_px, blur.angle_deg)
    steady = deconvolve(image, kernel) if within is None else deconvolve_within(image, kernel, within)
    if relocate is not None:
        try:
            view = relocate(steady)
        except RecognitionError:
            pass
    return steady, view, blur


def blur_report(blur: MotionBlur | None, from_px: float = 0.0) -> dict | None:
    """A blur measured on the markers as JSON, ``undone`` as :func:`steady_view` given
    ``from_px`` treats it (None when none was measured)."""
    if blur is None:
        return None
    return {**blur.to_json(), "undone": blur.moving and blur.length_px >= from_px}


#: :func:`table_area` widens the table by this share of its size on every side: what stands
#: on the table (a stack of cards, a cube) shows a little beyond where its foot lies.
TABLE_AREA_GROW = 0.05


def table_area(view: TableView) -> np.ndarray | None:
    """The table of ``view`` and its markers in the image (points, N x 2 px): the play area
    widened by :data:`TABLE_AREA_GROW` and the markers that located it, where a reader looks
    (:func:`steady_view`'s ``within``). None when the table's far side is unmeasured
    (:func:`one_edge`): the table may reach further than its size assumed."""
    if one_edge(view):
        return None
    w, h = view.table_mm
    gw, gh = TABLE_AREA_GROW * w, TABLE_AREA_GROW * h
    corners = np.array([[-gw, -gh], [w + gw, -gh], [w + gw, h + gh], [-gw, h + gh]], np.float64)
    layout = view.calibration.layout
    markers = [np.asarray(layout.placement(i).corners_mm, np.float64) for i in view.calibration.markers_used]
    points = view.to_image(np.concatenate([corners, *markers]))
    return points if np.all(np.isfinite(points)) else None


def one_edge(view: TableView) -> bool:
    """Whether ``view`` was located by markers along one edge only (two along one side): the
    table's other side is then unmeasured."""
    return not all(spans(view.calibration.layout, view.calibration.markers_used))


def likeliest_size(image: np.ndarray, view: TableView, marker_mm: float, choices_mm: Sequence[tuple[float, float]],
                   score: Callable[[TableView], float]) -> TableView:
    """``view`` (located without a profile by markers along one edge) or the view of another
    of the known table sizes ``choices_mm`` that agrees with the side its markers measure,
    whichever ``score`` rates highest (the first of equals: ``view``)."""
    measured = spans(view.calibration.layout, view.calibration.markers_used)
    best, most = view, score(view)
    for size in choices_mm:
        if tuple(size) == tuple(view.table_mm) or any(size[a] != view.table_mm[a] for a in (0, 1) if measured[a]):
            continue
        try:
            other = locate_table(image, marker_mm, None, (tuple(size),), two_markers="any")
        except RecognitionError:
            continue
        rated = score(other)
        if rated > most:
            best, most = other, rated
    return best


def check_both_sides(view: TableView, name: str) -> None:
    """Refuse a photograph ``name`` whose table was located by markers along one edge only (an
    enrolment photograph must show the whole table where its layout says).

    Raises
    ------
    RecognitionError
        Only two markers along one edge show.
    """
    if one_edge(view):
        raise RecognitionError(f"{name}: only two table markers along one edge show (ids "
                               f"{list(view.calibration.markers_used)}); an enrolment photograph must show markers "
                               "on both sides of the table")


def sharpen(image: np.ndarray) -> np.ndarray:
    """Unsharp mask of a BGR uint8 image: ``image + SHARPEN_AMOUNT * (image - blur(image))``,
    the blur Gaussian of :data:`SHARPEN_SIGMA_PX`. Same shape and type."""
    import cv2

    smooth = cv2.GaussianBlur(image, (0, 0), SHARPEN_SIGMA_PX)
    return cv2.addWeighted(image, 1.0 + SHARPEN_AMOUNT, smooth, -SHARPEN_AMOUNT, 0.0)


def _fit_choices(markers, marker_mm: float, size: tuple[int, int], intrinsics: Intrinsics | None,
                 choices_mm: tuple[tuple[float, float], ...], max_error: float, pair: str) -> TableCalibration:
    """The best-fitting of the known play-area sizes, or an estimated size when none fits.
    Of the sizes that fit alike, the largest; where the markers found do not measure a side
    (two along one edge), every size with the best fit's measured side fits alike, however
    the fits' residuals differ: the view then reaches as far as the largest table does."""
    fits = []
    for choice in choices_mm:
        try:
            fits.append(calibrate_table(markers, default_layout(tuple(choice), marker_mm), size, intrinsics,
                                        max_error, pair))
        except MarkerError:
            continue
    if fits:
        best = min(fits, key=lambda t: t.reprojection.rms_mm)
        measured = spans(best.layout, best.markers_used)

        def alike(t: TableCalibration) -> bool:
            if all(measured):
                return t.reprojection.rms_mm <= best.reprojection.rms_mm + ALIKE_MM
            return all(t.layout.table_mm[a] == best.layout.table_mm[a] for a in (0, 1) if measured[a])

        return max(filter(alike, fits), key=lambda t: (t.layout.table_mm[0] * t.layout.table_mm[1],
                                                       -t.reprojection.rms_mm))
    return _fit_unknown_size(markers, marker_mm, size, intrinsics, max_error, pair)


def _fit_unknown_size(markers, marker_mm: float, size: tuple[int, int], intrinsics: Intrinsics | None,
                      max_error: float, pair: str) -> TableCalibration:
    """Fit the plane and the play-area size: start from one marker's own square, then
    alternately fit the homography to the corner layout and move the layout's far markers to
    where the fit puts them."""
    ours = [m for m in markers if m.id in DEFAULT_IDS]
    if not ours:
        return calibrate_table(markers, default_layout((1000.0, 1000.0), marker_mm), size, intrinsics, max_error,
                               pair)
    width, depth = _first_guess(ours, marker_mm)
    table = None
    for _ in range(SIZE_ROUNDS):
        lo, hi = TABLE_SIDE_RANGE_MM
        width, depth = float(np.clip(width, lo, hi)), float(np.clip(depth, lo, hi))
        table = calibrate_table(markers, default_layout((width, depth), marker_mm), size, intrinsics,
                                max_corner_error_mm=math.inf, two_markers=pair)
        width, depth = _size_from(table, ours, marker_mm, (width, depth), intrinsics)
    return calibrate_table(markers, default_layout((width, depth), marker_mm), size, intrinsics, max_error, pair)


def _first_guess(markers, marker_mm: float) -> tuple[float, float]:
    """Play-area size from the largest marker's own plane (a rough start)."""
    import cv2

    anchor = max(markers, key=lambda m: abs(cv2.contourArea(m.corners.astype(np.float32))))
    own = np.array([[0, marker_mm], [marker_mm, marker_mm], [marker_mm, 0], [0, 0]], np.float64)
    h, _ = cv2.findHomography(anchor.corners, own, 0)
    offsets = {0: (0.0, 0.0), 1: (1.0, 0.0), 2: (1.0, 1.0), 3: (0.0, 1.0)}
    ax, ay = offsets[DEFAULT_IDS.index(anchor.id)]
    widths, depths = [], []
    for m in markers:
        if m.id == anchor.id:
            continue
        centre = cv2.perspectiveTransform(m.corners.mean(axis=0).reshape(1, 1, 2), h).reshape(2)
        mx, my = offsets[DEFAULT_IDS.index(m.id)]
        if mx != ax:
            widths.append(abs(centre[0] - marker_mm / 2) + marker_mm)
        if my != ay:
            depths.append(abs(centre[1] - marker_mm / 2) + marker_mm)
    guess = 1000.0
    return (float(np.median(widths)) if widths else guess, float(np.median(depths)) if depths else guess)


def _size_from(table: TableCalibration, markers, marker_mm: float, current: tuple[float, float],
               intrinsics: Intrinsics | None) -> tuple[float, float]:
    """Width and depth that make the markers their true size: a fit to a layout of the wrong
    size maps each marker to a square of the wrong side, in proportion (x and y apart)."""
    sides_x, sides_y = [], []
    for m in markers:
        mm = table.image_to_table(m.corners, intrinsics)
        sides_x += [np.linalg.norm(mm[1] - mm[0]), np.linalg.norm(mm[2] - mm[3])]
        sides_y += [np.linalg.norm(mm[3] - mm[0]), np.linalg.norm(mm[2] - mm[1])]
    return (current[0] * marker_mm / float(np.mean(sides_x)), current[1] * marker_mm / float(np.mean(sides_y)))


def card_quad_mm(centre: tuple[float, float], size: tuple[float, float], turn_deg: float = 0.0,
                 part: tuple[float, float, float, float] = (0.0, 0.0, 1.0, 1.0)) -> np.ndarray:
    """Corners (4, 2) in mm of (part of) an upright card lying at ``centre``.

    Parameters
    ----------
    centre : (x, y) mm
    size : (width, height) mm of the card
    turn_deg : float
        Counter-clockwise turn seen from above; 0: the card's top faces +y.
    part : (left, top, right, bottom)
        The sub-rectangle in fractions of the card, measured from its top-left as printed
        (0, 0, 1, 1 is the whole card; 0, 0.5, 1, 1 its lower half).

    Returns
    -------
    ndarray (4, 2): top-left, top-right, bottom-right, bottom-left of the part as printed.
    """
    w, h = size
    l, t, r, b = part
    xs = np.array([l, r, r, l]) * w - w / 2
    ys = h / 2 - np.array([t, t, b, b]) * h
    a = math.radians(turn_deg)
    c, s = math.cos(a), math.sin(a)
    return np.stack([centre[0] + c * xs - s * ys, centre[1] + s * xs + c * ys], axis=1)


def load_zones(game: str, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The zones description of ``game`` (``data/GAME.zones.json``) with ``overrides`` applied.

    Raises
    ------
    ZonesError
        An override names a field the description does not have.
    """
    text = resources.files(__package__).joinpath("data", f"{game}.zones.json").read_text(encoding="utf-8")
    zones = json.loads(text)
    for key, value in dict(overrides or {}).items():
        if key not in zones:
            raise ZonesError(f"unknown {game} zone field {key!r} in the profile; known: {sorted(zones)}")
        zones[key] = value
    return zones
