"""The ``ligretto-seams`` recipe: neighbouring card-covered spaces, cut as a card is cut, labelled
one card or two pieces; a short run exports a model the recogniser can ask."""

from __future__ import annotations

import numpy as np
import pytest

from tableref.models.training import ligretto, ligretto_borders, ligretto_seams
from tableref.models.training.recipes import get_recipe
from tableref.rules.ligretto.state import FREE
from tableref.vision.recognise.common import RecognitionError
from tableref.vision.recognise.ligretto_labels import (BORDERS_PREPROCESSING, ONE_CARD, SEAM_LABELS, SEAMS_MODEL,
                                                       TWO_PIECES)

#: A training render with cards side by side on the board (seeded: the twin deals it so).
SEED = ligretto.TRAIN_SEED + 3


def test_the_recipe_cuts_pairs_as_the_card_model_cuts_cards():
    recipe = get_recipe(SEAMS_MODEL)
    assert recipe.labels == SEAM_LABELS == (ONE_CARD, TWO_PIECES)
    assert recipe.preprocessing == BORDERS_PREPROCESSING
    assert recipe.train_seed == ligretto.TRAIN_SEED and recipe.val_seed == ligretto.VAL_SEED
    assert ligretto_borders.CONTEXT_MARGIN >= BORDERS_PREPROCESSING.crop.margin + recipe.augmentation.shift


def test_pairs_are_labelled_from_the_pieces_that_cover_them(cache):
    from tableref.vision.synthetic.dataset import sample

    s = sample("ligretto", SEED)
    found = list(ligretto_seams.pair_samples(s))
    state, regions = s.scene.state, s.labels()["regions"]
    board = state.board
    shown = {board.cell(i): regions["lig.cell.{}.{}".format(*board.cell(i))]["shown"] for i in board.spaces()}
    # one pair per card on the board whose two spaces both show enough
    spaces_of: dict[int, list] = {}
    for i in board.spaces():
        if state.cover[i] != FREE:
            spaces_of.setdefault(state.cover[i], []).append(board.cell(i))
    whole_cards = [n for n, cells in spaces_of.items() if state.pieces[n].kind == "card"
                   and min(shown[c] for c in cells) >= ligretto_seams.FIRM_SHARE]
    labels = [label for _, label in found]
    assert labels.count(ONE_CARD) == len(whole_cards) >= 3 and labels.count(TWO_PIECES) >= 3
    for quad, _ in found:  # lengthwise: the long sides first and third
        sides = np.linalg.norm(np.roll(quad, -1, axis=0) - quad, axis=1)
        assert sides[0] > 1.5 * sides[1]

    patches, indices = ligretto_seams.render_pairs(SEED)
    assert patches.shape == (len(found), *ligretto_borders.CONTEXT_SIZE, 3) and patches.dtype == np.uint8
    assert [SEAM_LABELS[k] for k in indices] == labels
    again, _ = ligretto_seams.render_pairs(SEED)  # seeded
    assert np.array_equal(again, patches)


def test_a_short_run_exports_a_model_the_recogniser_asks(cache, run_cli, tmp_path):
    from tableref.vision.classifier import Classifier
    from tableref.vision.recognise.ligretto import LigrettoRecogniser

    done = run_cli("train", "--model", SEAMS_MODEL, "--out", tmp_path, "--samples", "48", "--max-steps", "2")
    assert done.code == 0, done
    model = Classifier.open(tmp_path / f"{SEAMS_MODEL}.card.json")
    assert model.labels == SEAM_LABELS and model.card.preprocessing == BORDERS_PREPROCESSING
    shipped = LigrettoRecogniser.open()
    assert LigrettoRecogniser(shipped.cell_model, shipped.token_model, seams=model).seams is model
    with pytest.raises(RecognitionError, match="does not read card seams"):
        LigrettoRecogniser(shipped.cell_model, shipped.token_model, seams=shipped.token_model)
