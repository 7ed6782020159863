"""``tableref bench --enrol --game G``: what enrolment (``tableref enrol``) gains on a set unlike
the renders.

No photograph of a real set of these games exists here, so a stand-in set is made from
the twin: every render with its hues turned by :data:`HUE_TURN` (on OpenCV's 0..180 scale; 30
is 60 degrees): the same cards and layout, printed in other inks. A real set differs in more
ways (its art, its paper, its finish); these figures measure the mechanism on that stand-in,
not a real set.

Enrolment, as a user would do it: one photograph of each of :data:`DEALT` games as set up (the
rules' new game, seeds from :data:`LAYOUT_SEED`: Dolce Vita's dealt display, Da Luigi's start
cards, dice and market, Ligretto's board with its tokens) and of :data:`PLAYING` games in progress (the twin's random moments of
those seeds), each its own camera, light and table surface, no hands or objects over the
table; the last set-up's photograph is held out of a first fit (its layout unseen by it).
Each card then lies in a few places: on 30 Dolce Vita renders, six photographs of one dealt
game left 24.7 % of the cards wrong or unread, three dealt games and three in progress 17.6 %
(at the pull towards the shipped head of that day, 1e-3), two photographs of each of those six
16.0 %. The spots are cut and the models adapted by the command's own functions. Then
``scenes`` fresh renders (seeds from 3000000, as ``--recognition``; hands, cups and blur as
there) are read three ways and scored as ``--recognition --game G`` scores: the shipped models
on the stand-in set, the adapted models on the stand-in set, and the adapted models on the
renders as they are (what the adaptation costs on the set the models were trained on).
"""

from __future__ import annotations

import tempfile
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from ..calibration.profile import Profile
from ..models.training.adapt import ENROLLABLE, adapt_shipped, enrolment_of, write_adapted
from ..models.training.dolcevita import TEST_SEED
from ..vision.recognise.common import RecognitionError
from . import Figure
from .recognition import _shots, refused_errors, scene_errors

#: Hue turn of the stand-in set (OpenCV's hue scale, 0..180).
HUE_TURN = 30
#: Layouts photographed (one photograph each): dealt games and games in progress; the seed of
#: the first layout and of the first photograph.
DEALT, PLAYING, LAYOUT_SEED = 3, 3, 4_000_000
#: Players at the enrolment table.
PLAYERS = 3
#: Games the benchmark enrols (every game ``tableref enrol`` can).
GAMES = tuple(ENROLLABLE)


def other_set(image: np.ndarray, turn: int = HUE_TURN) -> np.ndarray:
    """``image`` (BGR uint8) with every hue turned by ``turn`` (0..180 scale): the stand-in set."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    hsv[..., 0] = ((hsv[..., 0].astype(np.int32) + turn) % 180).astype(np.uint8)
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)


def enrolment_photos(game: str = "dolcevita") -> list:
    """The stand-in set's enrolment photographs, cut as ``tableref enrol`` cuts them."""
    from ..rules import game as rules_of
    from ..vision.synthetic.games import random_state, scene_for
    from ..vision.synthetic.scene import RenderSettings, render

    training, _ = enrolment_of(game)
    quiet = RenderSettings(hands=(0, 0), distractors=(0, 0))
    states = ([random_state(game, LAYOUT_SEED + k) for k in range(PLAYING)]
              + [rules_of(game).new_game(PLAYERS, None, LAYOUT_SEED + k) for k in range(DEALT)])  # a set-up last
    photos = []
    for k, state in enumerate(states):
        image = other_set(render(scene_for(game, state).layout, LAYOUT_SEED + k, quiet).image)
        try:
            photos.append(training.enrolment_photo(f"render {LAYOUT_SEED + k}", image, state))
        except RecognitionError:  # markers along one edge only: a user would take it again
            continue
    return photos


def _dolcevita():
    """(recogniser class, the renders, a scene's tallies, the figures of the tallies) of Dolce Vita."""
    from ..vision.recognise.dolcevita import DolceVitaRecogniser

    def tally(recogniser, shot, image) -> Counter:
        try:
            errors, places = scene_errors(shot, recogniser.read(image).observation)
        except RecognitionError:
            errors, places = refused_errors(shot)
        wrong = sum(not e.partly for e in errors)
        return Counter(wrong=wrong, places=sum(places.values()), exact=wrong == 0)

    def figures(t: Counter, scenes: int) -> list[tuple[str, float]]:
        return [("per-card error", 100.0 * t["wrong"] / max(t["places"], 1)),
                ("scenes read exactly right", 100.0 * t["exact"] / scenes)]

    return DolceVitaRecogniser, _shots, tally, figures


