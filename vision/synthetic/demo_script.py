"""The demo's script: random games of the rules engine as a timeline of camera frames.

Every move a player makes is acted out over a fixed number of frames, in five phases:

- ``reach``: a hand comes in from the player's side of the table to where the piece lies (or
  to the player's area, for a piece taken from the hand);
- ``carry``: the hand carries the piece to its place (for a move that changes several parts,
  such as handing out a column, the hand works over them);
- ``release``: the piece lies at its place; the table now shows the state after the move;
- ``withdraw``: the hand leaves the table;
- ``settle``: nothing moves, so a motion gate sees the scene settle.

Chance events (dealing, drawing) happen off camera: they take no frames. Each game's table as
set up is held for a while before the first move (players look over the layout before they
start; a camera that joins then sees the setup). At the end of a game the final table is held
for a while, then (with ``loop``) the next game starts. At a chosen
rate a player's placement is an illegal one (:mod:`.demo_illegal`): the piece stays where it
was put and the game goes on from there.

The timeline is ground truth for tests and benchmarks only (the live referee must never read
it): for every frame, the state as it lies, the last move, whether it was illegal (and whose),
and whether a hand is over the table. It is built lazily, one game at a time, from the rules
alone (no layouts, no pixels), so a test can run through whole games in a moment.
Deterministic for a seed.
"""

from __future__ import annotations

import bisect
import math
import random
import zlib
from dataclasses import dataclass, field
from typing import Any, Iterator

from tableref.rules.common import CHANCE, players_problem
from tableref.rules.errors import RulesError
from tableref.rules.playout import MAX_MOVES

from ..errors import SourceError
from . import games
from .demo_illegal import MAKERS, Illegal, is_placement

#: The phases of one acted-out move, in order.
PHASES = ("reach", "carry", "release", "withdraw", "settle")
#: Phases in which a hand is over the table.
HAND_PHASES = frozenset(PHASES[:4])
#: The index of the phase from which the table shows the state after the move.
SWITCH_PHASE = PHASES.index("release")
#: The demo's game when none is named: the first of these that can be rendered.
GAME_PREFERENCE = ("dolcevita", "ligretto", "daluigi")
#: Players when none are given (within each game's range).
DEFAULT_PLAYERS = 3
#: Image size of the demo (width, height) and its frame rate when none is given.
DEFAULT_SIZE = (1280, 720)
DEFAULT_FPS = 30.0
#: Illegal placements per placement when no rate is given.
DEFAULT_ILLEGAL_RATE = 0.1
#: Highest frame rate the demo accepts (frames per second).
MAX_FPS = 120.0


def default_game() -> str:
    """The first game of :data:`GAME_PREFERENCE` whose scenes exist."""
    return next((g for g in GAME_PREFERENCE if g in games.GAMES), games.GAMES[0])


@dataclass(frozen=True)
class Timing:
    """Seconds each phase of a move lasts, and how long a game's table is held once set up and
    once finished."""

    reach_s: float = 0.6
    carry_s: float = 0.9
    release_s: float = 0.3
    withdraw_s: float = 0.6
    settle_s: float = 1.5
    game_start_s: float = 2.0
    game_end_s: float = 4.0

    def __post_init__(self) -> None:
        for name, value in self.__dict__.items():
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
                    or value <= 0:
                raise SourceError(f"demo timing {name} must be a number of seconds > 0, got {value!r}")

    def frames(self, fps: float) -> tuple[int, ...]:
        """Frames of each phase of :data:`PHASES` at ``fps`` (at least one each)."""
        return tuple(max(1, round(s * fps)) for s in (self.reach_s, self.carry_s, self.release_s,
                                                       self.withdraw_s, self.settle_s))


