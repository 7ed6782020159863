"""Benchmark of a recogniser on fresh renders of the digital twin (seeds never trained on).

Scoring, per scene, against the render's truth (the rules state and how much of each card
shows):

* a *misread* is a card label (or ``empty``) the recogniser gives at a place where the state
  has no such card: a wrong answer;
* a *miss* is a card the camera shows whole (at least :data:`WHOLE_SHARE` of it visible) that
  the recogniser did not read (it said unknown, or saw too few cards);
* a card partly covered (by a hand, an arm, a cup: less than :data:`WHOLE_SHARE` shows) may
  be read or left unknown: issue 5 asks that "a card partly under a hand is reported unknown,
  never guessed", so unknown is the answer asked for, and a wrong label a misread.

Per-card error = (misreads + misses) / places in the perfect observation; a scene is
exactly right when it has neither. The figures are also given per group of places (the
columns' slots, the number cards under them, the players' goods and money) and split by
whether the render carries the twin's motion blur (a quarter of its stills do; a settled
scene under a fixed webcam would not). The stricter count this benchmark used until
2026-12-01, in which a card at least :data:`STRICT_SHARE` (65 %) visible must be read too (a
partly covered card left unknown is a *partial miss*), is reported beside them.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from dataclasses import dataclass
from multiprocessing import get_context

import numpy as np

from ..models.training.dolcevita import TEST_SEED
from ..rules.dolcevita.catalogue import COLUMNS, EMPTY, MONEY, SLOTS, UNKNOWN, money_label, number_label
from ..vision.recognise.common import RecognitionError
from . import Figure, interval_figures, percent

log = logging.getLogger(__name__)

#: Groups of places, as the recogniser's spots (:mod:`tableref.vision.recognise.dolcevita_zones`).
GROUPS = ("slot", "under", "goods", "money")
#: Processes rendering the test scenes, and renders made per turn (reading waits for them).
RENDER_WORKERS, CHUNK = 2, 10
#: A card at least this share of which shows counts as shown whole; a card less shown is
#: partly covered. (The twin's share of a card shown counts its pixels not hidden by hands,
#: arms and objects, nor outside the image; of the 27,501 places of validation renders
#: 2000200..2000499, 22,215 show whole to four digits, 828 between 0.95 and 1, 1,262 between
#: 0.65 and 0.95.)
WHOLE_SHARE = 0.95
#: A render whose motion blur is at least this long (px) counts as blurred; the renderer
#: applies no motion blur below it.
BLURRED_PX = 1.5
#: The strict count's share: a card at least this much shown must be read (the count this
#: benchmark used until 2026-12-01, when it was also the share from which the training labels
#: named a card; fixed here so that it means the same whatever the training labels).
STRICT_SHARE = 0.65


@dataclass(frozen=True)
class CardError:
    """One wrong place of one reading: ``kind`` is ``misread`` or ``missed``."""

    kind: str
    group: str
    where: str
    label: str
    #: A miss of a card partly covered (less than WHOLE_SHARE shows), which may be unknown.
    partly: bool = False


def group_of(where: str, label: str) -> str:
    """The group of a place (``column:3:slot:2``, ``column:3:under``, ``player:1``) and label."""
    if ":slot:" in where:
        return "slot"
    if where.endswith(":under"):
        return "under"
    return "money" if label.startswith(f"{MONEY}:") else "goods"


@dataclass(frozen=True, eq=False)
class Shot:
    """What the benchmark keeps of one render: the image and its truth (not the whole sample)."""

    seed: int
    image: np.ndarray
    state: object
    seen: object
    blurred: bool


def shoot(seed: int) -> Shot:
    """Render Dolce Vita ``seed`` (in a worker process) and keep what scoring needs."""
    from ..vision.synthetic.dataset import sample

    s = sample("dolcevita", seed)
    return Shot(seed, s.image, s.scene.state, s.seen, is_blurred(s))


def _truth_of(sample):
    """(state, seen) of a dataset sample or a :class:`Shot`."""
    if isinstance(sample, Shot):
        return sample.state, sample.seen
    return sample.scene.state, sample.seen


def truth_by_place(sample) -> tuple[dict[str, Counter], dict[str, Counter], Counter, dict[str, Counter]]:
    """(every label the state has per place, the labels plainly visible per place, places per
    group, the labels shown whole per place)."""
    state, seen = _truth_of(sample)
    have: dict[str, Counter] = {}
    firm: dict[str, Counter] = {}
    whole: dict[str, Counter] = {}
    places: Counter = Counter()

    def add(where: str, label: str, shown: float) -> None:
        have.setdefault(where, Counter())[label] += 1
        places[group_of(where, label)] += 1
        if shown >= STRICT_SHARE:
            firm.setdefault(where, Counter())[label] += 1
        if shown >= WHOLE_SHARE:
            whole.setdefault(where, Counter())[label] += 1

    for c in range(COLUMNS):
        for s in range(SLOTS):
            ident = f"dv.slot.{c}.{s}"
            if s < len(state.columns[c]):
                add(f"column:{c}:slot:{s}", state.columns[c][s], seen.parts.get(ident, 0.0))
            else:
                add(f"column:{c}:slot:{s}", EMPTY, seen.regions.get(ident, 0.0))
        for k, (p, v) in enumerate(state.under[c]):
            add(f"column:{c}:under", number_label(p, v), seen.parts.get(f"dv.under.{c}.{k}", 0.0))
    for p in range(state.players):
        for k, label in enumerate(state.goods[p]):
            add(f"player:{p}", label, seen.parts.get(f"dv.goods.{p}.{k}", 0.0))
        for k, value in enumerate(state.money[p]):
            add(f"player:{p}", money_label(value), seen.parts.get(f"dv.money.{p}.{k}", 0.0))
    return have, firm, places, whole


def _misses(firm: dict[str, Counter], whole: dict[str, Counter], read: dict[str, Counter]) -> list[CardError]:
    """The cards at least 65 % shown that were not read; as many of each label at a place as
    are shown whole are whole misses (the cards read are counted against the partly covered
    ones first), the rest partial."""
    errors = []
    for where, labels in firm.items():
        for label, n in (labels - read.get(where, Counter())).items():
            n_whole = min(n, whole.get(where, Counter())[label])
            errors += [CardError("missed", group_of(where, label), where, label)] * n_whole
            errors += [CardError("missed", group_of(where, label), where, label, partly=True)] * (n - n_whole)
    return errors


def scene_errors(sample, observation) -> tuple[list[CardError], Counter]:
    """(every misread and miss of one reading of ``sample``, partial misses included, places per group)."""
    have, firm, places, whole = truth_by_place(sample)
    read: dict[str, Counter] = {}
    for item in observation.items:
        if item.label != UNKNOWN:
            read.setdefault(item.where, Counter())[item.label] += 1
    errors = []
    for where, labels in read.items():
        for label, n in (labels - have.get(where, Counter())).items():
            errors += [CardError("misread", group_of(where, label), where, label)] * n
    return errors + _misses(firm, whole, read), places


def refused_errors(sample) -> tuple[list[CardError], Counter]:
    """A scene the recogniser refused: every plainly visible card is missed (the partly
    covered ones as partial misses)."""
    _, firm, places, whole = truth_by_place(sample)
    return _misses(firm, whole, {}), places


def is_blurred(sample) -> bool:
    """Whether the render carries motion blur (the camera or the table moved during the shot)."""
    return float(sample.render.truth.effects.get("motion_length_px", 0.0)) >= BLURRED_PX


def _shots(seeds: list[int]):
    """The renders of ``seeds`` in order, made a chunk at a time by worker processes; the
    workers are idle while the caller reads a chunk, so reading is timed on a quiet machine."""
    with get_context("spawn").Pool(RENDER_WORKERS) as pool:
        for start in range(0, len(seeds), CHUNK):
            yield from pool.map(shoot, seeds[start:start + CHUNK])


def run(scenes: int = 300, seed: int = TEST_SEED, recogniser=None, progress=None,
        game: str = "dolcevita", board_turn_deg: float = 0.0, board_shift_mm: float = 0.0) -> list[Figure]:
    """Read ``scenes`` renders (seeds ``seed``..) of ``game`` and measure error, exact scenes and
    time (``board_turn_deg``, ``board_shift_mm``: Ligretto's boards laid turned or off the table's
    middle, :func:`.recognition_ligretto.run`)."""
    if (board_turn_deg or board_shift_mm) and game != "ligretto":
        raise ValueError(f"only Ligretto's board may lie turned or off the middle, not {game}'s")
    if game == "ligretto":
        from . import recognition_ligretto
        return recognition_ligretto.run(scenes, seed, recogniser, progress, board_turn_deg, board_shift_mm)
    if game == "daluigi":
        from . import recognition_daluigi
        return recognition_daluigi.run(scenes, seed, recogniser, progress)
    from ..vision.recognise.dolcevita import DolceVitaRecogniser

    recogniser = recogniser or DolceVitaRecogniser.open()
    # tallies keyed by (subset, name): subsets "all", "blurred", "sharp"
    tally: Counter = Counter()
    times, cpu = [], []
    for i, s in enumerate(_shots(list(range(seed, seed + scenes)))):
        subsets = ("all", "blurred" if s.blurred else "sharp")
        start, start_cpu = time.perf_counter(), time.process_time()
        try:
            observation = recogniser.read(s.image).observation
        except RecognitionError as exc:
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
            errors, places = refused_errors(s)
            log.info("seed %d refused: %s", s.seed, exc)
            for subset in subsets:
                tally[subset, "refused"] += 1
        else:
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
            errors, places = scene_errors(s, observation)
        for e in errors:
            log.debug("seed %d %s %s: %s at %s", s.seed, e.kind, e.group, e.label, e.where)
        partial = sum(e.partly for e in errors)
        for subset in subsets:
            tally[subset, "scenes"] += 1
            tally[subset, "exact"] += len(errors) == partial
            tally[subset, "exact strict"] += not errors
            tally[subset, "misread"] += sum(e.kind == "misread" for e in errors)
            tally[subset, "wrong"] += len(errors) - partial
            tally[subset, "partial"] += partial
            tally[subset, "places"] += sum(places.values())
            for g in GROUPS:
                tally[subset, f"places:{g}"] += places[g]
                tally[subset, f"wrong:{g}"] += sum(e.group == g and not e.partly for e in errors)
        if progress is not None:
            progress(i + 1, scenes)
    return _figures(tally, sorted(times), cpu, scenes, seed)


def _figures(tally: Counter, times: list[float], cpu: list[float], scenes: int, seed: int) -> list[Figure]:
    on = (f"{scenes} fresh Dolce Vita renders of the digital twin, 1280x720, seeds {seed}..{seed + scenes - 1} "
          "(never used in training)")

    figures = [
        Figure("recognition", "dolcevita: per-card error (misread + missed)",
               percent(tally["all", "wrong"], tally["all", "places"]), "%", on),
        Figure("recognition", "dolcevita: misread cards", percent(tally["all", "misread"], tally["all", "places"]), "%",
               on),
        Figure("recognition", "dolcevita: scenes read exactly right", percent(tally["all", "exact"], scenes), "%", on),
        *interval_figures("recognition", "dolcevita: scenes read exactly right", tally["all", "exact"], scenes, on),
        Figure("recognition", "dolcevita: scenes refused (no table found)", percent(tally["all", "refused"], scenes),
               "%", on),
        Figure("recognition", "dolcevita: per-card error, strict (a partly covered card at least 65 % shown unread "
               "counts too)", percent(tally["all", "wrong"] + tally["all", "partial"], tally["all", "places"]), "%",
               on),
        Figure("recognition", "dolcevita: scenes read exactly right, strict",
               percent(tally["all", "exact strict"], scenes), "%", on),
    ]
    for g in GROUPS:
        figures.append(Figure("recognition", f"dolcevita: per-card error, {g} places",
                              percent(tally["all", f"wrong:{g}"], tally["all", f"places:{g}"]), "%",
                              f"{on}; {tally['all', f'places:{g}']} {g} places"))
    for subset, what in (("sharp", "without motion blur"), ("blurred", "with the twin's motion blur")):
        n = tally[subset, "scenes"]
        sub_on = f"the {n} of those {scenes} renders {what}"
        figures += [
            Figure("recognition", f"dolcevita: per-card error, {subset} renders",
                   percent(tally[subset, "wrong"], tally[subset, "places"]), "%", sub_on),
            Figure("recognition", f"dolcevita: scenes read exactly right, {subset} renders",
                   percent(tally[subset, "exact"], n), "%", sub_on),
        ]
    figures += [
        Figure("recognition", "dolcevita: time per image (mean)", 1000 * sum(times) / len(times), "ms", on),
        Figure("recognition", "dolcevita: time per image (p95)", 1000 * times[int(0.95 * (len(times) - 1))], "ms", on),
        Figure("recognition", "dolcevita: CPU time per image, all threads (mean)", 1000 * sum(cpu) / len(cpu), "ms",
               f"{on}; the work itself, whatever else the machine runs"),
    ]
    return figures
