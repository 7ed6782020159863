"""Verdicts turned into events: moves, flags, round ends and the game's end, with summaries."""

from __future__ import annotations

import pytest

from tableref.events import Event, EventDraft
from tableref.gamelog import PlayerInfo
from tableref.live.judge import (_moves_text, clears_flags, describe_move, milestones, named_by_open_flags,
                                 observation_changes, places_gone, reading_events, repeats_open_flag, revision_event,
                                 rounds_done, shows_as_read, still_disputed, with_places_of)
from tableref.rules.dolcevita.catalogue import number_label
from tableref.rules import game
from tableref.rules.playout import random_playout

PLAYERS = (PlayerInfo("Ann", "#ff0000"), PlayerInfo("Bob", "#0000ff"))


def _steps(name, seed=2):
    rules = game(name)
    steps = []
    random_playout(rules, 2, seed, on_move=lambda before, move, after: steps.append((before, move, after)))
    return rules, steps


@pytest.mark.parametrize("name", ["dolcevita", "ligretto"])
def test_round_and_game_ends_are_found(name):
    rules, steps = _steps(name)
    kinds = [[d.kind for d in milestones(rules, before, after)] for before, _, after in steps]
    assert kinds[-1] == ["game_end"]
    assert sum(k == ["round_end"] for k in kinds) >= 1
    assert all(k in ([], ["round_end"]) for k in kinds[:-1])


def test_a_legal_move_is_accepted_with_its_player():
    rules, steps = _steps("dolcevita")
    before, move, after = steps[0]
    verdict = rules.referee(before, rules.observe(after))
    drafts = reading_events(rules, before, verdict, PLAYERS, lambda flags: None)
    assert [d.kind for d in drafts] == ["move_accepted"]
    assert drafts[0].player == move.player and drafts[0].summary.startswith(PLAYERS[move.player].name)
    assert drafts[0].state == after.to_json() and drafts[0].data["score"]["names"] == ["Ann", "Bob"]


def test_no_change_gives_no_event():
    rules, steps = _steps("dolcevita")
    state = steps[0][0]
    assert reading_events(rules, state, rules.referee(state, rules.observe(state)), PLAYERS, lambda f: None) == []


@pytest.mark.parametrize("state,expected", [
    ({"results": [[1, 2], [3, 4]], "round": 3}, 2),
    ({"round": 4}, 3),
    ({"turn": 9}, None),
])
def test_rounds_done(state, expected):
    assert rounds_done(state) == expected


@pytest.mark.parametrize("move,expected", [
    ({"type": "place", "player": 0, "value": 3, "column": 2}, "place value=3 column=2"),
    ({"type": "resolve"}, "resolve"),
    ({}, "move"),
])
def test_describe_move(move, expected):
    assert describe_move(move) == expected


def _deal(n: int) -> list[dict]:
    return [{"type": "deal", "card": f"car:{k}00000", "player": -1} for k in range(n)]


PLACE = {"type": "place", "player": 0, "value": 3, "column": 2}


@pytest.mark.parametrize("moves,expected", [
    ([PLACE], "place value=3 column=2"),
    (_deal(3), "deal card=car:000000; deal card=car:100000; deal card=car:200000"),
    (_deal(4), "4 x deal"),
    (_deal(2) + [PLACE] * 3, "deal card=car:000000; deal card=car:100000; place value=3 column=2 and 2 more"),
    (_deal(63) + [PLACE], "63 x deal; place value=3 column=2"),
    (_deal(63) + [PLACE] * 2 + [{"type": "resolve"}] * 2,
     "63 x deal; place value=3 column=2; place value=3 column=2 and 2 more"),
])
def test_moves_are_summarised_with_long_runs_counted(moves, expected):
    assert _moves_text(moves) == expected


def _dolcevita_position():
    """Dolce Vita two moves in, its observation, and a number card of the player not to move."""
    rules, steps = _steps("dolcevita", seed=5)
    state = steps[2][0]
    seen = rules.observe(state).to_json()
    other = 1 - state.to_move
    stray = {"label": number_label(other, state.hands[other][0]), "where": "column:3:under", "confidence": 0.9}
    return rules, state, seen, stray


