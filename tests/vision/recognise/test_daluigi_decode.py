"""Da Luigi: the zones agree with the twin's layout, and the decoding of spot probabilities."""

from __future__ import annotations

import numpy as np
import pytest

from tableref.rules.daluigi.catalogue import COLOURS, MAX_DISHES, load_deck
from tableref.rules.daluigi.observation import expected_labels
from tableref.vision.recognise.common import ZonesError
from tableref.vision.recognise.daluigi_decode import (CardTable, cube_row, decode_card, pile_score,
                                                     row_ends, tile_row)
from tableref.vision.recognise.daluigi_labels import ALLOWED, LABELS
from tableref.vision.recognise.daluigi_zones import CUBE, DISH, load_daluigi_zones
from tableref.vision.synthetic.games import random_state
from tableref.vision.synthetic.games import daluigi as twin

SURE = 0.97


def one_hot(names: tuple[str, ...], picks: list[str]) -> np.ndarray:
    """Rows of probabilities over ``names`` with ``SURE`` on each pick and the rest spread."""
    p = np.full((len(picks), len(names)), (1 - SURE) / (len(names) - 1))
    for i, pick in enumerate(picks):
        p[i, names.index(pick)] = SURE
    return p


CUBE_NAMES = ALLOWED[CUBE]


@pytest.mark.parametrize("picks, expected", [
    (["blank"], ""),
    (["cube:red", "cube:blue", "blank", "blank"], "red,blue"),
    (["cube:blue", "cube:red", "cube:red", "cube:brown"], "brown,red,red,blue"),
    (["cube:green", "blank", "cube:red", "blank"], "green"),  # as likely as three dice: the shorter
    (["cube:green", "blank", "blank", "cube:red", "blank"], "green"),  # a die after blank places
    (["cube:green", "unknown", "blank", "blank"], None),  # covered before the end: unknown
    (["cube:green", "blank", "unknown", "blank"], "green"),  # covered after the end: read
])
def test_cube_row(picks, expected):
    assert cube_row(one_hot(CUBE_NAMES, picks)).label == expected


def test_a_row_half_covered_is_read_unsurely():
    """A place leaning to ``unknown`` (below :data:`UNKNOWN_AT`) still reads, but its covered
    share counts against the row's confidence: an arm's sleeve over a market field reads as an
    empty field, surely among the other labels, and only the unknown share tells."""
    p = np.zeros((2, len(CUBE_NAMES)))
    p[0, CUBE_NAMES.index("blank")], p[0, CUBE_NAMES.index("unknown")] = 0.45, 0.55
    p[1, CUBE_NAMES.index("blank")] = 1.0
    got = cube_row(p)
    assert got.label == "" and got.confidence == pytest.approx(0.45)
    p[0] = 0.0
    p[0, CUBE_NAMES.index("blank")] = 1.0
    assert cube_row(p).confidence == pytest.approx(1.0)


def test_a_row_counts_a_die_read_blank_before_dice():
    """Validation render 2000563: a brown die on a dark red table read blank at 0.55 (brown
    0.45), the three places after it dice at 0.96-1.0: four dice, not none."""
    p = one_hot(CUBE_NAMES, ["blank", "cube:brown", "cube:brown", "cube:red", "blank", "blank"])
    p[0] = 0.0
    p[0, CUBE_NAMES.index("blank")], p[0, CUBE_NAMES.index("cube:brown")] = 0.55, 0.45
    got = cube_row(p)
    assert got.label == "brown,brown,brown,red" and got.confidence == pytest.approx(0.45)


@pytest.mark.parametrize("picks, ends", [
    (["cube:red", "cube:blue"], False),  # the row may go on
    (["blank", "cube:red", "cube:red"], False),  # the first place misread blank: it may go on
    (["cube:red", "blank"], True),
    (["cube:red", "blank", "blank", "cube:red"], True),
    (["cube:green", "unknown"], True),  # covered: unknown
])
def test_row_ends_where_its_count_ends(picks, ends):
    """The places after a row that ends are not read; one more die after it would not change
    its reading (only how sure it is), and the reading of a row that goes on is changed by one."""
    p = one_hot(CUBE_NAMES, picks)
    assert row_ends(p) is ends
    longer = np.vstack([p, one_hot(CUBE_NAMES, ["cube:yellow"])])
    assert (cube_row(longer).label == cube_row(p).label) is ends


@pytest.mark.parametrize("picks, lemons, flowers", [
    (["blank"], "0", "0"),
    (["tile:lemon", "tile:lemon", "blank"], "2", "0"),
    (["tile:flower", "tile:flower", "tile:flower", "blank"], "0", "3"),
    (["unknown", "blank"], None, None),
    (["tile:lemon", "unknown", "blank"], None, None),  # covered within the row: unknown
    (["tile:lemon", "blank", "unknown"], "1", "0"),  # covered after its end: tiles fill from the first
    (["tile:lemon", "tile:lemon", "blank", "blank", "blank"], "2", "0"),
])
def test_tile_row(picks, lemons, flowers):
    got = tile_row(one_hot(ALLOWED["tile"], picks))
    assert (got[0].label, got[1].label) == (lemons, flowers)


