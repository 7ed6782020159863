"""Take docs/dashboard.png: the dashboard in the middle of a game, in headless Chromium.

The server runs on the scripted table with the test-only scene recogniser (tests/live/live_scenes.py),
so the picture can be made before, and independently of, the games' real recognisers: a Dolce
Vita game for two plays its first round, then a number card is placed out of turn, and the
page is taken with the flag open (its snapshot, the scoreboard with the round's column, the
score chart, the state drawn, the event log).

Usage (from the repository root, Chromium at /usr/bin/chromium)::

    .venv/bin/python tools/screenshot.py [--out docs/dashboard.png]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO / "tests" / "live"), str(REPO / "tests" / "webui")]

import live_scenes as ls  # noqa: E402
from webui_helpers import CHROMIUM, CHROMIUM_ARGS, get_json, serve_scripted, stop_server  # noqa: E402

#: The browser window (CSS pixels) and how much sharper the picture is taken.
VIEWPORT = {"width": 1400, "height": 1180}
SCALE = 1
#: The camera picture of the scripted table (width x height).
CAMERA_SIZE = "960x540"
#: Milliseconds the page may take to show each step.
STEP_TIMEOUT_MS = 30_000


def take(out: Path) -> Path:
    """Play the scripted game to its first flag and save the dashboard as PNG at ``out``."""
    from playwright.sync_api import sync_playwright

    _, scenes = ls.dashboard_game()
    with tempfile.TemporaryDirectory(prefix="tableref-shot-") as folder:
        server, url, control = serve_scripted(Path(folder), ls.DASHBOARD_GAME, scenes, "--seed",
                                              str(ls.DASHBOARD_SEED), size=CAMERA_SIZE)
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                page = browser.new_page(viewport=VIEWPORT, device_scale_factor=SCALE)
                page.set_default_timeout(STEP_TIMEOUT_MS)
                page.goto(url + "/", wait_until="domcontentloaded")
                page.wait_for_selector("#log li.game_started")
                for scene, seq in ((ls.FIRST_MOVE, 2), (ls.LAST_DISTRIBUTION, 3), (ls.ROUND_END, 4)):
                    ls.show(control, scene)
                    ls.wait_for(lambda: len(get_json(url + "/api/events")["events"]) >= seq, STEP_TIMEOUT_MS / 1000)
                page.wait_for_selector("#scoreboard th.round")
                ls.show(control, ls.STRAY)
                page.wait_for_selector("#flags li.flag")
                page.wait_for_function("() => document.querySelector('#flags img.snapshot').naturalWidth > 0")
                page.wait_for_function("() => document.getElementById('source-badge').textContent === 'source: live'")
                page.wait_for_function("() => document.getElementById('camera').naturalWidth > 0")
                out.parent.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(out), full_page=False)
                browser.close()
        finally:
            stop_server(server)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "dashboard.png", help="PNG to write")
    print(take(parser.parse_args().out))


if __name__ == "__main__":
    main()