def _relabelled(seen: dict, index: int, label: str, confidence: float) -> dict:
    items = [dict(item) for item in seen["items"]]
    items[index].update(label=label, confidence=confidence)
    return {**seen, "items": items}


@pytest.mark.parametrize("before,after,expected", [
    ({"items": [{"where": "a", "label": "x", "confidence": 1.0}]},
     {"items": [{"where": "a", "label": "x", "confidence": 0.2}]}, []),
    ({"items": [{"where": "a", "label": "x", "confidence": 1.0}]},
     {"items": [{"where": "a", "label": "y", "confidence": 1.0}]}, [{"where": "a", "was": ["x"], "now": ["y"]}]),
    ({"items": [{"where": "u", "label": "p", "confidence": 1.0}]},
     {"items": [{"where": "u", "label": "p"}, {"where": "u", "label": "q"}, {"where": "v", "label": "r"}]},
     [{"where": "u", "was": ["p"], "now": ["p", "q"]}, {"where": "v", "was": [], "now": ["r"]}]),
    ({"cells": [{"cell": [0, 1], "cover": "none", "owner": None, "confidence": 1.0}]},
     {"cells": [{"cell": [0, 1], "cover": "card", "owner": 1, "confidence": 0.7}]},
     [{"where": "0,1", "was": ["cover=none"], "now": ["cover=card owner=1"]}]),
    ({"game": "g", "round": 1}, {"game": "g", "round": 2}, [{"where": "round", "was": ["1"], "now": ["2"]}]),
])
def test_observation_changes(before, after, expected):
    assert observation_changes(before, after) == expected
    assert observation_changes(after, after) == []


def test_a_change_no_move_explains_is_an_event_with_what_differs():
    rules, state, seen, _ = _dolcevita_position()
    first = seen["items"][0]
    misread = _relabelled(seen, 0, "car:100000" if first["label"] != "car:100000" else "boat:400000", 0.3)
    verdict = rules.referee(state, rules.observation_from_json(misread))
    assert verdict.legal and not verdict.moves  # the referee forgives the doubtful card: no move
    shots = []
    drafts = reading_events(rules, state, verdict, PLAYERS, lambda flags: shots.append(flags) or b"jpeg",
                            observation=misread, previous=seen)
    assert [d.kind for d in drafts] == ["unexplained_change"]
    change = {"where": first["where"], "was": [first["label"]], "now": [misread["items"][0]["label"]]}
    assert drafts[0].data["changes"] == [change] == drafts[0].data["differs_from_state"]
    assert first["where"] in drafts[0].summary and drafts[0].state is None
    assert drafts[0].snapshot == b"jpeg" and shots == [()]
    # the same reading again (a hand passed over the table) is no news
    assert reading_events(rules, state, verdict, PLAYERS, lambda f: None, observation=misread, previous=misread) == []
    # without the reading, a verdict with no move cannot be described
    assert reading_events(rules, state, verdict, PLAYERS, lambda f: None) == []


def test_a_place_going_out_of_sight_and_back_is_no_change():
    rules, state, seen, _ = _dolcevita_position()
    covered = _relabelled(seen, 0, "unknown", 0.9)  # a hand over the first card
    verdict = rules.referee(state, rules.observation_from_json(covered))
    assert verdict.legal and not verdict.moves
    assert reading_events(rules, state, verdict, PLAYERS, lambda f: None, observation=covered, previous=seen) == []
    back = rules.referee(state, rules.observation_from_json(seen))  # the hand gone: as the state has it
    assert reading_events(rules, state, back, PLAYERS, lambda f: None, observation=seen, previous=covered) == []
    # out of sight, then back as another card: that is a change
    other = _relabelled(seen, 0, "car:100000" if seen["items"][0]["label"] != "car:100000" else "boat:400000", 0.3)
    verdict = rules.referee(state, rules.observation_from_json(other))
    drafts = reading_events(rules, state, verdict, PLAYERS, lambda f: None, observation=other, previous=covered)
    assert [d.kind for d in drafts] == ["unexplained_change"]
    assert drafts[0].data["changes"][0]["was"] == ["unknown"]


