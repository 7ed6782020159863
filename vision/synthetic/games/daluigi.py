"""Da Luigi on the table: the marketplace, each player's ristorante, the piles.

As the rulebook sets it up: the marketplace in the middle (guest pile on the red tent, the
discard on the blue field, flower and lemon tiles on their fields, 4 rows of 3 market fields
whose cubes lie on them); the used cubes "next to the marketplace", the cloth bag beside
them. Each player has a ristorante strip with the guest cards on the fields below its time
segments (60 ... 10) and the cubes on each guest's order fields; the supply of cubes above
the strip; lemons or flowers at its right end; fulfilled orders "face down in a pile to the
left, below the ristorante strip", shingled so they can be counted. The welcoming player's
face-down guest cards and the revealed one lie below the middle of their strip.

Players sit clockwise from the near side (near, left, far, right), each area facing its
player; with three or four players the areas turn around the marketplace like a pinwheel
(each moved towards its player's left), so they fit a square table without overlapping.

Idents: ``dl.market``, ``dl.field.F.K`` (cube K on market field F, 0..11 row by row from the
top), ``dl.strip.P``, ``dl.guest.P.S`` (slot S: 0 under "60" ... 5 under "10"),
``dl.order.P.S.K`` (cube K on that guest), ``dl.supply.P.K``, ``dl.tile.P.K``, ``dl.served.P.K``,
``dl.hand.K``, ``dl.revealed``, ``dl.pile.K``, ``dl.discard.K``, ``dl.stock.flower.K``,
``dl.stock.lemon.K``, ``dl.used.K``, ``dl.bag``; regions ``dl.field.F``, ``dl.slot.P.S``,
``dl.supply.P``, ``dl.tiles.P``, ``dl.served.P``, ``dl.hand`` and ``dl.revealed`` (places
that may lie empty), ``dl.field.F.next``, ``dl.supply.P.next`` and ``dl.tiles.P.next`` (the
place after a row's last piece: a row shows how many lie in it only where that place shows),
and ``dl.hand_at.P`` and ``dl.revealed_at.P`` (where the welcoming player's hand and revealed
card would lie at each seat: a photograph shows no hand only when no seat hides one).
"""

from __future__ import annotations

import math

import numpy as np

from tableref.calibration.layout import DEFAULT_MARKER_MM
from tableref.rules import daluigi as rules
from tableref.rules.daluigi.catalogue import COLOURS, DISHES, FIELDS_PER_ROW, SEGMENTS, load_deck
from tableref.rules.daluigi.observation import UNKNOWN, expected_labels

from ..art_daluigi import CUBE_MM, GUEST_MM, MARKET_MM, STRIP_MM, TILE_MM
from ..kinds import anchors, size
from ..layout import Layout, Placed
from .scene import SEEN_SHARE, GameScene, Seen
from ...seats import SIDE_TURN, SEATING, Seat

