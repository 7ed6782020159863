"""The Ligretto recogniser on fresh renders of the twin (seeds 3100000.., never trained on):
the board's spaces found, every space read against the render's truth within the targets,
the observation fit for the referee, bad input refused clearly."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from tableref.bench.recognition_ligretto import scene_score, shoot
from tableref.rules import ligretto as rules
from tableref.rules.ligretto.catalogue import BORDERS
from tableref.vision.lattice_cells import AlignedLattice
from tableref.vision.recognise.common import RecognitionError, ZonesError
from tableref.vision.recognise.cover import COVER_LABELS
from tableref.vision.recognise.ligretto import LigrettoRecogniser
from tableref.vision.recognise.ligretto_board import LigrettoZones, find_board, locate_ligretto, zones_for
from tableref.vision.recognise.ligretto_labels import (BORDERS_PREPROCESSING, BORDERS_SMALL_PREPROCESSING, CELL_LABELS,
                                                       PREPROCESSING, SEAM_LABELS, TOKEN_LABELS)

_PLAIN_CENTRED = AlignedLattice.centred

#: Fresh renders read by the test (a range of its own, apart from the benchmark's 3000000..).
SEED, SCENES = 3_100_000, 40
#: The project's targets are a per-space error of at most 0.1 % and 95 % of boards exactly
#: right; the recogniser does not reach them yet (docs/ligretto-recognition.md gives the
#: figures). This test holds it to what it reaches on these renders, with a margin, so that
#: a change that reads worse fails.
#: Measured on these 40 renders with the shipped models and second looks (2026-12-03, with
#: the turned looks): 0.544 % (strict) and 28 of 40 boards (strict); 0.614 % and 27 without
#: the turned looks (2026-12-01: 0.56 % and 26; with the cover classifier from half the
#: renders 0.54 % and 23; without second looks 0.65 % and 19). With the partly-hidden model
#: (2026-12-06): 0.509 % (strict) and 30 of 40, against 0.386 % and 31 without it (by the
#: benchmark's count 12 spaces wrong either way, 36 boards exact against 34). With the split
#: boards joined, the cards beside an arm asked of that model, the faded colours, the jokers'
#: limit and the border weighting (2026-12-06, afternoon): 0.351 % (strict) and 30 of 40 (by
#: the benchmark's count 3 spaces wrong, 37 boards exact); the bound was 0.008 until then.
#: With the seam model pairing the halves (2026-12-06, evening): 0.316 % (strict) and 31 of 40
#: (by the benchmark's count 1 space wrong, 39 boards exact); with the token classifier
#: trained on all the cover classifier's renders too, 0.281 % and 32 of 40 (no space wrong).
MAX_SPACE_ERROR, MIN_EXACT = 0.006, 0.55
#: Misread readings per space, whatever the count of misses (a change that trades unread
#: spaces for wrong readings fails here): 10 in 5,696 spaces (0.18 %) measured on these renders
#: with the shipped models and turned looks (2026-12-03; 13 without them; by the benchmark's
#: count 22 spaces wrong, 31 boards exact); 2 with the partly-hidden model (2026-12-06; 4
#: without), 2 that afternoon, none with the seam model; the bound was 0.004 until then.
MAX_MISREAD = 0.002


@pytest.fixture(scope="module")
def shots():
    from multiprocessing import get_context

    with get_context("spawn").Pool(2) as pool:
        return pool.map(shoot, range(SEED, SEED + SCENES))


@pytest.fixture(scope="module")
def recogniser():
    return LigrettoRecogniser.open()


def test_fresh_renders_are_read_within_the_targets(shots, recogniser):
    tally = Counter()
    for shot in shots:
        try:
            reading = recogniser.read(shot.image, None, shot.players)  # told, as the live session tells it
        except RecognitionError:
            reading = None
        for k, v in scene_score(shot, reading).items():
            tally[k] += v
    assert tally["wrong strict"] / tally["spaces"] <= MAX_SPACE_ERROR, tally
    assert tally["misread"] / tally["spaces"] <= MAX_MISREAD, tally
    assert tally["exact strict"] / SCENES >= MIN_EXACT, tally


def test_the_recogniser_asks_the_second_model_and_refuses_one_that_reads_otherwise(recogniser):
    from tableref.vision.classifier import Classifier
    from tableref.vision.recognise.ligretto import MODELS_DIR

    assert recogniser.second is not None and recogniser.second.labels == recogniser.cell_model.labels
    other = Classifier.open(MODELS_DIR / "ligretto-tokens.card.json")
    with pytest.raises(RecognitionError, match="labels"):
        LigrettoRecogniser(recogniser.cell_model, recogniser.token_model, second=other)


def test_the_recogniser_asks_the_card_model_and_refuses_one_that_reads_no_border_styles(recogniser):
    from tableref.vision.classifier import Classifier
    from tableref.vision.recognise.ligretto import MODELS_DIR

    assert recogniser.borders is not None and tuple(recogniser.borders.labels) == tuple(BORDERS)
    assert recogniser.second_borders is not None and tuple(recogniser.second_borders.labels) == tuple(BORDERS)
    other = Classifier.open(MODELS_DIR / "ligretto-tokens.card.json")
    for given in ({"borders": other}, {"borders": recogniser.borders, "second_borders": other}):
        with pytest.raises(RecognitionError, match="border styles"):
            LigrettoRecogniser(recogniser.cell_model, recogniser.token_model, **given)


@pytest.mark.parametrize("below", [0.0, 1.0])  # 1: every card read less than certainly (both here: 0.997, 0.796)
def test_an_unsure_card_is_looked_at_by_the_second_card_model_too(recogniser, monkeypatch, below):
    import tableref.vision.recognise.ligretto as module

    shot = shoot(3_100_001)
    asked = []
    plain = module._look_at_pairs

    def spy(model, image, quads_px, index):
        look = plain(model, image, quads_px, index)
        return lambda pairs: asked.append((model, pairs, look(pairs))) or asked[-1][2].copy()
    monkeypatch.setattr(module, "_look_at_pairs", spy)
    monkeypatch.setattr(module, "SECOND_BORDERS_BELOW", below)
    whole = recogniser._whole_cards(shot.image, *_quads_and_index(shot.image))
    pairs = [((0, 0), (0, 1)), ((3, 4), (4, 4))]
    mean = whole(pairs)
    if below == 0.0:  # every card read surely enough: the first model's look alone
        [(model, _, a)] = asked
        assert model is recogniser.borders and np.array_equal(mean, a)
        return
    (first, _, a), (second, again, b) = asked
    assert (first, second, again) == (recogniser.borders, recogniser.second_borders, pairs)
    expected = np.sqrt(a * b)
    assert np.allclose(mean, expected / expected.sum(axis=1, keepdims=True), atol=1e-6)


def _quads_and_index(image):
    from tableref.vision.recognise.ligretto_board import locate_board

    _, board = locate_board(image)
    quads = board.cell_quads_image()
    rows, columns = quads.shape[:2]
    return quads.reshape(-1, 4, 2), {(r, c): r * columns + c for r in range(rows) for c in range(columns)}


@pytest.mark.parametrize("name, labels, preprocessing", [
    ("ligretto-cells", CELL_LABELS, PREPROCESSING), ("ligretto-cells-b", CELL_LABELS, PREPROCESSING),
    ("ligretto-tokens", TOKEN_LABELS, PREPROCESSING), ("ligretto-borders", tuple(BORDERS), BORDERS_SMALL_PREPROCESSING),
    ("ligretto-borders-b", tuple(BORDERS), BORDERS_PREPROCESSING),
    ("ligretto-hidden", COVER_LABELS, PREPROCESSING), ("ligretto-seams", SEAM_LABELS, BORDERS_PREPROCESSING),
])
def test_shipped_models_match_their_cards(name, labels, preprocessing):
    from tableref.models.card import load_card
    from tableref.vision.classifier import Classifier
    from tableref.vision.recognise.ligretto import MODELS_DIR

    path = MODELS_DIR / f"{name}.card.json"
    card = load_card(path)
    assert card.labels == labels and card.preprocessing == preprocessing
    assert card.parameters <= 1_000_000 and (MODELS_DIR / card.file).stat().st_size < 2_000_000
    Classifier.open(path)  # checks the hash and the input/output shapes


def test_board_shape_is_found_without_a_model(shots):
    zones = zones_for(None)
    right = 0
    for shot in shots:
        rows = 1 + max(r for r, _ in shot.spaces)
        cols = 1 + max(c for _, c in shot.spaces)
        try:
            board = find_board(shot.image, locate_ligretto(shot.image, None, zones), zones)
        except RecognitionError:
            continue
        # the recogniser trims rows and columns that show no space; here only more, never fewer
        right += board.rows >= rows and board.columns >= cols
    assert right >= SCENES - 2


@pytest.mark.parametrize("gap_px, blobs", [(0, 2), (2, 2)])
def test_spaces_of_two_colours_touching_stay_two_blobs(gap_px, blobs):
    # the four colours' thinned masks are searched together: a red and a yellow space side by
    # side, with no gap or a thin one, are still two spaces
    from tableref.vision.lattice_cells import square_blobs
    from tableref.vision.recognise.ligretto_board import RECT_PX_PER_MM, _colour_masks

    zones = zones_for(None)
    side = int(round(zones.cell_mm * RECT_PX_PER_MM))
    rect = np.full((3 * side, 4 * side, 3), 235, np.uint8)
    rect[side:2 * side, side:2 * side] = zones.colours_bgr["red"]
    rect[side:2 * side, 2 * side + gap_px:3 * side + gap_px] = zones.colours_bgr["yellow"]
    found = square_blobs(np.bitwise_or.reduce(_colour_masks(rect, zones)), side)
    assert len(found) == blobs


def test_observation_is_fit_for_the_referee(shots, recogniser):
    shot = shots[0]
    reading = recogniser.read(shot.image)
    obs = reading.observation
    assert rules.Observation.from_json(obs.to_json()) == obs
    assert all(c.cover is None or c.confidence > 0 for c in obs.cells)
    assert recogniser.recognise(shot.image, None).cells == obs.cells
    drawn = recogniser.annotate(shot.image, recogniser.recognise(shot.image, None), [])
    assert drawn.shape == shot.image.shape and not np.array_equal(drawn, shot.image)


def test_live_protocol():
    from tableref.live.recognition import Recogniser
    from tableref.vision.recognise.ligretto import recogniser as factory

    assert isinstance(factory(), Recogniser)


@pytest.mark.parametrize("image, message", [
    (np.zeros((720, 1280, 3), np.uint8), "blank"),
    (np.random.default_rng(3).integers(0, 256, (720, 1280, 3), dtype=np.uint8), "no table found"),
])
def test_bad_images_are_refused(recogniser, image, message):
    with pytest.raises(RecognitionError, match=message):
        recogniser.read(image)


def test_a_table_without_a_board_is_refused(recogniser):
    from tableref.vision.synthetic.dataset import sample

    image = sample("dolcevita", 3_100_000).image  # markers, cards, no Ligretto board
    with pytest.raises(RecognitionError, match="no Ligretto board"):
        recogniser.read(image)


def test_a_board_not_found_without_the_lens_bend_is_looked_for_with_it(recogniser, monkeypatch):
    # test render 3001902 (the benchmark's seventh set): a strong barrel bend, a pen over a
    # third marker; the two in opposite corners fit a 490 x 790 mm table without the bend,
    # on which the board's spaces are not square
    import tableref.vision.recognise.ligretto_board as board_module
    from tableref.vision.recognise.ligretto_board import find_board, locate_board, locate_ligretto, zones_for

    shot = shoot(3_001_902)
    assert scene_score(shot, recogniser.read(shot.image, None, shot.players))["wrong"] == 0
    # on that table the board shows turned by about 3 degrees, and is found on a view turned
    # with it; a board laid square is not, and the table is then located again with the bend
    monkeypatch.setattr(board_module, "TURN_MIN_DEG", 90.0)
    zones = zones_for(None)
    with pytest.raises(RecognitionError, match="no Ligretto board"):
        find_board(shot.image, locate_ligretto(shot.image, None, zones), zones)
    view, board = locate_board(shot.image, None, zones)
    assert view.table_mm == (490.0, 670.0) and (board.rows, board.columns) == (8, 12)
    assert scene_score(shot, recogniser.read(shot.image, None, shot.players))["wrong"] == 0


@pytest.mark.parametrize("seed, shape, before", [
    # 3002853 (the benchmark's tenth set): one marker in view (a cup, an arm and a phone over
    # the others); the table it locates shows the board 1.25 times too large and tilted, its
    # spaces too large to be spaces: refused
    (3_002_853, (8, 12), None),
    # 3002190 (the eighth set): one marker found (pens over two, a hand over the third); on
    # its table the lattice had 10 rows for 8
    (3_002_190, (8, 20), (10, 20)),
])
def test_the_board_sets_the_plane_a_single_marker_measures_badly(recogniser, seed, shape, before):
    from tableref.vision.recognise.ligretto_board import locate_board, squared_to_board

    shot = shoot(seed)
    zones = zones_for(None)
    view = locate_ligretto(shot.image, None, zones)
    assert len(view.calibration.markers_used) == 1
    # (on that table the board also shows turned by a few degrees; the view turned with it is
    # left out here, the board looked for on the table as the marker gives it)
    if before is None:
        with pytest.raises(RecognitionError, match="no Ligretto board"):
            find_board(shot.image, view, zones, turned_deg=0.0)
    else:
        board = find_board(shot.image, view, zones, turned_deg=0.0)
        assert (board.rows, board.columns) == before
    squared, board = locate_board(shot.image, None, zones)
    assert (board.rows, board.columns) == shape
    assert np.allclose(squared.calibration.homography, squared_to_board(shot.image, view, zones).calibration.homography)
    assert scene_score(shot, recogniser.read(shot.image, None, shot.players))["wrong"] == 0


@pytest.mark.parametrize("seed, shape", [
    # only the two right-hand markers found (a cup and an arm over the others): they measure
    # the table's depth, not its width; the view must reach the board's far-left columns and
    # add no hidden ones for a middle it cannot know
    (2_000_251, (8, 20)),
    # one marker in view (the camera turned away from the others): its own square fixes the plane
    (2_000_095, (8, 12)),
])
def test_a_board_located_by_fewer_markers_is_read_whole(recogniser, seed, shape):
    shot = shoot(seed)  # validation renders, not the benchmark's test seeds
    reading = recogniser.read(shot.image)
    assert (reading.rows, reading.columns) == shape
    assert scene_score(shot, reading)["wrong strict"] <= 3


@pytest.mark.parametrize("seed", [
    # an arm over a seam of the board: the part beyond it lies 0.3-0.45 of a space wider than
    # whole spaces from the first and was left out (30 spaces wrong before the join allowed
    # for the seams and the cut columns at the arm's edges)
    2_000_550,
    # an arm over rows 1-3: row 0, beyond it, added from the middle of the table, was moved a
    # whole row by the lens bend fitted to rows 4-7 (9 free spaces left unknown before the
    # bend stopped at the outermost rows found)
    2_000_806,
    # test render 3002833 (the benchmark's tenth set): two arms over columns 6-12 but for two
    # spaces of column 10; the part beyond them, off the pitch from the first under a strong
    # lens bend, placed by that column (26 spaces wrong before)
    3_002_833,
])
def test_a_board_an_arm_splits_is_read_as_one(recogniser, seed):
    shot = shoot(seed)
    assert scene_score(shot, recogniser.read(shot.image, None, shot.players))["wrong"] == 0


@pytest.mark.parametrize("seed, wrong, before", [
    # test render 3001920 (the seventh set): arms over all but the board's edge rows; grown only
    # to double the columns found, it was read a column off (51 spaces wrong; 49 since the
    # shape's missing lines are candidates on both sides)
    (3_001_920, 4, 49),
    # test render 3003049 (the eleventh set): two arms over the left 13 of 20 columns, read as
    # an 8 x 12 board
    (3_003_049, 1, 52),
])
def test_a_board_mostly_under_arms_grows_to_the_longest_board(recogniser, monkeypatch, seed, wrong, before):
    import tableref.vision.recognise.ligretto_board as board

    shot = shoot(seed)
    assert scene_score(shot, recogniser.read(shot.image, None, shot.players))["wrong"] <= wrong
    monkeypatch.setattr(board.AlignedLattice, "centred", _centred_to_double)
    assert scene_score(shot, recogniser.read(shot.image, None, shot.players))["wrong"] >= before


@pytest.mark.parametrize("seed, turn, before", [
    # validation render 2000320 with its board turned by 3 degrees (-3: an odd seed), read on
    # the table's view: its rows and columns run across the view's, 43 spaces wrong
    (2_000_320, 3.0, 43),
    # 2000322 turned by 8 degrees: 213 spaces wrong so; on the view turned to the board, the
    # players' cards beside it (turned the other way there) were at first taken for rows of the
    # board, 14 rows and 26 columns for 8 x 20, until blobs turned so were left out
    (2_000_322, 8.0, 213),
])
def test_a_board_turned_on_the_table_is_read_on_a_view_turned_with_it(recogniser, monkeypatch, seed, turn, before):
    import tableref.vision.recognise.ligretto_board as board

    shot = shoot(seed, turn)
    reading = recogniser.read(shot.image, None, shot.players)
    assert (reading.rows, reading.columns) == (8, 20)
    assert scene_score(shot, reading)["wrong"] == 0
    monkeypatch.setattr(board, "TURN_MIN_DEG", 90.0)  # as before: the board found on the table's view
    assert scene_score(shot, recogniser.read(shot.image, None, shot.players))["wrong"] >= before


@pytest.mark.parametrize("seed, before", [
    # test renders 3000032 and 3000152 with the board laid 40 mm right of the table's middle, an
    # arm over its upper left: the middle adds two columns beyond its left edge, half of them
    # under the arm, and the board was read two columns off
    (3_000_032, 121),
    (3_000_152, 131),
])
def test_a_board_off_the_table_s_middle_keeps_its_edge_where_it_shows(recogniser, monkeypatch, seed, before):
    import tableref.vision.recognise.ligretto_extent as extent

    shot = shoot(seed, 0.0, 40.0)
    reading = recogniser.read(shot.image, None, shot.players)
    assert (reading.rows, reading.columns) == (8, 20)
    assert scene_score(shot, reading)["wrong"] == 0
    monkeypatch.setattr(extent, "_bare_beyond", lambda *places: False)  # as before: only lines mostly bare
    # ... and one edge line at most dropped to a known shape: dropping the two added lines that
    # show no space mends both too (MAX_TRIM, since 2026-12-07)
    monkeypatch.setattr(extent, "MAX_TRIM", 1)
    assert scene_score(shot, recogniser.read(shot.image, None, shot.players))["wrong"] >= before


def test_rows_the_middle_adds_beyond_a_board_under_arms_go_where_the_table_shows_beyond_it(recogniser,
                                                                                             monkeypatch):
    # test render 3003152 (the eleventh set): a blurred 12 x 12 board under two arms and a hand;
    # the rows the middle added went on the wrong side (71 spaces wrong), though along two
    # columns the table shows between them and the board's spaces
    import tableref.vision.recognise.ligretto_extent as extent

    shot = shoot(3_003_152)
    assert scene_score(shot, recogniser.read(shot.image, None, shot.players))["wrong"] == 0
    monkeypatch.setattr(extent, "_bare_beyond", lambda *places: False)
    monkeypatch.setattr(extent, "MAX_TRIM", 1)  # dropping the two rows added mends it too (2026-12-07)
    assert scene_score(shot, recogniser.read(shot.image, None, shot.players))["wrong"] >= 71


@pytest.mark.parametrize("before", [
    # the lattice, found 7 x 21 (a column of table beside the board), was no known shape's
    # short: no row was added
    lambda m: m.setattr("tableref.vision.lattice_cells.SHAPE_OVERRUN", 0),
    # the row added on both sides: the far one, under a sleeve, read partly as table, both were
    # dropped, and the middle, half a row off, chose the near one of bare table
    lambda m: m.setattr("tableref.vision.recognise.ligretto_extent.bare_candidates", lambda kinds, n: (False, False)),
])
def test_a_far_row_under_a_sleeve_is_added_on_the_side_not_bare(recogniser, monkeypatch, before):
    # test render 3003211 (the eleventh set, `--seed 3000`): an 8 x 20 board seen slantwise,
    # its far row under a pale sleeve; read a row off (146 spaces wrong)
    shot = shoot(3_003_211)
    reading = recogniser.read(shot.image, None, shot.players)
    assert (reading.rows, reading.columns) == (8, 20)
    assert scene_score(shot, reading)["wrong"] == 0
    before(monkeypatch)
    assert scene_score(shot, recogniser.read(shot.image, None, shot.players))["wrong"] >= 146


@pytest.mark.parametrize("seed, before", [(3_000_371, 151), (3_000_596, 141)])
def test_lines_the_centring_added_under_an_arm_are_dropped_to_the_board_s_shape(recogniser, monkeypatch, seed,
                                                                                 before):
    # test renders 3000371 and 3000596 turned by 8 degrees and 30 mm off the middle: the
    # centring added two lines on the side of the board short of the middle, under an arm;
    # read 10 x 20 and 8 x 22 for 8 x 20 (one line was all the trimming dropped)
    shot = shoot(seed, 8.0, 30.0)
    reading = recogniser.read(shot.image, None, shot.players)
    assert (reading.rows, reading.columns) == (8, 20)
    assert scene_score(shot, reading)["wrong"] == 0
    monkeypatch.setattr("tableref.vision.recognise.ligretto_extent.MAX_TRIM", 1)
    assert scene_score(shot, recogniser.read(shot.image, None, shot.players))["wrong"] >= before


@pytest.mark.parametrize("seed, turn, shift, before", [
    # laid 40 mm left of the table's middle: a white table, a mug and an arm over the first
    # columns, two spaces of the first showing; the centring added a column of bare table on
    # the right, which the known shape kept: read a column off
    (3_000_254, 0.0, 40.0, 144),
    # turned by 8 degrees and 30 mm off the middle: a row added on the wrong side (one place
    # of it hidden)
    (3_000_425, 8.0, 30.0, 82),
])
def test_a_line_of_bare_table_added_on_the_wrong_side_is_moved_to_the_other(recogniser, monkeypatch, seed, turn,
                                                                            shift, before):
    shot = shoot(seed, turn, shift)
    reading = recogniser.read(shot.image, None, shot.players)
    assert scene_score(shot, reading)["wrong"] == 0
    monkeypatch.setattr("tableref.vision.recognise.ligretto.bare_added_edge", lambda *args: None)
    assert scene_score(shot, recogniser.read(shot.image, None, shot.players))["wrong"] >= before


def test_a_line_moved_to_bare_table_too_is_left_where_it_was(recogniser, monkeypatch):
    # validation render 2000485: an 8 x 12 board's last three columns under a pale sleeve, read
    # as bare table and kept for the known shape; moved to the left end the column shows bare
    # table as well, and the first reading stands (moved all the same: a column off, 80 wrong)
    shot = shoot(2_000_485)
    assert scene_score(shot, recogniser.read(shot.image, None, shot.players))["wrong"] == 0
    monkeypatch.setattr("tableref.vision.recognise.ligretto.kept_unbare", lambda *args: True)
    assert scene_score(shot, recogniser.read(shot.image, None, shot.players))["wrong"] >= 80


def test_the_board_beyond_an_arm_and_a_pale_sleeve_is_kept(recogniser, monkeypatch):
    # test render 3003503 (the twelfth set) turned by 3 degrees and 20 mm off the middle: an arm
    # over an 8 x 12 board's columns 1-4 and its pale sleeve over column 5, which reads as bare
    # table; the first column beyond them, counted per line, looked as sparse as a player's
    # cards and was dropped: read 8 x 6 (84 spaces wrong)
    import tableref.vision.recognise.ligretto_extent as extent

    shot = shoot(3_003_503, 3.0, 20.0)
    reading = recogniser.read(shot.image, None, shot.players)
    assert (reading.rows, reading.columns) == (8, 12)
    assert scene_score(shot, reading)["wrong"] == 0
    dense_span = extent._dense_span
    monkeypatch.setattr(extent, "_dense_span", lambda on, bare, axis, off=None: dense_span(on, bare, axis))
    assert scene_score(shot, recogniser.read(shot.image, None, shot.players))["wrong"] >= 84


def test_a_player_s_cards_beside_the_board_beyond_bare_table_are_not_the_board(recogniser, monkeypatch):
    # test render 3003767 (the thirteenth set): a mug over the 8 x 20 board's corner, a
    # player's cards in line with its rows beside it, beyond three columns of bare table; the
    # lattice was read 9 x 25, the board a row and five columns off (193 spaces wrong)
    import tableref.vision.recognise.ligretto_extent as extent

    shot = shoot(3_003_767)
    reading = recogniser.read(shot.image, None, shot.players)
    assert (reading.rows, reading.columns) == (8, 20)
    assert scene_score(shot, reading)["wrong"] == 0
    monkeypatch.setattr(extent, "parted_to_shape", lambda kinds, keep_r, keep_c, shapes: (keep_r, keep_c))
    assert scene_score(shot, recogniser.read(shot.image, None, shot.players))["wrong"] >= 193


@pytest.mark.parametrize("seed, cells", [
    # validation render 2000527, two players: two free spaces at a hand's edge (60 and 70 %
    # shown) read as the halves of a dotted card, which neither of two players plays
    (2_000_527, [(6, 4), (7, 4)]),
    # 2000377, two players, a blur of 3.9 px: a double joker read dashed
    (2_000_377, [(2, 0)]),
])
def test_told_the_players_only_their_border_styles_are_read(recogniser, seed, cells):
    shot = shoot(seed)
    untold = {s.cell: s for s in recogniser.read(shot.image).spaces}
    assert any(untold[c].owner is not None and untold[c].owner >= shot.players for c in cells)
    told = recogniser.read(shot.image, None, shot.players)
    assert all(s.owner is None or s.owner < shot.players for s in told.spaces)
    assert scene_score(shot, told)["wrong"] == 0
    live = LigrettoRecogniser.open()
    live.players = shot.players  # as the session tells it when the game starts
    assert live.recognise(shot.image, None) == told.observation


@pytest.mark.parametrize("players", [1, 5, 2.0, True])
def test_a_number_of_players_ligretto_is_not_played_by_is_refused(recogniser, players):
    with pytest.raises(RecognitionError, match="2 to 4 players"):
        recogniser.read(np.zeros((720, 1280, 3), np.uint8), None, players)


def test_the_board_hues_are_learnt_from_the_spaces_that_show(recogniser):
    # test render 3001953 (the benchmark's seventh set): a magenta sleeve and a purple one over
    # half the board; calibrated on every place, red drifted to hue 167, nearer the sleeve's
    # magenta than the board's red, and seven red spaces read yellow
    shot = shoot(3_001_953)
    reading = recogniser.read(shot.image, None, shot.players)
    assert min(reading.hues["red"], 180.0 - reading.hues["red"]) < 8.0
    assert scene_score(shot, reading)["wrong"] == 0


def test_a_blurred_card_half_under_a_token_keeps_its_colour(recogniser):
    # validation render 2000623: the blur smears the token's dark disc over the green half
    # (saturation 60-117 on its ring), whose colour was left unknown before FADED_SATURATION
    shot = shoot(2_000_623)
    reading = recogniser.read(shot.image)
    assert {s.cell: s.colour for s in reading.spaces}[(4, 0)] == "green" == shot.spaces[(4, 0)].colour
    assert scene_score(shot, reading)["wrong"] == 0


def test_zones_board_shapes_are_checked_and_optional():
    shipped = zones_for(None)
    assert (8, 12) in shipped.board_shapes and (12, 8) in shipped.board_shapes
    base = {"marker_mm": 50, "table_mm_choices": [[490, 670]], "cell_mm": 30, "board_centred": True,
            "colours_bgr": {c: [0, 0, 0] for c in ("red", "yellow", "green", "blue")}}
    assert LigrettoZones.from_json(base).board_shapes == ()
    assert shipped.deck_limits and LigrettoZones.from_json(base).deck_limits
    assert not LigrettoZones.from_json({**base, "deck_limits": False}).deck_limits
    with pytest.raises(ZonesError, match="board_shapes"):
        LigrettoZones.from_json({**base, "board_shapes": [[8, 1]]})


def _evidence(kinds: list[dict]):
    """Evidence for a one-row board: each space's kind probabilities (the rest 0); borders say
    owner 2 for cards and jokers, no start mark, no token."""
    from tableref.vision.recognise import ligretto_decide as decide
    from tableref.vision.recognise.ligretto_reading import Evidence

    p = np.array([[k.get(name, 0.0) for name in decide.KINDS] for k in kinds])
    borders = np.tile(np.eye(4)[2], (len(kinds), 1))
    return Evidence(np.array(decide.KINDS)[p.argmax(axis=1)], p, borders, borders.copy(),
                     np.zeros(len(kinds)), np.zeros(len(kinds)))


def _one_row_read(kinds: list[dict], colour_share: float):
    """A one-row board read from ``kinds`` (:func:`_evidence`), every ring red ``colour_share``
    of it: (evidence, cells, index, spaces, again) as the recogniser's board step has them."""
    from tableref.vision.recognise.ligretto_reading import space_reading

    ev = _evidence(kinds)
    quad = np.zeros((4, 2))
    cells = [(0, c) for c in range(len(kinds))]
    index = {cell: i for i, cell in enumerate(cells)}
    spaces = {cell: space_reading(cell, i, ev, "red", colour_share, quad) for cell, i in index.items()}

    def again(cell, kind, confidence):
        return space_reading(cell, index[cell], ev, "red", colour_share, quad, kind, confidence)

    return ev, cells, index, spaces, again


