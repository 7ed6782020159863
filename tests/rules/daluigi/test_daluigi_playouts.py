"""Random legal games at every player count and under every option, with invariants after each move."""

from __future__ import annotations

import json
import random

import pytest

from tableref.rules import daluigi
from tableref.rules.common import CHANCE
from tableref.rules.daluigi.catalogue import CUBE_COUNTS, TILES, load_deck
from tableref.rules.daluigi.options import CHOICES

#: Games per player count with the default options (123 games in all, with the option games below).
GAMES = {2: 80, 3: 60, 4: 40}
#: Every non-default value of every option, each played in a few games.
OPTION_CASES = [({name: value}, players) for name, values in CHOICES.items() for value in values[1:]
                for players in (2, 4)] + [({"flower_tiles": 0, "tile_piles": "separate"}, 3)]


def conserved(s) -> None:
    """Every cube, card and tile is in exactly one place."""
    vectors = list(s.market) + list(s.supply) + [s.bag, s.used]
    vectors += [g.cubes for strip in s.strips for g in strip if g is not None]
    assert tuple(sum(v[c] for v in vectors) for c in range(6)) == CUBE_COUNTS
    assert all(x >= 0 for v in vectors for x in v)
    cards = [g.card for strip in s.strips for g in strip if g is not None]
    cards += [c for pile in s.served for c in pile] + list(s.discard) + list(s.unseen) + list(s.starts)
    cards += [s.revealed] if s.revealed else []
    assert sorted(cards) == sorted(load_deck(s.options.deck).cards)
    assert s.market_flowers + s.market_lemons + s.box_tiles + sum(abs(t) for t in s.tiles) == TILES
    assert min(s.market_flowers, s.market_lemons, s.pile, s.hand) >= 0


def playout(players: int, seed: int, options=None, deep: bool = False):
    rng = random.Random(seed)
    state = daluigi.new_game(players, options, seed)
    moves = 0
    while not daluigi.is_over(state):
        if state.to_move == CHANCE:
            move = daluigi.sample_chance(state, rng)
        else:
            legal = daluigi.legal_moves(state)
            assert len(legal) >= 2 or state.phase == "action"  # forced decisions are taken by the engine
            move = legal[rng.randrange(len(legal))]
        before = json.dumps(state.to_json(), sort_keys=True) if deep else None
        after = daluigi.apply(state, move)
        assert daluigi.state_from_json(json.loads(json.dumps(after.to_json()))) == after
        assert daluigi.move_from_json(json.loads(json.dumps(move.to_json()))) == move
        conserved(after)
        assert daluigi.violations(after) == [], [str(v) for v in daluigi.violations(after)]
        daluigi.score(after)  # Score checks that its parts add up to the totals
        if deep:
            assert json.dumps(state.to_json(), sort_keys=True) == before  # apply never changes its input
            assert daluigi.apply(state, move) == after
            if state.to_move != CHANCE and rng.random() < 0.1:
                for other in daluigi.legal_moves(state):
                    daluigi.apply(state, other)
        state = after
        moves += 1
        assert moves < 5000
    assert daluigi.legal_moves(state) == []
    final = daluigi.score(state)
    assert final.final and final.winners
    return state


@pytest.mark.parametrize("players,seed", [(p, s) for p, n in GAMES.items() for s in range(n)])
def test_random_games_keep_invariants(players, seed):
    playout(players, seed, deep=seed % 5 == 0)


@pytest.mark.parametrize("options,players", OPTION_CASES, ids=[f"{o}-{p}p" for o, p in OPTION_CASES])
def test_random_games_under_every_option(options, players):
    playout(players, 100 + players, options, deep=True)


def test_same_seed_same_game():
    a, b = playout(3, 7), playout(3, 7)
    assert a == b and a.to_json() == b.to_json()
