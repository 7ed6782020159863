"""``tableref bench --flags --in-sequence``: the demo refereed the way the live session follows it.

The flag benchmark (:mod:`tableref.bench.flags`) referees each placement from the true state
before it. At the table the session referees each reading from the state it holds: the game
as it has followed it, flags and misreadings included, so one misreading shapes what the
next readings are judged against. Here a live :class:`~tableref.session.Session` (its game
log in a temporary folder, no frame source) follows each demo game: started without a seed,
as on the dashboard, so the setup is read from the table; then fed the settled frame of every
step of the game, in order (the set-up hold and every move, placements or not), each read by
the shipped recogniser.

Figures: the illegal placements flagged at their own reading; false flags per 200 legal moves
(a flag or an unexplained change recorded at the reading of a legal move); the camera's flags
withdrawn (a later reading legal from the state before them); the accepted moves revised (a
later reading that shows them misread); the share of readings after which the session's state
shows the table as the game has it.
"""

from __future__ import annotations

import logging
import tempfile
import time
from collections import Counter
from pathlib import Path

from ..gamelog import GameLog, PlayerInfo
from ..live.recognition import recogniser_for, tell_players
from ..rules import game as rules_of
from ..rules.errors import RulesError
from ..vision.errors import VisionError
from ..vision.frame import Frame
from . import Figure, percent, rate
from .flags import ILLEGAL_RATE, PER_LEGAL, PLACEMENTS

log = logging.getLogger(__name__)

#: Player colours of the benchmark's games (the dashboard's order).
COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#9467bd")
#: Kinds of event recorded at a legal move's reading that count as a false flag.
FALSE_KINDS = ("illegal_flagged", "unexplained_change")


def _observed(rules, state) -> dict:
    return rules.observe(state).to_json()


class Follower:
    """One session following the demo's games, and the tallies of what it recorded."""

    def __init__(self, game_name: str, session, recogniser):
        self.game_name, self.session, self.recogniser = game_name, session, recogniser
        self.rules = rules_of(game_name)
        self.tally: Counter = Counter()
        self.game: int | None = None
        self.seconds: list[float] = []

    def start(self, step) -> None:
        """Start the session's game for the demo game ``step`` opens (a fresh one for each)."""
        view = self.session.view()
        if view["game"] is not None and not view["over"]:
            self.session.stop_game()
        players = [PlayerInfo(f"P{i + 1}", COLOURS[i]) for i in range(step.before.players)]
        self.session.start_game(self.game_name, players)
        tell_players(self.recogniser, step.before.players)  # as the session told its own
        self.game = step.game
        self.tally["games"] += 1

    def follow(self, reader, step) -> None:
        """Read ``step``'s settled frame and feed it to the session; tally what it recorded."""
        if step.game != self.game:
            self.start(step)
        image = reader.render(step.end - 1)
        game_id = self.session.game_id()
        before = len(self.session.log.events(game_id))
        started = time.perf_counter()
        try:
            observation = self.recogniser.recognise(image, None)
        except VisionError as exc:  # as live: the reading is set aside
            log.info("step %d of game %d not read: %s", step.index, step.game, exc)
            self.tally["unread"] += 1
            return
        self.session.read(observation, Frame(image, time.time(), step.end - 1, "demo"))
        self.seconds.append(time.perf_counter() - started)
        new = self.session.log.events(game_id)[before:]
        kinds = Counter(e.kind for e in new)
        self.tally["readings"] += 1
        self.tally["withdrawn"] += kinds["flag_withdrawn"]
        self.tally["revised"] += kinds["move_revised"]
        view = self.session.view()
        self.tally["unusable"] += view["problem"] is not None
        state = self.rules.state_from_json(view["state"])
        self.tally["following"] += _observed(self.rules, state) == _observed(self.rules, step.after)
        if step.move is None:
            return
        if step.illegal is not None:
            self.tally["illegal"] += 1
            self.tally["illegal:flagged"] += kinds["illegal_flagged"] > 0
        else:
            self.tally["legal"] += 1
            false = sum(kinds[k] for k in FALSE_KINDS)
            self.tally["legal:flagged"] += false > 0
            if false:
                log.info("step %d of game %d (legal %s): %s", step.index, step.game, step.move,
                         "; ".join(e.summary for e in new))