def _daluigi():
    """As :func:`_dolcevita`, for Da Luigi."""
    from ..vision.recognise.daluigi import DaLuigiRecogniser
    from . import recognition_daluigi as scoring

    def tally(recogniser, shot, image) -> Counter:
        try:
            read = {it.where: it.label for it in recogniser.read(image).observation.items}
        except RecognitionError:
            read = None
        return scoring.score(shot, read)

    def figures(t: Counter, scenes: int) -> list[tuple[str, float]]:
        def pct(a: str, b: str) -> float:
            return 100.0 * t[a] / max(t[b], 1)
        return [("cube detection recall", pct("detected", "cubes")),
                ("cube detection precision", pct("detected", "read cubes")),
                ("cube colour error", pct("colour wrong", "detected")), ("guest card error", pct("card wrong", "cards")),
                ("scenes read exactly right", 100.0 * t["exact"] / scenes)]

    return DaLuigiRecogniser, scoring._shots, tally, figures


def _ligretto():
    """As :func:`_dolcevita`, for Ligretto: the benchmark's per-space error (its colours are read
    without a model, from the board's own hues, which the stand-in's turn misnames: enrolment
    does not touch them), and the share of spaces whose cover and owner (what the adapted
    models read) are wrong or unread."""
    from ..vision.recognise.ligretto import LigrettoRecogniser
    from . import recognition_ligretto as scoring
    from .recognition import WHOLE_SHARE

    def tally(recogniser, shot, image) -> Counter:
        try:
            reading = recogniser.read(image)
        except RecognitionError:
            reading = None
        t = scoring.scene_score(shot, reading)
        read = {sp.cell: sp for sp in reading.spaces} if reading is not None else {}
        for cell, truth in shot.spaces.items():
            got = read.get(cell)
            if truth.shown < WHOLE_SHARE and (got is None or got.cover is None):
                continue  # partly covered and left unknown, as allowed
            t["cover places"] += 1
            t["cover wrong"] += (got is None or got.cover != truth.cover
                                 or (got.owner is not None and got.owner != truth.owner))
        return t

    def figures(t: Counter, scenes: int) -> list[tuple[str, float]]:
        return [("per-space error (colour included)", 100.0 * t["wrong"] / max(t["spaces"], 1)),
                ("cover and owner wrong or unread", 100.0 * t["cover wrong"] / max(t["cover places"], 1)),
                ("boards read exactly right", 100.0 * t["exact"] / scenes)]

    return LigrettoRecogniser, scoring._shots, tally, figures


def run(scenes: int = 300, seed: int = TEST_SEED, progress=None, game: str = "dolcevita") -> list[Figure]:
    """Enrol the stand-in set of ``game`` and read ``scenes`` renders (seeds ``seed``..) three ways."""

    if game not in GAMES:
        raise ValueError(f"the enrolment benchmark enrols {' or '.join(GAMES)}, not {game!r}")
    training, names = enrolment_of(game)
    opener, shots, tally_of, figures_of = {"dolcevita": _dolcevita, "daluigi": _daluigi, "ligretto": _ligretto}[game]()
    started = time.perf_counter()
    photos = enrolment_photos(game)
    adapted = adapt_shipped(names, photos, f"tableref bench --enrol --game {game}", training.anchor_photos())
    seconds = time.perf_counter() - started
    shipped = opener.open()
    with tempfile.TemporaryDirectory(prefix="tableref-enrol-") as folder:
        write_adapted(adapted, Path(folder))
        mine = opener.open(profile=Profile(models=Path(folder)))  # as a profile naming them reads
        ways = {"shipped models, stand-in set": (shipped, other_set), "adapted models, stand-in set": (mine, other_set),
                "adapted models, renders as they are": (mine, None)}
        tally: dict[str, Counter] = {way: Counter() for way in ways}
        for i, shot in enumerate(shots(list(range(seed, seed + scenes)))):
            for way, (recogniser, turn) in ways.items():
                tally[way] += tally_of(recogniser, shot, shot.image if turn is None else turn(shot.image))
            if progress is not None:
                progress(i + 1, scenes)
    held = adapted[0].held_out
    on_photos = (f"{len(photos)} enrolment renders of a stand-in set (the twin's hues turned by {HUE_TURN} of 180), "
                 f"one each of {DEALT} games as set up and {PLAYING} games in progress, no hands")
    figures = [Figure("enrol", f"{game}: time to cut the enrolment spots and adapt the models", seconds, "s",
                      f"{on_photos}; rendering included")]
    for a in adapted:
        figures += [Figure("enrol", f"{game}: {a.card.name} spots of the held-out enrolment photograph read "
                                    f"right, {state}", 100.0 * value, "%",
                           f"{held} spots of the last set-up's render, the head fitted on the other "
                           f"{len(photos) - 1} and the anchors")
                    for state, value in (("shipped", a.before), ("adapted", a.after)) if value is not None]
    on = (f"{scenes} fresh renders, 1280x720, seeds {seed}..{seed + scenes - 1}, scored as --recognition --game "
          f"{game} scores; models adapted on {on_photos}")
    for way in ways:
        figures += [Figure("enrol", f"{game}: {name}, {way}", value, "%", on)
                    for name, value in figures_of(tally[way], scenes)]
    return figures
