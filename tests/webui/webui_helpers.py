"""Constants and helpers shared by the dashboard tests."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

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
