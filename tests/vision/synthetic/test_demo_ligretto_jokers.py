"""A Ligretto demo with illegal placements plays on past a joker placed anyway.

A second joker placed (illegally) while the player still owed a card next to the first one
left two locks on that player; the rules then offered moves that ``apply`` refused, and the
demo's script stopped (seed 0, step 540). A new joker now replaces the player's own lock.
"""

from __future__ import annotations

from tableref.vision.synthetic.demo import demo_timeline

#: Steps past the one that stopped the demo before.
STEPS = 600


def test_the_demo_plays_on_past_a_second_joker_placed_anyway():
    timeline = demo_timeline("ligretto,seed=0,illegal=0.2,players=3")
    frame = 0
    while len(timeline.steps) < STEPS:
        step = timeline.step_at(frame)
        assert step is not None
        frame = step.end
    assert len(timeline.steps) >= STEPS
