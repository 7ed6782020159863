"""Training and export of the small classifiers (needs the optional ``train`` extra: PyTorch, onnx).

The torch-free parts (samples, augmentation, recipes registry) import without PyTorch; the
modules that train (:mod:`.net`, :mod:`.loop`, :mod:`.export`) import it through
:func:`require_torch`, which says how to install it when it is missing.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from ..card import ModelError

#: How to get the training dependencies (pyproject.toml, extra ``train``).
INSTALL_HINT = "install the train extra: pip install 'tableref[train]' (torch==2.13.0 and onnx)"


class TrainingError(ModelError):
    """Training cannot run or produced a model that fails its checks (the message says which)."""


def require_torch() -> ModuleType:
    """Import and return ``torch``, or raise :class:`TrainingError` saying how to install it."""
    try:
        return importlib.import_module("torch")
    except (ImportError, OSError) as exc:
        raise TrainingError(f"PyTorch is not available ({exc.__class__.__name__}: {exc}); {INSTALL_HINT}") from None
