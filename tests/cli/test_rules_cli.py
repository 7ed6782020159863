"""``tableref rules ...`` end to end through the command line, with its exit codes."""

from __future__ import annotations

import json

import pytest

from tableref.rules import GAMES, game


@pytest.fixture(params=sorted(GAMES))
def new_state(request, run_cli, tmp_path):
    name = request.param
    result = run_cli("rules", "new", "--game", name, "--players", game(name).MIN_PLAYERS, "--seed", 3)
    assert result.code == 0, result
    path = tmp_path / "state.json"
    path.write_text(result.out)
    return name, path


def test_new_moves_apply_score_referee(new_state, run_cli, tmp_path):
    name, state_path = new_state
    state = json.loads(state_path.read_text())
    assert state["game"] == name

    moves = run_cli("rules", "moves", state_path)
    assert moves.code == 0, moves
    listed = json.loads(moves.out)
    assert listed, "a new game has legal moves"
    move_path = tmp_path / "move.json"
    move_path.write_text(json.dumps(listed[0]))

    applied = run_cli("rules", "apply", state_path, move_path)
    assert applied.code == 0, applied
    after_path = tmp_path / "after.json"
    after_path.write_text(applied.out)
    assert json.loads(applied.out) != state

    score = run_cli("rules", "score", after_path)
    assert score.code == 0 and "totals" in json.loads(score.out)

    observed = run_cli("rules", "observe", after_path)
    assert observed.code == 0, observed
    obs_path = tmp_path / "obs.json"
    obs_path.write_text(observed.out)
    verdict = run_cli("rules", "referee", state_path, obs_path)
    assert verdict.code == 0, verdict
    assert json.loads(verdict.out)["legal"] is True


@pytest.mark.parametrize("name", sorted(GAMES))
def test_play_prints_a_finished_record(name, run_cli):
    result = run_cli("rules", "play", "--game", name, "--players", game(name).MAX_PLAYERS, "--seed", 5)
    assert result.code == 0, result
    record = json.loads(result.out)
    assert record["score"]["final"] is True and record["moves"]


BAD = [
    # words, what the one error line must mention
    (("rules", "moves", "missing.json"), "does not exist"),
    (("rules", "moves", "{not_json}"), "not valid JSON"),
    (("rules", "moves", "{no_game}"), "\"game\" field"),
    (("rules", "moves", "{unknown_game}"), "unknown game"),
    (("rules", "new", "--game", "dolcevita", "--players", "9"), "players"),
    (("rules", "new", "--game", "chess", "--players", "2"), "chess"),
    (("rules", "new", "--game", "dolcevita", "--players", "3", "--option", "novalue"), "NAME=VALUE"),
]


@pytest.mark.parametrize("words,needle", BAD)
def test_bad_input_is_one_clear_line_and_exit_2(words, needle, run_cli, tmp_path):
    files = {"not_json": "{", "no_game": "{}", "unknown_game": '{"game": "chess"}'}
    paths = {}
    for key, text in files.items():
        (tmp_path / f"{key}.json").write_text(text)
        paths[key] = str(tmp_path / f"{key}.json")
    args = [w.format(**paths) if "{" in w else (str(tmp_path / w) if w.endswith(".json") else w) for w in words]
    result = run_cli(*args)
    assert result.code == 2, result
    assert needle in result.err
    assert "Traceback" not in result.err
    assert len(result.err.strip().splitlines()) == 1


def test_illegal_move_exits_3_with_its_reason(run_cli, tmp_path):
    state = run_cli("rules", "new", "--game", "dolcevita", "--players", "3", "--seed", 1)
    state_path = tmp_path / "s.json"
    state_path.write_text(state.out)
    legal = json.loads(run_cli("rules", "moves", state_path).out)
    # the same kind of move, but by a player whose turn it is not
    wrong = dict(legal[0])
    wrong["player"] = (wrong["player"] + 1) % 3
    move_path = tmp_path / "m.json"
    move_path.write_text(json.dumps(wrong))
    result = run_cli("rules", "apply", state_path, move_path)
    assert result.code == 3, result
    assert result.err.startswith("illegal move (dolcevita.")