@pytest.mark.parametrize("contents, hidden", [
    (["unknown"], True), (["?"], True), (["?", "?"], True),  # Dolce Vita, Da Luigi
    ([""], True), (["token=False"], True),  # a Ligretto space whose cover is unknown
    ([], False), (["?", "red"], False), (["cover=none token=False"], False), (["car:100000"], False),
])
def test_what_counts_as_out_of_sight(contents, hidden):
    from tableref.live.judge import _hidden

    assert _hidden(contents) is hidden


def test_the_table_put_back_is_a_state_corrected_by_a_player():
    rules, state, seen, stray = _dolcevita_position()
    flagged = {**seen, "items": seen["items"] + [stray]}  # the stray card was flagged and taken back (undo)
    verdict = rules.referee(state, rules.observation_from_json(seen))  # now the player removes it
    drafts = reading_events(rules, state, verdict, PLAYERS, lambda f: None, observation=seen, previous=flagged)
    assert [d.kind for d in drafts] == ["state_corrected"]
    assert drafts[0].data["how"] == "table" and drafts[0].player is None and drafts[0].state is None
    assert drafts[0].data["changes"] == [{"where": "column:3:under", "was": [stray["label"]], "now": []}]
    assert "put back" in drafts[0].summary and stray["label"] in drafts[0].summary


def _violation(code: str, pieces: tuple[str, ...]) -> dict:
    return {"code": code, "player": 0, "pieces": list(pieces), "sentence": "s", "rule": ""}


@pytest.mark.parametrize("draft_kind, draft_violations, open_violations, expected", [
    ("illegal_flagged", [_violation("g.a", ("x", "y"))], [[_violation("g.a", ("y", "x"))]], True),
    ("illegal_flagged", [_violation("g.a", ("x", "y"))], [[_violation("g.a", ("x", "y"))]], True),
    ("illegal_flagged", [_violation("g.a", ("x",)), _violation("g.b", ("z",))],
     [[_violation("g.b", ("z",)), _violation("g.a", ("x",))]], True),
    ("illegal_flagged", [_violation("g.a", ("x",))], [[_violation("g.b", ("x",))]], False),
    ("illegal_flagged", [_violation("g.a", ("x",))], [], False),
    ("move_accepted", [_violation("g.a", ("x",))], [[_violation("g.a", ("x",))]], False),
])
def test_a_flag_already_open_is_not_raised_again(draft_kind, draft_violations, open_violations, expected):
    draft = EventDraft(draft_kind, "summary", data={"violations": draft_violations})
    flags = [Event("game", k + 1, 0.0, "illegal_flagged", "open flag", 0, {"violations": v}, None)
             for k, v in enumerate(open_violations)]
    assert repeats_open_flag(draft, flags) is expected


@pytest.mark.parametrize("violations, open_violations, expected", [
    ([_violation("g.a", ("x",))], [[_violation("g.a", ("x",))]], True),
    ([_violation("g.a", ("y", "x"))], [[_violation("g.b", ("z",))], [_violation("g.a", ("x", "y"))]], True),
    # one rule named, one new beside it (judged around the dispute, the new one may go)
    ([_violation("g.c", ("z",)), _violation("g.a", ("x",))], [[_violation("g.a", ("x",))]], True),
    ([_violation("g.a", ("z",))], [[_violation("g.a", ("x",))]], False),  # the same rule, other pieces
    ([], [[_violation("g.a", ("x",))]], False),
    ([_violation("g.a", ("x",))], [], False),
])
def test_a_reading_breaks_a_rule_an_open_flag_names(violations, open_violations, expected):
    flags = [Event("game", k + 1, 0.0, "illegal_flagged", "open flag", 0, {"violations": v}, None)
             for k, v in enumerate(open_violations)]
    assert named_by_open_flags(violations, flags) is expected


def _seen(**places) -> dict:
    return {"game": "g", "items": [{"where": w.replace("_", ":"), "label": label, "confidence": 0.9}
                                   for w, label in places.items()]}


