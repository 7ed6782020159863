"""The live session end to end on frames made here: moves, flags with snapshots, decisions,
corrections, commit-before-show, resume, a game without a recogniser, a source that vanishes."""

from __future__ import annotations

import sqlite3
from contextlib import contextmanager

import cv2
import numpy as np
import pytest

import live_scenes as ls
from tableref.gamelog import GameLog, LogError, PlayerInfo
from tableref.input import InputError
from tableref.rules.errors import RulesError
from tableref.live.recognition import NoRecogniser
from tableref.rules import game
from tableref.rules.dolcevita.catalogue import number_label
from tableref.session import Session, SessionError, SessionSettings
from tableref.vision.capture import CaptureSettings, register_source, unregister_source
from tableref.vision.frame import Frame

GAME, SEED = "dolcevita", 5
PLAYERS = [PlayerInfo("Ann", "#ff0000"), PlayerInfo("Bob", "#0000ff")]
FRAMES_PER_SCENE = 8
#: Fast folder playback that drops no frame, so each scene is seen whole.
CAPTURE = CaptureSettings(folder_fps=60.0, every_frame=True)
RULES = game(GAME)


def _illegal(observation: dict, state) -> dict:
    """``observation`` plus a number card of the player who is not to move (not their turn)."""
    other = 1 - state.to_move
    card = {"label": number_label(other, state.hands[other][0]), "where": "column:2:under", "confidence": 0.95}
    return {**observation, "items": observation["items"] + [card]}


@pytest.fixture
def scenes():
    states, observations = ls.playout_scenes(GAME, 2, SEED, 3)
    return states, observations


def _session(tmp_path, scene_list, observations, name="frames"):
    ls.register(GAME, dict(enumerate(observations)))
    ls.write_frames(tmp_path / name, scene_list, FRAMES_PER_SCENE)
    gamelog = GameLog(tmp_path / "games.sqlite")
    session = Session(gamelog, SessionSettings(capture=CAPTURE), launch_source=str(tmp_path / name))
    return session, gamelog


def _kinds(gamelog, game_id):
    return [e.kind for e in gamelog.events(game_id)]


@contextmanager
def _scripted(tmp_path, settings: SessionSettings | None = None):
    """A session over a scripted table (the source "table") with a game of GAME started:
    (session, gamelog, table, record). The caller registers the scenes' observations."""
    from tableref.bench.scripted import ScriptedTable

    table = ScriptedTable(fps=60.0)
    register_source("table", lambda argument, source_settings: table, replace=True)
    gamelog = GameLog(tmp_path / "games.sqlite")
    session = Session(gamelog, settings)
    try:
        record = session.start_game(GAME, PLAYERS, seed=SEED)
        session.set_source("table")
        yield session, gamelog, table, record
    finally:
        session.close()
        gamelog.close()
        unregister_source("table")


def test_moves_are_committed_before_they_are_shown(tmp_path, scenes):
    states, observations = scenes
    session, gamelog = _session(tmp_path, [0, 1, 2, 3], observations)
    shown_in_db = []
    publish = session.hub.publish

    def checking_publish(kind, data):
        if kind == "event":  # at the moment it is shown, another connection must already see it
            other = sqlite3.connect(gamelog.path)
            shown_in_db.append(other.execute("SELECT kind FROM events WHERE game_id = ? AND seq = ?",
                                             (data["game_id"], data["seq"])).fetchone() is not None)
            other.close()
        publish(kind, data)

    session.hub.publish = checking_publish
    try:
        record = session.start_game(GAME, PLAYERS, seed=SEED)
        session.set_source("launch")
        ls.wait_for(lambda: len(shown_in_db) >= 4)
        assert _kinds(gamelog, record.id) == ["game_started"] + ["move_accepted"] * 3
        assert shown_in_db == [True] * 4
        assert session.view()["state"] == states[3].to_json()
        assert session.view()["score"]["names"] == ["Ann", "Bob"]
    finally:
        session.close()
        gamelog.close()