@dataclass(frozen=True)
class DemoSettings:
    """What the demo plays and how it is filmed.

    Attributes
    ----------
    game : str
        One of :data:`tableref.vision.synthetic.games.GAMES`; None: :func:`default_game`.
    players : int
        Players at the table (within the game's range); None: :data:`DEFAULT_PLAYERS`, clipped.
    seed : int
        Draws the games, the illegal placements, the camera, light, table and hands.
    illegal_rate : float
        Share (0..1) of placements that break a rule (games without illegal makers: none).
    fps : float
        Frames per second of the camera.
    image_size : (int, int)
        Frame width and height in pixels.
    loop : bool
        Start a new game when one ends (otherwise the source ends).
    timing : Timing
    """

    game: str | None = None
    players: int | None = None
    seed: int = 0
    illegal_rate: float = DEFAULT_ILLEGAL_RATE
    fps: float = DEFAULT_FPS
    image_size: tuple[int, int] = DEFAULT_SIZE
    loop: bool = True
    timing: Timing = field(default_factory=Timing)

    def __post_init__(self) -> None:
        game = default_game() if self.game is None else self.game
        if game not in games.GAMES:
            raise SourceError(f"the demo plays one of {', '.join(games.GAMES)}, not {game!r}")
        object.__setattr__(self, "game", game)
        rules = games.rules_of(game)
        players = min(max(DEFAULT_PLAYERS, rules.MIN_PLAYERS), rules.MAX_PLAYERS) if self.players is None \
            else self.players
        problem = players_problem(game, players, rules.MIN_PLAYERS, rules.MAX_PLAYERS)
        if problem:
            raise SourceError(problem)
        object.__setattr__(self, "players", players)
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise SourceError(f"demo seed must be a whole number >= 0, got {self.seed!r}")
        rate = self.illegal_rate
        if isinstance(rate, bool) or not isinstance(rate, (int, float)) or not 0.0 <= rate <= 1.0:
            raise SourceError(f"demo illegal rate must be a share between 0 and 1, got {rate!r}")
        fps = self.fps
        if isinstance(fps, bool) or not isinstance(fps, (int, float)) or not 0 < fps <= MAX_FPS:
            raise SourceError(f"demo fps must be a number in (0, {MAX_FPS:g}], got {fps!r}")
        size = tuple(self.image_size) if isinstance(self.image_size, (tuple, list)) else ()
        if len(size) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) and 64 <= v <= 8192 for v in size):
            raise SourceError(f"demo image size must be (width, height), 64..8192 pixels each, got {self.image_size!r}")
        object.__setattr__(self, "image_size", size)
        if not isinstance(self.loop, bool):
            raise SourceError(f"demo loop must be true or false, got {self.loop!r}")
        if not isinstance(self.timing, Timing):
            raise SourceError(f"demo timing must be a Timing record, got {type(self.timing).__name__}")


@dataclass(frozen=True, eq=False)
class Step:
    """One move of the demo as the camera sees it.

    Attributes
    ----------
    index : int
        Number of the step over the whole demo, from 0.
    game : int
        Number of the game it belongs to (0, then 1, ... when looping).
    before, after : rules states
        The table before and after the move.
    move : the rules move, or None for the holds at the start and the end of a game
    player : int or None
        Who made it (None for chance events and table moves such as handing out a column).
    hand_player : int
        Whose hand acts it out.
    illegal : Illegal or None
        Set when the move is an illegal placement.
    start : int
        Its first frame.
    frames : tuple of int
        Frames of each phase of :data:`PHASES` (all 0 for a chance event).
    """

    index: int
    game: int
    before: Any
    move: Any
    after: Any
    player: int | None
    hand_player: int
    illegal: Illegal | None
    start: int
    frames: tuple[int, ...]

    @property
    def length(self) -> int:
        return sum(self.frames)

    @property
    def end(self) -> int:
        """The frame after its last."""
        return self.start + self.length

    @property
    def switch(self) -> int:
        """The first frame that shows the state after the move."""
        return self.start + sum(self.frames[:SWITCH_PHASE])

    def phase_at(self, frame: int) -> tuple[str, int, int]:
        """(phase, frame within the phase, frames of the phase) of ``frame`` (in this step)."""
        offset = frame - self.start
        if not 0 <= offset < self.length:
            raise SourceError(f"frame {frame} is not in step {self.index} (frames {self.start}..{self.end - 1})")
        for name, n in zip(PHASES, self.frames):
            if offset < n:
                return name, offset, n
            offset -= n
        raise AssertionError("unreachable: offset within length")


@dataclass(frozen=True, eq=False)
class FrameTruth:
    """What is true at one frame (for tests and benchmarks only).

    ``state`` lies on the table; ``move`` is the last move that took effect (None before the
    first of a game), ``illegal`` its reason code when it was an illegal placement, ``player``
    who made it; ``hand`` says whether a hand is over the table; ``phase`` is the phase of the
    step the frame belongs to.
    """

    frame: int
    game: int
    step: int
    phase: str
    state: Any
    move: Any
    illegal: str | None
    player: int | None
    hand: bool

    @property
    def settled(self) -> bool:
        return not self.hand


def _hold(seconds: float, fps: float) -> tuple[int, ...]:
    """The frames of a step that holds the table still (its settle phase alone)."""
    return (0,) * (len(PHASES) - 1) + (max(1, round(seconds * fps)),)


def _game_seed(seed: int, game: int, what: str) -> str:
    return f"tableref-demo/{seed}/{game}/{what}"


