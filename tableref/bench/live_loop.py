"""The live referee end to end, as a player meets it: a 1280x720 camera over a table where pieces
are placed by hand, the frame loop, the referee, the game log, the dashboard's server and a
browser's event stream and camera view.

The camera is the scripted table (:mod:`tableref.bench.scripted`): each placement is a hand
that comes in, leaves a piece and goes, then the new scene stays. Recognition is the scene
recogniser (it reads the scene's number from a patch, about a millisecond), so the figures
measure everything around recognition: the gate, the settling and the vote, the referee, the
commit to the log, and the way to the page. A real recogniser adds its own time per settled
frame (``tableref bench --recognition``) times the frames voted on.

Times are taken in this one process on one clock (``time.perf_counter``): a placement starts
at the first frame in which it is complete and the hand is gone (noted by the camera), it is
recognised when the vote's last frame is read, and it is on the page when an event-stream
client connected to the running server has received its event.
"""

from __future__ import annotations

import http.client
import json
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..gamelog import GameLog, PlayerInfo
from ..live.recognition import register_recogniser, unregister_recogniser
from ..live.voting import VoteSettings
from ..rules import game
from ..rules.playout import random_playout
from ..session import Session, SessionSettings
from ..vision.capture import CaptureSettings, register_source, unregister_source
from .scripted import SceneRecogniser, ScriptedTable

#: The camera of the budget (DESIGN.md: 1280x720 at 30 fps).
FRAME_SIZE, CAMERA_FPS = (1280, 720), 30.0
#: The game played, and its players.
GAME = "dolcevita"
PLAYERS = (PlayerInfo("Ann", "#d62728"), PlayerInfo("Bob", "#1f77b4"))
#: Seconds the scene stays still after each placement's event (unchanged frames for the figures).
STILL_S = 0.4
#: Seconds a placement may take to reach the page before the run is called failed.
EVENT_TIMEOUT_S = 10.0
#: Seconds the loop gets to settle on the opening scene before the first placement.
WARM_UP_S = 1.0
#: Kinds of event a placement gives.
PLACEMENT_KINDS = ("move_accepted", "illegal_flagged")
#: Name the scripted camera is registered under for the run.
SOURCE_NAME = "bench-table"


class BenchError(RuntimeError):
    """The end-to-end run did not complete (a placement never reached the page)."""


class _TimedRecogniser(SceneRecogniser):
    """The scene recogniser, noting when each reading of each scene finished."""

    def __init__(self, game_name: str, observations: dict[int, dict]):
        super().__init__(game_name, observations)
        self.read_at: dict[int, list[float]] = {}
        self.call_ms: list[float] = []

    def recognise(self, image: Any, profile: Any) -> Any:
        started = time.perf_counter()
        observation = super().recognise(image, profile)
        done = time.perf_counter()
        self.read_at.setdefault(self.last_scene, []).append(done)
        self.call_ms.append((done - started) * 1000.0)
        return observation


class _Listener:
    """An HTTP client on one of the server's streams, reading on its own thread."""

    def __init__(self, port: int, path: str):
        self._connection = http.client.HTTPConnection("127.0.0.1", port, timeout=EVENT_TIMEOUT_S)
        self._connection.request("GET", path)
        self._response = self._connection.getresponse()
        self.events: list[tuple[float, dict]] = []
        self.bytes = 0
        self._cond = threading.Condition()
        self._thread = threading.Thread(target=self._run, args=(path,), daemon=True, name=f"bench {path}")
        self._thread.start()

    def _run(self, path: str) -> None:
        kind = None
        try:
            while True:
                if path == "/events":
                    line = self._response.readline()
                    if not line:
                        return
                    text = line.decode().rstrip("\n")
                    if text.startswith("event: "):
                        kind = text[len("event: "):]
                    elif text.startswith("data: ") and kind == "event":
                        received = time.perf_counter()
                        with self._cond:
                            self.events.append((received, json.loads(text[len("data: "):])))
                            self._cond.notify_all()
                else:
                    chunk = self._response.read1(65536)
                    if not chunk:
                        return
                    self.bytes += len(chunk)
        except (OSError, ValueError, http.client.HTTPException):
            return  # the server closed the stream

    def wait_for_event(self, seq: int, timeout: float) -> tuple[float, dict]:
        """The time at which event ``seq`` arrived, and the event; BenchError when it does not."""
        def found() -> tuple[float, dict] | None:
            return next(((t, e) for t, e in self.events if e["seq"] == seq), None)
        with self._cond:
            if not self._cond.wait_for(lambda: found() is not None, timeout):
                raise BenchError(f"event {seq} did not reach the page within {timeout} s")
            return found()  # type: ignore[return-value]

    def close(self) -> None:
        self._connection.close()


