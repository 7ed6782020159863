"""``tableref bench``: one flag per area; a table for people, ``--json`` for scripts."""

from __future__ import annotations

import json
from pathlib import Path

import click

from ..bench import format_table, machine


@click.command("bench")
@click.option("--rules", "do_rules", is_flag=True, help="Random legal games per second and referee time, per game.")
@click.option("--live", "do_live", is_flag=True,
              help="The live loop on a 1280x720 source: cost of an unchanged frame, frames per second sustained, "
                   "recognition latency of a settled scene, time from a placement to its event on the page.")
@click.option("--recognition", "do_recognition", is_flag=True,
              help="Recogniser accuracy and time on fresh renders (with --game).")
@click.option("--game", "recognition_game", type=click.Choice(("dolcevita", "ligretto", "daluigi")),
              default="dolcevita",
              show_default=True, help="Game for --recognition, --flags and --enrol.")
@click.option("--flags", "do_flags", is_flag=True,
              help="Share of the demo's illegal placements the referee flags, and false flags, through the game's "
                   "real recogniser (with --game; slow, so not part of a plain bench).")
@click.option("--placements", type=click.IntRange(min=1), default=1000, show_default=True,
              help="Demo placements refereed by --flags.")
@click.option("--in-sequence", is_flag=True,
              help="With --flags: follow each demo game through a live session, every reading refereed from the "
                   "state the session holds (flags and misreadings included), not from the true state.")
@click.option("--withdraw-flags", type=click.IntRange(0, 10), default=None,
              help="With --in-sequence: open flags a later legal reading may withdraw (0: never) "
                   "[default: the session's].")
@click.option("--revise-moves", type=click.IntRange(0, 10), default=None,
              help="With --in-sequence: accepted moves a later reading may revise (0: never) [default: the "
                   "session's].")
@click.option("--scenes", type=click.IntRange(min=1), default=300, show_default=True,
              help="Renders read by --recognition (test seeds 3000000 + --seed ..).")
@click.option("--board-turn", "board_turn_deg", type=click.FloatRange(0.0, 45.0), default=0.0, show_default=True,
              help="With --recognition --game ligretto: each board turned on the table by this many degrees "
                   "(one way on even seeds, the other on odd), as players may lay it.")
@click.option("--board-shift", "board_shift_mm", type=click.FloatRange(0.0, 60.0), default=0.0, show_default=True,
              help="With --recognition --game ligretto: each board this many mm off the table's middle "
                   "(to the right, away, to the left, towards the camera, seed by seed).")
@click.option("--enrol", "do_enrol", is_flag=True,
              help="What `tableref enrol` gains on a stand-in for a set unlike the renders (with --game; --scenes "
                   "renders read three ways; slow, so not part of a plain bench).")
@click.option("--render", "do_render", is_flag=True,
              help="Demo source frames per second at 1280x720, and the ground-truth checks of the renders.")
@click.option("--renders", type=click.IntRange(min=0), default=200, show_default=True,
              help="Dataset renders per game for the ground-truth checks of --render (0: skip them).")
@click.option("--render-seconds", type=click.FloatRange(min=0.5), default=10.0, show_default=True,
              help="Seconds of demo rendering per game for --render.")
@click.option("--dice", "do_dice", is_flag=True,
              help="Dice detector recall, precision, exact counts and time on labelled real photos (--data).")
@click.option("--data", "dice_data", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Labelled dice photo folder for --dice [default: shared/data/real/dice-photos beside the checkout].")
@click.option("--games", type=click.IntRange(min=1), default=10_000, show_default=True,
              help="Games per game for --rules.")
@click.option("--seed", type=int, default=0, show_default=True, help="First seed.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object of the figures.")
def command(do_rules: bool, do_live: bool, do_recognition: bool, recognition_game: str, scenes: int,
            do_flags: bool, placements: int, in_sequence: bool, withdraw_flags: int | None,
            revise_moves: int | None, board_turn_deg: float, board_shift_mm: float, do_enrol: bool,
            do_render: bool,
            renders: int, render_seconds: float, do_dice: bool, dice_data: Path | None, games: int, seed: int,
            as_json: bool) -> None:
    """Measure speed and accuracy. With no area flag, every area is measured (--dice only
    where its photos are found)."""
    if in_sequence and not do_flags:
        raise click.UsageError("--in-sequence goes with --flags (the flag benchmark followed in sequence)")
    for given, option in ((withdraw_flags, "--withdraw-flags"), (revise_moves, "--revise-moves")):
        if given is not None and not in_sequence:
            raise click.UsageError(f"{option} goes with --flags --in-sequence")
    for given, option in ((board_turn_deg, "--board-turn"), (board_shift_mm, "--board-shift")):
        if given and not (do_recognition and recognition_game == "ligretto"):
            raise click.UsageError(f"{option} goes with --recognition --game ligretto (only its board may lie "
                                   "turned or off the middle)")
    everything = not (do_rules or do_live or do_recognition or do_render or do_dice or do_flags or do_enrol)
    figures = []
    if do_rules or everything:
        from ..bench import rules as rules_bench

        def progress(name: str, done: int, total: int) -> None:
            if done == total or done % max(1, total // 10) == 0:
                click.echo(f"  rules {name}: {done}/{total} games", err=True)

        figures += rules_bench.run(games, seed, progress=progress)
    if do_live or everything:
        from ..bench import live as live_bench
        figures += live_bench.run(seed=seed, placements=live_bench.PLACEMENTS)
    if do_recognition or everything:
        from ..bench import recognition as recognition_bench
        from ..models.training.dolcevita import TEST_SEED
        figures += recognition_bench.run(scenes, TEST_SEED + seed, game=recognition_game, board_turn_deg=board_turn_deg,
                                         board_shift_mm=board_shift_mm)
    if do_flags:
        from ..bench import flags as flags_bench

        def flag_progress(done: int, total: int) -> None:
            if done % 50 == 0 or done == total:
                click.echo(f"  flags {recognition_game}: {done}/{total} placements", err=True)

        if in_sequence:
            from ..bench import flags_sequence
            figures += flags_sequence.run(recognition_game, placements, seed, withdraw_flags=withdraw_flags,
                                          revise_moves=revise_moves, progress=flag_progress)
        else:
            figures += flags_bench.run(recognition_game, placements, seed, progress=flag_progress)
    if do_enrol:
        from ..bench import enrol as enrol_bench
        from ..models.training.dolcevita import TEST_SEED

        def enrol_progress(done: int, total: int) -> None:
            if done % 50 == 0 or done == total:
                click.echo(f"  enrol: {done}/{total} scenes read three ways", err=True)

        figures += enrol_bench.run(scenes, TEST_SEED + seed, progress=enrol_progress, game=recognition_game)
    if do_render or everything:
        from ..bench import render as render_bench
        figures += render_bench.run(render_seconds, renders, seed,
                                    progress=lambda line: click.echo(f"  {line}", err=True))
    if do_dice or everything:
        from ..bench import dice as dice_bench
        if do_dice or dice_data is not None or dice_bench.DEFAULT_DATA.is_dir():
            figures += dice_bench.run(dice_data or dice_bench.DEFAULT_DATA)
        else:
            click.echo(f"  dice: skipped, no photos at {dice_bench.DEFAULT_DATA} (give --dice --data DIR)", err=True)
    if as_json:
        click.echo(json.dumps({"machine": machine(), "figures": [f.to_json() for f in figures]}, indent=2))
    else:
        click.echo(format_table(figures))
