"""The model card: what a shipped classifier expects and how it was made.

A card lies beside its model as ``NAME.card.json`` next to ``NAME.onnx``. The one crop
function (:mod:`tableref.vision.crop`) reads its :class:`Preprocessing`, in training and at
run time alike, so a model can only ever see crops made the way it was trained on.

JSON form (``card_version`` 1)::

    {"card_version": 1, "name": "smoke", "labels": ["a", "b"],
     "preprocessing": {"input_size": [64, 64], "colour": "rgb",
                       "mean": [0.5, 0.5, 0.5], "std": [0.25, 0.25, 0.25],
                       "crop": {"region": "quad", "margin": 0.1, "box_mm": null}},
     "training": {"train_seed": 1, "val_seed": 2, "val_accuracy": 0.99, "val_samples": 200,
                  "measured_on": "...", "date": "2025-01-31", "command": "tableref train ..."},
     "model": {"file": "smoke.onnx", "sha256": "<64 hex digits>", "parameters": 12345}}
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..vision.errors import VisionError

CARD_VERSION = 1
#: File name suffixes: ``NAME.onnx`` and its card ``NAME.card.json``.
CARD_SUFFIX, MODEL_SUFFIX = ".card.json", ".onnx"
#: Colour orders a model may expect, and the channels each has.
COLOUR_CHANNELS = {"bgr": 3, "rgb": 3, "gray": 1}
#: Crop regions: the item's own quadrilateral, or a box of fixed millimetres about its centre.
REGIONS = ("quad", "box_mm")
#: A margin is a fraction of the region's side added on each side; 1 would triple the crop.
MAX_MARGIN = 1.0
#: Largest input side accepted (a sanity bound: the classifiers here are small).
MAX_INPUT_SIDE = 1024
_NAME = re.compile(r"^[a-z0-9][a-z0-9_.-]{0,63}$")
_SHA256 = re.compile(r"^[0-9a-f]{64}$")


class ModelError(VisionError):
    """A model that cannot be used: missing or corrupt file, or one that does not fit its card."""


class ModelCardError(ModelError):
    """A model card that is malformed; the message names the field (``preprocessing.mean``)."""


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"the boolean {value}"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the string {value!r}"
    if isinstance(value, (list, tuple)):
        return f"a list of {len(value)}"
    if isinstance(value, Mapping):
        return "an object"
    return type(value).__name__


def _fail(field: str, expected: str, value: Any) -> ModelCardError:
    return ModelCardError(f"model card field {field!r} must be {expected}, got {_kind(value)}")


def _number(value: Any, field: str, lo: float = -math.inf, hi: float = math.inf,
            lo_open: bool = False) -> float:
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    if ok:
        ok = (value > lo if lo_open else value >= lo) and value <= hi
    if not ok:
        bound = f"{'>' if lo_open else '>='} {lo}" if math.isfinite(lo) else "finite"
        upper = f" and <= {hi}" if math.isfinite(hi) else ""
        raise _fail(field, f"a number {bound}{upper}", value)
    return float(value)


def _integer(value: Any, field: str, lo: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < lo:
        raise _fail(field, f"an integer >= {lo}", value)
    return int(value)


def _text(value: Any, field: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _fail(field, "a non-empty string", value)
    return value


def _numbers(value: Any, field: str, length: int, lo: float, lo_open: bool) -> tuple[float, ...]:
    if not isinstance(value, (list, tuple)) or len(value) != length:
        raise _fail(field, f"a list of {length} numbers", value)
    return tuple(_number(v, f"{field}[{i}]", lo=lo, lo_open=lo_open) for i, v in enumerate(value))


@dataclass(frozen=True)
class CropSettings:
    """Which region around an item becomes the model's input.

    Attributes
    ----------
    region : {"quad", "box_mm"}
        ``"quad"``: the item's quadrilateral as detected. ``"box_mm"``: a box of ``box_mm``
        millimetres centred on the item and turned like it (for items whose outline is not
        found precisely, e.g. a die); needs the image's pixels per millimetre.
    margin : float
        Fraction of each side of the region added on every side, in [0, 1]; 0.1 widens a
        60 mm side to 72 mm.
    box_mm : (float, float) or None
        (width, height) in millimetres when ``region == "box_mm"``, else None.
    """

    region: str = "quad"
    margin: float = 0.0
    box_mm: tuple[float, float] | None = None

    def __post_init__(self) -> None:
        if self.region not in REGIONS:
            raise _fail("preprocessing.crop.region", f"one of {list(REGIONS)}", self.region)
        object.__setattr__(self, "margin", _number(self.margin, "preprocessing.crop.margin", 0.0, MAX_MARGIN))
        if self.region == "box_mm":
            box = _numbers(self.box_mm, "preprocessing.crop.box_mm", 2, 0.0, lo_open=True)
            object.__setattr__(self, "box_mm", box)
        elif self.box_mm is not None:
            raise _fail("preprocessing.crop.box_mm", "null when region is 'quad'", self.box_mm)

    def to_json(self) -> dict[str, Any]:
        return {"region": self.region, "margin": self.margin,
                "box_mm": list(self.box_mm) if self.box_mm is not None else None}


@dataclass(frozen=True)
class Preprocessing:
    """How an image region becomes the model's input tensor (read by :func:`vision.crop.crop`).

    Attributes
    ----------
    input_size : (int, int)
        (height, width) of the model's input in pixels.
    colour : {"bgr", "rgb", "gray"}
        Channel order of the input (images arrive BGR and are converted).
    mean, std : tuple of float, one per channel
        Normalisation applied to pixel values scaled to [0, 1]: ``(x / 255 - mean) / std``.
    crop : CropSettings
        The region around an item and its margin.
    """

    input_size: tuple[int, int]
    colour: str
    mean: tuple[float, ...]
    std: tuple[float, ...]
    crop: CropSettings = CropSettings()

    def __post_init__(self) -> None:
        size = self.input_size
        if (not isinstance(size, (list, tuple)) or len(size) != 2
                or not all(isinstance(s, int) and not isinstance(s, bool) and 1 <= s <= MAX_INPUT_SIDE
                           for s in size)):
            raise _fail("preprocessing.input_size", f"[height, width], integers in 1..{MAX_INPUT_SIDE}", size)
        object.__setattr__(self, "input_size", (int(size[0]), int(size[1])))
        if self.colour not in COLOUR_CHANNELS:
            raise _fail("preprocessing.colour", f"one of {list(COLOUR_CHANNELS)}", self.colour)
        n = self.channels
        object.__setattr__(self, "mean", _numbers(self.mean, "preprocessing.mean", n, -math.inf, False))
        object.__setattr__(self, "std", _numbers(self.std, "preprocessing.std", n, 0.0, lo_open=True))
        if not isinstance(self.crop, CropSettings):
            raise _fail("preprocessing.crop", "crop settings", self.crop)

    @property
    def channels(self) -> int:
        """Number of input channels (3 for BGR/RGB, 1 for gray)."""
        return COLOUR_CHANNELS[self.colour]

    def input_shape(self, batch: int | str = "batch") -> tuple[int | str, int, int, int]:
        """The NCHW input shape: (batch, channels, height, width)."""
        return (batch, self.channels, *self.input_size)

    def to_json(self) -> dict[str, Any]:
        return {"input_size": list(self.input_size), "colour": self.colour, "mean": list(self.mean),
                "std": list(self.std), "crop": self.crop.to_json()}

    @classmethod
    def from_json(cls, data: Any) -> Preprocessing:
        data = _section(data, "preprocessing")
        crop = _section(_get(data, "crop", "preprocessing"), "preprocessing.crop")
        return cls(input_size=_get(data, "input_size", "preprocessing"),
                   colour=_get(data, "colour", "preprocessing"),
                   mean=_get(data, "mean", "preprocessing"), std=_get(data, "std", "preprocessing"),
                   crop=CropSettings(region=_get(crop, "region", "preprocessing.crop"),
                                     margin=_get(crop, "margin", "preprocessing.crop"),
                                     box_mm=crop.get("box_mm")))


@dataclass(frozen=True)
class TrainingRecord:
    """How a model was trained and what it scored.

    Attributes
    ----------
    train_seed, val_seed : int
        Seeds of the training data (builder, shuffling, augmentation, initial weights) and of
        the validation data (its builder, or the split when samples come as one pool).
    val_accuracy : float
        Fraction of validation samples classified right, in [0, 1].
    val_samples : int
        Number of validation samples.
    measured_on : str
        Which images the accuracy was measured on (every accuracy claim says so).
    date : str
        Day of training, ISO format ``YYYY-MM-DD``.
    command : str
        The command line that trained it.
    """

    train_seed: int
    val_seed: int
    val_accuracy: float
    val_samples: int
    measured_on: str
    date: str
    command: str

    def __post_init__(self) -> None:
        _integer(self.train_seed, "training.train_seed", 0)
        _integer(self.val_seed, "training.val_seed", 0)
        object.__setattr__(self, "val_accuracy", _number(self.val_accuracy, "training.val_accuracy", 0.0, 1.0))
        _integer(self.val_samples, "training.val_samples", 1)
        _text(self.measured_on, "training.measured_on")
        _text(self.command, "training.command")
        try:
            _dt.date.fromisoformat(self.date)
        except (TypeError, ValueError):
            raise _fail("training.date", "an ISO date YYYY-MM-DD", self.date) from None

    def to_json(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in ("train_seed", "val_seed", "val_accuracy", "val_samples",
                                              "measured_on", "date", "command")}


@dataclass(frozen=True)
class ModelCard:
    """A classifier's card: name, labels, preprocessing, training record and model file.

    Attributes
    ----------
    name : str
        Lower-case identifier, e.g. ``"dolcevita-luxury"``.
    labels : tuple of str
        Class names in the order of the model's output.
    preprocessing : Preprocessing
    training : TrainingRecord
    file : str
        The ``.onnx`` file's name, in the card's folder.
    sha256 : str
        Hex SHA-256 of the ``.onnx`` file.
    parameters : int
        Number of trainable parameters.
    """

    name: str
    labels: tuple[str, ...]
    preprocessing: Preprocessing
    training: TrainingRecord
    file: str
    sha256: str
    parameters: int

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not _NAME.match(self.name):
            raise _fail("name", "a lower-case name of letters, digits, '.', '_', '-'", self.name)
        labels = self.labels
        if (not isinstance(labels, (list, tuple)) or len(labels) < 2
                or not all(isinstance(x, str) and x.strip() for x in labels)):
            raise _fail("labels", "a list of at least 2 non-empty strings", labels)
        if len(set(labels)) != len(labels):
            duplicates = sorted({x for x in labels if list(labels).count(x) > 1})
            raise ModelCardError(f"model card field 'labels' must not repeat a label, got {duplicates} twice")
        object.__setattr__(self, "labels", tuple(labels))
        if not isinstance(self.preprocessing, Preprocessing):
            raise _fail("preprocessing", "preprocessing settings", self.preprocessing)
        if not isinstance(self.training, TrainingRecord):
            raise _fail("training", "a training record", self.training)
        if (not isinstance(self.file, str) or not self.file.endswith(MODEL_SUFFIX)
                or Path(self.file).name != self.file):
            raise _fail("model.file", f"a bare file name ending in {MODEL_SUFFIX}", self.file)
        if not isinstance(self.sha256, str) or not _SHA256.match(self.sha256):
            raise _fail("model.sha256", "64 lower-case hex digits", self.sha256)
        _integer(self.parameters, "model.parameters", 1)

    def to_json(self) -> dict[str, Any]:
        """The card as a JSON-ready dict (see the module docstring)."""
        return {"card_version": CARD_VERSION, "name": self.name, "labels": list(self.labels),
                "preprocessing": self.preprocessing.to_json(), "training": self.training.to_json(),
                "model": {"file": self.file, "sha256": self.sha256, "parameters": self.parameters}}

    @classmethod
    def from_json(cls, data: Any) -> ModelCard:
        """Build and validate a card from its JSON form; errors name the field."""
        data = _section(data, "card")
        version = _get(data, "card_version", "")
        if version != CARD_VERSION:
            raise _fail("card_version", f"{CARD_VERSION}", version)
        training = _section(_get(data, "training", ""), "training")
        model = _section(_get(data, "model", ""), "model")
        record = TrainingRecord(**{k: _get(training, k, "training") for k in
                                   ("train_seed", "val_seed", "val_accuracy", "val_samples",
                                    "measured_on", "date", "command")})
        return cls(name=_get(data, "name", ""), labels=_get(data, "labels", ""),
                   preprocessing=Preprocessing.from_json(_get(data, "preprocessing", "")),
                   training=record, file=_get(model, "file", "model"),
                   sha256=_get(model, "sha256", "model"), parameters=_get(model, "parameters", "model"))


def _section(value: Any, field: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise _fail(field, "an object", value)
    return value


def _get(data: Mapping[str, Any], key: str, where: str) -> Any:
    if key not in data:
        raise ModelCardError(f"model card field {f'{where}.{key}' if where else key!r} is missing")
    return data[key]


def card_path_for(model_path: str | Path) -> Path:
    """``NAME.card.json`` beside ``NAME.onnx``."""
    path = Path(model_path)
    return path.with_name(path.name.removesuffix(MODEL_SUFFIX) + CARD_SUFFIX)


def load_card(path: str | Path) -> ModelCard:
    """Read and validate the card at ``path`` (``NAME.card.json``).

    Raises
    ------
    ModelCardError
        Naming the file and, for a malformed card, the field.
    """
    p = Path(path)
    if not p.is_file():
        raise ModelCardError(f"model card {str(p)!r} does not exist (expected NAME{CARD_SUFFIX} beside NAME{MODEL_SUFFIX})")
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ModelCardError(f"model card {str(p)!r} cannot be read: {exc}") from None
    except json.JSONDecodeError as exc:
        raise ModelCardError(f"model card {str(p)!r} is not valid JSON: {exc.msg} at line {exc.lineno}") from None
    try:
        return ModelCard.from_json(data)
    except ModelCardError as exc:
        raise ModelCardError(f"{p.name}: {exc}") from None


def save_card(card: ModelCard, folder: str | Path) -> Path:
    """Write ``card`` as ``NAME.card.json`` into ``folder``; return the path."""
    path = Path(folder) / f"{card.name}{CARD_SUFFIX}"
    path.write_text(json.dumps(card.to_json(), indent=2) + "\n", encoding="utf-8")
    return path