#: The rules' ability names -> the card designs' symbols.
ABILITY_SYMBOL = {"die": "die1", "two_dice": "die2"}
#: What every face-down guest card is drawn as (a back shows nothing of its front).
BACK = {"dishes": ["pasta"], "points": 1, "wait": 60, "ability": "guest", "back": True}
#: A player's area in its own frame (mm, origin at the strip's centre, y towards the middle):
#: x and y extent of everything in it.
AREA_X_MM, AREA_Y_MM = (-232.0, 290.0), (-160.0, 122.0)
#: Supply rows above the strip: first row's y, row pitch, cubes per row and their pitch.
SUPPLY_Y_MM, SUPPLY_ROW_MM, SUPPLY_PER_ROW, SUPPLY_PITCH_MM = 77.0, 15.0, 16, 15.0
#: Tiles: the first column on the strip's right-end field, further columns beside the strip.
TILE_COLUMN_X_MM, TILE_PITCH_MM, TILES_PER_COLUMN = 203.0, 27.0, 4
#: The row of cards below the strip: centre y; served pile from the strip's left end (and
#: the room it may take); the welcoming player's hand from x = 0 and the revealed card.
CARD_ROW_Y_MM = -113.0
SERVED_X_MM, SERVED_ROOM_MM, SERVED_STEP_MM = -225.0 + GUEST_MM[0] / 2, 200.0, 14.0
HAND_X_MM, HAND_ROOM_MM, HAND_STEP_MM = 10.0 + GUEST_MM[0] / 2, 130.0, 20.0
REVEALED_X_MM = 195.0
#: Free rim between a player's area and the table edge, and room left for the corner markers.
EDGE_MM, MARKER_ROOM_MM = 15.0, 75.0
#: Cubes on a market field: offsets (mm) of the 1st .. 4th cube from the field's centre.
FIELD_SPOTS_MM = ((-15.0, -6.0), (0.0, -6.0), (15.0, -6.0), (-7.5, 8.0))
#: Used cubes next to the marketplace: columns and pitch (mm); the bag beside them.
USED_COLUMNS, USED_PITCH_MM = 8, 13.0
#: Face-down piles and tile stacks show at most this many parts (the rest lies below).
PILE_SHOWN = 3
#: Thickness of a guest card (what one card adds to a pile).
CARD_THICK_MM = size("daluigi.guest", (("ability", "guest"), ("back", True), ("dishes", ("pasta",)),
                                       ("points", 1), ("start", False), ("wait", 60)))[2]
BOARD_MM = size("daluigi.strip", ())[2]
TILE_THICK_MM = size("daluigi.tile", (("side", "flower"),))[2]


def _area_size() -> tuple[float, float]:
    return AREA_X_MM[1] - AREA_X_MM[0], AREA_Y_MM[1] - AREA_Y_MM[0]


def table_size(players: int) -> tuple[float, float]:
    """Play area (mm): two players face each other across the marketplace; three or four sit
    around it in a pinwheel on a square table."""
    w, d = _area_size()
    if players == 2:
        return (math.ceil((w + 2 * MARKER_ROOM_MM) / 10) * 10.0,
                math.ceil((2 * (d + 2 * EDGE_MM) + MARKET_MM[1]) / 10) * 10.0)
    side = math.ceil((w + d + EDGE_MM + MARKER_ROOM_MM) / 10) * 10.0
    return (side, side)


def player_seats(players: int, table: tuple[float, float]) -> list[Seat]:
    """Each player's seat: its frame's origin is the centre of that player's strip."""
    tw, td = table
    if players == 2:
        near_x = tw / 2 - (AREA_X_MM[0] + AREA_X_MM[1]) / 2
    else:
        near_x = MARKER_ROOM_MM - AREA_X_MM[0]
    near = np.array([near_x, EDGE_MM - AREA_Y_MM[0]])
    middle = np.array([tw / 2, td / 2])
    out = []
    for side in SEATING[players]:
        turn = SIDE_TURN[side]
        a = math.radians(turn)
        rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        x, y = middle + rot @ (near - middle)
        out.append(Seat(side, float(x), float(y), turn))
    return out


def guest_params(card_id: str, deck) -> dict:
    """The appearance of guest card ``card_id`` of ``deck`` (a rules catalogue deck)."""
    card = deck.card(card_id)
    dishes = [DISHES[c] for c, n in zip(COLOURS, card.order) for _ in range(n)]
    return {"dishes": dishes, "points": card.points, "wait": card.wait,
            "ability": ABILITY_SYMBOL.get(card.ability, card.ability), "start": card.start}


def _cube(colour: str, x: float, y: float, z: float, ident: str) -> Placed:
    return Placed("daluigi.cube", {"colour": DISHES[colour]}, x, y, height_mm=z, ident=ident)


def _colours(counts: tuple[int, ...]) -> list[str]:
    return [c for c, n in zip(COLOURS, counts) for _ in range(n)]


def _rect(seat: Seat, x: float, y: float, w: float, d: float, z: float) -> np.ndarray:
    """Corners (4, 3) of a w x d rectangle centred on seat-frame (x, y), at height z."""
    return np.array([[*seat.place(x + sx * w / 2, y + sy * d / 2), z]
                     for sx, sy in ((-1, 1), (1, 1), (1, -1), (-1, -1))])


