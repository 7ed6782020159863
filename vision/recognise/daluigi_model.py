"""The Da Luigi spot classifier: its name and how a spot becomes its input."""

from __future__ import annotations

from pathlib import Path

from ...models.card import CropSettings, Preprocessing

#: The shipped classifier (``models/daluigi-spots.onnx`` and its card).
MODEL_NAME = "daluigi-spots"
#: The second opinion: the same recipe trained on other renders (``models/daluigi-spots-b.onnx``).
SECOND_MODEL_NAME = "daluigi-spots-b"
#: The order fields' own classifier, trained on them alone with the fields above and below in
#: view (``models/daluigi-dishes.onnx``).
DISH_MODEL_NAME = "daluigi-dishes"
#: The order fields' second opinion: trained on them alone with the spot classifiers' input
#: (``models/daluigi-dishes-b.onnx``), asked where the first is unsure.
SECOND_DISH_MODEL_NAME = "daluigi-dishes-b"
#: A spot's box (sized in mm by the zones) and a fifth of it around, at 24 x 24 px: a cube of
#: 10 mm is 6-8 px in a 1280x720 view of the whole table, the box about twice that, so the
#: input is about the image's own resolution; the rim shows the field's edge and the cube's
#: shadow (a cube on a field printed in its own colour is told by them).
PREPROCESSING = Preprocessing(input_size=(24, 24), colour="rgb", mean=(0.5, 0.5, 0.5), std=(0.25, 0.25, 0.25),
                              crop=CropSettings(region="quad", margin=0.2))
#: Folder of the shipped models.
MODELS_DIR = Path(__file__).resolve().parents[2] / "models"
