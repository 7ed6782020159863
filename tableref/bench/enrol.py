"""``tableref bench --enrol``: what enrolment (``tableref enrol``) gains on a set unlike the renders.

No photograph of a real Dolce Vita set exists here, so a stand-in set is made from the twin:
every render with its hues turned by :data:`HUE_TURN` (on OpenCV's 0..180 scale; 30 is 60
degrees): the same cards and layout, printed in other inks. A real set differs in more ways
(its art, its paper, its finish); these figures measure the mechanism on that stand-in, not a
real set.

Enrolment, as a user would do it: one photograph of each of :data:`DEALT` dealt games (the
rules' new game, seeds from :data:`LAYOUT_SEED`) and of :data:`PLAYING` games in progress
(number cards under the columns, goods and money before the players; the twin's random moments
of those seeds), each its own camera, light and table surface, no hands or objects over the
table; the last dealt game's photograph is held out of a first fit (its layout unseen by it).
Each card then lies in a few places: on 30 of these renders, six photographs of one dealt game
left 24.7 % of the cards wrong or unread, three dealt games and three in progress 17.6 % (at
the pull towards the shipped head of that day, 1e-3), six photographs of those six 16.0 %. The spots are cut and the
models adapted by the command's own functions. Then ``scenes`` fresh renders (seeds from
3000000, as ``--recognition``; hands, cups and blur as there) are read three ways and scored
as ``--recognition`` scores: the shipped models on the stand-in set, the adapted models on the
stand-in set, and the adapted models on the renders as they are (what the adaptation costs on
the set the models were trained on).
"""

from __future__ import annotations

import tempfile
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

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
#: Models enrolled (those of ``tableref enrol --game dolcevita``).
MODELS = ("dolcevita-cards", "dolcevita-cards-b")


def other_set(image: np.ndarray, turn: int = HUE_TURN) -> np.ndarray:
    """``image`` (BGR uint8) with every hue turned by ``turn`` (0..180 scale): the stand-in set."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    hsv[..., 0] = ((hsv[..., 0].astype(np.int32) + turn) % 180).astype(np.uint8)
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)


def enrolment_photos() -> list:
    """The stand-in set's enrolment photographs, cut as ``tableref enrol`` cuts them."""
    from ..models.training.dolcevita import enrolment_photo
    from ..rules import dolcevita as rules
    from ..vision.synthetic.games import random_state, scene_for
    from ..vision.synthetic.scene import RenderSettings, render

    quiet = RenderSettings(hands=(0, 0), distractors=(0, 0))
    states = ([random_state("dolcevita", LAYOUT_SEED + k) for k in range(PLAYING)]
              + [rules.new_game(PLAYERS, None, LAYOUT_SEED + k) for k in range(DEALT)])  # a dealt one last
    photos = []
    for k, state in enumerate(states):
        image = other_set(render(scene_for("dolcevita", state).layout, LAYOUT_SEED + k, quiet).image)
        try:
            photos.append(enrolment_photo(f"render {LAYOUT_SEED + k}", image, state))
        except RecognitionError:  # markers along one edge only: a user would take it again
            continue
    return photos


def run(scenes: int = 300, seed: int = TEST_SEED, progress=None) -> list[Figure]:
    """Enrol the stand-in set and read ``scenes`` renders (seeds ``seed``..) three ways."""
    from ..models.training.adapt import adapt_shipped, write_adapted
    from ..models.training.dolcevita import anchor_photos
    from ..vision.recognise.dolcevita import DolceVitaRecogniser

    started = time.perf_counter()
    photos = enrolment_photos()
    adapted = adapt_shipped(MODELS, photos, "tableref bench --enrol", anchor_photos())
    seconds = time.perf_counter() - started
    shipped = DolceVitaRecogniser.open()
    with tempfile.TemporaryDirectory(prefix="tableref-enrol-") as folder:
        write_adapted(adapted, Path(folder))
        mine = DolceVitaRecogniser.open(folder)
        ways = {"shipped models, stand-in set": (shipped, other_set), "adapted models, stand-in set": (mine, other_set),
                "adapted models, renders as they are": (mine, None)}
        tally: Counter = Counter()
        for i, shot in enumerate(_shots(list(range(seed, seed + scenes)))):
            for way, (recogniser, turn) in ways.items():
                try:
                    errors, places = scene_errors(shot, recogniser.read(shot.image if turn is None
                                                                        else turn(shot.image)).observation)
                except RecognitionError:
                    errors, places = refused_errors(shot)
                wrong = sum(not e.partly for e in errors)
                tally[way, "wrong"] += wrong
                tally[way, "places"] += sum(places.values())
                tally[way, "exact"] += wrong == 0
            if progress is not None:
                progress(i + 1, scenes)
    held = adapted[0].held_out
    on_photos = (f"{len(photos)} enrolment renders of a stand-in set (the twin's hues turned by {HUE_TURN} of 180), "
                 f"one each of {DEALT} dealt games and {PLAYING} games in progress, no hands")
    figures = [Figure("enrol", "dolcevita: time to cut the enrolment spots and adapt both models", seconds, "s",
                      f"{on_photos}; rendering included")]
    for a in adapted:
        figures += [Figure("enrol", f"dolcevita: {a.card.name} spots of the held-out enrolment photograph read "
                                    f"right, {state}", 100.0 * value, "%",
                           f"{held} spots of the last dealt game's render, the head fitted on the other "
                           f"{len(photos) - 1} and the anchors")
                    for state, value in (("shipped", a.before), ("adapted", a.after)) if value is not None]
    on = (f"{scenes} fresh Dolce Vita renders, 1280x720, seeds {seed}..{seed + scenes - 1}, scored as "
          f"--recognition scores; models adapted on {on_photos}")
    for way in ways:
        figures += [
            Figure("enrol", f"dolcevita: per-card error, {way}",
                   100.0 * tally[way, "wrong"] / max(tally[way, "places"], 1), "%", on),
            Figure("enrol", f"dolcevita: scenes read exactly right, {way}", 100.0 * tally[way, "exact"] / scenes,
                   "%", on),
        ]
    return figures
