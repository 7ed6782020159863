"""Training: augmentation hooks, the split, the smoke recipe end to end (train -> ONNX ->
card -> runner agrees with PyTorch), and ``tableref train`` with and without PyTorch."""

from __future__ import annotations

import platform
import subprocess
import sys

import numpy as np
import pytest

from tableref.models.training import TrainingError
from tableref.models.training import augment as A
from tableref.models.training import spots
from tableref.models.training.dataset import Sample, make_inputs, split
from tableref.models.training.recipes import get_recipe, recipes, run_recipe
from tableref.vision.classifier import Classifier

RNG_SEED = 7


def patch() -> np.ndarray:
    return np.random.default_rng(RNG_SEED).integers(40, 200, (16, 12, 3), dtype=np.uint8)


def change(p, temperature=0.0, gain=1.0, sigma=0.0, std=0.0):
    """``p`` through the batch photometric change as a batch of one."""
    return A.photometric(p[None], [temperature], [gain], [sigma], [std], np.random.default_rng(0))[0]


@pytest.mark.parametrize("amounts, check", [
    (dict(temperature=1.0), lambda p, q: q[..., 2].mean() > p[..., 2].mean() > q[..., 0].mean() - 80),
    (dict(temperature=-1.0), lambda p, q: q[..., 0].mean() > p[..., 0].mean() and q[..., 2].mean() < p[..., 2].mean()),
    (dict(), lambda p, q: np.array_equal(p, q)),
    (dict(gain=1.2), lambda p, q: q.mean() > p.mean()),
    (dict(gain=0.5), lambda p, q: abs(q.mean() - p.mean() / 2) < 1),
    (dict(sigma=1.5), lambda p, q: q.std() < p.std()),
    (dict(std=10.0), lambda p, q: 5 < np.abs(q.astype(int) - p).mean() < 12),
])
def test_photometric_changes(amounts, check):
    p = patch()
    q = change(p, **amounts)
    assert q.dtype == np.uint8 and q.shape == p.shape
    assert check(p, q)


def test_photometric_changes_each_patch_by_its_own_amounts():
    p = np.stack([patch(), patch()])
    q = A.photometric(p, [0.0, 0.0], [1.0, 0.5], [0.0, 0.0], [0.0, 0.0])
    assert np.array_equal(q[0], p[0]) and q[1].mean() < 0.6 * p[1].mean()


@pytest.mark.parametrize("block", [1, 3, 64])
def test_photometric_gives_the_same_bytes_in_any_block_size(monkeypatch, block):
    rng = np.random.default_rng(11)
    p = rng.integers(0, 256, (7, 10, 10, 3), dtype=np.uint8)
    amounts = (rng.uniform(-1, 1, 7), rng.uniform(0.5, 1.5, 7), [0.0, 0.8, 0.0, 1.5, 0.3, 0.0, 1.0], rng.uniform(0, 9, 7))
    monkeypatch.setattr(A, "BLOCK", 1000)
    whole = A.photometric(p, *amounts, np.random.default_rng(5))
    monkeypatch.setattr(A, "BLOCK", block)
    assert np.array_equal(A.photometric(p, *amounts, np.random.default_rng(5)), whole)


def test_random_changes_are_seeded_and_within_range():
    aug = A.Augmentation(temperature=0.3, brightness=0.25, blur_sigma=1.0, noise_std=6.0)
    p = np.stack([patch()] * 8)
    first, again = (A.random_photometric(p, aug, np.random.default_rng(3)) for _ in range(2))
    assert np.array_equal(first, again) and not np.array_equal(first, p)
    quads = np.array([[[0, 0], [2, 0], [2, 2], [0, 2]]] * 8, float)
    moved = A.random_quads(quads, A.Augmentation(rotation_deg=0, shift=0.1, scale=0), np.random.default_rng(3))
    assert np.all(np.abs(moved - quads) <= 0.1 * 2 + 1e-9) and not np.allclose(moved, quads)


