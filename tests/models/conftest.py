"""Fixtures of the training tests."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    """Renders and cuts go to a folder of the test module's own (``$TABLEREF_CACHE``)."""
    folder = tmp_path_factory.mktemp("cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("TABLEREF_CACHE", str(folder))
        yield folder
