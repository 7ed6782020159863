"""Constants and helpers shared by the dashboard tests."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TOKEN = "test-token"
GAME, SEED = "dolcevita", 5
START = {"game": GAME, "players": [{"name": "Ann", "colour": "#ff0000"}, {"name": "Bob", "colour": "#0000ff"}],
         "seed": SEED}
#: Seconds a ``tableref serve`` process may take to start (imports, opening the source).
START_TIMEOUT_S = 30.0


def start_server(args: list[str], cwd: Path, env: dict | None = None) -> tuple[subprocess.Popen, str]:
    """Run ``python -m tableref serve ARGS`` and return the process and the dashboard's URL."""
    errors = cwd / f"serve-{time.monotonic_ns()}.txt"  # a file, not a pipe: a full pipe would block the server
    with errors.open("w") as sink:
        process = subprocess.Popen([sys.executable, "-m", "tableref", "serve", *args], cwd=cwd, env=env,
                                   stderr=sink, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline and process.poll() is None:
        for line in errors.read_text().splitlines():
            if "tableref dashboard: " in line:
                return process, line.split("tableref dashboard: ", 1)[1].strip().rstrip("/")
        time.sleep(0.05)
    process.kill()
    raise AssertionError(f"the server did not start: {errors.read_text()[-2000:]}")


def get_json(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=5) as response:
        return json.loads(response.read())


#: Chromium as Debian installs it, and the flags it runs with here (no sandbox, no network).
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]


def serve_scripted(tmp_path: Path, game: str, observations: dict[int, dict], *extra: str,
                   size: str = "") -> tuple[subprocess.Popen, str, Path]:
    """``tableref serve`` on the scripted table with the scene recogniser; return the process, its URL
    and the control file (:func:`live_scenes.show` changes the scene)."""
    import os

    import live_scenes as ls

    (tmp_path / "scenes.json").write_text(json.dumps({"game": game, "observations": observations}))
    control = tmp_path / "table.json"
    ls.show(control, 0)
    env = {**os.environ, "PYTHONPATH": str(REPO / "tests" / "live"), ls.SCENES_ENV: str(tmp_path / "scenes.json")}
    spec = f"{ls.SCRIPTED}:{control}" + (f",{size}" if size else "")
    process, url = start_server(["--source", spec, "--port", "0", "--log", str(tmp_path / "games.sqlite"),
                                 "--plugin", "live_scenes", "--game", game, *extra], tmp_path, env)
    return process, url, control


def stop_server(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(10)