@pytest.mark.parametrize("kinds, covers, owners, cards", [
    # a joker read, not surely, as a card half that nothing beside it completes: a joker
    ([{"none": 1}, {"card": 0.93, "joker": 0.07}, {"none": 1}], ["none", "joker", "none"], [None, 2, None], []),
    # a half read surely keeps its reading (the space beside it is the one misread)
    ([{"none": 1}, {"card": 0.995, "joker": 0.005}, {"none": 1}], ["none", "card", "none"], [None, 2, None], []),
    # a free space read as a lone half, free its runner-up: free
    ([{"none": 1}, {"card": 0.7, "none": 0.3}, {"none": 1}], ["none", "none", "none"], [None, None, None], []),
    # a half beside a joker that is likelier its other half than a joker: one card
    ([{"card": 1.0}, {"joker": 0.6, "card": 0.4}, {"none": 1}], ["card", "card", "none"], [2, 2, None],
     [((0, 0), (0, 1))]),
    # a joker beside it that is surely a joker: two jokers
    ([{"card": 0.9, "joker": 0.1}, {"joker": 1.0}, {"none": 1}], ["joker", "joker", "none"], [2, 2, None], []),
    # its other half may be under the hand: left as read
    ([{"hidden": 1}, {"card": 0.9, "joker": 0.1}, {"none": 1}], [None, "card", "none"], [None, 2, None], []),
])
def test_lone_card_halves_are_settled_by_what_lies_beside_them(kinds, covers, owners, cards):
    from tableref.vision.recognise.ligretto_cards import settle_lone

    # rings of several colours (a joker's four; colours are not asserted here)
    ev, cells, index, spaces, again = _one_row_read(kinds, 0.4)
    made = settle_lone(spaces, index, ev, set(), again)
    assert [spaces[c].cover for c in cells] == covers
    assert [spaces[c].owner for c in cells] == owners
    assert [card.cells for card in made] == cards