def test_a_failed_commit_shows_nothing(tmp_path, scenes):
    _, observations = scenes
    session, gamelog = _session(tmp_path, [0, 1], observations)
    shown = []
    session.hub.publish = lambda kind, data: shown.append(kind)
    record = session.start_game(GAME, PLAYERS, seed=SEED)

    def broken_append(game_id, draft):
        raise LogError("disk full")

    gamelog.append = broken_append
    try:
        session.set_source("launch")
        ls.wait_for(lambda: (session.view()["loop"] or {}).get("problem"))
        assert "disk full" in session.view()["loop"]["problem"]
        assert shown.count("event") == 1  # only game_started, committed before the log broke
        assert session.view()["state"] == record.initial_state
    finally:
        session.close()
        gamelog.close()


def test_without_a_seed_the_setup_is_read_from_the_table(tmp_path, scenes):
    # a real table: the display is dealt by hand and the camera tells the referee what lies there
    states, observations = scenes
    session, gamelog = _session(tmp_path, [0, 1], observations)
    try:
        record = session.start_game(GAME, PLAYERS)
        assert record.seed is None and gamelog.events(record.id)[0].data["seed"] is None
        assert RULES.state_from_json(record.initial_state).phase == "deal"
        session.set_source("launch")
        ls.wait_for(lambda: len(gamelog.events(record.id)) >= 3)
        events = gamelog.events(record.id)
        assert [e.kind for e in events] == ["game_started", "move_accepted", "move_accepted"]
        assert events[1].summary == "the table: 63 x deal" and events[1].state == states[0].to_json()
        assert session.view()["state"] == states[1].to_json()
    finally:
        session.close()
        gamelog.close()


def test_restart_resumes_the_game(tmp_path, scenes):
    states, observations = scenes
    session, gamelog = _session(tmp_path, [0, 1, 2], observations)
    record = session.start_game(GAME, PLAYERS, seed=SEED)
    session.set_source("launch")
    ls.wait_for(lambda: len(gamelog.events(record.id)) >= 3)
    session.close()
    gamelog.close()
    again_log = GameLog(tmp_path / "games.sqlite")
    again = Session(again_log, SessionSettings(capture=CAPTURE))
    try:
        resumed = again.resume()
        assert resumed is not None and resumed.id == record.id
        assert again.view()["state"] == states[2].to_json()
        with pytest.raises(SessionError, match="still in play"):
            again.start_game(GAME, PLAYERS, seed=1)
    finally:
        again.close()
        again_log.close()


def test_flag_snapshot_then_undo_and_accept(tmp_path, scenes):
    states, observations = scenes
    observations = observations + [_illegal(observations[0], states[0])]  # scene 4: a card out of turn
    session, gamelog = _session(tmp_path, [0, 4], observations)
    record = session.start_game(GAME, PLAYERS, seed=SEED)
    try:
        session.set_source("launch")
        flag = ls.wait_for(lambda: session.view()["flags"])[0]
        assert flag["kind"] == "illegal_flagged" and flag["player"] == 1
        assert flag["data"]["violations"][0]["code"] == "dolcevita.not_your_turn"
        assert "Bob" in flag["summary"]
        snapshot = gamelog.event(record.id, flag["seq"]).snapshot
        image = cv2.imdecode(np.frombuffer(snapshot, np.uint8), cv2.IMREAD_COLOR)
        red = (image[:, :, 2] > 200) & (image[:, :, 1] < 60) & (image[:, :, 0] < 60)
        assert red.sum() > 20  # the offending piece is outlined in red
        flagged_state = session.view()["state"]
        assert flagged_state != states[0].to_json()
        session.undo(flag["seq"])
        assert session.view()["state"] == states[0].to_json() and session.view()["flags"] == []
        with pytest.raises(SessionError, match="not an open flag"):
            session.accept(flag["seq"])
        # the same change seen again (a correction re-reads it) is flagged again, and accepted this time
        events = session.correct({"observation": observations[4]}, by=0)
        assert events[0].kind == "state_corrected" and events[0].data["violations"]
        assert session.view()["flags"][0]["seq"] == events[0].seq
        session.accept(events[0].seq, by=0)
        assert session.view()["flags"] == [] and session.view()["state"] == flagged_state
        assert _kinds(gamelog, record.id)[-4:] == ["illegal_flagged", "flag_undone", "state_corrected",
                                                   "flag_accepted"]
    finally:
        session.close()
        gamelog.close()


