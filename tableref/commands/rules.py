"""``tableref rules ...``: the rules engines on JSON files, for people and scripts."""

from __future__ import annotations

import json
from types import ModuleType
from typing import Any

import click

from ..input import InputError, read_json
from ..rules import GAMES, game
from ..rules.common import players_problem, require_dict
from ..rules.playout import random_playout


def _echo_json(data: Any) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


def _parse_options(pairs: tuple[str, ...]) -> dict:
    """``("name=value", ...)`` -> dict; values are read as JSON when they parse, else as text."""
    options = {}
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        if not sep or not name:
            raise InputError(f"option {pair!r} must look like NAME=VALUE")
        try:
            options[name] = json.loads(raw)
        except json.JSONDecodeError:
            options[name] = raw
    return options


def _load_state(path: str) -> tuple[ModuleType, Any]:
    data = require_dict(read_json(path, "state file"), f"state file {path!r}")
    name = data.get("game")
    if not isinstance(name, str):
        raise InputError(f"state file {path!r} has no \"game\" field naming one of {', '.join(sorted(GAMES))}")
    rules = game(name)
    return rules, rules.state_from_json(data)


game_option = click.option("--game", "game_name", required=True, type=click.Choice(sorted(GAMES)),
                           help="Which game.")
players_option = click.option("--players", type=int, required=True, help="Number of players.")
option_option = click.option("--option", "options", multiple=True, metavar="NAME=VALUE",
                             help="A rules option (repeatable); see docs/rules.md.")


def _check_players(rules: ModuleType, players: int) -> None:
    problem = players_problem(rules.NAME, players, rules.MIN_PLAYERS, rules.MAX_PLAYERS)
    if problem:
        raise InputError(problem)


@click.group("rules")
def command() -> None:
    """Rules engines: new games, legal moves, applying moves, scores, the referee."""


@command.command("new")
@game_option
@players_option
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the shuffles at setup.")
@option_option
def new(game_name: str, players: int, seed: int, options: tuple[str, ...]) -> None:
    """Print the initial state of a new game as JSON."""
    rules = game(game_name)
    _check_players(rules, players)
    _echo_json(rules.new_game(players, _parse_options(options), seed).to_json())


@command.command("moves")
@click.argument("state_file", metavar="STATE.json")
def moves(state_file: str) -> None:
    """Print the legal moves in a state as a JSON list."""
    rules, state = _load_state(state_file)
    _echo_json([m.to_json() for m in rules.legal_moves(state)])


@command.command("apply")
@click.argument("state_file", metavar="STATE.json")
@click.argument("move_file", metavar="MOVE.json")
def apply(state_file: str, move_file: str) -> None:
    """Apply a move and print the new state; an illegal move exits 3 with its reason."""
    rules, state = _load_state(state_file)
    move = rules.move_from_json(require_dict(read_json(move_file, "move file"), f"move file {move_file!r}"))
    _echo_json(rules.apply(state, move).to_json())


@command.command("score")
@click.argument("state_file", metavar="STATE.json")
def score(state_file: str) -> None:
    """Print the scores, winners and tie-break of a state."""
    rules, state = _load_state(state_file)
    _echo_json(rules.score(state).to_json())


@command.command("violations")
@click.argument("state_file", metavar="STATE.json")
def violations(state_file: str) -> None:
    """Print what is wrong in a position as it lies (an empty list when nothing is)."""
    rules, state = _load_state(state_file)
    _echo_json([v.to_json() for v in rules.violations(state)])


@command.command("observe")
@click.argument("state_file", metavar="STATE.json")
def observe(state_file: str) -> None:
    """Print what a perfect camera would see of a state (an observation to edit and referee)."""
    rules, state = _load_state(state_file)
    _echo_json(rules.observe(state).to_json())


@command.command("referee")
@click.argument("state_file", metavar="STATE.json")
@click.argument("observation_file", metavar="OBSERVATION.json")
def referee(state_file: str, observation_file: str) -> None:
    """Explain what the camera saw after STATE: the legal moves, or the rules broken."""
    rules, state = _load_state(state_file)
    data = require_dict(read_json(observation_file, "observation file"), f"observation file {observation_file!r}")
    _echo_json(rules.referee(state, rules.observation_from_json(data)).to_json())


@command.command("play")
@game_option
@players_option
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the game and of the moves.")
@option_option
def play(game_name: str, players: int, seed: int, options: tuple[str, ...]) -> None:
    """Play a random legal game to its end and print its record."""
    rules = game(game_name)
    _check_players(rules, players)
    _echo_json(random_playout(rules, players, seed, _parse_options(options)).to_json())