@pytest.mark.parametrize("kinds, covers, owners, cards", [
    # between a card's half and a free space, beside a half left without a partner: its other half
    ([{"card": 1.0}, {"card": 0.55, "none": 0.4, "hidden": 0.05}, {"none": 1}], ["card", "card", "none"],
     [2, 2, None], [((0, 0), (0, 1))]),
    ([{"card": 1.0}, {"none": 0.5, "card": 0.45, "off": 0.05}, {"none": 1}], ["card", "card", "none"],
     [2, 2, None], [((0, 0), (0, 1))]),
    # nothing beside it can complete it: free
    ([{"none": 1}, {"card": 0.55, "none": 0.45}, {"none": 1}], ["none", "none", "none"], [None, None, None], []),
    # between a card and a hand over part of it: left unknown, and the half beside it as read
    ([{"card": 1.0}, {"card": 0.5, "hidden": 0.45, "none": 0.05}, {"none": 1}], ["card", None, "none"],
     [2, None, None], []),
])
def test_spaces_between_a_card_and_a_free_space_are_settled_by_the_board(kinds, covers, owners, cards):
    from tableref.vision.recognise.ligretto_cards import settle_unsure

    ev, cells, index, spaces, again = _one_row_read(kinds, 1.0)
    assert spaces[(0, 1)].cover is None
    made, paired = settle_unsure(spaces, index, ev, set(), again)
    assert [spaces[c].cover for c in cells] == covers
    assert [spaces[c].owner for c in cells] == owners
    assert [card.cells for card in made] == cards
    assert paired == {cell for card in made for cell in card.cells}
    assert all(spaces[c].confidence >= 0.6 for c in cells if spaces[c].cover is not None)