def test_correcting_a_misread(tmp_path, scenes):
    states, observations = scenes
    truth = observations[1]
    misread = dict(truth)
    moved = [i for i in truth["items"] if i["where"].endswith(":under")][0]
    wrong_column = (int(moved["where"].split(":")[1]) + 1) % 7
    misread["items"] = [i for i in truth["items"] if i is not moved] + [{**moved, "where": f"column:{wrong_column}:under"}]
    session, gamelog = _session(tmp_path, [0, 1], [observations[0], misread])
    record = session.start_game(GAME, PLAYERS, seed=SEED)
    try:
        session.set_source("launch")
        ls.wait_for(lambda: len(gamelog.events(record.id)) >= 2)
        assert session.view()["state"] != states[1].to_json()  # the misread was taken as a legal move
        events = session.correct({"observation": truth}, by=1)
        assert events[0].kind == "state_corrected" and events[0].player == 1
        assert session.view()["state"] == states[1].to_json()
        session.correct({"state": states[0].to_json()})
        assert session.view()["state"] == states[0].to_json()
        for payload, message in [({}, "exactly one"), ({"state": {"game": "ligretto"}}, "not 'dolcevita'|dolcevita"),
                                 ({"observation": {"game": "dolcevita", "items": 3}}, "items")]:
            with pytest.raises((InputError, RulesError), match=message):
                session.correct(payload)
    finally:
        session.close()
        gamelog.close()


def test_the_recogniser_is_told_how_many_play(tmp_path, scenes):
    _, observations = scenes
    recogniser = ls.register(GAME, dict(enumerate(observations)))
    recogniser.players = None  # a recogniser that reads better for knowing (as Ligretto's)
    gamelog = GameLog(tmp_path / "games.sqlite")
    session = Session(gamelog)
    try:
        session.start_game(GAME, PLAYERS, seed=SEED)
        assert recogniser.players == len(PLAYERS)
    finally:
        session.close()
    recogniser.players = None
    again = Session(gamelog)
    try:
        assert again.resume() is not None
        assert recogniser.players == len(PLAYERS)
    finally:
        again.close()
        gamelog.close()


def test_a_game_without_a_recogniser_cannot_start(tmp_path):
    gamelog = GameLog(tmp_path / "games.sqlite")
    session = Session(gamelog)
    try:
        with pytest.raises(NoRecogniser, match="cannot recognise ligretto"):
            session.start_game("ligretto", PLAYERS)
        assert gamelog.games() == []
        with pytest.raises(SessionError, match="no game"):
            session.accept(1)
    finally:
        session.close()
        gamelog.close()


def test_a_source_that_disappears_mid_game(tmp_path, scenes):
    _, observations = scenes
    ls.register(GAME, dict(enumerate(observations)))
    register_source("vanishing", lambda argument, settings: ls.VanishingCamera(), replace=True)
    gamelog = GameLog(tmp_path / "games.sqlite")
    capture = CaptureSettings(max_reconnects=1, backoff_initial_s=0.05, backoff_max_s=0.05)
    session = Session(gamelog, SessionSettings(capture=capture))
    try:
        session.start_game(GAME, PLAYERS, seed=SEED)
        session.set_source("vanishing")
        status = ls.wait_for(lambda: session.view()["source"]["status"]["state"] == "failed" and session.view())
        assert "stopped delivering frames" in status["source"]["status"]["last_error"]
        assert session.live_status()["source"] == "failed"
        assert status["game"] is not None  # the game goes on, waiting for a source
    finally:
        session.close()
        gamelog.close()
        unregister_source("vanishing")


def test_resuming_a_game_killed_before_its_end_was_recorded(tmp_path):
    """The last move ended the game, but the process died before the game's end was committed."""
    from tableref.events import EventDraft
    from tableref.rules.playout import random_playout

    record_of_play = random_playout(RULES, 2, SEED)
    ls.register(GAME, {})
    gamelog = GameLog(tmp_path / "games.sqlite")
    initial = RULES.new_game(2, None, SEED)
    record = gamelog.create_game(GAME, PLAYERS, {}, SEED, initial.to_json())
    gamelog.append(record.id, EventDraft("move_accepted", "the last move", 0, {}, record_of_play.final.to_json()))
    session = Session(gamelog)
    try:
        session.resume()
        assert _kinds(gamelog, record.id)[-1] == "game_end"
        assert gamelog.game(record.id).status == "over" and session.view()["over"] is True
        session.start_game(GAME, PLAYERS, seed=1)  # a finished game does not block a new one
    finally:
        session.close()
        gamelog.close()


