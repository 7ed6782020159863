"""The flag benchmark on the demo: its bookkeeping, with a recogniser that sees perfectly.

With the perfect observation of every settled table, the referee must flag exactly the
demo's illegal placements (the rules engines know every rule the demo breaks); what is left
to measure in ``tableref bench --flags`` is then the recogniser's share.
"""

from __future__ import annotations

import pytest

from tableref.bench.flags import figures, referee_placement
from tableref.rules import game as rules_of
from tableref.vision.synthetic.demo import DemoReader, DemoSettings
from tableref.vision.synthetic.demo_illegal import is_placement


class PerfectEyes:
    """Sees the state after one step exactly (the demo's ground truth)."""

    def __init__(self, rules, state):
        self.rules, self.state = rules, state

    def recognise(self, image, profile):
        return self.rules.observe(self.state)


@pytest.mark.parametrize("game_name, count", [("dolcevita", 40), ("ligretto", 40)])
def test_perfect_eyes_flag_exactly_the_illegal_placements(game_name, count):
    settings = DemoSettings(game=game_name, seed=5, illegal_rate=0.4, image_size=(320, 180), loop=True)
    reader = DemoReader(settings)
    rules = rules_of(game_name)
    outcomes, frame = [], 0
    while len(outcomes) < count:
        step = reader.timeline.step_at(frame)
        frame = step.end
        if step.move is not None and is_placement(game_name, step.move):
            outcomes.append(referee_placement(rules, PerfectEyes(rules, step.after), reader, step))
    assert any(o.illegal for o in outcomes) and any(not o.illegal for o in outcomes)
    assert [o.flagged for o in outcomes] == [o.illegal for o in outcomes]
    assert all(o.right_player for o in outcomes if o.illegal)
    by_name = {f.name.split(": ", 1)[1]: f.value for f in figures(game_name, outcomes, settings)}
    assert by_name["illegal placements flagged"] == 100.0
    assert by_name["false flags per 200 legal placements"] == 0.0
