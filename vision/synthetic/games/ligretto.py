"""Ligretto: Das Brettspiel on the table: the board, cards and jokers on it, tokens, player areas.

The board lies in the middle of the table, row 0 on the far side; each of its puzzle sections
(``board.sections``; the whole grid when it names none) is one part, the sections a seam of
one rim apart. Cards and jokers lie on the spaces they cover (a card's ``colours[0]`` half on
its first space), later pieces over earlier ones; the four black tokens stand on their spaces.
In front of each player: the player board with the cards put on it (two in its slots, further
pairs beside it), the unused jokers, and the cards left in hand: a face-down pile while the
round is played, fanned out to be counted once it has ended.

Idents: ``lig.section.K``, ``lig.card.ID``, ``lig.joker.ID``, ``lig.token.T``,
``lig.board.P`` (player board), ``lig.onboard.P.K`` (K-th card on it), ``lig.spare.ID`` (an
unused joker), ``lig.hand.P.K``; regions ``lig.cell.R.C`` for every board space.
"""

from __future__ import annotations

import math

import numpy as np

from tableref.rules import ligretto as rules
from tableref.rules.ligretto.catalogue import BORDERS, card_colours
from tableref.rules.ligretto.observation import board_pairs, cell_view

from ..art_ligretto import CARD_MM, CELL_MM, SECTION_RIM_MM
from ..kinds import size
from tableref.calibration.layout import DEFAULT_MARKER_MM

from ..errors import LayoutError
from ..layout import Layout, Placed
from .scene import GameScene, Seen
from ...seats import seats

#: Render letters of the rules' colour names.
LETTERS = {"red": "r", "yellow": "y", "green": "g", "blue": "b"}
#: Gap between neighbouring sections' spaces: one rim, so rims meet without covering spaces.
SEAM_MM = SECTION_RIM_MM
#: A card's thickness (mm): what a card lying on another adds to the stack.
_CARD_MM = 0.4
#: A player's area in the seat frame (mm): player board centre, the slots' y on it, the
#: x of further pairs beside it, unused jokers (x, y, step), hand pile or fan (x, y, step).
BOARD_AT = (-135.0, 0.0)
BOARD_SLOTS_Y = (20.5, -24.5)
EXTRA_PAIR_X = 80.0
JOKERS_AT = (-10.0, 38.0, 36.0)
HAND_AT = (20.0, -35.0, 10.0)
#: A player's area: half its width and depth, and the free rim around it and the board (mm).
SEAT_HALF_MM = (185.0, 65.0)
RIM_MM = 25.0
#: Space left around the corner markers (mm).
MARKER_ROOM_MM = 60.0
#: The most a board may be turned on the table (degrees): a quarter turn more is the board
#: laid the other way, rows for columns.
MAX_BOARD_TURN_DEG = 45.0
#: The most a board may lie off the table's middle, either way along each edge (mm): further,
#: it reaches the players' areas.
MAX_BOARD_SHIFT_MM = 60.0


def _offsets(length: int, cuts: set[int]) -> list[float]:
    """Centre of each row or column from the grid's start edge, seams included (mm)."""
    return [k * CELL_MM + CELL_MM / 2 + SEAM_MM * sum(1 for b in cuts if 0 < b <= k) for k in range(length)]


def _sections(board) -> list[tuple[int, int, int, int]]:
    """The board's sections when they tile its spaces exactly once, else the whole grid."""
    covered = np.zeros((board.height, board.width), int)
    for r, c, h, w in board.sections:
        covered[r:r + h, c:c + w] += 1
    spaces = np.array([col is not None for col in board.colours]).reshape(board.height, board.width)
    if board.sections and np.all(covered[spaces] == 1) and np.all(covered <= 1):
        return list(board.sections)
    return [(0, 0, board.height, board.width)]


def section_params(board) -> list[dict]:
    """The appearance of each of ``board``'s sections: its rows of cell colours and its start marks."""
    out = []
    for r, c, h, w in _sections(board):
        rows = ["".join(LETTERS[board.colours[(r + i) * board.width + c + j]] if board.colours[(r + i) * board.width + c + j]
                        else "." for j in range(w)) for i in range(h)]
        starts = [[board.cell(s)[0] - r, board.cell(s)[1] - c] for s in board.starts
                  if r <= board.cell(s)[0] < r + h and c <= board.cell(s)[1] < c + w]
        out.append({"cells": rows, "starts": starts})
    return out