def test_changes_no_move_explains_are_recorded(tmp_path, scenes):
    """A stray card flagged and taken back, then removed from the table: the table is put back
    (state_corrected, how "table"); a doubtful card read differently: an unexplained change."""
    states, observations = scenes
    stray = _illegal(observations[1], states[1])
    first = observations[1]["items"][0]
    doubtful = dict(observations[1], items=[{**first, "label": "car:100000" if first["label"] != "car:100000"
                                             else "boat:400000", "confidence": 0.3}] + observations[1]["items"][1:])
    ls.register(GAME, {0: observations[0], 1: observations[1], 2: stray, 3: doubtful, 4: observations[1]})
    with _scripted(tmp_path) as (session, gamelog, table, record):
        def after(scene, count):
            table.show(scene)
            return ls.wait_for(lambda: len(events := gamelog.events(record.id)) >= count and events)[count - 1]

        assert after(1, 2).kind == "move_accepted"
        flag = after(2, 3)
        assert flag.kind == "illegal_flagged"
        session.undo(flag.seq)
        put_back = after(4, 5)  # scene 4 shows what scene 1 showed
        assert put_back.kind == "state_corrected" and put_back.data["how"] == "table" and put_back.player is None
        assert put_back.data["changes"] == [{"where": "column:2:under", "was": [stray["items"][-1]["label"]],
                                             "now": []}]
        unexplained = after(3, 6)
        assert unexplained.kind == "unexplained_change" and first["where"] in unexplained.summary
        assert unexplained.data["changes"] == [{"where": first["where"], "was": [first["label"]],
                                                "now": [doubtful["items"][0]["label"]]}]
        assert unexplained.snapshot is not None and unexplained.state is None
        assert session.view()["state"] == states[1].to_json() and session.view()["flags"] == []


@pytest.mark.parametrize("shown, withdraw, kinds, final", [
    # a misread card flagged, then the table read right: the flag is withdrawn, the move accepted
    ([1, 3], 3, ["illegal_flagged", "flag_withdrawn", "move_accepted"], 1),
    # the same without withdrawals: the right reading is judged from the flagged position
    ([1, 3], 0, ["illegal_flagged", "illegal_flagged"], None),
    # a card out of turn taken back off the table: the flag closes by itself
    ([1, 0], 3, ["illegal_flagged", "flag_withdrawn"], 0),
    # a card out of turn left lying while the next player moves: the flag stays open
    ([1, 2], 3, ["illegal_flagged", "move_accepted"], None),
])
def test_a_flag_the_table_no_longer_shows_is_withdrawn(tmp_path, scenes, shown, withdraw, kinds, final):
    states, observations = scenes
    ls.register(GAME, {0: observations[0], 1: _illegal(observations[0], states[0]),
                       2: _illegal(observations[1], states[0]), 3: observations[1]})
    with _scripted(tmp_path, SessionSettings(withdraw_flags=withdraw)) as (session, gamelog, table, record):
        for scene, expected in zip(shown, (2, 1 + len(kinds))):
            table.show(scene)
            ls.wait_for(lambda: len(gamelog.events(record.id)) >= expected)
        events = gamelog.events(record.id)
        assert [e.kind for e in events[1:]] == kinds
        flag = events[1]
        if final is None:
            assert session.view()["state"] != states[1].to_json()
            assert flag.seq in [f["seq"] for f in session.view()["flags"]]
        else:
            assert session.view()["state"] == states[final].to_json() and session.view()["flags"] == []
            withdrawn = events[2]
            assert withdrawn.data == {"flag": flag.seq} and withdrawn.player is None
            assert withdrawn.state == states[0].to_json() and gamelog.event(record.id, flag.seq).snapshot