class Timeline:
    """The demo's frames, built lazily game by game.

    Parameters
    ----------
    settings : DemoSettings
    """

    def __init__(self, settings: DemoSettings):
        self.settings = settings
        self.rules = games.rules_of(settings.game)
        self._move_frames = settings.timing.frames(settings.fps)
        self._hold_frames = _hold(settings.timing.game_end_s, settings.fps)
        self._setup_frames = _hold(settings.timing.game_start_s, settings.fps)
        self._steps: list[Step] = []
        self._shown: list[Step] = []   # steps that take frames, in order
        self._starts: list[int] = []   # their first frames
        self._frames = 0
        self._ended = 0  # games played to their end
        self._source: Iterator[Step] | None = None
        self._finished = False

    # ------------------------------------------------------------------ building
    def _game(self, number: int) -> Iterator[tuple[Any, Any, Any, Illegal | None]]:
        """(before, move, after, illegal) of one random game, illegal placements mixed in."""
        rules, game, rate = self.rules, self.settings.game, self.settings.illegal_rate
        seed = zlib.crc32(_game_seed(self.settings.seed, number, "setup").encode())
        moves_rng = random.Random(_game_seed(self.settings.seed, number, "moves"))
        illegal_rng = random.Random(_game_seed(self.settings.seed, number, "illegal"))
        maker = MAKERS.get(game)
        state = rules.new_game(self.settings.players, None, seed)
        owed, last, count = False, None, 0
        while not rules.is_over(state):
            count += 1
            if count > MAX_MOVES:
                raise RulesError(f"{game}: the demo's game {number} did not end within {MAX_MOVES} moves")
            if state.to_move == CHANCE:
                move = rules.sample_chance(state, moves_rng)
                after = rules.apply(state, move)
                yield state, move, after, None
                state = after
                continue
            legal = rules.legal_moves(state)
            if not legal:
                raise RulesError(f"{game}: no legal move in the demo's game {number}, which is not over")
            made = None
            if maker is not None and rate > 0 and any(is_placement(game, m) for m in legal) \
                    and (owed or illegal_rng.random() < rate):
                made = maker(state, illegal_rng, last)
                owed = made is None  # none possible now: the next placement makes up for it
            if made is not None:
                move, after = made.move, made.after
            else:
                move = legal[moves_rng.randrange(len(legal))]
                after = rules.apply(state, move)
            yield state, move, after, made
            last = move
            state = after
        yield state, None, state, None

    def _all_steps(self) -> Iterator[Step]:
        number = 0
        while True:
            for before, move, after, illegal in self._game(number):
                if not self._steps or self._steps[-1].game != number:  # the table as set up, held
                    yield Step(len(self._steps), number, before, None, before, None, 0, None, self._frames,
                               self._setup_frames)
                index = len(self._steps)
                player = getattr(move, "player", None) if move is not None else None
                if player is not None and player < 0:
                    player = None
                if move is None:
                    frames = self._hold_frames
                elif player is None and before.to_move == CHANCE:
                    frames = (0,) * len(PHASES)
                else:
                    frames = self._move_frames
                hand = player if player is not None else index % self.settings.players
                yield Step(index, number, before, move, after, player, hand, illegal, self._frames, frames)
            number += 1
            if not self.settings.loop:
                return

    def _extend(self) -> bool:
        """Add the next step; False when the demo has ended."""
        if self._finished:
            return False
        if self._source is None:
            self._source = self._all_steps()
        step = next(self._source, None)
        if step is None:
            self._finished = True
            return False
        self._steps.append(step)
        if step.move is None and self.rules.is_over(step.after):
            self._ended = step.game + 1
        if step.length:
            self._shown.append(step)
            self._starts.append(step.start)
            self._frames = step.end
        return True

    def extend_to(self, frame: int) -> bool:
        """Build the timeline through ``frame``; False when the demo ends before it."""
        while self._frames <= frame:
            if not self._extend():
                return False
        return True

    def through_game(self, number: int) -> list[Step]:
        """Build the timeline through the end of game ``number`` and return that game's steps."""
        while self._ended <= number and self._extend():
            pass
        return [s for s in self._steps if s.game == number]

    # ------------------------------------------------------------------ reading
    @property
    def steps(self) -> tuple[Step, ...]:
        """The steps built so far."""
        return tuple(self._steps)

    @property
    def frames_built(self) -> int:
        """Frames covered by the steps built so far."""
        return self._frames

    def step_at(self, frame: int) -> Step | None:
        """The step that ``frame`` belongs to; None past the end of a demo that does not loop."""
        if isinstance(frame, bool) or not isinstance(frame, int) or frame < 0:
            raise SourceError(f"a demo frame number is a whole number >= 0, got {frame!r}")
        if not self.extend_to(frame):
            return None
        return self._shown[bisect.bisect_right(self._starts, frame) - 1]

    def truth(self, frame: int) -> FrameTruth | None:
        """What is true at ``frame`` (None past the end of a demo that does not loop)."""
        step = self.step_at(frame)
        if step is None:
            return None
        phase, _, _ = step.phase_at(frame)
        if step.move is not None and frame >= step.switch:
            shown, state = step, step.after
        else:
            shown, state = self._previous(step), step.before
        return FrameTruth(frame, step.game, step.index, phase, state,
                          shown.move if shown else None,
                          shown.illegal.code if shown and shown.illegal else None,
                          shown.player if shown else None, phase in HAND_PHASES)

    def _previous(self, step: Step) -> Step | None:
        """The last move of the same game before ``step`` (chance events included)."""
        k = step.index - 1
        if k < 0 or self._steps[k].game != step.game:
            return None
        return self._steps[k]

    def placements(self, game: int | None = None) -> tuple[int, int]:
        """(illegal placements, all placements) among the steps built so far (of one game, or all)."""
        chosen = [s for s in self._steps if s.move is not None and (game is None or s.game == game)
                  and is_placement(self.settings.game, s.move)]
        return sum(1 for s in chosen if s.illegal is not None), len(chosen)
