"""``tableref enrol``: adapt the recogniser's classifiers to the user's own set from photographs.

The shipped models learnt the cards from renders; a real set is printed in its own inks. Lay
the set out as a rules state says (a dealt game from ``tableref rules new ... --seed S``, or
any state you set up; each photograph may show its own, in a JSON file of its name), photograph
it a few times with the table's camera (other light, the
camera a little moved; no hands over the table), and this command refits each model's last
layer on the spots of those photographs (:mod:`tableref.models.training.adapt`), writes the
adapted models with their cards into a folder, and records that folder in the profile, so
that ``analyze`` and ``serve`` with that profile read with them.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import click

from ..input import InputError, read_json
from ..models.training.adapt import ENROLLABLE



@click.command("enrol")
@click.option("--game", "game_name", required=True, type=click.Choice(sorted(ENROLLABLE)), help="Which game's set.")
@click.option("--state", "state_file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The rules state (JSON) the photographs show, each card where the state puts it "
                   "[a photograph with a state file of its own name beside it, PHOTO.json, shows that one].")
@click.option("--profile", "profile_file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The table's profile: used to locate the table, and the adapted models are recorded in it.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder for the adapted models [default: PROFILE-models beside the profile; needed without one].")
@click.argument("photos", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path))
def command(game_name: str, state_file: Path | None, profile_file: Path | None, out: Path | None,
            photos: tuple[Path, ...]) -> None:
    """Adapt GAME's classifiers to your own set from PHOTOS of it laid out as --state says.

    Two photographs or more: the last is held out of a first fit and the accuracy on it before
    and after is printed (and written in the models' cards). Needs the train extra (onnx).
    """
    from ..calibration.profile import load_profile, save_profile
    from ..models.training.adapt import adapt_shipped, enrolment_of, write_adapted
    from ..rules import game
    from ..rules.common import require_dict
    from ..vision.errors import VisionError
    from ..vision.imageio import read_image

    training, names = enrolment_of(game_name)
    if out is None and profile_file is None:
        raise click.UsageError("give --out FOLDER for the adapted models (or --profile, beside which they go)")
    profile = load_profile(profile_file) if profile_file is not None else None
    states: dict[Path, object] = {}

    def state_of(photo: Path):
        own = photo.with_suffix(".json")
        path = own if own.is_file() else state_file
        if path is None:
            raise click.UsageError(f"no state for {photo}: give --state STATE.json, or put {own.name} beside it")
        if path not in states:
            data = require_dict(read_json(path, "state file"), f"state file {str(path)!r}")
            if data.get("game") != game_name:
                raise InputError(f"state file {str(path)!r} is a state of {data.get('game')!r}, not of {game_name!r}")
            states[path] = game(game_name).state_from_json(data)
        return states[path]

    def shot(path: Path):
        try:
            return training.enrolment_photo(path.name, read_image(path), state_of(path), profile)
        except VisionError as exc:  # name the photograph among several
            raise InputError(f"{path}: {exc}") from None

    shots = [shot(path) for path in photos]
    for s in shots:
        click.echo(f"{s.name}: {len(s.labels)} spots", err=True)
    folder = out if out is not None else profile_file.with_name(f"{profile_file.stem}-models")
    words = ["tableref", "enrol", "--game", game_name] + (["--state", str(state_file)] if state_file else [])
    command_line = shlex.join([*words, *map(str, photos)])
    click.echo(f"adapting {', '.join(names)} (the twin's anchor renders are made first; about a minute)", err=True)
    adapted = adapt_shipped(names, shots, command_line, training.anchor_photos())
    write_adapted(adapted, folder)
    for a in adapted:
        if a.held_out:
            click.echo(f"{a.card.name}: {a.held_out} spots of {shots[-1].name} held out: "
                       f"{100 * a.before:.1f} % read right by the shipped model, {100 * a.after:.1f} % adapted")
        else:
            click.echo(f"{a.card.name}: fitted on {len(shots[0].labels)} spots (give two photographs or more to "
                       "measure it on one held out)")
    click.echo(f"adapted models written to {folder}")
    if profile_file is not None:
        if profile.models is not None and profile.models != folder.resolve():
            click.echo(f"the profile named the models in {profile.models} before: those are no longer read")
        save_profile(profile.with_models(folder.resolve()), profile_file)
        click.echo(f"profile {profile_file} now reads {game_name} with them (analyze/serve --profile {profile_file})")
    else:
        click.echo(f"to read with them, record the folder in the table's profile (\"models\": \"{folder.resolve()}\")")