def test_a_space_read_between_a_card_and_a_free_space_joins_its_lone_half(recogniser, monkeypatch):
    """Validation render 2000420: space (5, 6), a card's half shown whole, read 0.59 a card and
    0.37 free, beside its other half read surely: one card, and the board exactly right; left
    unknown, as before, it is not."""
    shot = shoot(2_000_420)  # validation renders, not the benchmark's test seeds
    reading = recogniser.read(shot.image)
    assert scene_score(shot, reading)["wrong"] == 0
    assert [c.owner for c in reading.cards if (5, 6) in c.cells] == [shot.spaces[(5, 6)].owner]
    monkeypatch.setattr("tableref.vision.recognise.ligretto_cards.CARD_OR_FREE", 1.01)
    assert scene_score(shot, recogniser.read(shot.image))["wrong"] >= 1


@pytest.mark.parametrize("kinds, share, cover, confidence", [
    # read as a joker, its ring of the four colours: a joker
    ({"joker": 0.9, "card": 0.1}, 0.35, "joker", 0.9),
    # read as a joker, its ring one colour: a card's half (its runner-up), as surely as among the rest
    ({"joker": 0.9, "card": 0.08, "none": 0.02}, 0.9, "card", 0.8),
    # ... a free space when that is the runner-up, and unknown when the rest is unsure
    ({"joker": 0.9, "none": 0.1}, 0.95, "none", 1.0),
    ({"joker": 0.8, "none": 0.1, "card": 0.1}, 1.0, None, 0.0),
    # a card read with a ring of one colour: as surely as among the kinds but a joker
    ({"card": 0.9, "joker": 0.1}, 1.0, "card", 1.0),
    ({"card": 0.8, "joker": 0.1, "hidden": 0.1}, 1.0, "card", 0.8 / 0.9),
    # ... and with a ring of several colours, as read
    ({"card": 0.9, "joker": 0.1}, 0.5, "card", 0.9),
    # undecided between a card and a joker (a token over the star): the ring decides, as surely as both together
    ({"card": 0.45, "joker": 0.55}, 0.5, "joker", 1.0),
    ({"card": 0.55, "joker": 0.4, "hidden": 0.05}, 0.6, "joker", 0.95),
    ({"joker": 0.55, "card": 0.45}, 0.98, "card", 1.0),
    # ... not where the ring is neither, nor where they are not together sure
    ({"card": 0.55, "joker": 0.45}, 0.8, None, 0.0),
    ({"card": 0.5, "joker": 0.35, "hidden": 0.15}, 0.4, None, 0.0),
])
def test_a_space_whose_ring_shows_one_colour_is_no_joker(kinds, share, cover, confidence):
    from tableref.vision.recognise.ligretto_reading import space_reading

    s = space_reading((0, 0), 0, _evidence([kinds]), "red", share, np.zeros((4, 2)))
    assert s.cover == cover
    assert s.confidence == pytest.approx(confidence)