JITTERS = [  # (angle, shift, scale) -> the square (0, 0)-(2, 2) moved
    (0, (0, 0), 0, [[0, 0], [2, 0], [2, 2], [0, 2]]),
    (0, (1, -1), 0, [[1, -1], [3, -1], [3, 1], [1, 1]]),
    (90, (0, 0), 0, [[2, 0], [2, 2], [0, 2], [0, 0]]),
    (0, (0, 0), 0.5, [[-0.5, -0.5], [2.5, -0.5], [2.5, 2.5], [-0.5, 2.5]]),
]
SQUARE = np.array([[0, 0], [2, 0], [2, 2], [0, 2]], float)


@pytest.mark.parametrize("angle, shift, scale, expected", JITTERS)
def test_jitter_quads(angle, shift, scale, expected):
    np.testing.assert_allclose(A.jitter_quads(SQUARE[None], [angle], [shift], [scale])[0], expected, atol=1e-9)


def test_jitter_quads_moves_each_quad_by_its_own_amounts():
    angles, shifts, scales, expected = zip(*JITTERS)
    moved = A.jitter_quads(np.stack([SQUARE] * len(JITTERS)), angles, shifts, scales)
    np.testing.assert_allclose(moved, expected, atol=1e-9)


def test_augmentation_settings_are_checked():
    with pytest.raises(TrainingError, match="brightness"):
        A.Augmentation(brightness=-1)
    with pytest.raises(TrainingError, match="brightness"):
        A.Augmentation(brightness=1.5)


def test_split_is_seeded_and_stratified():
    image = np.zeros((8, 8, 3), np.uint8)
    quad = [[0, 0], [4, 0], [4, 4], [0, 4]]
    samples = [Sample(image, quad, label) for label in ["a"] * 20 + ["b"] * 8 + ["c"] * 2]
    train, val = split(samples, 0.25, seed=3)
    again = split(samples, 0.25, seed=3)
    assert [id(s) for s in val] == [id(s) for s in again[1]]
    assert len(train) + len(val) == 30 and not {id(s) for s in train} & {id(s) for s in val}
    assert sorted(s.label for s in val) == ["a"] * 5 + ["b"] * 2 + ["c"]
    with pytest.raises(TrainingError, match="val_fraction"):
        split(samples, 1.0, seed=3)


def test_augmented_inputs_are_seeded():
    recipe = get_recipe("smoke")
    samples = recipe.build(0, 8)
    a = make_inputs(samples, recipe.preprocessing, recipe.augmentation, np.random.default_rng(1))
    b = make_inputs(samples, recipe.preprocessing, recipe.augmentation, np.random.default_rng(1))
    plain = make_inputs(samples, recipe.preprocessing)
    np.testing.assert_array_equal(a, b)
    assert a.shape == plain.shape == (8, 3, 64, 48) and not np.array_equal(a, plain)
    with pytest.raises(TrainingError, match="random generator"):
        make_inputs(samples, recipe.preprocessing, recipe.augmentation)


@pytest.fixture(scope="module")
def smoke_model(tmp_path_factory):
    out = tmp_path_factory.mktemp("smoke")
    return run_recipe(get_recipe("smoke"), out, "pytest smoke", epochs=2, max_steps=4, samples=240)


def test_smoke_training_exports_an_agreeing_model(smoke_model):
    result = smoke_model
    card = result.card
    assert result.steps == 4
    assert result.max_probability_diff < 1e-4
    assert card.parameters < 1_000_000
    assert abs(card.training.val_samples - 60) <= len(card.labels)  # a stratified quarter
    assert card.training.command == "pytest smoke"
    assert (card.training.train_seed, card.training.val_seed) == (1, 2)
    clf = Classifier.open(result.card_path)
    assert clf.labels == get_recipe("smoke").labels
    samples = get_recipe("smoke").build(99, 16)
    pred = clf.predict(make_inputs(samples, card.preprocessing))
    assert len(pred.labels) == 16 and np.all((pred.confidences > 0) & (pred.confidences <= 1))


