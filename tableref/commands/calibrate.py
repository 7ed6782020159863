"""``tableref calibrate``: camera intrinsics, the table plane, the marker sheet, a rectified view."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import click

from ..calibration.errors import CalibrationError, MarkerError, ProfileError
from ..calibration.intrinsics import calibrate_views
from ..calibration.layout import DEFAULT_IDS, DEFAULT_MARKER_MM, MarkerLayout, default_layout
from ..calibration.markers import DEFAULT_DICTIONARY, detect_markers
from ..calibration.patterns import parse_pattern
from ..calibration.profile import Profile, load_profile, save_profile
from ..calibration.rectify import rectify
from ..calibration.sheet import PAPER_MM, SHEET_DPI, marker_sheet
from ..calibration.pdf import write_page
from ..calibration.table import calibrate_table
from ..vision.imageio import read_image

log = logging.getLogger(__name__)


def _echo_json(obj: Any) -> None:
    click.echo(json.dumps(obj, indent=2))


def _parse_ids(text: str) -> tuple[int, ...]:
    try:
        ids = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise MarkerError(f"--ids must be comma-separated marker ids such as 0,1,2,3, got {text!r}") from None
    if any(i < 0 for i in ids):
        raise MarkerError(f"--ids must be non-negative, got {text!r}")
    return ids


def _parse_table(text: str) -> tuple[float, float]:
    width, sep, height = text.lower().partition("x")
    try:
        size = (float(width), float(height)) if sep else None
    except ValueError:
        size = None
    if size is None or not min(size) > 0:
        raise MarkerError(f"--table must be the play area as WIDTHxHEIGHT in mm, e.g. 800x600, got {text!r}")
    return size


def _existing(path: str | None) -> Profile | None:
    return load_profile(path) if path is not None and Path(path).exists() else None


@click.group("calibrate")
def command() -> None:
    """Calibrate the camera and the table; print the table markers."""


@command.command("camera")
@click.option("--pattern", "pattern_spec", required=True, metavar="SPEC",
              help="chessboard:COLSxROWS[:SQUARE] (inner corners, e.g. chessboard:9x6) or "
                   "charuco:COLSxROWS:SQUARE:MARKER:DICT (e.g. charuco:5x7:0.04:0.02:DICT_6X6_250).")
@click.option("--out", "out", metavar="PROFILE.json", help="Save the intrinsics into this profile (created or updated).")
@click.argument("images", nargs=-1, required=True)
def camera(pattern_spec: str, out: str | None, images: tuple[str, ...]) -> None:
    """Camera intrinsics from photos of a calibration pattern (at least 3 usable)."""
    pattern = parse_pattern(pattern_spec)
    base = _existing(out)
    result = calibrate_views({str(p): read_image(p) for p in images}, pattern)
    report = result.to_json()
    if out is not None:
        profile = (base or Profile()).with_intrinsics(result.intrinsics)
        if profile.table is not None and profile.table.undistorted:
            report["warnings"] = ["the profile's table calibration used the previous intrinsics: run "
                                  "`tableref calibrate table` again"]
            log.warning(report["warnings"][0])
        save_profile(profile, out)
        report["profile"] = out
    _echo_json(report)


@command.command("table")
@click.argument("image")
@click.option("--out", "out", required=True, metavar="PROFILE.json", help="Profile to write (created or updated).")
@click.option("--profile", "profile_path", metavar="P.json",
              help="Take the intrinsics (and other sections) from this profile instead of --out's.")
@click.option("--dict", "dictionary_name", default=None, help=f"ArUco dictionary [default: {DEFAULT_DICTIONARY}].")
@click.option("--ids", "ids_text", default=None, help="Marker ids: near left, near right, far right, far left [default: 0,1,2,3].")
@click.option("--marker-mm", type=float, default=None, help=f"Side of a marker's black square, mm [default: {DEFAULT_MARKER_MM:g}].")
@click.option("--table", "table_text", default=None, metavar="WxH", help="Play area in mm, e.g. 800x600.")
@click.option("--layout", "layout_path", default=None, metavar="LAYOUT.json",
              help="Any other marker layout: {dictionary, marker_mm, table_mm, markers: [{id, corners_mm}]}.")
def table(image: str, out: str, profile_path: str | None, dictionary_name: str | None, ids_text: str | None,
          marker_mm: float | None, table_text: str | None, layout_path: str | None) -> None:
    """The table plane from the ArUco markers in one photo."""
    base = load_profile(profile_path) if profile_path is not None else _existing(out)
    layout = _layout(base, dictionary_name, ids_text, marker_mm, table_text, layout_path)
    frame = read_image(image)
    size = (frame.shape[1], frame.shape[0])
    intrinsics = base.intrinsics if base is not None else None
    markers = detect_markers(frame, layout.dictionary)
    if not markers:
        raise MarkerError(f"no {layout.dictionary} ArUco markers found in {image!r}: check the markers are in "
                          "view, lit and flat, and that --dict matches the printed sheet")
    calibration = calibrate_table(markers, layout, size, intrinsics)
    save_profile((base or Profile()).with_table(calibration), out)
    missing = [i for i in layout.ids if i not in calibration.markers_used]
    used = len(calibration.markers_used)
    note = (f"{used} of {len(layout.ids)} markers visible (missing {missing}): calibrated from {4 * used} corners"
            if missing else f"all {used} markers visible: calibrated from {4 * used} corners")
    report = calibration.to_json()
    report.update(markers_found=[m.id for m in markers], markers_missing=missing, note=note, profile=out)
    _echo_json(report)


def _layout(base: Profile | None, dictionary_name: str | None, ids_text: str | None, marker_mm: float | None,
            table_text: str | None, layout_path: str | None) -> MarkerLayout:
    """The layout from --layout, else from --table and friends, else the profile's own."""
    if layout_path is not None:
        if any(v is not None for v in (dictionary_name, ids_text, marker_mm, table_text)):
            raise MarkerError("--layout already says dictionary, ids, marker size and table size: drop "
                              "--dict/--ids/--marker-mm/--table")
        try:
            obj = json.loads(Path(layout_path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise MarkerError(f"layout {layout_path!r} cannot be read as JSON: {exc}") from None
        try:
            return MarkerLayout.from_json(obj, "layout")
        except ProfileError as exc:
            raise MarkerError(f"layout {layout_path!r}: {exc}") from None
    if table_text is None:
        if base is not None and base.table is not None and all(v is None for v in (dictionary_name, ids_text, marker_mm)):
            return base.table.layout
        raise MarkerError("say where the markers are: --table WxH (the play area in mm, markers in its corners) "
                          "or --layout LAYOUT.json")
    return default_layout(_parse_table(table_text), DEFAULT_MARKER_MM if marker_mm is None else marker_mm,
                          DEFAULT_IDS if ids_text is None else _parse_ids(ids_text),
                          dictionary_name or DEFAULT_DICTIONARY)


@command.command("print-markers")
@click.option("--paper", type=click.Choice(sorted(PAPER_MM)), default="a4", show_default=True)
@click.option("--out", "out", required=True, metavar="SHEET.pdf|SHEET.png", help="Output file; format by extension.")
@click.option("--marker-mm", type=float, default=DEFAULT_MARKER_MM, show_default=True,
              help="Side of each marker's black square on paper, mm.")
@click.option("--dict", "dictionary_name", default=DEFAULT_DICTIONARY, show_default=True)
@click.option("--ids", "ids_text", default="0,1,2,3", show_default=True,
              help="Marker ids: near left, near right, far right, far left.")
def print_markers(paper: str, out: str, marker_mm: float, dictionary_name: str, ids_text: str) -> None:
    """A true-size sheet of the four table markers with a placement guide."""
    if Path(out).suffix.lower() not in (".pdf", ".png"):
        raise CalibrationError(f"--out {out!r}: the marker sheet is written as .pdf or .png")
    page, paper_mm = marker_sheet(paper, marker_mm, _parse_ids(ids_text), dictionary_name)
    write_page(page, paper_mm, SHEET_DPI, out)
    _echo_json({"out": out, "paper": paper, "paper_mm": list(paper_mm), "dpi": SHEET_DPI, "marker_mm": marker_mm,
                "dictionary": dictionary_name, "ids": list(_parse_ids(ids_text))})


@command.command("rectify")
@click.argument("image")
@click.option("--profile", "profile_path", required=True, metavar="P.json")
@click.option("--px-per-mm", type=float, default=1.0, show_default=True, help="Resolution of the top-down view.")
@click.option("--out", "out", required=True, metavar="TOP.png", help="Where to write the top-down view.")
def rectify_command(image: str, profile_path: str, px_per_mm: float, out: str) -> None:
    """Warp a photo to the top-down table view (to check a calibration by eye)."""
    profile = load_profile(profile_path)
    if profile.table is None:
        raise ProfileError(f"profile {profile_path!r} has no table calibration: run `tableref calibrate table` first")
    view = rectify(read_image(image), profile.table, px_per_mm, profile.intrinsics)
    import cv2  # only here: the other sub-commands write through calibration.pdf
    if not cv2.imwrite(out, view):
        raise CalibrationError(f"cannot write {out!r}: use a .png or .jpg name in an existing folder")
    _echo_json({"out": out, "size": [view.shape[1], view.shape[0]], "px_per_mm": px_per_mm})
