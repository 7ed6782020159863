"""The built-in demo source: random games played by hands on the virtual table, at camera rate.

``tableref.vision.capture`` knows the source name ``demo`` and imports this module the first
time it is opened (importing capture stays fast). Spec forms::

    demo                                    # the default game, 3 players, seed 0
    demo:ligretto                           # another game
    demo:dolcevita,players=4,seed=7,illegal=0.2,fps=15,size=640x360,loop=false

Settings: ``game`` (any of :data:`tableref.vision.synthetic.games.GAMES`; also given bare as
the first item), ``players``, ``seed``, ``illegal`` (share of placements that break a rule),
``fps``, ``size`` (WIDTHxHEIGHT) and ``loop`` (start a new game at the end; default true).

The frames come from :class:`~.demo_script.Timeline` (the moves and when they happen),
:class:`~.demo_motion.StepMotion` (parts and hands of each frame) and
:class:`~.demo_render.DemoRenderer` (pixels). The ground truth of a frame is
``DemoReader.timeline.truth(frame.sequence)`` or, without the reader,
:func:`demo_timeline` of the same spec: for tests and benchmarks only, never for the referee.
"""

from __future__ import annotations

import logging
from typing import Any

import numpy as np

from ..errors import SourceError
from ..frame import FrameReader
from .demo_illegal import MAKERS
from .demo_motion import StepMotion
from .demo_render import DemoRenderer
from .demo_script import DemoSettings, Timeline

log = logging.getLogger(__name__)

#: Spec keys -> DemoSettings fields.
_KEYS = {"game": "game", "players": "players", "seed": "seed", "illegal": "illegal_rate", "fps": "fps",
         "size": "image_size", "loop": "loop"}
_TRUE, _FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")
_HELP = ("demo settings are 'demo:GAME,players=N,seed=N,illegal=SHARE,fps=N,size=WxH,loop=true|false' "
         "(each optional)")


def _value(key: str, text: str) -> Any:
    try:
        if key in ("players", "seed"):
            return int(text)
        if key in ("illegal", "fps"):
            return float(text)
    except ValueError:
        raise SourceError(f"demo setting {key} must be a number, got {text!r}; {_HELP}") from None
    if key == "size":
        width, sep, height = text.lower().partition("x")
        if not sep or not width.isdigit() or not height.isdigit():
            raise SourceError(f"demo setting size must be WIDTHxHEIGHT in pixels (e.g. 1280x720), got {text!r}")
        return (int(width), int(height))
    if key == "loop":
        if text.lower() not in _TRUE + _FALSE:
            raise SourceError(f"demo setting loop must be true or false, got {text!r}")
        return text.lower() in _TRUE
    return text


def parse_demo(argument: str) -> DemoSettings:
    """The settings named by a spec's argument (the part after ``demo:``).

    Raises
    ------
    SourceError
        An unknown key, a value of the wrong kind or out of range, naming it and what is expected.
    """
    if not isinstance(argument, str):
        raise SourceError(f"demo settings must be text, got {type(argument).__name__}; {_HELP}")
    given: dict[str, Any] = {}
    for k, item in enumerate(p.strip() for p in argument.split(",") if p.strip()):
        key, sep, text = item.partition("=")
        if not sep:
            if k == 0:
                key, text = "game", item
            else:
                raise SourceError(f"demo setting {item!r} needs a value (KEY=VALUE); {_HELP}")
        key = key.strip().lower()
        if key not in _KEYS:
            raise SourceError(f"unknown demo setting {key!r}; known: {', '.join(_KEYS)}")
        if _KEYS[key] in given:
            raise SourceError(f"demo setting {key!r} is given twice")
        given[_KEYS[key]] = _value(key, text.strip())
    return DemoSettings(**given)


def demo_timeline(argument: str = "") -> Timeline:
    """The ground-truth timeline of the demo a spec's argument names (tests and benchmarks only)."""
    return Timeline(parse_demo(argument))


class DemoReader(FrameReader):
    """The demo as a frame source: frame ``k`` of the timeline at each read, paced at ``fps``.

    ``timeline`` is the ground truth (tests and benchmarks only).
    """

    live = False

    def __init__(self, settings: DemoSettings):
        self.settings = settings
        self.name = f"demo {settings.game}"
        self.interval_s = 1.0 / settings.fps
        self.timeline = Timeline(settings)
        self._renderer: DemoRenderer | None = None
        self._motion: StepMotion | None = None
        self._frame = 0
        if settings.illegal_rate > 0 and settings.game not in MAKERS:
            log.info("the demo of %s plays legal moves only: no illegal placements are made for it yet",
                     settings.game)

    def open(self) -> None:
        """Plan the first game and draw the camera, light and table (a few hundred ms)."""
        step = self.timeline.step_at(0)
        if step is None:
            raise SourceError(f"{self.name} has no frames")
        self._motion = StepMotion(self.settings.game, step)
        layout = self._motion.static
        self._renderer = DemoRenderer(layout, self.settings.seed, self.settings.image_size)

    def render(self, frame: int) -> np.ndarray | None:
        """The image of ``frame`` (None past the end of a demo that does not loop)."""
        if self._renderer is None:
            self.open()
        step = self.timeline.step_at(frame)
        if step is None:
            return None
        if self._motion is None or self._motion.step is not step:
            self._motion = StepMotion(self.settings.game, step)
        return self._renderer.image(self._motion.plan(frame), frame)

    def read(self) -> np.ndarray | None:
        image = self.render(self._frame)
        if image is not None:
            self._frame += 1
        return image

    def rewind(self) -> bool:
        self._frame = 0
        return True

    def close(self) -> None:
        """Nothing to release: the demo holds no device."""


def open_demo(argument: str, settings: Any = None) -> DemoReader:
    """The ``demo`` source factory (``tableref.vision.capture`` calls it with the spec's argument
    and its CaptureSettings, which the demo does not need)."""
    return DemoReader(parse_demo(argument))


__all__ = ["DemoReader", "DemoSettings", "Timeline", "demo_timeline", "open_demo", "parse_demo"]