def test_smoke_training_is_reproducible(smoke_model, tmp_path):
    again = run_recipe(get_recipe("smoke"), tmp_path, "pytest smoke", epochs=2, max_steps=4, samples=240)
    assert again.card.sha256 == smoke_model.card.sha256


def test_the_allocator_keeps_freed_memory_where_it_can(monkeypatch):
    from tableref.models.training import loop

    glibc = sys.platform.startswith("linux") and platform.libc_ver()[0] == "glibc"
    assert loop.keep_freed_memory() is glibc

    def no_libc(name):
        raise OSError(f"{name}: cannot open shared object file")

    monkeypatch.setattr(loop.ctypes, "CDLL", no_libc)
    assert loop.keep_freed_memory() is False


def test_registry():
    assert "smoke" in recipes()
    with pytest.raises(TrainingError, match="no training recipe named 'nope'; known: .*smoke"):
        get_recipe("nope")


def test_train_command(run_cli, tmp_path):
    listed = run_cli("train", "--list")
    assert listed.code == 0 and any(line.startswith("smoke\t") for line in listed.out.splitlines())
    assert run_cli("train").code == 2
    unknown = run_cli("train", "--model", "nope")
    assert unknown.code == 2 and "no training recipe named 'nope'" in unknown.err
    done = run_cli("train", "--model", "smoke", "--out", tmp_path, "--samples", "64", "--max-steps", "2")
    assert done.code == 0, done
    assert (tmp_path / "smoke.onnx").is_file() and (tmp_path / "smoke.card.json").is_file()
    assert "validation accuracy" in done.out
    assert Classifier.open(tmp_path / "smoke.card.json").card.training.command == \
        "tableref train --model smoke --max-steps 2 --samples 64"


def test_train_command_without_torch(run_cli, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)  # import torch now raises ImportError
    result = run_cli("train", "--model", "smoke", "--out", tmp_path)
    assert result.code == 2
    assert "PyTorch is not available" in result.err and "tableref[train]" in result.err
    assert "Traceback" not in result.err


def test_tableref_imports_without_torch():
    code = ("import sys; sys.modules['torch'] = None\n"
            "import tableref.cli, tableref.vision.classifier, tableref.vision.crop, tableref.vision.cards\n"
            "import tableref.models.training.recipes as r; r.recipes()\n"
            "import tableref.commands.train\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]


def _tree(root, files: dict) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_the_cache_is_named_by_the_code_that_fills_it(tmp_path, monkeypatch):
    """A warm cache made by other code (an earlier commit, an experiment not kept) is never
    trained on: the folder's name carries a digest of the code and data that render and cut."""
    _tree(tmp_path, {"vision/crop.py": "A = 1\n", "vision/recognise/data/zones.json": "{}",
                     "rules/x.py": "", "calibration/y.py": "", "models/training/z.py": "", "webui/w.py": ""})
    first = spots.code_digest(tmp_path)
    _tree(tmp_path, {"webui/w.py": "changed", "vision/notes.txt": "changed"})  # not what cuts spots
    spots.code_digest.cache_clear()
    assert spots.code_digest(tmp_path) == first
    for changed in ("vision/crop.py", "vision/recognise/data/zones.json", "rules/x.py", "models/training/z.py"):
        _tree(tmp_path, {changed: "something else\n"})
        spots.code_digest.cache_clear()
        assert spots.code_digest(tmp_path) != first, changed
        first = spots.code_digest(tmp_path)
    spots.code_digest.cache_clear()
    monkeypatch.setenv("TABLEREF_CACHE", str(tmp_path / "cache"))
    assert spots.cache_root("cards", "v2") == tmp_path / "cache" / "cards" / f"v2-{spots.code_digest()}"
    assert len(spots.code_digest()) == 12
