"""The in-sequence flag benchmark: a live session following the demo, with eyes that see
perfectly (every flag is then a real one) and with one transient misreading (withdrawn)."""

from __future__ import annotations

import pytest

from tableref.bench.flags_sequence import Follower, figures
from tableref.gamelog import GameLog
from tableref.rules import game as rules_of
from tableref.rules.dolcevita.catalogue import number_label
from tableref.session import Session, SessionSettings
from tableref.vision.synthetic.demo import DemoReader, DemoSettings


class Eyes:
    """Sees the table after the step it is told of; at the steps in ``misread``, also a number
    card of the player not to move under column 2 (Dolce Vita), where none lies."""

    def __init__(self, rules, misread=()):
        self.rules, self.misread, self.step = rules, set(misread), None

    def recognise(self, image, profile):
        state = self.step.after
        seen = self.rules.observe(state)
        if self.step.index not in self.misread:
            return seen
        other = (state.to_move + 1) % state.players
        card = {"label": number_label(other, state.hands[other][0]), "where": "column:2:under", "confidence": 0.9}
        data = seen.to_json()
        return self.rules.observation_from_json({**data, "items": data["items"] + [card]})


def _follow(tmp_path, game_name, steps, eyes, withdraw=3):
    reader = DemoReader(DemoSettings(game=game_name, seed=5, illegal_rate=0.3, image_size=(320, 180), loop=True))
    gamelog = GameLog(tmp_path / "games.sqlite")
    session = Session(gamelog, SessionSettings(withdraw_flags=withdraw))
    follower = Follower(game_name, session, eyes)
    frame = 0
    try:
        for _ in range(steps):
            step = reader.timeline.step_at(frame)
            frame = step.end
            eyes.step = step
            follower.follow(reader, step)
    finally:
        session.close()
        gamelog.close()
    named = figures(game_name, follower.tally, [0.1], "a test")
    return follower.tally, {f.name.split(": ", 1)[1]: f.value for f in named}


@pytest.mark.parametrize("game_name, steps", [("dolcevita", 40), ("ligretto", 30)])
def test_perfect_eyes_follow_the_demo_and_flag_exactly_its_illegal_placements(tmp_path, game_name, steps):
    tally, by_name = _follow(tmp_path, game_name, steps, Eyes(rules_of(game_name)))
    assert tally["illegal"] > 0 and tally["legal"] > 0 and tally["readings"] == steps
    assert by_name["illegal placements flagged"] == 100.0
    assert by_name["false flags per 200 legal moves"] == 0.0
    assert by_name["readings after which the state shows the table as the game has it"] == 100.0
    assert tally["withdrawn"] == 0 and tally["revised"] == 0 and by_name["accepted moves revised"] == 0


@pytest.mark.parametrize("withdraw, false_flags, withdrawn", [(3, 1, 1), (0, 2, 0)])
def test_a_misreading_seen_once_is_withdrawn_at_the_next_reading(tmp_path, withdraw, false_flags, withdrawn):
    rules = rules_of("dolcevita")
    reader = DemoReader(DemoSettings(game="dolcevita", seed=5, illegal_rate=0.3, image_size=(320, 180)))
    frame, legal = 0, []
    while len(legal) < 4:  # the first legal placements after the deal, one followed by another
        step = reader.timeline.step_at(frame)
        frame = step.end
        if step.move is not None and step.illegal is None and step.index > 1:
            legal.append(step.index)
    target = next(i for i in legal if i + 1 in legal)
    tally, _ = _follow(tmp_path, "dolcevita", target + 2, Eyes(rules, misread=[target]), withdraw)
    assert tally["legal:flagged"] == false_flags and tally["withdrawn"] == withdrawn
    assert (tally["following"] == tally["readings"] - 1) == bool(withdraw)  # only the misread reading is off
