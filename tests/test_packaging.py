"""The wheel carries every package and its data files (catalogues, models, templates)."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
#: Folders of the repository and the import name each becomes (pyproject.toml, DESIGN.md).
PARTS = {"tableref": "tableref", "calibration": "tableref/calibration", "vision": "tableref/vision",
         "rules": "tableref/rules", "models": "tableref/models", "webui": "tableref/webui"}
DATA_SUFFIXES = {".json", ".onnx", ".html", ".css", ".js", ".svg", ".png"}


def _expected_files() -> set[str]:
    expected = set()
    for folder, target in PARTS.items():
        for path in (REPO / folder).rglob("*"):
            if "__pycache__" in path.parts or not path.is_file():
                continue
            if path.suffix == ".py" or path.suffix in DATA_SUFFIXES:
                expected.add(f"{target}/{path.relative_to(REPO / folder).as_posix()}")
    return expected


def test_wheel_carries_all_code_and_data(tmp_path):
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
                           "-w", str(tmp_path), str(REPO)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    wheel = next(tmp_path.glob("tableref-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    missing = sorted(_expected_files() - names)
    assert not missing, f"the wheel lacks {missing[:20]}"
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    assert "tableref = tableref.cli:main" in zipfile.ZipFile(wheel).read(entry_points).decode()