def test_a_tile_row_is_counted_by_every_place_not_cut_at_its_first_blank():
    """Validation render 2000693: six lemons, the fifth place (a column's head) read blank at
    0.21 against 0.18 for a lemon, the sixth a lemon at 0.83, the rest blank."""
    p = np.array([[0.0, 0.997, 0.002, 0.0]] * 4 + [[0.0, 0.175, 0.207, 0.618], [0.0, 0.829, 0.121, 0.05],
                                                  [0.0, 0.0, 0.572, 0.428]] + [[0.0, 0.0, 0.9, 0.1]] * 5)
    lemons, flowers = tile_row(p)
    assert (lemons.label, flowers.label) == ("6", "0") and 0.5 < lemons.confidence < 1.0


@pytest.mark.parametrize("picks, n", [
    (["blank", "blank", "blank"], 0),
    (["edge", "edge", "blank", "blank"], 2),
    (["edge", "edge", "edge", "edge"], 4),
])
def test_pile_score_prefers_the_count_shown(picks, n):
    p = one_hot(ALLOWED["edge"], picks)
    scores = {k: pile_score(p, k) for k in range(len(picks) + 1)}
    assert max(scores, key=scores.get) == n


def card_probs(card_id: str | None, cubes_on: dict[int, str] | None = None):
    """Spot probabilities of a card place showing ``card_id`` (None: empty) with cubes on dish fields."""
    deck = load_deck()
    if card_id is None:
        dish = one_hot(ALLOWED[DISH], ["blank"] * MAX_DISHES)
        return dish, *(one_hot(ALLOWED[g], ["blank"])[0] for g in ("points", "wait", "ability"))
    card = deck.card(card_id)
    dishes = [c for c, n in zip(COLOURS, card.order) for _ in range(n)]
    picks = [f"field:{c}" for c in dishes] + ["blank"] * (MAX_DISHES - len(dishes))
    for k, colour in (cubes_on or {}).items():
        picks[k] = f"cube:{colour}"
    dish = one_hot(ALLOWED[DISH], picks)
    return (dish, one_hot(ALLOWED["points"], [f"points:{card.points}"])[0],
            one_hot(ALLOWED["wait"], [f"wait:{card.wait}"])[0],
            one_hot(ALLOWED["ability"], [f"ability:{card.ability}"])[0])


@pytest.mark.parametrize("card_id", sorted(load_deck().cards))
def test_every_catalogue_card_is_decoded_from_its_marks(card_id):
    card, cubes = decode_card(*card_probs(card_id), CardTable.of(load_deck()))
    assert (card.label, cubes.label) == (card_id, "")


@pytest.mark.parametrize("card_id, cubes_on, card_label, cubes_label", [
    (None, None, "", None),
    ("S5", {0: "brown", 3: "blue"}, "S5", "brown,blue"),
    ("S1", {1: "red"}, "S1", "red"),
])
def test_decode_card_reads_cubes_on_order_fields(card_id, cubes_on, card_label, cubes_label):
    card, cubes = decode_card(*card_probs(card_id, cubes_on), CardTable.of(load_deck()))
    assert (card.label, cubes.label) == (card_label, cubes_label)


def cover(probs, spots: tuple[str | int, ...]):
    """``card_probs`` with the named marks (points, wait, ability) or dish fields (0..) covered."""
    dish, *marks = (p.copy() for p in probs)
    for spot in spots:
        if isinstance(spot, int):
            dish[spot] = one_hot(ALLOWED[DISH], ["unknown"])[0]
        else:
            k = ("points", "wait", "ability").index(spot)
            marks[k] = one_hot(ALLOWED[spot], ["unknown"])[0]
    return dish, *marks


# S1 and G82 differ only in their waiting time (40 and 10): dish colours, points and ability
# alike. S1's dish fields are its first two.
@pytest.mark.parametrize("card_id, covered, card_label, cubes_label", [
    ("S1", ("points",), "S1", ""),  # the rest decides it
    ("S1", ("wait",), None, ""),  # S1 or G82: the card unknown, but both take cubes alike
    ("S1", (0,), "S1", None),  # its own field covered: the card read, its cubes unknown
    ("S1", (3,), "S1", ""),  # a field it does not have covered: the cubes read too
    ("S1", (0, 1, "points"), None, None),  # too little shows
    (None, ("points", 2), "", None),  # an empty place partly covered
])
def test_decode_card_past_covered_spots_only_when_the_rest_decides(card_id, covered, card_label, cubes_label):
    card, cubes = decode_card(*cover(card_probs(card_id), covered), CardTable.of(load_deck()))
    assert (card.label, cubes.label) == (card_label, cubes_label)


