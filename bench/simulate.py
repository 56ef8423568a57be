"""Throughput of `rulelang simulate`: games per second with 1 and 2 worker processes.

Run: python bench/simulate.py [--games N] [--players 4] [--only jacks_friends|flapjacks]
A measurement script, not a test: it prints figures for the notes. The time
covers the whole batch as the command plays it (worker start-up included,
the table and the JSON left out). On a machine shared with other work, the
figures vary, so it also prints games per CPU second (the cost of the
workers themselves) and checks that both worker counts give the same games.
"""
from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import rulelang  # noqa: E402
from rulelang.lab.simulate import Batch, run_batch, seat_agents  # noqa: E402

#: Games per batch: Flapjacks games are some ten times longer than Jack's Friends'.
GAMES = {"jacks_friends": 4000, "flapjacks": 400}


def cpu_seconds() -> float:
    """CPU time of this process and its finished workers: what the batch cost, whatever else runs."""
    own, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime


def throughput(game, batch: Batch, workers: int) -> tuple[float, float, list]:
    """(games per wall second, games per CPU second, the records) of one batch."""
    start, cpu = time.perf_counter(), cpu_seconds()
    records = run_batch(game, batch, workers)
    return batch.games / (time.perf_counter() - start), batch.games / (cpu_seconds() - cpu), records


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, help="games per batch (default 4000 Jack's Friends, 400 Flapjacks)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--only", choices=sorted(GAMES))
    args = parser.parse_args()
    print(f"{os.cpu_count()} CPUs; {args.players} players, random agents")
    for name, default in GAMES.items():
        if args.only and name != args.only:
            continue
        path = str(ROOT / "games" / name)
        game = rulelang.load_game(path)
        batch = Batch(path, args.players, args.games or default, 0, seat_agents("random", args.players))
        rates, per_cpu, results = {}, {}, {}
        for workers in (1, 2):
            rates[workers], per_cpu[workers], results[workers] = throughput(game, batch, workers)
        same = "same games" if results[1] == results[2] else "DIFFERENT GAMES"
        print(f"{name}: {batch.games} games  1 worker {rates[1]:6.0f} games/s   2 workers {rates[2]:6.0f} games/s"
              f"   x{rates[2] / rates[1]:.2f}   per CPU second {per_cpu[1]:.0f} / {per_cpu[2]:.0f}   ({same})")


if __name__ == "__main__":
    main()
