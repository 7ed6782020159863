"""The dashboard in plain Chromium (Playwright) with no network: it opens on the demo and its camera
image updates; on a scripted table (the scene recogniser of live_scenes), a game is played
through it scene by scene: a move, a round's end on the scoreboard and the chart, a flag with
its snapshot, withdrawn when the card is taken back, undo and accept, a table put back, an
unexplained change, a camera unplugged.

Each step waits (generously, for loaded machines) for what the page must show; no sleeps."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from playwright.sync_api import sync_playwright

import live_scenes as ls
from tableref.rules import game
from webui_helpers import CHROMIUM, CHROMIUM_ARGS, get_json, serve_scripted, start_server, stop_server

#: Milliseconds the page may take to show what the server has (a loaded machine is slow).
UI_TIMEOUT_MS = 20_000

#: A fingerprint of the picture in the camera view now (null before its first frame).
CAMERA_PRINT = """() => {
  const img = document.getElementById("camera");
  if (!img.complete || !img.naturalWidth) return null;
  const canvas = document.createElement("canvas");
  canvas.width = 64; canvas.height = 48;
  const ctx = canvas.getContext("2d");
  ctx.drawImage(img, 0, 0, 64, 48);
  let hash = 0;
  for (const value of ctx.getImageData(0, 0, 64, 48).data) hash = (hash * 31 + value) >>> 0;
  return hash;
}"""


@pytest.fixture
def browser():
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def _watched_page(browser, url: str, problems: list[str]):
    """A page that notes console errors, failed requests and any request off the server."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.set_default_timeout(UI_TIMEOUT_MS)
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("response", lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.on("request", lambda r: problems.append("network: " + r.url) if not r.url.startswith(url) else None)
    return page


def _camera_changes(page) -> None:
    """Wait until the camera view shows a picture different from the one it shows now."""
    page.wait_for_function(f"() => ({CAMERA_PRINT})() !== null")
    before = page.evaluate(CAMERA_PRINT)
    page.wait_for_function(f"(before) => ({CAMERA_PRINT})() !== before", arg=before)


def _logged(page, kind: str, count: int = 1):
    """Wait until the event log shows ``count`` events of ``kind``; return the newest."""
    page.wait_for_function(f"() => document.querySelectorAll('#log li.{kind}').length >= {count}")
    return page.locator(f"#log li.{kind}").first


def test_the_dashboard_opens_on_the_demo_and_its_camera_image_updates(browser, tmp_path):
    server, url = start_server(["--port", "0", "--log", str(tmp_path / "games.sqlite")], tmp_path)
    problems: list[str] = []
    try:
        page = _watched_page(browser, url, problems)
        page.goto(url + "/", wait_until="domcontentloaded")
        page.wait_for_function("() => document.getElementById('source-badge').textContent === 'source: live'")
        assert page.locator("#no-game").is_visible()  # no recogniser, no game: the page says how to start one
        _camera_changes(page)
        _camera_changes(page)
        assert get_json(url + "/api/state")["source"]["spec"] == "demo"
    finally:
        stop_server(server)
    assert problems == []


#: Seconds the demo with the real Dolce Vita recogniser may take to raise its first flag
#: (deal, first placement, three settled frames read, on a loaded 2-core machine).
DEMO_FLAG_TIMEOUT_MS = 150_000


def test_the_demo_refereed_by_the_real_recogniser_raises_a_flag_that_can_be_accepted(browser, tmp_path):
    # every placement of this demo breaks a rule; whatever the recogniser reads, a flag must come
    server, url = start_server(["--source", "demo:dolcevita,players=2,illegal=1,seed=3", "--game", "dolcevita",
                                "--players", "2", "--port", "0", "--log", str(tmp_path / "games.sqlite")], tmp_path)
    problems: list[str] = []
    try:
        page = _watched_page(browser, url, problems)
        page.goto(url + "/", wait_until="domcontentloaded")
        _camera_changes(page)
        page.wait_for_selector("#flags li.flag", timeout=DEMO_FLAG_TIMEOUT_MS)
        page.wait_for_function("() => document.querySelector('#flags img.snapshot').naturalWidth > 0")
        first = page.locator("#flags li.flag").first.inner_text()
        assert "Player" in first or "Table" in first
        page.locator("#flags button:has-text('Accept')").first.click()
        _logged(page, "flag_accepted")
        accepted = [e["data"]["flag"] for e in get_json(url + "/api/events")["events"] if e["kind"] == "flag_accepted"]
        still_open = {f["seq"] for f in get_json(url + "/api/state")["flags"]}
        assert accepted and accepted[0] not in still_open
    finally:
        stop_server(server)
    assert problems == []


def test_a_game_played_through_the_dashboard(browser, tmp_path):
    states, scenes = ls.dashboard_game()
    server, url, control = serve_scripted(tmp_path, ls.DASHBOARD_GAME, scenes, "--seed", str(ls.DASHBOARD_SEED))
    problems: list[str] = []
    try:
        page = _watched_page(browser, url, problems)
        page.goto(url + "/", wait_until="domcontentloaded")
        page.wait_for_selector("#scoreboard tbody tr")
        assert page.locator("#scoreboard tbody tr").count() == 2
        assert page.locator(".dv-card").count() == 63
        _logged(page, "game_started")

        # a move: the camera image updates, the move is logged and the state drawn anew
        board = page.inner_text("#board")
        ls.show(control, ls.FIRST_MOVE)
        _camera_changes(page)
        _logged(page, "move_accepted")
        page.wait_for_function("(before) => document.getElementById('board').innerText !== before", arg=board)

        # the round's end: a round column on the scoreboard, the round's totals, a point more on the chart
        points = page.eval_on_selector("#chart polyline", "p => p.points.length")
        assert page.locator("#scoreboard th.round").count() == 0
        ls.show(control, ls.LAST_DISTRIBUTION)
        ls.wait_for(lambda: len(get_json(url + "/api/events")["events"]) >= 3, 20)
        ls.show(control, ls.ROUND_END)
        _logged(page, "round_end")
        page.wait_for_selector("#scoreboard th.round")
        assert page.inner_text("#scoreboard th.round") == "Round 1"
        totals = game(ls.DASHBOARD_GAME).score(states[ls.ROUND_END_MOVE]).totals
        assert page.locator("#scoreboard td.round").all_inner_texts() == [f"{t:,}" for t in totals]
        assert totals != (0, 0)
        page.wait_for_function(f"() => document.querySelector('#chart polyline').points.length > {points}")

        # a card out of turn: a flag with its snapshot, the piece outlined in red
        ls.show(control, ls.STRAY)
        flag = page.wait_for_selector("#flags li.flag")
        assert "Player" in flag.inner_text() and "turn" in flag.inner_text()
        page.wait_for_function("() => document.querySelector('#flags img.snapshot').naturalWidth > 0")
        snapshot = page.request.get(url + page.get_attribute("#flags img.snapshot", "src"))
        image = cv2.imdecode(np.frombuffer(snapshot.body(), np.uint8), cv2.IMREAD_COLOR)
        assert ((image[:, :, 2] > 200) & (image[:, :, 1] < 60) & (image[:, :, 0] < 60)).sum() > 20
        flagged_board = page.inner_text("#board")

        # the card taken back off the table before anyone decides: the flag withdraws itself
        ls.show(control, ls.TAKEN_BACK)
        page.wait_for_selector("#flags li.flag", state="detached")
        assert "withdrawn" in _logged(page, "flag_withdrawn").inner_text()
        assert get_json(url + "/api/state")["state"] == states[ls.ROUND_END_MOVE].to_json()
        ls.show(control, ls.STRAY)  # and laid again: flagged again
        page.wait_for_selector("#flags li.flag")

        # undo: the flag closes and the state is the one before the card
        page.click("#flags button:has-text('Undo')")
        page.wait_for_selector("#flags li.flag", state="detached")
        _logged(page, "flag_undone")
        page.wait_for_function("(before) => document.getElementById('board').innerText !== before",
                               arg=flagged_board)
        assert get_json(url + "/api/state")["state"] == states[ls.ROUND_END_MOVE].to_json()

        # the player takes the card back from the table: the state corrected by a player
        ls.show(control, ls.PUT_BACK)
        assert "put back" in _logged(page, "state_corrected").inner_text()

        # the card again, and accept: the flag closes and the state keeps the card
        ls.show(control, ls.STRAY_AGAIN)
        page.wait_for_selector("#flags li.flag")
        page.wait_for_function("(before) => document.getElementById('board').innerText === before",
                               arg=flagged_board)
        page.click("#flags button:has-text('Accept')")
        page.wait_for_selector("#flags li.flag", state="detached")
        _logged(page, "flag_accepted")
        assert page.is_visible("#no-flags") and page.inner_text("#board") == flagged_board

        # a card read differently without confidence: no move explains it, and it is shown
        ls.show(control, ls.DOUBTFUL)
        text = _logged(page, "unexplained_change").inner_text()
        assert "Unexplained change" in text and "column:0:slot:0" in text

        # the camera is unplugged: the page says so and the server keeps answering
        ls.show(control, ls.DOUBTFUL, unplugged=True)
        page.wait_for_function("() => document.getElementById('source-badge').textContent === 'source: reconnecting'")
        page.wait_for_function("() => document.getElementById('problem').textContent.includes('unplugged')")
        assert get_json(url + "/api/state")["game"]["game"] == ls.DASHBOARD_GAME

        page.goto(url + "/setup", wait_until="domcontentloaded")
        page.wait_for_selector("#calibration p")
        assert page.locator("#game-running").is_visible()
    finally:
        stop_server(server)
    assert problems == []


def test_the_setup_page_shows_the_models_adapted_to_the_profiles_set(browser, tmp_path):
    import shutil

    from tableref.calibration.profile import Profile, save_profile
    from tableref.models.training.adapt import SHIPPED

    models = tmp_path / "table-models"
    models.mkdir()
    for name in ("dolcevita-cards.card.json", "dolcevita-cards.onnx"):
        shutil.copy(SHIPPED / name, models / name)
    save_profile(Profile(models=models), tmp_path / "table.json")
    server, url = start_server(["--port", "0", "--log", str(tmp_path / "games.sqlite"), "--profile",
                                str(tmp_path / "table.json")], tmp_path)
    problems: list[str] = []
    try:
        page = _watched_page(browser, url, problems)
        page.goto(url + "/setup", wait_until="domcontentloaded")
        page.wait_for_function("() => document.getElementById('calibration').textContent.includes('Adapted to your set')")
        assert "dolcevita-cards" in page.locator("#calibration").inner_text()
    finally:
        stop_server(server)
    assert problems == []