@pytest.mark.parametrize("row, confidences, expected", [
    # a card read unsurely beside a space left unknown: unknown too (a hand's edge may lie over it)
    ("?cn", [0.0, 0.9, 1.0], [None, None, "none"]),
    # read surely: kept
    ("?cn", [0.0, 0.995, 1.0], [None, "card", "none"]),
    # nothing unknown beside it: kept, however unsure
    ("ncn", [1.0, 0.7, 1.0], ["none", "card", "none"]),
    # a free space or a joker beside an unknown space: kept
    ("?nj", [0.0, 0.7, 0.7], [None, "none", "joker"]),
    # judged on the readings as they come: the card made unknown does not make the next one so
    ("?cc", [0.0, 0.9, 0.9], [None, None, "card"]),
])
def test_a_card_beside_a_hidden_space_is_read_only_when_sure(row, confidences, expected):
    from tableref.vision.recognise.ligretto import SpaceReading, _beside_the_hidden

    kinds = {"c": "card", "j": "joker", "n": "none", "?": None}
    quad = ((0.0, 0.0),) * 4
    spaces = {(0, i): SpaceReading((0, i), kinds[ch], 1 if ch in "cj" else None, None, conf, None, None, 0.0, quad)
              for i, (ch, conf) in enumerate(zip(row, confidences))}
    out = _beside_the_hidden(spaces)
    assert [out[(0, i)].cover for i in range(len(row))] == expected