@pytest.mark.parametrize("previous, reading, kept, expected", [
    # a die the state could not take in, read again: disputed
    (_seen(order_0="orange,blue", market_1="red"), _seen(order_0="orange,blue", market_1=""),
     _seen(order_0="blue", market_1=""), ["order:0"]),
    # read so for the first time: news, judged as it is
    (_seen(order_0="blue", market_1="red"), _seen(order_0="orange,blue", market_1="red"),
     _seen(order_0="blue", market_1="red"), []),
    # the position kept holds it: nothing to take round it
    (_seen(order_0="orange,blue"), _seen(order_0="orange,blue"), _seen(order_0="orange,blue"), []),
    # read as the state holds it: no dispute
    (_seen(order_0="blue"), _seen(order_0="blue"), _seen(order_0="orange"), []),
    (None, _seen(order_0="orange,blue"), _seen(order_0="blue"), []),  # no reading before
])
def test_places_still_disputed(previous, reading, kept, expected):
    held = _seen(order_0="blue", market_1="red")
    assert still_disputed(held, previous, reading, kept) == expected


def test_with_places_of_takes_those_places_from_the_other_observation():
    reading = _seen(order_0="orange,blue", order_1="red", supply_0="green")
    held = _seen(order_0="blue", order_1="red", supply_0="")
    got = with_places_of(reading, held, ["order:0", "supply:0"])
    assert got["game"] == "g"
    assert sorted((it["where"], it["label"]) for it in got["items"]) == [("order:0", "blue"), ("order:1", "red"),
                                                                         ("supply:0", "")]
    assert with_places_of(reading, held, []) == reading
    cells = {"cells": [{"cell": [0, 1], "cover": "card"}, {"cell": [2, 2], "cover": None}], "players": 2}
    other = {"cells": [{"cell": [0, 1], "cover": None}], "players": 2}
    assert with_places_of(cells, other, ["0,1"]) == {"cells": [{"cell": [2, 2], "cover": None},
                                                               {"cell": [0, 1], "cover": None}], "players": 2}


@pytest.mark.parametrize("reading, expected", [
    ("next", True),       # the flagged card was a misreading: the next move, seen right
    ("put_back", True),   # the card taken back off the table
    ("hidden", False),    # a hand over the flagged card: unknown there, nothing plainly gone
    ("still", False),     # the card still lies there and the next move was made: legal in another order
])
def test_a_flag_clears_only_when_the_table_plainly_shows_what_it_saw_gone(reading, expected):
    rules, state, seen, stray = _dolcevita_position()
    flagged_reading = {**seen, "items": seen["items"] + [stray]}
    flag = rules.referee(state, rules.observation_from_json(flagged_reading))
    assert not flag.legal
    _, steps = _steps("dolcevita", seed=5)
    after = rules.observe(steps[2][2]).to_json()
    hidden = {"label": "unknown", "where": stray["where"], "confidence": 0.0}
    shown = {"next": after, "put_back": seen, "hidden": {**seen, "items": seen["items"] + [hidden]},
             "still": {**after, "items": after["items"] + [stray]}}[reading]
    verdict = rules.referee(state, rules.observation_from_json(shown))
    # the cheap test first: the stray card's place no longer shows it (unknown counts, until refereed)
    gone = places_gone(rules, state, flag.state, shown)
    assert gone == ([] if reading == "still" else [stray["where"]])
    assert clears_flags(rules, state, verdict, shown, gone) is expected
    if reading == "still":
        assert verdict.legal and len(verdict.moves) == 2  # what the condition on the places is for


@pytest.mark.parametrize("place, label, expected", [
    ("column:0:under", None, True),              # the place as the state has it
    ("column:0:under", "yellow:6", False),       # another card read there
    ("column:0:slot:0", None, True),
])
def test_shows_as_read_compares_a_place_whole(place, label, expected):
    rules, steps = _steps("dolcevita", seed=5)
    state = next(after for _, _, after in steps if after.under[0])
    seen = rules.observe(state).to_json()
    if label is not None:
        seen = {**seen, "items": [{**i, "label": label} if i["where"] == place else i for i in seen["items"]]}
    assert shows_as_read(rules, state, seen, [place]) is expected
    assert shows_as_read(rules, state, seen, [place, "column:0:slot:0"])  # one place as read is enough


def test_a_revision_names_the_moves_and_places_and_returns_the_state():
    draft = revision_event([12, 11], ["column:4:under"], {"x": 1})
    assert draft.kind == "move_revised" and draft.player is None and draft.state == {"x": 1}
    assert draft.data == {"moves": [11, 12], "places": ["column:4:under"]}
    assert draft.summary.startswith("Moves 11, 12 revised") and "column:4:under" in draft.summary
