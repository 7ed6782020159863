"""Benchmark of the digital twin: the demo source's frame rate, and the ground-truth checks.

- **Demo frames**: the ``demo`` source of each game renders its frames one after the other
  for a set time (rendering only: no pacing, no display, no encode), from frame 0 of a seed,
  so moves, hands, background redraws at each move and still frames come in the mix the
  source plays. Figures: frames per second sustained, milliseconds per frame (mean, 95th
  percentile) over all frames and over the frames with a hand over the table.
- **Ground truth**: :func:`tableref.vision.synthetic.games.checks.check_ground_truth` over
  ``renders`` dataset renders of each game (cube colours, card polygons, marker corners).
"""

from __future__ import annotations

import time
from typing import Callable

import numpy as np

from . import Figure

#: Seconds of rendering per game for the frame rate.
DEFAULT_SECONDS = 10.0
#: Dataset renders per game for the ground-truth checks.
DEFAULT_RENDERS = 200
#: Quantile reported beside the mean frame time.
QUANTILE = 0.95


def _ms(values: list[float]) -> tuple[float, float]:
    return round(float(np.mean(values)) * 1000.0, 2), round(float(np.quantile(values, QUANTILE)) * 1000.0, 2)


def demo_figures(game: str, seconds: float = DEFAULT_SECONDS, seed: int = 0) -> list[Figure]:
    """Frame rate and frame times of the demo of ``game`` rendered for ``seconds``."""
    from ..vision.synthetic.demo import DemoReader, DemoSettings

    settings = DemoSettings(game=game, seed=seed)
    reader = DemoReader(settings)
    start = time.perf_counter()
    reader.open()
    reader.read()
    opened = time.perf_counter() - start
    times, hand_times = [], []
    begin = time.perf_counter()
    frame = 1
    while time.perf_counter() - begin < seconds:
        t = time.perf_counter()
        reader.read()
        times.append(time.perf_counter() - t)
        if reader.timeline.truth(frame).hand:
            hand_times.append(times[-1])
        frame += 1
    elapsed = time.perf_counter() - begin
    width, height = settings.image_size
    truth = reader.timeline.truth(frame - 1)
    on = (f"demo source, {game}, {settings.players} players, seed {seed}: frames 1..{frame - 1} "
          f"({width}x{height}, {(frame - 1) / settings.fps:.0f} s of demo video, {truth.step + 1} moves) rendered "
          f"for {elapsed:.1f} s, no pacing or display; opening and frame 0 took {opened * 1000:.0f} ms")
    mean, p95 = _ms(times)
    hand_mean, hand_p95 = _ms(hand_times) if hand_times else (float("nan"), float("nan"))
    area = "render"
    return [Figure(area, f"demo {game} frames per second", round(len(times) / elapsed, 1), "fps", on),
            Figure(area, f"demo {game} frame mean", mean, "ms", on),
            Figure(area, f"demo {game} frame p95", p95, "ms", on),
            Figure(area, f"demo {game} frame with a hand mean", hand_mean, "ms",
                   f"{len(hand_times)} of those frames with a hand over the table"),
            Figure(area, f"demo {game} frame with a hand p95", hand_p95, "ms",
                   f"{len(hand_times)} of those frames with a hand over the table")]


def truth_figures(game: str, renders: int = DEFAULT_RENDERS, seed: int = 0) -> list[Figure]:
    """The ground-truth checks of ``game`` over ``renders`` dataset renders."""
    from ..vision.synthetic.games.checks import check_ground_truth

    f = check_ground_truth(game, renders, seed)
    on = f"{f.renders} dataset renders of {game} (seeds {seed}..{seed + f.renders - 1}), {f.seconds:.0f} s"
    area = "render"
    rows = [("cube colour match", f.cube_colour_match, "share", f"{f.cubes} visible cubes in {on}"),
            ("card polygon IoU min", f.card_iou_min, "IoU", f"{f.cards} cards drawn alone, {on}"),
            ("card polygon IoU mean", f.card_iou_mean, "IoU", f"{f.cards} cards drawn alone, {on}"),
            ("marker corner error max", f.marker_error_max_px, "px",
             f"{f.marker_corners} corners found on CLEAN renders of the same scenes, {on}"),
            ("marker corner error mean", f.marker_error_mean_px, "px",
             f"{f.marker_corners} corners found on CLEAN renders of the same scenes, {on}"),
            ("markers missed", float(f.markers_missed), "markers",
             f"fully visible markers not found, CLEAN renders, {on}"),
            ("photo marker corner error p95", f.photo_marker_error_p95_px, "px",
             f"corners found on the photographs themselves (noise, blur, JPEG), {on}")]
    return [Figure(area, f"{game} {name}", round(value, 4), unit, where)
            for name, value, unit, where in rows if value is not None]


def run(seconds: float = DEFAULT_SECONDS, renders: int = DEFAULT_RENDERS, seed: int = 0,
        names: tuple[str, ...] | None = None, progress: Callable[[str], None] | None = None) -> list[Figure]:
    """Demo frame rates and ground-truth figures of every game with scenes (or of ``names``)."""
    from ..vision.synthetic.games import GAMES

    figures: list[Figure] = []
    for game in names or GAMES:
        if progress:
            progress(f"render {game}: demo frames for {seconds:g} s")
        figures += demo_figures(game, seconds, seed)
    for game in names or GAMES:
        if renders > 0:
            if progress:
                progress(f"render {game}: ground truth over {renders} renders")
            figures += truth_figures(game, renders, seed)
    return figures
