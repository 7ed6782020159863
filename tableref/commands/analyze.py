"""``tableref analyze IMAGE --game dolcevita|ligretto|daluigi``: read one photograph as a game observation.

Prints the observation as JSON (every item with label, place and confidence, plus the
number of players, the play area and the markers used); ``--annotate OUT.png`` draws each
spot read on the image. The table geometry comes from the markers in the image itself, so
no profile is needed when the four markers are visible; ``--profile`` adds the lens and the
table layout (and zone overrides).
"""

from __future__ import annotations

import json
from pathlib import Path

import click

_GAMES = ("dolcevita", "ligretto", "daluigi")

#: A motion blur at least this long (px, as the markers measure it: 3, 5, 7, ...) gets a note on
#: standard error. Scenes read exactly right, by the blur measured (docs/benchmarks.md,
#: "Motion blur"): Dolce Vita validation renders 2000200..2000599 still 268 of 298, 3 px 14 of
#: 17, 5 px 24 of 34, 7 px 23 of 48; Ligretto test renders 3000000..3002399 still 1,896 of
#: 1,967, 3 px 60 of 61, 5 px 127 of 139, 7 px 194 of 214 (the code and models of 7625f72).
BLUR_NOTE_PX = 5.0


def blur_note(image: Path, reading: dict) -> str | None:
    """The note for a reading (its JSON) whose photograph the markers show smeared by a motion
    blur of at least :data:`BLUR_NOTE_PX`; None for a still one."""
    blur = reading.get("motion_blur")
    if not blur or not blur["moving"] or blur["length_px"] < BLUR_NOTE_PX:
        return None
    done = "undone before reading" if blur["undone"] else "too short to undo"
    return (f"note: {image.name} is smeared by motion (a blur of {blur['length_px']:g} px measured on the table "
            f"markers, {done}); a blurred photograph reads less surely, so hold the camera still or mount it "
            "above the table")


def _print(image: Path, reading: dict) -> None:
    """Print ``reading`` as JSON, with a note on standard error where the photograph is blurred."""
    click.echo(json.dumps(reading, indent=2))
    note = blur_note(image, reading)
    if note is not None:
        click.echo(note, err=True)


@click.command("analyze")
@click.argument("image", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--game", type=click.Choice(_GAMES), required=True, help="Which game lies on the table.")
@click.option("--profile", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Calibration profile (lens, table layout, zones).")
@click.option("--players", type=click.IntRange(2, 5), default=None,
              help="Number of players [default: inferred from the cards in front of the seats; Ligretto: "
                   "every border style may lie on the board].")
@click.option("--annotate", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the image with every spot read drawn on it (PNG or JPEG).")
def command(image: Path, game: str, profile: Path | None, players: int | None, annotate: Path | None) -> None:
    """Read IMAGE (a photograph of the table) and print what it shows as JSON."""
    from ..calibration.profile import load_profile
    from ..vision.imageio import read_image, write_image
    from ..vision.recognise.annotate import annotate as draw
    from ..vision.recognise.dolcevita import DolceVitaRecogniser, locate_dolcevita

    prof = load_profile(profile) if profile is not None else None
    picture = read_image(image)
    if game == "ligretto":
        _ligretto(image, picture, prof, players, annotate)
        return
    if game == "daluigi":
        _daluigi(image, picture, prof, players, annotate)
        return
    locate_dolcevita(picture, prof)  # refuses bad input before any model is loaded
    # read() locates the table again: the view it finds itself it may refine (a table's unmeasured
    # side when two markers along one edge show, the markers once a blur is undone), a given one not
    result = DolceVitaRecogniser.open(profile=prof).read(picture, prof, players)
    if annotate is not None:
        write_image(annotate, draw(picture, result))
    _print(image, result.to_json())


def _ligretto(image: Path, picture, prof, players: int | None, annotate: Path | None) -> None:
    """Ligretto: every board space read (cover, owner, colour, token), the cards paired, and
    the rules' observation; with ``players``, only the border styles they play."""
    from ..vision.imageio import write_image
    from ..vision.recognise.ligretto import LigrettoRecogniser, check_players, draw
    from ..vision.recognise.ligretto_board import locate_board

    check_players(players)  # refuses bad input before any model loads
    locate_board(picture, prof)
    reading = LigrettoRecogniser.open(profile=prof).read(picture, prof, players)
    if annotate is not None:
        write_image(annotate, draw(picture, reading))
    _print(image, reading.to_json())


def _daluigi(image: Path, picture, prof, players: int | None, annotate: Path | None) -> None:
    """Da Luigi: the marketplace, every ristorante and the piles, as the rules' observation."""
    from ..vision.imageio import write_image
    from ..vision.recognise.daluigi import DaLuigiRecogniser, locate_daluigi
    from ..vision.recognise.daluigi_draw import draw
    from ..vision.recognise.daluigi_zones import zones_for

    view = locate_daluigi(picture, prof, zones_for(prof))  # refuses bad input before any model loads
    result = DaLuigiRecogniser.open(profile=prof).read(picture, prof, players, view)
    if annotate is not None:
        write_image(annotate, draw(picture, result.observation, result.places_px))
    _print(image, result.to_json())