def _step(n: int, room: float, part: float, step: float) -> float:
    return step if n < 2 else min(step, (room - part) / (n - 1))


def layout(state: rules.State) -> tuple[Layout, dict[str, np.ndarray]]:
    """The table showing ``state``, and the regions of places that may lie empty."""
    deck = load_deck(state.options.deck)
    table = table_size(state.players)
    parts: list[Placed] = []
    regions: dict[str, np.ndarray] = {}
    parts += _market(state, table, deck, regions)
    for p, seat in enumerate(player_seats(state.players, table)):
        parts += _ristorante(state, p, seat, deck, regions)
    return Layout(table, tuple(parts), DEFAULT_MARKER_MM), regions


def _market(state: rules.State, table, deck, regions: dict) -> list[Placed]:
    tw, td = table
    mx, my = tw / 2 - (USED_COLUMNS * USED_PITCH_MM) / 2, td / 2
    out = [Placed("daluigi.marketplace", {}, mx, my, ident="dl.market")]
    spots = anchors("daluigi.marketplace", {})
    fw, fh = 48.0, 38.0
    for f, cubes in enumerate(state.market):
        ax, ay = spots[f"field{f // FIELDS_PER_ROW + 1}{f % FIELDS_PER_ROW + 1}"]
        cx, cy = mx + ax, my + ay
        regions[f"dl.field.{f}"] = np.array([[cx - fw / 2, cy + fh / 2, BOARD_MM], [cx + fw / 2, cy + fh / 2, BOARD_MM],
                                             [cx + fw / 2, cy - fh / 2, BOARD_MM], [cx - fw / 2, cy - fh / 2, BOARD_MM]])
        for k, colour in enumerate(_colours(cubes)):
            dx, dy = FIELD_SPOTS_MM[k % len(FIELD_SPOTS_MM)]
            out.append(_cube(colour, cx + dx, cy + dy, BOARD_MM + CUBE_MM * (k // len(FIELD_SPOTS_MM)),
                             f"dl.field.{f}.{k}"))
        if 0 < sum(cubes) < len(FIELD_SPOTS_MM):
            dx, dy = FIELD_SPOTS_MM[sum(cubes)]
            regions[f"dl.field.{f}.next"] = _rect(Seat("market", cx, cy, 0.0), dx, dy, CUBE_MM, CUBE_MM, BOARD_MM)
    gx, gy = spots["guest_pile"]
    for k in range(min(state.pile, PILE_SHOWN)):
        out.append(Placed("daluigi.guest", BACK, mx + gx, my + gy, 0.0, k, BOARD_MM + k * CARD_THICK_MM,
                          f"dl.pile.{k}"))
    dx, dy = spots["discard"]
    for k, card in enumerate(state.discard[-PILE_SHOWN:]):
        out.append(Placed("daluigi.guest", guest_params(card, deck), mx + dx, my + dy, 0.0, k,
                          BOARD_MM + k * CARD_THICK_MM, f"dl.discard.{k}"))
    for name, count in (("flower", state.market_flowers), ("lemon", state.market_lemons)):
        sx, sy = spots[name + "s"]
        for k in range(min(count, PILE_SHOWN)):
            out.append(Placed("daluigi.tile", {"side": name}, mx + sx, my + sy, 0.0, k,
                              BOARD_MM + k * TILE_THICK_MM, f"dl.stock.{name}.{k}"))
    ux = mx + MARKET_MM[0] / 2 + USED_PITCH_MM
    uy = my - MARKET_MM[1] / 2 + USED_PITCH_MM / 2
    for k, colour in enumerate(_colours(state.used)):
        r, c = divmod(k, USED_COLUMNS)
        out.append(_cube(colour, ux + c * USED_PITCH_MM, uy + r * USED_PITCH_MM, 0.0, f"dl.used.{k}"))
    out.append(Placed("daluigi.bag", {}, ux + (USED_COLUMNS - 1) * USED_PITCH_MM / 2,
                      my + MARKET_MM[1] / 2 - 35.0, ident="dl.bag"))
    return out


def _ristorante(state: rules.State, p: int, seat: Seat, deck, regions: dict) -> list[Placed]:
    turn = seat.turn_deg
    out = [Placed("daluigi.strip", {}, seat.x_mm, seat.y_mm, turn, ident=f"dl.strip.{p}")]
    fields = anchors("daluigi.strip", {})
    gw, gh = GUEST_MM
    for s, guest in enumerate(state.strips[p]):
        fx, fy = fields[f"guest{SEGMENTS[s]}"]
        regions[f"dl.slot.{p}.{s}"] = _rect(seat, fx, fy, gw, gh, BOARD_MM)
        if guest is None:
            continue
        params = guest_params(guest.card, deck)
        x, y = seat.place(fx, fy)
        out.append(Placed("daluigi.guest", params, x, y, turn, 1, BOARD_MM, f"dl.guest.{p}.{s}"))
        dishes = anchors("daluigi.guest", params)
        free = list(params["dishes"])
        for k, colour in enumerate(_colours(guest.cubes)):
            spot = free.index(DISHES[colour]) if DISHES[colour] in free else len(params["dishes"]) - 1
            free[spot] = None
            dx, dy = dishes[f"dish{spot}"]
            out.append(_cube(colour, *seat.place(fx + dx, fy + dy), BOARD_MM + CARD_THICK_MM, f"dl.order.{p}.{s}.{k}"))
    span = (SUPPLY_PER_ROW - 1) * SUPPLY_PITCH_MM
    regions[f"dl.supply.{p}"] = _rect(seat, 0.0, SUPPLY_Y_MM + SUPPLY_ROW_MM / 2, span + CUBE_MM, SUPPLY_ROW_MM + CUBE_MM, 0.0)
    supply = _colours(state.supply[p])
    for k in range(len(supply) + 1):
        r, c = divmod(k, SUPPLY_PER_ROW)
        x, y = -span / 2 + c * SUPPLY_PITCH_MM, SUPPLY_Y_MM + r * SUPPLY_ROW_MM
        if k < len(supply):
            out.append(_cube(supply[k], *seat.place(x, y), 0.0, f"dl.supply.{p}.{k}"))
        elif supply:
            regions[f"dl.supply.{p}.next"] = _rect(seat, x, y, CUBE_MM, CUBE_MM, 0.0)
    tiles = state.tiles[p]
    regions[f"dl.tiles.{p}"] = _rect(seat, TILE_COLUMN_X_MM, 0.0, TILE_MM, TILES_PER_COLUMN * TILE_PITCH_MM, BOARD_MM)
    for k in range(abs(tiles) + 1):
        c, r = divmod(k, TILES_PER_COLUMN)
        x = TILE_COLUMN_X_MM + c * TILE_PITCH_MM + (STRIP_MM[0] / 2 - TILE_COLUMN_X_MM if c else 0.0)
        y = (r - (TILES_PER_COLUMN - 1) / 2) * TILE_PITCH_MM
        if k < abs(tiles):
            out.append(Placed("daluigi.tile", {"side": "flower" if tiles > 0 else "lemon"}, *seat.place(x, y), turn,
                              height_mm=BOARD_MM if c == 0 else 0.0, ident=f"dl.tile.{p}.{k}"))
        elif tiles:
            regions[f"dl.tiles.{p}.next"] = _rect(seat, x, y, TILE_MM, TILE_MM, BOARD_MM if c == 0 else 0.0)
    served = state.served[p]
    step = _step(len(served), SERVED_ROOM_MM, gw, SERVED_STEP_MM)
    regions[f"dl.served.{p}"] = _rect(seat, SERVED_X_MM, CARD_ROW_Y_MM, gw, gh, 0.0)
    for k, card in enumerate(served):
        back = {**BACK, "start": deck.card(card).start}
        out.append(Placed("daluigi.guest", back, *seat.place(SERVED_X_MM + k * step, CARD_ROW_Y_MM), turn, k,
                          ident=f"dl.served.{p}.{k}"))
    regions[f"dl.hand_at.{p}"] = _rect(seat, HAND_X_MM, CARD_ROW_Y_MM, gw, gh, 0.0)
    regions[f"dl.revealed_at.{p}"] = _rect(seat, REVEALED_X_MM, CARD_ROW_Y_MM, gw, gh, 0.0)
    if p == state.active:
        step = _step(state.hand, HAND_ROOM_MM, gw, HAND_STEP_MM)
        regions["dl.hand"] = _rect(seat, HAND_X_MM, CARD_ROW_Y_MM, gw, gh, 0.0)
        for k in range(state.hand):
            out.append(Placed("daluigi.guest", BACK, *seat.place(HAND_X_MM + k * step, CARD_ROW_Y_MM), turn, k,
                              ident=f"dl.hand.{k}"))
        regions["dl.revealed"] = _rect(seat, REVEALED_X_MM, CARD_ROW_Y_MM, gw, gh, 0.0)
        if state.revealed:
            out.append(Placed("daluigi.guest", guest_params(state.revealed, deck),
                              *seat.place(REVEALED_X_MM, CARD_ROW_Y_MM), turn, ident="dl.revealed"))
    return out


def scene(state: rules.State) -> GameScene:
    """The :class:`GameScene` of a Da Luigi state."""
    lay, regions = layout(state)
    return GameScene(rules.NAME, state, lay, regions)


def _all(seen: Seen, idents: list[str], region: str, share: float) -> bool:
    """Parts all seen; with no parts, the place they would lie on seen. Parts that lie in a row
    from its first place (cubes on a market field or in a supply, tiles) are read up to the first
    empty place, so the place after the last (region ``REGION.next``) must show too: where it is
    covered, one more may lie there."""
    if not idents:
        return seen.region(region, share)
    after = f"{region}.next"
    return all(seen.part(i, share) for i in idents) and (after not in seen.regions or seen.region(after, share))


def observation(scene: GameScene, seen: Seen, share: float = SEEN_SHARE) -> rules.Observation:
    """What a perfect recogniser reads: ``rules.observe(state)`` item by item, with ``"?"``
    (confidence 0) wherever less than ``share`` of a part it needs, or of the empty place,
    shows."""
    state = scene.state
    ok: dict[str, bool] = {}
    for f, cubes in enumerate(state.market):
        ok[f"market:{f}"] = _all(seen, [f"dl.field.{f}.{k}" for k in range(sum(cubes))], f"dl.field.{f}", share)
    for p in range(state.players):
        for s, guest in enumerate(state.strips[p]):
            card = f"dl.guest.{p}.{s}"
            ok[f"slot:{p}:{s}"] = seen.part(card, share) if guest else seen.region(f"dl.slot.{p}.{s}", share)
            if guest:
                ok[f"order:{p}:{s}"] = seen.part(card, share) and all(
                    seen.part(f"dl.order.{p}.{s}.{k}", share) for k in range(sum(guest.cubes)))
        ok[f"supply:{p}"] = _all(seen, [f"dl.supply.{p}.{k}" for k in range(sum(state.supply[p]))],
                                 f"dl.supply.{p}", share)
        tiles = _all(seen, [f"dl.tile.{p}.{k}" for k in range(abs(state.tiles[p]))], f"dl.tiles.{p}", share)
        ok[f"lemons:{p}"] = ok[f"flowers:{p}"] = tiles
        ok[f"served:{p}"] = _all(seen, [f"dl.served.{p}.{k}" for k in range(len(state.served[p]))],
                                 f"dl.served.{p}", share)
    # The welcoming player's hand and revealed card lie at one seat, which nothing on the table
    # marks: that there are none shows only where every seat's place shows.
    seats = range(state.players)
    ok["hand"] = (_all(seen, [f"dl.hand.{k}" for k in range(state.hand)], "dl.hand", share) if state.hand
                  else all(seen.region(f"dl.hand_at.{p}", share) for p in seats))
    ok["revealed"] = (seen.part("dl.revealed", share) if state.revealed
                      else all(seen.region(f"dl.revealed_at.{p}", share) for p in seats))
    items = tuple(rules.Item(where, label, 1.0) if ok[where] else rules.Item(where, UNKNOWN, 0.0)
                  for where, label in expected_labels(state).items())
    return rules.Observation(items)
