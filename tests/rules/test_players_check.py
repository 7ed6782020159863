"""One check of a number of players for every game and every layer that takes one."""

from __future__ import annotations

import numpy as np
import pytest

from tableref.rules import daluigi, dolcevita, ligretto
from tableref.rules.common import players_problem
from tableref.rules.errors import InvalidInput


@pytest.mark.parametrize("players, problem", [
    (2, None),
    (4, None),
    (np.int64(3), None),  # as a numpy count arrives
    (1, "Ligretto is played by 2 to 4 players, not 1"),
    (5, "Ligretto is played by 2 to 4 players, not 5"),
    (np.int64(7), "Ligretto is played by 2 to 4 players, not 7"),
    (True, "Ligretto is played by 2 to 4 players, not True"),  # a bool is no count
    ("3", "Ligretto is played by 2 to 4 players, not '3'"),
    (3.0, "Ligretto is played by 2 to 4 players, not 3.0"),
    (None, "Ligretto is played by 2 to 4 players, not None"),
])
def test_a_number_of_players_is_a_whole_number_in_the_game_s_range(players, problem):
    assert players_problem("Ligretto", players, 2, 4) == problem


@pytest.mark.parametrize("rules, name", [(daluigi, "Da Luigi"), (dolcevita, "Dolce Vita"), (ligretto, "Ligretto")])
def test_every_engine_refuses_a_number_it_is_not_played_by(rules, name):
    with pytest.raises(InvalidInput, match=f"{name} is played by {rules.MIN_PLAYERS} to {rules.MAX_PLAYERS} players, "
                                           f"not {rules.MAX_PLAYERS + 1}"):
        rules.new_game(rules.MAX_PLAYERS + 1)
