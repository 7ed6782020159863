"""The assumed guest deck, a user's own deck file, options and JSON formats with their errors."""

from __future__ import annotations

import json

import pytest

from tableref.rules import daluigi
from tableref.rules.daluigi.catalogue import ABILITIES, SEGMENTS, load_deck
from tableref.rules.errors import InvalidInput


def test_shipped_deck_is_marked_assumed_and_complete():
    deck = load_deck()
    assert deck.assumed and len(deck.cards) == 90 and len(deck.guests) == 82
    assert len(deck.starts_short) == len(deck.starts_long) == 4
    for cid in deck.starts_long:  # 'Only one of each player's starting guests wants 1 dessert'
        assert deck.card(cid).order[0] == 1 and deck.card(cid).wait == 60
    assert all(deck.card(c).order[0] == 0 for c in deck.guests + deck.starts_short)
    assert {deck.card(c).ability for c in deck.guests} == set(ABILITIES)
    assert {deck.card(c).wait for c in deck.guests} == set(SEGMENTS)


def _deck_doc():
    return json.loads(json.dumps({"cards": [
        {"id": c.id, "dishes": [n for n, k in zip(("brown", "orange", "yellow", "green", "red", "blue"), c.order)
                                for _ in range(k)],
         "points": c.points, "wait": c.wait, "ability": c.ability, "start": c.start}
        for c in load_deck().cards.values()]}))


def test_user_deck_file_is_used(tmp_path):
    doc = _deck_doc()
    for card in doc["cards"]:
        card["points"] = 5
    path = tmp_path / "my-deck.json"
    path.write_text(json.dumps(doc))
    s = daluigi.new_game(2, {"deck": str(path)}, 3)
    assert s.options.deck == str(path) and not load_deck(str(path)).assumed
    assert daluigi.state_from_json(json.loads(json.dumps(s.to_json()))) == s


def _broken(doc, how):
    cards = doc["cards"]
    if how == "colour":
        cards[10]["dishes"] = ["purple"]
    elif how == "duplicate":
        cards[11]["id"] = cards[10]["id"]
    elif how == "starts":
        cards[0]["start"] = False
    elif how == "few":
        del cards[20:]
    elif how == "wait":
        cards[10]["wait"] = 35
    elif how == "points":
        cards[10]["points"] = 6
    elif how == "ability":
        cards[10]["ability"] = "fly"
    elif how == "dishes":
        cards[10]["dishes"] = []
    elif how == "missing":
        del cards[10]["wait"]
    return doc


@pytest.mark.parametrize("how,message", [
    ("colour", "unknown cube colour"), ("duplicate", "appears twice"), ("starts", "8 start cards"),
    ("few", "at least"), ("wait", "wait must be"), ("points", "points must be"), ("ability", "ability must be"),
    ("dishes", "1 to 4"), ("missing", "missing 'wait'"),
])
def test_bad_deck_files_are_refused_clearly(tmp_path, how, message):
    path = tmp_path / f"{how}.json"
    path.write_text(json.dumps(_broken(_deck_doc(), how)))
    with pytest.raises(InvalidInput, match=message):
        daluigi.new_game(2, {"deck": str(path)}, 1)


@pytest.mark.parametrize("content,message", [(None, "cannot read"), ("{not json", "is not JSON"),
                                             ("[]", "list 'cards'")])
def test_unreadable_deck_files(tmp_path, content, message):
    path = tmp_path / "deck.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(InvalidInput, match=message):
        daluigi.new_game(2, {"deck": str(path)}, 1)


@pytest.mark.parametrize("options,message", [
    ({"jokers": "never"}, "must be one of"), ({"colour": 1}, "unknown Da Luigi option"),
    ({"flower_tiles": 36}, "0 to 35"), ({"deck": 3}, "path"),
])
def test_bad_options(options, message):
    with pytest.raises(InvalidInput, match=message):
        daluigi.new_game(2, options, 1)


@pytest.mark.parametrize("players", [1, 5, "2", True])
def test_bad_player_counts(players):
    with pytest.raises(InvalidInput):
        daluigi.new_game(players)


def test_default_options_name_every_ambiguity():
    assert daluigi.DEFAULT_OPTIONS["voluntary_push_out"] == "paying"
    assert set(daluigi.DEFAULT_OPTIONS) == {
        "deck", "voluntary_push_out", "flower_guest_out", "arrow_target", "ability_dice", "jokers",
        "final_round_without_guest", "discarded_cube", "ten_dice_check", "tile_return", "tile_piles", "flower_tiles"}


@pytest.mark.parametrize("data", [
    {"type": "fly", "player": 0},
    {"type": "shop", "player": 0, "field": 12, "pushes": []},
    {"type": "shop", "player": 0, "field": 1},
    {"type": "cube", "player": 0, "colour": "red"},
    {"type": "welcome", "player": -1},
    {"type": "welcome", "player": 0, "field": 1},
    {"type": "serve", "player": 0, "place": [["G01"]]},
    {"type": "joker", "player": 0, "guest": "G01", "pay": ["gold"]},
    {"type": "discard", "player": 0, "what": "cube"},
    {"type": "discard", "player": 0, "what": "lemon", "colour": "red"},
    {"type": "flower", "player": 0, "take": 1},
    {"type": "welcome", "player": True},
    "shop",
])
def test_malformed_moves_are_invalid_input(data):
    with pytest.raises(InvalidInput):
        daluigi.move_from_json(data)


def test_state_json_names_its_game_and_is_checked():
    s = daluigi.new_game(2, None, 1)
    data = s.to_json()
    assert data["game"] == "daluigi"
    for key, value in (("game", "ligretto"), ("players", 7), ("market", []), ("tasks", [[]])):
        with pytest.raises(InvalidInput):
            daluigi.state_from_json({**data, key: value})
    with pytest.raises(InvalidInput):
        daluigi.apply(s, {"type": "welcome", "player": 0})