@pytest.mark.parametrize("row, confidences, found_covered, expected, asked", [
    # the unsure card beside the unknown space is asked of the model: found clear, kept
    ("?cn", [0.0, 0.9, 1.0], (), [None, "card", "none"], [1]),
    # found covered: unknown, as without the model
    ("?cn", [0.0, 0.9, 1.0], (1,), [None, None, "none"], [1]),
    # a sure card, or an unsure one with nothing unknown beside it, is never asked
    ("?cc", [0.0, 0.995, 0.9], (1, 2), [None, "card", "card"], []),
    # both unsure cards beside it are asked; only the one found covered is unknown
    ("c?c", [0.9, 0.0, 0.9], (0,), [None, None, "card"], [0, 2]),
])
def test_a_card_beside_a_hidden_space_is_kept_where_the_partly_hidden_model_finds_it_clear(
        row, confidences, found_covered, expected, asked):
    from tableref.vision.recognise.ligretto import SpaceReading, _beside_the_hidden

    kinds = {"c": "card", "n": "none", "?": None}
    spaces = {(0, i): SpaceReading((0, i), kinds[ch], 1 if ch == "c" else None, None, conf, None, None, 0.0,
                                   ((float(i), 0.0),) * 4)
              for i, (ch, conf) in enumerate(zip(row, confidences))}
    seen = []

    def covered_of(quads):
        seen.extend(int(q[0][0]) for q in quads)
        return np.array([int(q[0][0]) in found_covered for q in quads])

    out = _beside_the_hidden(spaces, covered_of)
    assert [out[(0, i)].cover for i in range(len(row))] == expected and sorted(seen) == asked


