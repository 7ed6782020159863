import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from tableref.live import recognition  # noqa: E402
from tableref.live.recognition import unregister_recogniser  # noqa: E402
from tableref.rules import GAMES  # noqa: E402


@pytest.fixture(autouse=True)
def no_recognisers_left(monkeypatch):
    """Each test starts and ends with no recogniser: neither a test one nor the shipped ones."""
    monkeypatch.setattr(recognition, "BUILTIN", {})
    for name in GAMES:
        unregister_recogniser(name)
    yield
    for name in GAMES:
        unregister_recogniser(name)