def table_size(players: int, board) -> tuple[float, float]:
    """Play area (mm) for ``players`` around ``board``: seats near and far, and at the sides
    with three or more players."""
    bw = board.width * CELL_MM + 2 * SECTION_RIM_MM + SEAM_MM * max(0, len({c for _, c, _, _ in _sections(board)}) - 1)
    bd = board.height * CELL_MM + 2 * SECTION_RIM_MM + SEAM_MM * max(0, len({r for r, _, _, _ in _sections(board)}) - 1)
    seat_depth = 2 * (SEAT_HALF_MM[1] + RIM_MM)
    sides = 2 * seat_depth if players > 2 else 0.0
    width = max(bw + sides + 2 * RIM_MM, 2 * SEAT_HALF_MM[0] + 2 * MARKER_ROOM_MM)
    depth = max(bd + 2 * seat_depth + 2 * RIM_MM, 2 * SEAT_HALF_MM[0] + 2 * MARKER_ROOM_MM if players > 2 else 0.0)
    return (math.ceil(width / 10) * 10.0, math.ceil(depth / 10) * 10.0)


def layout(state: rules.State, board_turn_deg: float = 0.0,
           board_shift_mm: tuple[float, float] = (0.0, 0.0)) -> tuple[Layout, dict[str, np.ndarray]]:
    """The table showing ``state``, and each board space's region (corners in mm at the
    height of what lies on it). The board lies in the table's middle, or ``board_shift_mm``
    (x, y) off it, turned by ``board_turn_deg`` (counter-clockwise seen from above) about its
    own middle with all that lies on it: a board that players did not lay square in the middle;
    the table and the players' areas stay as they are."""
    if not math.isfinite(board_turn_deg) or abs(board_turn_deg) > MAX_BOARD_TURN_DEG:
        raise LayoutError(f"board_turn_deg must be a number of degrees within +-{MAX_BOARD_TURN_DEG:g}, "
                          f"got {board_turn_deg!r}")
    shift = tuple(board_shift_mm) if isinstance(board_shift_mm, (tuple, list)) else ()
    if len(shift) != 2 or not all(isinstance(d, (int, float)) and not isinstance(d, bool) and math.isfinite(d)
                                  and abs(d) <= MAX_BOARD_SHIFT_MM for d in shift):
        raise LayoutError(f"board_shift_mm must be two distances (x, y) within +-{MAX_BOARD_SHIFT_MM:g} mm, "
                          f"got {board_shift_mm!r}")
    board = state.board
    table = table_size(state.players, board)
    sections = _sections(board)
    xs = _offsets(board.width, {c for _, c, _, _ in sections})
    ys = _offsets(board.height, {r for r, _, _, _ in sections})
    span_x, span_y = xs[-1] + CELL_MM / 2, ys[-1] + CELL_MM / 2
    x0, y_top = (table[0] - span_x) / 2 + shift[0], (table[1] + span_y) / 2 + shift[1]
    middle = (table[0] / 2 + shift[0], table[1] / 2 + shift[1])

    cos, sin = math.cos(math.radians(board_turn_deg)), math.sin(math.radians(board_turn_deg))

    def turned(x: float, y: float, about: tuple[float, float] = middle) -> tuple[float, float]:
        if not board_turn_deg:  # the very same numbers as a board laid along the edges
            return x, y
        dx, dy = x - about[0], y - about[1]
        return about[0] + dx * cos - dy * sin, about[1] + dx * sin + dy * cos

    def centre(i: int) -> tuple[float, float]:
        r, c = board.cell(i)
        return turned(x0 + xs[c], y_top - ys[r])

    parts: list[Placed] = []
    section_top = size("ligretto.section", (("cells", ("r",)), ("starts", ())))[2]
    for k, ((r, c, h, w), params) in enumerate(zip(sections, section_params(board))):
        (ax, ay), (bx, by) = centre(r * board.width + c), centre((r + h - 1) * board.width + c + w - 1)
        parts.append(Placed("ligretto.section", params, (ax + bx) / 2, (ay + by) / 2, board_turn_deg,
                            ident=f"lig.section.{k}"))
    top = {i: section_top for i in board.spaces()}
    for n, piece in enumerate(state.pieces):
        under = max(top[c] for c in piece.cells)
        border = BORDERS[piece.player]
        if piece.kind == "card":
            (ax, ay), (bx, by) = centre(piece.cells[0]), centre(piece.cells[1])
            turn = math.degrees(math.atan2(by - ay, bx - ax))
            parts.append(Placed("ligretto.card", {"colours": card_colours(piece.id), "border": border},
                                (ax + bx) / 2, (ay + by) / 2, turn, n, under, f"lig.card.{piece.id}"))
            thick = _CARD_MM
        else:
            parts.append(Placed("ligretto.joker", {"border": border}, *centre(piece.cells[0]), board_turn_deg, n,
                                under, f"lig.joker.{piece.id}"))
            thick = size("ligretto.joker", (("border", border),))[2]
        for c in piece.cells:
            top[c] = under + thick
    for t, cell in enumerate(state.tokens):
        parts.append(Placed("ligretto.token", {}, *centre(cell), height_mm=top[cell], ident=f"lig.token.{t}"))
    inset = (SEAT_HALF_MM[1] + RIM_MM, SEAT_HALF_MM[1] + RIM_MM)
    for p, seat in enumerate(seats(state.players, table, inset)):
        parts += _player_area(state, p, seat)
    regions = {}
    for i in board.spaces():
        x, y = centre(i)
        r, c = board.cell(i)
        h = CELL_MM / 2
        regions[f"lig.cell.{r}.{c}"] = np.array([[*turned(x + u, y + v, (x, y)), top[i]]
                                                  for u, v in ((-h, -h), (h, -h), (h, h), (-h, h))])
    return Layout(table, tuple(parts), DEFAULT_MARKER_MM), regions