def test_a_withdrawn_flag_that_ended_a_round_records_the_round_end_once(tmp_path):
    """The reading that ends round 1 is flagged (it also shows one of Ann's luxury cards among
    Bob's, a misreading): the flag records the round's end. The next reading, right again,
    withdraws the flag and is accepted from the position before it; the round it ends is not
    recorded a second time."""
    from tableref.live.judge import rounds_done

    flagged_scene = 99  # the scene number of the flagged reading
    states, observations = ls.playout_scenes(GAME, 2, SEED, 40)
    last = next(i for i in range(1, len(states)) if rounds_done(states[i].to_json()) == 1)
    items = observations[last]["items"]
    moved = next(i for i, item in enumerate(items) if item["where"] == "player:0")
    stray = dict(observations[last], items=items[:moved] + [{**items[moved], "where": "player:1"}] + items[moved + 1:])
    ls.register(GAME, {**dict(enumerate(observations[:last + 1])), flagged_scene: stray})
    with _scripted(tmp_path) as (session, gamelog, table, record):
        for scene in range(1, last):
            table.show(scene)
            ls.wait_for(lambda: len(gamelog.events(record.id)) >= 1 + scene)
        table.show(flagged_scene)
        ls.wait_for(lambda: any(e.kind == "round_end" for e in gamelog.events(record.id)))
        table.show(last)
        ls.wait_for(lambda: len(gamelog.events(record.id)) >= last + 4)
        view = session.view()  # waits for the reading's events to be all committed (the session's lock)
        kinds = _kinds(gamelog, record.id)
        assert kinds[last:] == ["illegal_flagged", "round_end", "flag_withdrawn", "move_accepted"]
        assert kinds.count("round_end") == 1
        assert view["state"] == states[last].to_json() and view["flags"] == []


def _misread_placement(count: int = 60):
    """States and perfect observations of a Dolce Vita game, and the first placement ``i`` of a
    number card whose player still holds another value: (states, observations, i, item index
    of the card, its player, the other value)."""
    from tableref.rules.dolcevita.catalogue import parse_number

    states, observations = ls.playout_scenes(GAME, 2, SEED, count)
    for i in range(1, len(states)):
        before, after = states[i - 1], states[i]
        for c, (was, now) in enumerate(zip(before.under, after.under)):
            if len(now) != len(was) + 1:
                continue
            player, value = now[-1]
            others = sorted(set(after.hands[player]) - {value})
            if not others:
                continue
            label = number_label(player, value)
            index = next(k for k, item in enumerate(observations[i]["items"])
                         if item["where"] == f"column:{c}:under" and item["label"] == label)
            assert parse_number(label) == (player, value)
            return states, observations, i, index, player, others[0]
    raise AssertionError("no placement with another value in hand in the first moves")


def _with_item(observation: dict, index: int, **changes) -> dict:
    items = list(observation["items"])
    items[index] = {**items[index], **changes}
    return {**observation, "items": items}


@pytest.mark.parametrize("later, revise, kinds", [
    # a number card read once with another value the player holds, then read right: the move
    # accepted on the misreading is revised and the reading accepted from the state before it
    ("right", 2, ["move_accepted", "move_revised", "move_accepted"]),
    # without revisions the state keeps the misread value: the right reading is a change no
    # move explains
    ("right", 0, ["move_accepted", "unexplained_change"]),
    # read right beside a card of the player not to move: revised, and the card out of turn flagged
    # from the state before the misreading
    ("right and out of turn", 2, ["move_accepted", "move_revised", "illegal_flagged"]),
    # the card then under a hand: nothing shows it misread, nothing is revised (nor recorded)
    ("hidden", 2, ["move_accepted"]),
])
def test_a_move_accepted_on_a_misreading_is_revised(tmp_path, later, revise, kinds):
    states, observations, i, index, player, other = _misread_placement()
    misread = _with_item(observations[i], index, label=number_label(player, other), confidence=0.94)
    shown = {"right": observations[i], "right and out of turn": _illegal(observations[i], states[i]),
             "hidden": _with_item(observations[i], index, label="unknown", confidence=0.9)}[later]
    ls.register(GAME, {})
    gamelog = GameLog(tmp_path / "games.sqlite")
    session = Session(gamelog, SessionSettings(revise_moves=revise))
    try:
        record = session.start_game(GAME, PLAYERS, seed=SEED)
        for observation in observations[1:i]:
            session.read(RULES.observation_from_json(observation), Frame(ls.make_frame(0), 0.0, 0, "test"))
        start = len(gamelog.events(record.id))
        for observation in (misread, shown):
            session.read(RULES.observation_from_json(observation), Frame(ls.make_frame(1), 0.0, 1, "test"))
        events = gamelog.events(record.id)[start:]
        assert [e.kind for e in events] == kinds
        follows = kinds[1:] == ["move_revised", "move_accepted"]
        assert (session.view()["state"] == states[i].to_json()) is follows
        if "move_revised" in kinds:
            revised = events[1]
            assert revised.data["moves"] == [events[0].seq] and revised.player is None
            assert revised.data["places"] == [observations[i]["items"][index]["where"]]
            assert revised.state == states[i - 1].to_json()
        flags = session.view()["flags"]
        assert [f["seq"] for f in flags] == [e.seq for e in events if e.kind == "illegal_flagged"]
        assert all(v["code"] == "dolcevita.not_your_turn" for f in flags for v in f["data"]["violations"])
    finally:
        session.close()
        gamelog.close()