@dataclass
class LoopRun:
    """What one end-to-end run measured (times in ms)."""

    camera_fps: float | None
    placements: int
    seconds: float = 0.0
    frames: int = 0
    skipped: int = 0
    to_page_ms: list[float] = field(default_factory=list)
    recognised_ms: list[float] = field(default_factory=list)
    recognise_call_ms: list[float] = field(default_factory=list)
    idle_frame_ms: dict | None = None
    mjpeg_bytes: int = 0

    @property
    def fps(self) -> float:
        return self.frames / self.seconds if self.seconds > 0 else 0.0


def _scenes(count: int, seed: int) -> list[dict]:
    rules = game(GAME)
    states = [rules.new_game(len(PLAYERS), None, seed)]
    random_playout(rules, len(PLAYERS), seed, on_move=lambda before, move, after: states.append(after))
    return [rules.observe(s).to_json() for s in states[:count + 1]]


def run_loop(placements: int, camera_fps: float | None, seed: int = 0) -> LoopRun:
    """Play ``placements`` placements on the scripted camera through a served session.

    Parameters
    ----------
    placements : int
        Placements made, one after the other (each waits for the previous one's event).
    camera_fps : float or None
        The camera's frame rate; None: frames as fast as the loop takes them (its ceiling).
    seed : int
        Seed of the game whose moves are placed.

    The scene recogniser is registered for the game while the run lasts and unregistered after
    it (a recogniser registered before for that game is gone in this process: run it alone).
    """
    from werkzeug.serving import make_server

    from ..webui import create_app

    observations = dict(enumerate(_scenes(placements, seed)))
    placements = len(observations) - 1
    recogniser = _TimedRecogniser(GAME, observations)
    live = camera_fps is not None
    table = ScriptedTable(FRAME_SIZE, camera_fps, noisy=True, live=live)
    register_recogniser(GAME, lambda: recogniser, replace=True)
    register_source(SOURCE_NAME, lambda argument, settings: table, replace=True)
    result = LoopRun(camera_fps, placements)
    with tempfile.TemporaryDirectory(prefix="tableref-bench-") as folder:
        gamelog = GameLog(Path(folder) / "bench.sqlite")
        session = Session(gamelog, SessionSettings(capture=CaptureSettings(every_frame=not live)))
        server = make_server("127.0.0.1", 0, create_app(session), threaded=True)
        serving = threading.Thread(target=server.serve_forever, daemon=True, name="bench server")
        serving.start()
        listeners: list[_Listener] = []
        try:
            session.start_game(GAME, PLAYERS, seed=seed)
            session.set_source(SOURCE_NAME)
            events, viewer = _Listener(server.server_port, "/events"), _Listener(server.server_port, "/stream.mjpg")
            listeners += [events, viewer]
            time.sleep(WARM_UP_S)  # the loop settles on the opening scene
            status = session.view()["source"]["status"]
            first_frames, first_skipped, started = status["delivered"], status["skipped"], time.perf_counter()
            for scene in range(1, placements + 1):
                table.show(scene)
                arrived, event = events.wait_for_event(scene + 1, EVENT_TIMEOUT_S)
                if event["kind"] not in PLACEMENT_KINDS:
                    raise BenchError(f"placement {scene} gave a {event['kind']} event: {event['summary']}")
                placed = dict(table.placed_at)[scene]
                result.to_page_ms.append((arrived - placed) * 1000.0)
                reads = [t for t in recogniser.read_at.get(scene, []) if t >= placed]
                votes = VoteSettings().frames
                if len(reads) >= votes:
                    result.recognised_ms.append((reads[votes - 1] - placed) * 1000.0)
                time.sleep(STILL_S)
            result.seconds = time.perf_counter() - started
            status = session.view()["source"]["status"]
            result.frames = status["delivered"] - first_frames
            result.skipped = status["skipped"] - first_skipped
            result.idle_frame_ms = (session.view()["loop"] or {}).get("idle_frame_ms")
            result.recognise_call_ms = list(recogniser.call_ms)
            result.mjpeg_bytes = viewer.bytes
        finally:
            session.close()
            for listener in listeners:
                listener.close()
            server.shutdown()
            server.server_close()
            gamelog.close()
            unregister_source(SOURCE_NAME)
            unregister_recogniser(GAME)
    return result
