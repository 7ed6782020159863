"""Da Luigi laid out as a scene: every game item has its part, areas do not collide, the
perfect observation follows what shows, and ground truth lands on the pixels."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from tableref.rules import daluigi as rules
from tableref.vision.synthetic import CLEAN, render
from tableref.vision.synthetic.dataset import DEFAULT_SETTINGS, render_sample, sample
from tableref.vision.synthetic.games import perfect_observation, random_state, scene_for
from tableref.vision.synthetic.games.daluigi import player_seats, table_size
from tableref.vision.synthetic.games.checks import card_alone_mask, cube_colour_hits, iou, polygon_mask, render_light
from tableref.vision.synthetic.games.scene import Seen

#: Seeds whose random states cover 2, 3 and 4 players and several phases.
SEEDS = (0, 1, 2, 3, 7)


@pytest.mark.parametrize("seed", SEEDS)
def test_every_visible_item_has_its_part(seed):
    state = random_state("daluigi", seed)
    scene = scene_for("daluigi", state)
    idents = {c.ident for c in scene.layout.components}
    assert all(c.ident for c in scene.layout.components)
    for f, cubes in enumerate(state.market):
        assert {f"dl.field.{f}.{k}" for k in range(sum(cubes))} <= idents
        assert f"dl.field.{f}" in scene.regions
    for p in range(state.players):
        assert f"dl.strip.{p}" in idents and f"dl.supply.{p}" in scene.regions
        for s, guest in enumerate(state.strips[p]):
            assert (f"dl.guest.{p}.{s}" in idents) == (guest is not None)
            if guest:
                assert {f"dl.order.{p}.{s}.{k}" for k in range(sum(guest.cubes))} <= idents
        assert sum(i.startswith(f"dl.supply.{p}.") for i in idents) == sum(state.supply[p])
        assert sum(i.startswith(f"dl.tile.{p}.") for i in idents) == abs(state.tiles[p])
        assert sum(i.startswith(f"dl.served.{p}.") for i in idents) == len(state.served[p])
    assert sum(i.startswith("dl.hand.") for i in idents) == state.hand
    assert ("dl.revealed" in idents) == bool(state.revealed)
    assert sum(i.startswith("dl.used.") for i in idents) == sum(state.used)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_player_areas_stay_clear_of_each_other_and_of_the_markers(players):
    table = table_size(players)
    state = random_state("daluigi", 5, players)
    scene = scene_for("daluigi", state)
    w, d = table
    marker = scene.layout.marker_mm * 4 / 3  # the printed paper with its quiet zone
    strips = [c for c in scene.layout.components if c.kind == "daluigi.strip"]
    assert len(strips) == len(player_seats(players, table)) == players
    for c in scene.layout.components:
        corner = min(abs(c.x_mm - x) + abs(c.y_mm - y) for x in (0, w) for y in (0, d))
        assert corner > marker, c.ident
    centres = np.array([[c.x_mm, c.y_mm] for c in strips])
    gaps = np.linalg.norm(centres[:, None] - centres[None], axis=-1)[np.triu_indices(players, 1)]
    assert gaps.min() > 200.0


@pytest.mark.parametrize("seed", SEEDS)
def test_perfect_observation_is_observe_where_seen_and_unknown_elsewhere(seed):
    smp = sample("daluigi", seed)
    expected = rules.observe(smp.scene.state)
    seen = smp.observation
    assert [i.where for i in seen.items] == [i.where for i in expected.items]
    for e, s in zip(expected.items, seen.items):
        assert (s.label, s.confidence) in ((e.label, 1.0), ("?", 0.0))
    assert rules.observation_from_json(seen.to_json()) == seen


def test_nothing_seen_makes_every_item_unknown_and_clean_renders_show_everything():
    state = random_state("daluigi", 3)
    scene = scene_for("daluigi", state)
    from tableref.vision.synthetic.games import observation_of
    blind = observation_of(scene, Seen({}, {}))
    assert {(i.label, i.confidence) for i in blind.items} == {("?", 0.0)}
    assert perfect_observation(scene, render(scene.layout, 3, CLEAN)) == rules.observe(state)



def _state_with(hand: int):
    state = random_state("daluigi", 3)
    return scene_for("daluigi", replace(state, hand=hand, revealed=None))


@pytest.mark.parametrize("hand, hidden_seat, known", [
    (0, None, True),   # every seat's place shows: no hand anywhere
    (0, "other", False),  # another seat hidden: the hand may lie there
    (0, "active", False),
    (2, "other", True),  # the hand shows at its seat, wherever else is hidden
    (2, "active", False),
])
def test_no_welcoming_hand_shows_only_where_every_seat_shows(hand, hidden_seat, known):
    from tableref.vision.synthetic.games import observation_of
    scene = _state_with(hand)
    state = scene.state
    other = (state.active + 1) % state.players
    regions = {name: 1.0 for name in scene.regions}
    parts = {c.ident: 1.0 for c in scene.layout.components}
    if hidden_seat is not None:
        p = state.active if hidden_seat == "active" else other
        regions[f"dl.hand_at.{p}"] = regions[f"dl.revealed_at.{p}"] = 0.2
        if p == state.active:
            regions["dl.hand"] = regions["dl.revealed"] = 0.2
            parts.update({f"dl.hand.{k}": 0.2 for k in range(hand)})
    read = {i.where: i.label for i in observation_of(scene, Seen(parts, regions)).items}
    assert read["hand"] == (str(hand) if known else "?")
    assert read["revealed"] == ("" if hidden_seat is None else "?")


@pytest.mark.parametrize("place, region, hide, known", [
    ("supply:0", "dl.supply.0.next", False, True),
    ("supply:0", "dl.supply.0.next", True, False),   # one more cube may lie where it is covered
    ("lemons:0", "dl.tiles.0.next", True, False),
    ("market:0", "dl.field.0.next", True, False),
    ("market:0", "dl.field.1.next", True, True),     # another field's next place tells nothing here
])
def test_a_row_is_known_only_where_the_place_after_its_last_piece_shows(place, region, hide, known):
    from tableref.vision.synthetic.games import observation_of
    state = random_state("daluigi", 3)
    market = ((1, 1, 0, 0, 0, 0),) + ((0, 0, 1, 0, 0, 0),) * 11
    state = replace(state, market=market, supply=((1, 0, 2, 0, 0, 0),) + state.supply[1:],
                    tiles=(-2,) + state.tiles[1:])
    scene = scene_for("daluigi", state)
    assert region in scene.regions
    regions = {name: 1.0 for name in scene.regions}
    parts = {c.ident: 1.0 for c in scene.layout.components}
    if hide:
        regions[region] = 0.2
    read = {i.where: i.label for i in observation_of(scene, Seen(parts, regions)).items}
    assert (read[place] != "?") == known

@pytest.mark.parametrize("seed", (1, 2))
def test_cubes_show_their_colour_and_guest_polygons_cover_their_cards(seed):
    smp = sample("daluigi", seed)
    truth = smp.render.truth
    light = render_light(smp.scene.layout, seed, DEFAULT_SETTINGS, truth.camera)
    right, total = cube_colour_hits(smp.render.image, smp.render.labels, truth, light)
    assert total >= 10 and right >= 0.99 * total
    guests = [o for o in truth.objects if o.kind == "daluigi.guest" and o.in_frame][:3]
    for o in guests:
        mask = card_alone_mask(smp.scene.layout, o.index, seed, truth.camera)
        assert iou(polygon_mask(mask.shape, o.polygon_px), mask) >= 0.95, o.ident


def test_render_sample_labels_name_the_game_items():
    image, labels = render_sample("daluigi", 2)
    assert image.shape == (720, 1280, 3) and labels["game"] == "daluigi"
    idents = {o["ident"] for o in labels["objects"]}
    assert "dl.market" in idents and "dl.strip.0" in idents
    assert {"dl.field.0", "dl.slot.0.0", "dl.hand"} <= set(labels["regions"])