def _player_area(state: rules.State, p: int, seat) -> list[Placed]:
    border = BORDERS[p]
    turn = seat.turn_deg
    out = [Placed("ligretto.player_board", {"border": border}, *seat.place(*BOARD_AT), turn, ident=f"lig.board.{p}")]
    board_top = size("ligretto.player_board", (("border", border),))[2]
    for k, card in enumerate(state.player_boards[p]):
        pair, slot = divmod(k, len(BOARD_SLOTS_Y))
        x = BOARD_AT[0] + pair * EXTRA_PAIR_X
        out.append(Placed("ligretto.card", {"colours": card_colours(card), "border": border},
                          *seat.place(x, BOARD_SLOTS_Y[slot]), turn, k, board_top if pair == 0 else 0.0,
                          f"lig.onboard.{p}.{k}"))
    jx, jy, jstep = JOKERS_AT
    for k, joker in enumerate(state.jokers[p]):
        out.append(Placed("ligretto.joker", {"border": border}, *seat.place(jx + k * jstep, jy), turn,
                          ident=f"lig.spare.{joker}"))
    hx, hy, hstep = HAND_AT
    fanned = state.phase != "play"
    for k, card in enumerate(state.hands[p]):
        x = hx + CARD_MM[0] / 2 + (k * hstep if fanned else 0.0)
        out.append(Placed("ligretto.card", {"colours": card_colours(card), "border": border, "back": True},
                          *seat.place(x, hy), turn, k, 0.0 if fanned else k * _CARD_MM, f"lig.hand.{p}.{k}"))
    return out


def scene(state: rules.State, board_turn_deg: float = 0.0,
          board_shift_mm: tuple[float, float] = (0.0, 0.0)) -> GameScene:
    """The :class:`GameScene` of a Ligretto state (``board_turn_deg``, ``board_shift_mm``: as
    :func:`layout`'s)."""
    lay, regions = layout(state, board_turn_deg, board_shift_mm)
    return GameScene(rules.NAME, state, lay, regions)


def observation(scene: GameScene, seen: Seen) -> rules.Observation:
    """What a perfect recogniser reads: ``rules.observe(state)``, with a space's cover and token
    unknown (None, confidence 0) where the space is hidden, a token unknown when the token is
    hidden, and a player's hand count or player board unknown when any of those cards is."""
    state = scene.state
    board = state.board
    tokens = {cell: t for t, cell in enumerate(state.tokens)}
    cells = []
    for i in board.spaces():
        r, c = board.cell(i)
        if not seen.region(f"lig.cell.{r}.{c}"):
            cells.append(rules.CellSeen((r, c), None, None, None, 0.0, None, 0.0))
            continue
        cover, owner, colour = cell_view(state, i)
        if i not in tokens:
            token, token_confidence = False, 1.0
        elif seen.part(f"lig.token.{tokens[i]}"):
            token, token_confidence = True, 1.0
        else:
            token, token_confidence = None, 0.0
        cells.append(rules.CellSeen((r, c), cover, owner, colour, 1.0, token, token_confidence))
    players = []
    for p in range(state.players):
        hand = range(len(state.hands[p]))
        board_ok = seen.part(f"lig.board.{p}") and all(
            seen.part(f"lig.onboard.{p}.{k}") for k in range(len(state.player_boards[p])))
        counted = state.phase != "play"
        hand_ok = counted and (all(seen.part(f"lig.hand.{p}.{k}") for k in hand) if hand else board_ok)
        players.append(rules.PlayerSeen(p, len(hand) if hand_ok else None, 1.0 if hand_ok or not counted else 0.0,
                                        board_pairs(state, p) if board_ok else None, 1.0 if board_ok else 0.0))
    return rules.Observation(tuple(cells), tuple(players))
