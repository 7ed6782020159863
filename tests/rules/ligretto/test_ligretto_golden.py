"""Golden game records: random games must replay byte for byte as recorded before the engine was
made faster (same legal moves, in the same order, same outcomes), and the facts the engine keeps
per state and carries across a placement must equal those worked out afresh.

The hashes are sha256 of ``json.dumps(random_playout(...).to_json(), sort_keys=True)``.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import replace

import pytest

from tableref.rules import ligretto as L
from tableref.rules.ligretto.engine import anyone_can_play
from tableref.rules.playout import random_playout

#: (players, seed, options, sha256 of the game record): six-round games with the default options,
#: then two-round games under each option that changes where cards may go.
GOLDEN = [
    (2, 0, None, "b1bf81f69a233f4c2a70d612d25bbb9bba8900ea575056934127cc0e7786fd9e"),
    (2, 7, None, "287616c0aefd289d3640b6631c6bc8b3c5b4d31abc38cfb7ca22bc28b03023d1"),
    (2, 23, None, "d0d01b8c9af898e52cd50601a34877451a8b44f9f6bac6bea1ad70d4d8fa3ea8"),
    (3, 1, None, "bc9676b769640808d9a249019445c495bd220e6d867c53b6bee3cab9ca32f57f"),
    (3, 12, None, "d6bc8944264061fb97fb27257748a7124822ff585976b4386bb7191a48c882ec"),
    (3, 29, None, "faaff89fcbeb1b985d66c9c6ab7499e64caa5303cb2395e704797f3f18541134"),
    (4, 2, None, "ca33e1e5320ae99d7cc96a094ba068b1fa5c72087ea04a1e8bf143a8d0c1ba80"),
    (4, 15, None, "d1dd884de53597572c02500d9ebc54cbee22552f4d65152d1930fc0f8d9c3a4a"),
    (4, 28, None, "6b6a101aef627624be872dd2f7545e44e45a76790f26eca3952abc1d6a931ba0"),
    (2, 1, {"rounds": 2, "cul_de_sac": "colours"},
     "a6634c30863dd6e88050229730d962b9d650c0fbd6f27b1c20304d66f9795deb"),
    (3, 1, {"rounds": 2, "touch": "card"}, "8fa5988a541cbffc1cfc4507af807bf324e57e684563827507741f978b765843"),
    (4, 1, {"rounds": 2, "joker_lock": "round"}, "3dd72b5efdaff4fbc6db2359ded0c60dff986077f60ee4ed2e1c60ed77836572"),
    (2, 1, {"rounds": 2, "relocate": "one"}, "cf88d1574faffd600337577f0f801272f23048af05041fc1d7686fc37e27a76f"),
    (3, 1, {"rounds": 2, "must_play": False}, "d34631533deb96f49a551866ff43690eeaa995402517532dcc72054861455baf"),
    (4, 1, {"rounds": 2, "wrong_way_round": "allowed"},
     "57e40400fbcb783a1d1482747c76f1757c6b454fafe31a962f260a74002ca83d"),
    (2, 1, {"rounds": 2, "joker_from_start": False},
     "4dedb65e2329ecb9abbd206a21354e631dab7c5f7451c4eedc01452fc6116b0e"),
    (3, 1, {"rounds": 2, "sections": 9}, "04b27718efb5f59dc9d6c63c35888bd4983e71c61b58673b4bf0fefd09e05653"),
    (4, 1, {"rounds": 2, "touch": "card", "cul_de_sac": "colours", "joker_lock": "round",
            "wrong_way_round": "allowed"}, "fc29ebce36cce7d8b4279ac919699ae370ac17a7b21b659a4d45b0b095f6d10b"),
]


@pytest.mark.parametrize("players,seed,options,digest", GOLDEN,
                         ids=[f"{p}p-s{s}-{'+'.join(k for k in (o or {}) if k != 'rounds') or 'default'}"
                              for p, s, o, _ in GOLDEN])
def test_random_game_replays_the_golden_record(players, seed, options, digest):
    record = random_playout(L, players, seed, options)
    text = json.dumps(record.to_json(), sort_keys=True)
    assert hashlib.sha256(text.encode()).hexdigest() == digest


#: (players, seed, options): games in which every state is checked against a fresh copy.
CARRIED = [
    (2, 3, {}),
    (3, 4, {}),
    (4, 5, {}),
    (4, 6, {"touch": "card"}),
    (3, 7, {"joker_lock": "round"}),
    (4, 8, {"wrong_way_round": "allowed", "cul_de_sac": "colours"}),
    (2, 9, {"must_play": False, "relocate": "one"}),
    (3, 10, {"joker_from_start": False}),
]


@pytest.mark.parametrize("players,seed,options", CARRIED)
def test_carried_facts_equal_fresh_ones(players, seed, options):
    """A state rebuilt through the validating constructor (empty memo) offers exactly the same
    moves, in the same order, as the state the engine carried its facts into."""
    rng = random.Random(seed)
    state = L.new_game(players, {"rounds": 1, **options})
    while not L.is_over(state):
        fresh = replace(state, round=state.round)
        assert fresh == state and fresh.memo == {}
        moves = L.legal_moves(state)
        assert moves == L.legal_moves(fresh)
        assert anyone_can_play(state) == anyone_can_play(fresh)
        state = L.apply(state, moves[rng.randrange(len(moves))])