def test_revisions_are_bounded():
    with pytest.raises(InputError, match="revise_moves"):
        SessionSettings(revise_moves=11)
    with pytest.raises(InputError, match="revise_moves"):
        SessionSettings(revise_moves=True)


def _misread(observation: dict, where: str, label: str) -> dict:
    """``observation`` with ``where`` read surely as ``label``."""
    return {**observation, "items": [{**it, "label": label, "confidence": 0.99} if it["where"] == where else it
                                     for it in observation["items"]]}


@pytest.mark.parametrize("next_reading, kinds", [
    # the next player's purchase, the misreading still there: the purchase is followed
    ("legal", ["move_accepted", "illegal_flagged", "move_accepted"]),
    # ... read again: nothing new
    ("again", ["move_accepted", "illegal_flagged", "move_accepted"]),
    # a purchase from two fields beside it: that is news, and flagged
    ("illegal", ["move_accepted", "illegal_flagged", "illegal_flagged"]),
])
def test_moves_made_while_a_misreading_stands_are_followed(tmp_path, next_reading, kinds):
    """Da Luigi: a die read on a guest card that did not order its colour (an orange die on the
    start card S6) is flagged; the state cannot take it in, so every later reading shows it
    again. The moves made meanwhile are still recorded, the flag staying open."""
    rules = game("daluigi")
    states, observations = ls.playout_scenes("daluigi", 2, 3, 2)
    misread = [_misread(o, "order:0:1", "orange,blue") for o in observations]
    assert [it["label"] for it in observations[1]["items"] if it["where"] == "order:0:1"] == ["blue"]
    two_fields = {**misread[2], "items": [{**it, "label": ""} if it["where"] == "market:0" else it
                                          for it in misread[2]["items"]]}
    assert rules.observe(states[2]).to_json() != two_fields and misread[2] != two_fields
    readings = [observations[1], misread[1]] + {"legal": [misread[2]], "again": [misread[2], misread[2]],
                                                "illegal": [two_fields]}[next_reading]
    ls.register("daluigi", {})  # readings are fed to the session here, not read from frames
    gamelog = GameLog(tmp_path / "games.sqlite")
    session = Session(gamelog, SessionSettings())
    try:
        record = session.start_game("daluigi", PLAYERS, seed=3)
        image = np.zeros((48, 64, 3), np.uint8)
        for n, reading in enumerate(readings):
            session.read(rules.observation_from_json(reading), Frame(image, 0.0, n, "test"))
        events = gamelog.events(record.id)
        assert [e.kind for e in events[1:]] == kinds
        flag = events[2]
        assert "orange die" in flag.summary and flag.player == 0
        assert flag.seq in [f["seq"] for f in session.view()["flags"]]
        last = events[-1]
        if next_reading == "illegal":
            assert "daluigi.one_field" in [v["code"] for v in last.data["violations"]]
        else:
            assert last.player == 1 and [m["type"] for m in last.data["moves"]] == ["shop"]
    finally:
        session.close()
        gamelog.close()