# S1 waits 40 minutes (first slot 2), G82 10 (first slot 5); with the waiting time covered
# nothing else tells them apart.
@pytest.mark.parametrize("slot, card_label", [
    (2, "S1"),  # under segment 40: G82 would lie left of its segment 10, which no legal move does
    (5, None),  # under segment 10: either
    (None, None),  # off the strips (the revealed card): either
])
def test_a_guest_is_read_where_its_waiting_time_lets_it_lie(slot, card_label):
    card, _ = decode_card(*cover(card_probs("S1"), ("wait",)), CardTable.of(load_deck()), min_posterior=0.5,
                          slot=slot)
    assert card.label == card_label


def test_a_guest_read_surely_left_of_its_segment_is_read_as_it_lies():
    # G82 (waiting time 10) laid under segment 40 against the rules: its marks show, and the
    # referee is to see the placement, not a legal card in its stead
    card, _ = decode_card(*card_probs("G82"), CardTable.of(load_deck()), min_posterior=0.5, slot=2)
    assert card.label == "G82"


def test_cubes_are_read_when_the_card_is_one_of_two_alike():
    # S1's waiting time read as 40 or 10 alike: S1 or G82 (same dish fields), a red cube on its
    # second field. The card is a coin toss; the cubes are not.
    dish, points, wait, ability = card_probs("S1", {1: "red"})
    names = ALLOWED["wait"]
    wait = np.full(len(names), 0.01)
    wait[names.index("wait:40")] = wait[names.index("wait:10")] = 0.45
    table = CardTable.of(load_deck())
    card, cubes = decode_card(dish, points, wait / wait.sum(), ability, table, min_posterior=0.5)
    assert card.label in ("S1", "G82") and card.confidence < 0.6
    assert cubes.label == "red" and cubes.confidence > 0.9
    # ... unless even the two together are less likely than asked
    assert decode_card(dish, points, wait / wait.sum(), ability, table, min_posterior=0.9999)[1].label is None


def test_labels_cover_every_group():
    assert all(set(allowed) <= set(LABELS) for allowed in ALLOWED.values())
    assert all(allowed[-2:] == ("blank", "unknown") for allowed in ALLOWED.values())


# --- the zones agree with the twin ------------------------------------------------------

#: A spot's centre lies this close (mm) to the twin's nominal place of its part.
CENTRE_MM = 0.01


def spot_centres(zones, players: int) -> dict[str, tuple[float, float]]:
    out = {}
    for s in zones.market_spots(players):
        out[f"dl.field.{s.place.split(':')[1]}.{s.index}"] = tuple(s.quad_mm.mean(axis=0))
    for p, seat in enumerate(zones.seats(players)):
        for s in zones.supply_spots(p, seat):
            out[f"dl.supply.{p}.{s.index}"] = tuple(s.quad_mm.mean(axis=0))
        for s in zones.tile_spots(p, seat):
            out[f"dl.tile.{p}.{s.index}"] = tuple(s.quad_mm.mean(axis=0))
    return out


@pytest.mark.parametrize("seed", [3, 11, 25, 40, 77])
def test_zones_put_cubes_and_tiles_where_the_twin_lays_them(seed):
    state = random_state("daluigi", seed)
    zones = load_daluigi_zones()
    layout, _ = twin.layout(state)
    assert tuple(layout.table_mm) in zones.table_mm_choices
    centres = spot_centres(zones, state.players)
    checked = 0
    for part in layout.components:
        if part.ident in centres:
            assert np.allclose(centres[part.ident], (part.x_mm, part.y_mm), atol=CENTRE_MM), part.ident
            checked += 1
    assert checked > 0


@pytest.mark.parametrize("seed", [5, 12])
def test_zones_put_guest_cards_on_the_strip_fields(seed):
    state = random_state("daluigi", seed)
    zones = load_daluigi_zones()
    layout, _ = twin.layout(state)
    seats = zones.seats(state.players)
    for part in layout.components:
        if part.ident.startswith("dl.guest."):
            _, _, p, s = part.ident.split(".")
            fx, fy = zones.data["guest_fields"][int(s)]
            assert np.allclose(seats[int(p)].place(fx, fy), (part.x_mm, part.y_mm), atol=CENTRE_MM)
    assert len(expected_labels(state)) > 0


