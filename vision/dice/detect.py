"""The dice detector: an ONNX centre-heatmap network and a crop verifier, bound to their cards.

:class:`DiceDetector` finds every die in a photo without table markers or calibration: it
scales the photo as the card says (:func:`~.prepare.prepare`), runs the network on the CPU
(onnxruntime, no PyTorch), decodes centre peaks into proposed boxes (:mod:`.decode`) in photo
pixels, asks the verifier (a small crop classifier, ``die`` or ``other``, run through the
shared crop) whether each proposal is a die, and names each die's colour from its body
(:mod:`.colour`).

The shipped models lie in the ``tableref.models`` folder: ``dice-detector.onnx`` with its card
``dice-detector.card.json``, its settings ``dice-detector.settings.json`` (decoding thresholds,
the verifier's card name and its threshold, chosen on the tune photos; see docs/dice.md) and
the verifier ``dice-verifier.onnx`` with its card.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ... import models
from ...models.card import ModelCard, ModelError
from ..classifier import Classifier, load_map_session, read_model
from ..errors import VisionError
from ..frame import check_bgr_image
from .colour import COLOURS, name_colour
from .decode import CHANNELS, DecodeSettings, decode
from .prepare import ALIGN, STRIDE, Prepared, prepare

MODEL_NAME = "dice-detector"
#: The card's labels: the centre map scores "die" against "background".
LABELS = ("background", "die")
#: The detector's settings lie beside the model as ``NAME.settings.json``.
SETTINGS_SUFFIX = ".settings.json"
#: The verifier's labels; a proposal is kept when its ``die`` probability is high enough.
VERIFIER_LABELS = ("die", "other")
#: The shipped model's card.
DEFAULT_CARD = Path(models.__file__).resolve().parent / f"{MODEL_NAME}.card.json"


@dataclass(frozen=True)
class Die:
    """One detected die.

    Attributes
    ----------
    box : (float, float, float, float)
        ``xmin, ymin, xmax, ymax`` in photo pixels (inside the photo).
    colour : str
        The body's colour name, one of :data:`~.colour.COLOURS`.
    confidence : float
        Centre score in [0, 1].
    """

    box: tuple[float, float, float, float]
    colour: str
    confidence: float

    def __post_init__(self) -> None:
        box = self.box
        if (not isinstance(box, (tuple, list)) or len(box) != 4
                or not all(isinstance(v, (int, float)) and math.isfinite(v) for v in box)
                or not (box[2] > box[0] and box[3] > box[1])):
            raise VisionError(f"a die's box must be 4 finite numbers xmin < xmax, ymin < ymax, got {box!r}")
        object.__setattr__(self, "box", tuple(float(v) for v in box))
        if self.colour not in COLOURS:
            raise VisionError(f"a die's colour must be one of {list(COLOURS)}, got {self.colour!r}")
        if not isinstance(self.confidence, (int, float)) or not 0.0 <= self.confidence <= 1.0:
            raise VisionError(f"a die's confidence must be in [0, 1], got {self.confidence!r}")
        object.__setattr__(self, "confidence", float(self.confidence))

    def to_json(self) -> dict:
        """``{"box": [xmin, ymin, xmax, ymax], "colour": NAME, "confidence": C}``, rounded."""
        return {"box": [round(v, 1) for v in self.box], "colour": self.colour,
                "confidence": round(self.confidence, 3)}


@dataclass(frozen=True, eq=False)
class PhotoMaps:
    """The network's output for one photo and how to map it back.

    Attributes
    ----------
    maps : ndarray of shape (CHANNELS, h, w), float32
    scale : float
        Network pixels per photo pixel.
    image_size : (int, int)
        (height, width) of the photo.
    """

    maps: np.ndarray
    scale: float
    image_size: tuple[int, int]

    def boxes(self, settings: DecodeSettings) -> tuple[np.ndarray, np.ndarray]:
        """Boxes (N, 4) in photo pixels, clipped to the photo, and their confidences (N,)."""
        boxes, confidences = decode(self.maps, settings)
        boxes = boxes / np.float32(self.scale)
        h, w = self.image_size
        np.clip(boxes[:, 0::2], 0, w, out=boxes[:, 0::2])
        np.clip(boxes[:, 1::2], 0, h, out=boxes[:, 1::2])
        real = (boxes[:, 2] > boxes[:, 0]) & (boxes[:, 3] > boxes[:, 1])
        return boxes[real], confidences[real]


@dataclass(frozen=True)
class DetectorSettings:
    """How proposals become dice.

    Attributes
    ----------
    decode : DecodeSettings
        Peaks to proposals (its ``min_confidence`` is the proposals' least centre score).
    verifier : str or None
        File name of the verifier's card, beside the detector's; None: keep every proposal.
    min_die_probability : float
        Least ``die`` probability (0-1) the verifier must give a proposal.
    """

    decode: DecodeSettings = DecodeSettings()
    verifier: str | None = None
    min_die_probability: float = 0.5

    def __post_init__(self) -> None:
        if not isinstance(self.decode, DecodeSettings):
            raise VisionError(f"detector settings need decode settings, got {type(self.decode).__name__}")
        if self.verifier is not None and (not isinstance(self.verifier, str) or Path(self.verifier).name != self.verifier
                                          or not self.verifier.endswith(".card.json")):
            raise VisionError(f"detector settings 'verifier' must be a card's bare file name (NAME.card.json) "
                              f"or null, got {self.verifier!r}")
        p = self.min_die_probability
        if not isinstance(p, (int, float)) or isinstance(p, bool) or not 0.0 <= p < 1.0:
            raise VisionError(f"detector settings 'min_die_probability' must be a number in [0, 1), got {p!r}")

    def to_json(self) -> dict:
        d = self.decode
        return {"min_confidence": d.min_confidence, "nms_iou": d.nms_iou, "max_dice": d.max_dice,
                "verifier": self.verifier, "min_die_probability": self.min_die_probability}


#: Keys of ``NAME.settings.json``.
SETTINGS_KEYS = ("min_confidence", "nms_iou", "max_dice", "verifier", "min_die_probability")


def load_settings(path: str | Path) -> DetectorSettings:
    """Read ``NAME.settings.json`` (the keys of :data:`SETTINGS_KEYS`)."""
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ModelError(f"detector settings {str(p)!r} do not exist (they lie beside the model)") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ModelError(f"detector settings {str(p)!r} cannot be read: {exc}") from None
    if not isinstance(data, dict) or sorted(data) != sorted(SETTINGS_KEYS):
        raise ModelError(f"detector settings {str(p)!r} must be an object with exactly {list(SETTINGS_KEYS)}")
    decode = DecodeSettings(data["min_confidence"], data["nms_iou"], data["max_dice"])
    return DetectorSettings(decode, data["verifier"], data["min_die_probability"])


def save_settings(settings: DetectorSettings, path: str | Path) -> Path:
    """Write ``settings`` as JSON to ``path``."""
    p = Path(path)
    p.write_text(json.dumps(settings.to_json(), indent=2) + "\n", encoding="utf-8")
    return p


def box_quads(boxes: np.ndarray) -> np.ndarray:
    """Corners (N, 4, 2) of boxes (N, 4), top-left first, clockwise (the crop's order)."""
    b = np.asarray(boxes, np.float64).reshape(-1, 4)
    return np.stack([b[:, [0, 1]], b[:, [2, 1]], b[:, [2, 3]], b[:, [0, 3]]], axis=1)


class DiceDetector:
    """The die detector network bound to its card.

    Parameters
    ----------
    card : ModelCard
        The validated card (labels :data:`LABELS`).
    model_bytes : bytes
        The ``.onnx`` file's content; must hash to ``card.sha256``.
    settings : DetectorSettings
        Thresholds, and the verifier's card name (if any).
    source : str
        How to name the model in messages.
    verifier : Classifier or None
        The proposal verifier named by ``settings.verifier`` (labels :data:`VERIFIER_LABELS`).

    Raises
    ------
    ModelError
        When the bytes do not match the card, cannot be loaded, or give the wrong outputs.
    """

    def __init__(self, card: ModelCard, model_bytes: bytes, settings: DetectorSettings = DetectorSettings(),
                 source: str = "model", verifier: Classifier | None = None, threads: int | None = None):
        self._session, self._input_name = load_map_session(card, model_bytes, LABELS, "dice detector", source,
                                                           threads)
        if (settings.verifier is None) != (verifier is None):
            raise ModelError(f"{source}: settings name verifier {settings.verifier!r} but "
                             f"{'none' if verifier is None else 'one'} was given")
        if verifier is not None and tuple(verifier.labels) != VERIFIER_LABELS:
            raise ModelError(f"{source}: the verifier's labels must be {list(VERIFIER_LABELS)}, got {list(verifier.labels)}")
        self.card, self.settings, self.source, self.verifier = card, settings, source, verifier

    @classmethod
    def open(cls, card_path: str | Path | None = None, threads: int | None = None) -> DiceDetector:
        """Open the model of the card at ``card_path`` (default: the shipped one)."""
        card_path = Path(card_path) if card_path is not None else DEFAULT_CARD
        card, data, model_path = read_model(card_path)
        settings = load_settings(card_path.with_name(f"{card.name}{SETTINGS_SUFFIX}"))
        verifier = (Classifier.open(card_path.with_name(settings.verifier), threads)
                    if settings.verifier is not None else None)
        return cls(card, data, settings, str(model_path), verifier, threads)

    def prepare(self, image: np.ndarray) -> Prepared:
        """The network input for a BGR photo (the shared preprocessing)."""
        return prepare(image, self.card.preprocessing)

    def maps(self, tensor: np.ndarray) -> np.ndarray:
        """Run the network on (N, 3, H, W) float32 (H, W multiples of 16) -> (N, 5, H/4, W/4)."""
        if (not isinstance(tensor, np.ndarray) or tensor.ndim != 4 or tensor.shape[1] != self.card.preprocessing.channels
                or tensor.shape[2] % ALIGN or tensor.shape[3] % ALIGN):
            got = tensor.shape if isinstance(tensor, np.ndarray) else type(tensor).__name__
            raise ModelError(f"{self.card.name}: input must have shape (N, 3, H, W) with H, W multiples of {ALIGN}, "
                             f"got {got}")
        out = self._session.run(None, {self._input_name: np.ascontiguousarray(tensor, dtype=np.float32)})[0]
        expected = (tensor.shape[0], CHANNELS, tensor.shape[2] // STRIDE, tensor.shape[3] // STRIDE)
        if out.shape != expected:
            raise ModelError(f"{self.source} gave maps of shape {out.shape}, expected {expected}")
        return out

    def photo_maps(self, image: np.ndarray) -> PhotoMaps:
        """The output maps of one BGR photo, with the scale back to photo pixels."""
        prepared = self.prepare(image)
        return PhotoMaps(self.maps(prepared.tensor)[0], prepared.scale, prepared.image_size)

    def die_probabilities(self, image: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """The verifier's ``die`` probability (N,) of each box (N, 4) of a BGR photo (1 without one)."""
        if self.verifier is None or len(boxes) == 0:
            return np.ones(len(boxes), np.float32)
        return self.verifier.classify(image, list(box_quads(boxes))).probabilities[:, 0]

    def proposals(self, image: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Proposed boxes (N, 4) in photo pixels, their centre scores (N,) and die probabilities (N,)."""
        boxes, scores = self.photo_maps(image).boxes(self.settings.decode)
        return boxes, scores, self.die_probabilities(image, boxes)

    def boxes(self, image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Boxes (N, 4) in photo pixels and confidences (N,) of the dice in a BGR photo.

        A confidence is the centre score times the verifier's die probability.
        """
        boxes, scores, probabilities = self.proposals(image)
        keep = probabilities >= self.settings.min_die_probability
        boxes, confidences = boxes[keep], (scores * probabilities)[keep]
        order = np.argsort(-confidences, kind="stable")
        return boxes[order], confidences[order].astype(np.float32)

    def detect(self, image: np.ndarray) -> tuple[Die, ...]:
        """Every die in a BGR photo (H, W, 3) uint8, most confident first, with its colour."""
        check_bgr_image(image, "photo")
        boxes, confidences = self.boxes(image)
        return tuple(Die(tuple(float(v) for v in box), name_colour(image, box), float(c))
                     for box, c in zip(boxes, confidences))
