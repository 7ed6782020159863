"""Benchmark of the rules engines: random legal games per second, and the referee's time."""

from __future__ import annotations

import time

from ..rules import GAMES, game
from ..rules.common import CHANCE
from ..rules.playout import random_playout
from . import Figure

#: Every how many player moves the referee is timed on the observation of the next state.
REFEREE_SAMPLE_EVERY = 25


def run(games_per_game: int = 10_000, seed: int = 0, names: tuple[str, ...] | None = None,
        progress=None) -> list[Figure]:
    """Play ``games_per_game`` random games of each game, spread over every player count."""
    figures = []
    for name in names or tuple(sorted(GAMES)):
        rules = game(name)
        counts = list(range(rules.MIN_PLAYERS, rules.MAX_PLAYERS + 1))
        referee_times: list[float] = []
        explained = 0
        moves = 0
        tick = [0]

        def on_move(before, move, after):
            tick[0] += 1
            if before.to_move == CHANCE or tick[0] % REFEREE_SAMPLE_EVERY:
                return
            observation = rules.observe(after)
            start = time.perf_counter()
            verdict = rules.referee(before, observation)
            referee_times.append(time.perf_counter() - start)
            nonlocal explained
            # the explanation may differ from the move made only in what no camera sees
            explained += verdict.legal and rules.observe(verdict.state) == observation

        start = time.perf_counter()
        for i in range(games_per_game):
            record = random_playout(rules, counts[i % len(counts)], seed + i, on_move=on_move)
            moves += len(record.moves)
            if progress is not None:
                progress(name, i + 1, games_per_game)
        # the referee calls are timed inside the playouts; take them out of the playout rate
        elapsed = time.perf_counter() - start - sum(referee_times)
        on = f"{games_per_game} random legal {name} games, seeds {seed}..{seed + games_per_game - 1}, {counts[0]}-{counts[-1]} players"
        figures += [
            Figure("rules", f"{name}: games per second", games_per_game / elapsed, "games/s", on),
            Figure("rules", f"{name}: moves per second", moves / elapsed, "moves/s", on),
        ]
        if referee_times:
            sample = f"every {REFEREE_SAMPLE_EVERY}th player move of those games ({len(referee_times)} observations)"
            referee_times.sort()
            figures += [
                Figure("rules", f"{name}: referee time per observation (mean)",
                       1000 * sum(referee_times) / len(referee_times), "ms", sample),
                Figure("rules", f"{name}: referee time per observation (p99)",
                       1000 * referee_times[int(0.99 * (len(referee_times) - 1))], "ms", sample),
                Figure("rules", f"{name}: referee explains the observation legally",
                       100.0 * explained / len(referee_times), "%", sample),
            ]
    return figures