@pytest.mark.parametrize("overrides, error", [
    ({"guest_fields": [[0, 0]]}, ZonesError),
    ({"cube_box_mm": [1]}, ZonesError),
    ({"nonsense": 1}, ZonesError),
    ({"tables": {"2": {"table_mm": [680, 900], "market": [1, 2], "seats": []}}}, ZonesError),
    ({"field_spots_by_row": [3, 3, 3]}, ZonesError),
    ({"field_spots_by_row": [3, 3, 3, 5]}, ZonesError),
    ({"cube_lift_mm": -1.0}, ZonesError),
    ({"cube_lift_mm": True}, ZonesError),
    ({"cube_lift_mm": "6"}, ZonesError),
    ({"cube_lift_mm": 60.0}, ZonesError),
    ({"cube_lift_mm": 0}, None),
    ({"marker_mm": 50.0}, None),
])
def test_zone_overrides_are_checked(overrides, error):
    if error is None:
        assert load_daluigi_zones(overrides).marker_mm == 50.0
    else:
        with pytest.raises(error):
            load_daluigi_zones(overrides)


@pytest.mark.parametrize("by_row, places", [(None, [3] * 9 + [4] * 3), ([4, 4, 4, 4], [4] * 12)])
def test_market_fields_are_read_from_their_rows_places(by_row, places):
    # the place above a field's row holds a die only on a filled row-4 field; elsewhere its
    # box catches the edge of the row's first die, so it is not read unless the zones say so
    zones = load_daluigi_zones({"field_spots_by_row": by_row} if by_row else None)
    spots = zones.market_spots(3)
    assert [sum(s.place == f"market:{f}" for s in spots) for f in range(12)] == places


@pytest.mark.parametrize("table_mm, counts", [
    ((680.0, 900.0), (2,)),
    ((900.0, 900.0), (3, 4)),
    ((890.0, 905.0), (3, 4)),
])
def test_player_counts_from_the_play_area(table_mm, counts):
    assert load_daluigi_zones().player_counts(table_mm) == counts


@pytest.mark.parametrize("own, other, reads_own", [
    (0.4, 0.6, True),  # unsure which colour: the field's own, as the rules place dice
    (0.15, 0.85, True),
    (0.05, 0.95, False),  # plainly another colour: read so, for the referee to flag
    (1.0, 0.0, True),
])
def test_a_cube_on_an_order_field_takes_its_colour_unless_plainly_another(own, other, reads_own):
    deck = load_deck()
    dishes = [c for c, n in zip(COLOURS, deck.card("S1").order) for _ in range(n)]
    printed = dishes[1]
    another = next(c for c in COLOURS if c != printed)
    dish, *marks = card_probs("S1")
    dish[1] = 0.0
    dish[1, ALLOWED[DISH].index(f"cube:{printed}")] = own
    dish[1, ALLOWED[DISH].index(f"cube:{another}")] = other
    _, cubes = decode_card(dish, *marks, CardTable.of(deck))
    assert cubes.label == (printed if reads_own else another)


@pytest.mark.parametrize("seed", [2000451, 2000607])
def test_cubes_are_cut_where_the_camera_sees_their_middle(seed):
    """The twin renders each cube as a 10 mm solid; its image's centre lies away from its
    footprint (parallax). The zones' cubes, raised ``cube_lift_mm``, land nearer the rendered
    cubes than their footprints do; spots of flat things stay on the table."""
    from tableref.vision.recognise.daluigi import locate_daluigi
    from tableref.vision.synthetic.dataset import sample

    s = sample("daluigi", seed)
    zones = load_daluigi_zones()
    view = locate_daluigi(s.image, None, zones)
    spots = zones.market_spots(s.scene.state.players)
    for p, seat in enumerate(zones.seats(s.scene.state.players)):
        spots += zones.supply_spots(p, seat) + zones.tile_spots(p, seat)
    lifted = zones.spots_to_image(view, spots).mean(axis=1)
    flat = view.quads_to_image([sp.quad_mm for sp in spots]).mean(axis=1)
    at = {f"dl.field.{sp.place.split(':')[1]}.{sp.index}" if sp.place.startswith("market")
          else f"dl.{sp.place.split(':')[0]}.{sp.place.split(':')[1]}.{sp.index}": i for i, sp in enumerate(spots)}
    near, far = [], []
    for o in s.labels()["objects"]:
        if o.get("kind") == "daluigi.cube" and o.get("ident") in at and o["ident"].count(".") == 3:
            i = at[o["ident"]]
            near.append(np.linalg.norm(lifted[i] - o["centre_px"]))
            far.append(np.linalg.norm(flat[i] - o["centre_px"]))
    assert len(near) >= 10
    assert np.mean(near) < 0.7 * np.mean(far)
    groups = np.array([sp.group for sp in spots])
    assert np.allclose(lifted[groups != CUBE], flat[groups != CUBE])
    assert np.all(np.linalg.norm(lifted[groups == CUBE] - flat[groups == CUBE], axis=1) > 0.2)