def test_a_whole_card_beside_an_arm_is_read(monkeypatch):
    # validation render 2000884: two halves of a card shown whole beside spaces an arm hides,
    # read at 0.965 and 0.97, were left unknown before the partly-hidden model was asked of them
    import tableref.vision.recognise.ligretto as module

    shot = shoot(2_000_884)
    recogniser = LigrettoRecogniser.open()
    assert scene_score(shot, recogniser.read(shot.image))["wrong"] == 0
    plain = module._beside_the_hidden
    monkeypatch.setattr(module, "_beside_the_hidden", lambda spaces, covered_of=None: plain(spaces))
    assert scene_score(shot, recogniser.read(shot.image))["wrong"] == 2


@pytest.mark.parametrize("seed, half, partner, owner", [
    # a dim render: the cards' own colours lie below the paleness and ink thresholds, so the
    # seam between a card's halves read as pale as a gap between two cards; apart, the upper
    # half was read from its own border alone, dashed (owner 2), not dotted
    (2_000_778, (0, 12), (1, 12), 3),
    # a washed-out light, a dashed half read as double
    (2_000_801, (7, 16), (7, 17), 1),
])
def test_card_halves_are_paired_by_the_seam_model(recogniser, seed, half, partner, owner):
    shot = shoot(seed)  # validation renders, not the benchmark's test seeds
    assert recogniser.seams is not None
    reading = recogniser.read(shot.image)
    assert [c.owner for c in reading.cards if c.cells == (half, partner)] == [owner] == [shot.spaces[half].owner]
    plain = LigrettoRecogniser(recogniser.cell_model, recogniser.token_model, second=recogniser.second,
                               borders=recogniser.borders, hidden=recogniser.hidden)  # the seam's paleness
    again = plain.read(shot.image)
    assert not [c for c in again.cards if c.cells == (half, partner)]
    assert {s.cell: s.owner for s in again.spaces}[half] != owner


def _centred_to_double(self, centre, axes, most=(0, 0)):
    """``AlignedLattice.centred`` as it was before the growth to the longest board's side."""
    return _PLAIN_CENTRED(self, centre, axes)


