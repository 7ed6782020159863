"""Smoke test of the dashboard in plain Chromium with no network: it loads, fills in live from
server-sent events, shows a flag with its snapshot, and the Accept button closes it."""

from __future__ import annotations

import json
import signal
import subprocess

from playwright.sync_api import sync_playwright

import live_scenes as ls
from test_crash import _serve
from tableref.rules.dolcevita.catalogue import number_label

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]
GAME, SEED = "dolcevita", 5
#: Frames of each scene in the folder the server plays at 30 frames per second.
FRAMES_PER_SCENE = 20
#: Milliseconds the page may take to show what the server has.
UI_TIMEOUT_MS = 15_000


def test_dashboard_in_chromium(tmp_path):
    states, observations = ls.playout_scenes(GAME, 2, SEED, 2)
    other = 1 - states[2].to_move
    illegal = dict(observations[2])
    illegal["items"] = illegal["items"] + [{"label": number_label(other, states[2].hands[other][0]),
                                            "where": "column:3:under", "confidence": 0.9}]
    observations.append(illegal)
    (tmp_path / "scenes.json").write_text(json.dumps({"game": GAME, "observations": dict(enumerate(observations))}))
    # each scene held for a while and the last one longer, so that a slow machine still sees every
    # scene settle before the folder ends
    ls.write_frames(tmp_path / "frames", [0, 1, 2], FRAMES_PER_SCENE)
    ls.write_frames(tmp_path / "frames", [3], 4 * FRAMES_PER_SCENE, start=3 * FRAMES_PER_SCENE)
    server, url = _serve(tmp_path, tmp_path / "frames", tmp_path / "games.sqlite", "--game", GAME, "--seed", str(SEED))
    problems: list[str] = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page()
            page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: problems.append(str(e)))
            page.on("response", lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 400 else None)
            page.on("request", lambda r: problems.append("network: " + r.url) if not r.url.startswith(url) else None)
            page.goto(url + "/", wait_until="domcontentloaded")
            page.wait_for_selector("#scoreboard tbody tr", timeout=UI_TIMEOUT_MS)
            assert page.locator("#scoreboard tbody tr").count() == 2
            flag = page.wait_for_selector("#flags li.flag", timeout=UI_TIMEOUT_MS)
            assert "Player 2" in flag.inner_text() or "Player 1" in flag.inner_text()
            page.wait_for_function("document.querySelector('#flags img.snapshot').naturalWidth > 0",
                                   timeout=UI_TIMEOUT_MS)
            assert page.locator("#log li").count() >= 3
            assert page.locator("#chart svg polyline").count() == 2
            assert page.locator(".dv-card").count() == 63
            page.click("#flags button:has-text('Accept')")
            page.wait_for_selector("#flags li.flag", state="detached", timeout=UI_TIMEOUT_MS)
            page.wait_for_selector("#log li.flag_accepted", timeout=UI_TIMEOUT_MS)
            page.goto(url + "/setup", wait_until="domcontentloaded")
            page.wait_for_selector("#calibration p", timeout=UI_TIMEOUT_MS)
            assert page.locator("#game-running").is_visible()
            browser.close()
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
    assert problems == []