def run(game_name: str, placements: int = PLACEMENTS, seed: int = 0, illegal_rate: float = ILLEGAL_RATE,
        players: int | None = None, recogniser=None, withdraw_flags: int | None = None,
        revise_moves: int | None = None, progress=None) -> list[Figure]:
    """Follow the demo of ``game_name`` (seeds from ``seed``) until ``placements`` placements
    were refereed, every step in order, through a live session."""
    from ..session import Session, SessionSettings
    from ..vision.synthetic.demo import DemoReader, DemoSettings
    from ..vision.synthetic.demo_illegal import is_placement

    recogniser = recogniser or recogniser_for(game_name)
    chosen = {name: value for name, value in (("withdraw_flags", withdraw_flags), ("revise_moves", revise_moves))
              if value is not None}
    settings = SessionSettings(**chosen)
    done = 0
    with tempfile.TemporaryDirectory(prefix="tableref-bench-") as folder:
        gamelog = GameLog(Path(folder) / "games.sqlite")
        session = Session(gamelog, settings)
        follower = Follower(game_name, session, recogniser)
        demo_seed = seed
        try:
            while done < placements:
                reader = DemoReader(DemoSettings(game=game_name, players=players, seed=demo_seed,
                                                 illegal_rate=illegal_rate, loop=True))
                reader.open()
                frame = 0
                while done < placements:
                    try:
                        step = reader.timeline.step_at(frame)
                    except RulesError as exc:  # the demo's script could not go on: the next seed's games
                        log.warning("the demo of %s, seed %d, stopped after frame %d: %s",
                                    game_name, demo_seed, frame, exc)
                        break
                    if step is None:
                        break
                    frame = step.end
                    follower.follow(reader, step)
                    if step.move is not None and is_placement(game_name, step.move):
                        done += 1
                        if progress is not None:
                            progress(done, placements)
                demo_seed += 1
                follower.game = None  # a new seed's first game is a new game even with the same number
        finally:
            session.close()
            gamelog.close()
    on = (f"the built-in demo of {game_name} (seeds from {seed}, illegal share {illegal_rate:g}) followed by a live "
          f"session, {follower.tally['games']} games started without a seed, {follower.tally['readings']} "
          f"settled frames read in order by the shipped recogniser up to {placements} placements "
          f"({follower.tally['legal']} legal and {follower.tally['illegal']} illegal moves), flags withdrawn "
          f"{'after ' + str(settings.withdraw_flags) + ' back' if settings.withdraw_flags else 'never'}, accepted "
          f"moves revised {'after ' + str(settings.revise_moves) + ' back' if settings.revise_moves else 'never'}")
    return figures(game_name, follower.tally, follower.seconds, on)


def figures(game_name: str, n: Counter, seconds: list[float], on: str) -> list[Figure]:
    """The benchmark's figures from a follower's tallies."""
    return [
        Figure("flags", f"{game_name} in sequence: illegal placements flagged",
               percent(n["illegal:flagged"], n["illegal"]), "%", on),
        Figure("flags", f"{game_name} in sequence: false flags per {PER_LEGAL} legal moves",
               rate(n["legal:flagged"], n["legal"], PER_LEGAL), "flags", on),
        Figure("flags", f"{game_name} in sequence: flags withdrawn", float(n["withdrawn"]), "flags", on),
        Figure("flags", f"{game_name} in sequence: accepted moves revised", float(n["revised"]), "revisions", on),
        Figure("flags", f"{game_name} in sequence: readings after which the state shows the table as the game has it",
               percent(n["following"], n["readings"]), "%", on),
        Figure("flags", f"{game_name} in sequence: frames not read, or read into an observation the referee refused",
               percent(n["unread"] + n["unusable"], n["unread"] + n["readings"]), "%", on),
        Figure("flags", f"{game_name} in sequence: recognition and referee per reading (mean)",
               1000 * sum(seconds) / len(seconds) if seconds else float("nan"), "ms", on),
    ]