@pytest.mark.parametrize("seed, old_lattice", [
    # one marker shows: the table rectified from it alone leaves the board's far columns bent
    # 0.32 of a space from straight lines, past the bend's old reach (0.3); the board's own
    # plane, which a single marker's view now takes, straightens them, and so does the view
    # turned with the board as it shows on that table, so both are left off here
    (2_000_655, lambda m: (m.setattr("tableref.vision.lattice_cells.MAX_BEND", 0.3),
                           m.setattr("tableref.vision.recognise.ligretto_board.squared_to_board",
                                     lambda image, view, zones: None),
                           m.setattr("tableref.vision.recognise.ligretto_board.TURN_MIN_DEG", 90.0))),
    # a hand over columns 6-10: the last column, beyond it, was filled in at the plain pitch
    # from the first part, 0.36 of a space from where its cells show (it now also joins as a
    # line of its own, SINGLE_RUN, switched off here too)
    (2_000_751, lambda m: (m.setattr("tableref.vision.lattice_cells.AlignedLattice.snapped",
                                     lambda self, blobs, cell_px: self),
                           m.setattr("tableref.vision.lattice_cells.SINGLE_RUN", 10**6))),
    # an arm along the board's side hides its first four columns: the 8 x 8 found, no board's
    # shape, was read as the 8 x 12 board's first columns (56 spaces wrong); the growth about
    # the middle to the longest board's side now adds them too, so it is left off here
    (2_000_888, lambda m: (m.setattr("tableref.vision.lattice_cells.MAX_SHAPE_FILL", 2),
                           m.setattr("tableref.vision.recognise.ligretto_board.AlignedLattice.centred",
                                     _centred_to_double))),
])
def test_the_lattice_follows_the_spaces_that_show(recogniser, monkeypatch, seed, old_lattice):
    shot = shoot(seed)  # validation renders, not the benchmark's test seeds
    assert scene_score(shot, recogniser.read(shot.image))["wrong"] == 0
    old_lattice(monkeypatch)
    assert scene_score(shot, recogniser.read(shot.image))["wrong"] >= 2


def test_no_owner_holds_more_cards_of_a_pair_than_a_deck(recogniser, monkeypatch):
    """Validation render 2000684: three yellow/green cards read with double borders (player 1),
    of which a deck holds two: the one likeliest another player's, (4, 0)-(5, 0), is read
    dotted (player 3), as it is; with the bound off (the zones' ``deck_limits``), double."""
    from dataclasses import replace

    shot = shoot(2_000_684)  # validation renders, not the benchmark's test seeds
    reading = recogniser.read(shot.image)
    assert scene_score(shot, reading)["wrong"] == 0
    assert [c.owner for c in reading.cards if c.cells == ((4, 0), (5, 0))] == [3] == [shot.spaces[(4, 0)].owner]
    monkeypatch.setattr(recogniser, "zones", replace(recogniser.zones, deck_limits=False))
    again = recogniser.read(shot.image)
    assert [c.owner for c in again.cards if c.cells == ((4, 0), (5, 0))] == [1]
    assert scene_score(shot, again)["wrong"] == 2


@pytest.mark.parametrize("row, token_confidences, expected", [
    # a token read unsurely beside a space left unknown: unknown (a hand's dark edge looks like its rim)
    ("?nn", [0.0, 0.9, 0.9], [None, None, True]),
    # read surely there: kept; a space read free of a token is not asked
    ("?nj", [0.0, 0.99, 0.9], [None, True, True]),
    ("n?n", [0.9, 0.0, -0.9], [None, None, False]),
])
def test_a_token_beside_a_hidden_space_is_read_only_when_sure(row, token_confidences, expected):
    from tableref.vision.recognise.ligretto import SpaceReading, _beside_the_hidden

    kinds = {"j": "joker", "n": "none", "?": None}
    quad = ((0.0, 0.0),) * 4
    spaces = {(0, i): SpaceReading((0, i), kinds[ch], 1 if ch == "j" else None, None, 1.0 if ch != "?" else 0.0,
                                   None, None if ch == "?" else conf > 0, abs(conf), quad)
              for i, (ch, conf) in enumerate(zip(row, token_confidences))}
    out = _beside_the_hidden(spaces)
    assert [out[(0, i)].token for i in range(len(row))] == expected


def test_a_long_blur_is_undone_before_the_spaces_are_read(monkeypatch):
    """Validation render 2000829, the twin's 7 px motion blur: measured on the markers, reported
    and undone before the classifiers read; its board then reads exactly right, and with the
    blur left as it is it does not (2 spaces wrong since the second card model, 3 before)."""
    import tableref.vision.recognise.ligretto as module

    shot = shoot(2_000_829)
    recogniser = LigrettoRecogniser.open()
    reading = recogniser.read(shot.image)
    blur = reading.to_json()["motion_blur"]
    assert blur["undone"] and blur["length_px"] >= module.DEBLUR_FROM_PX
    assert scene_score(shot, reading)["wrong"] == 0
    monkeypatch.setattr(module, "DEBLUR_FROM_PX", float("inf"))
    plain = recogniser.read(shot.image)
    assert not plain.to_json()["motion_blur"]["undone"] and scene_score(shot, plain)["wrong"] >= 2


def test_the_whole_card_is_looked_at_in_the_photograph_as_taken(monkeypatch):
    """Validation render 2000683, a 9 px motion blur undone for the space classifiers: the card
    model learnt cards as photographed, blur and all, and there reads every owner right; shown
    the deconvolved image instead, it takes a dashed card (player 2's) for a double one."""
    shot = shoot(2_000_683)
    recogniser = LigrettoRecogniser.open()
    reading = recogniser.read(shot.image)
    assert reading.to_json()["motion_blur"]["undone"]
    assert scene_score(shot, reading)["wrong"] == 0
    read_board = LigrettoRecogniser._read_board
    monkeypatch.setattr(LigrettoRecogniser, "_read_board",
                        lambda self, image, board, quads_px, profile, zones, photo, players: read_board(
                            self, image, board, quads_px, profile, zones, image, players))
    assert scene_score(shot, recogniser.read(shot.image))["wrong"] >= 2
