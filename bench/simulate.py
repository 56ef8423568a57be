"""Throughput of `rulelang simulate`: games per second with 1 and 2 worker processes.

Run: python bench/simulate.py [--games N] [--players 4] [--only jacks_friends|flapjacks]
A measurement script, not a test: it prints figures for the notes. The time
covers the whole batch as the command plays it (worker start-up included,
the table and the JSON left out). On a machine shared with other work, the
figures vary; it also checks that both worker counts give the same games.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import rulelang  # noqa: E402
from rulelang.lab.simulate import Batch, run_batch, seat_agents  # noqa: E402

#: Games per batch: Flapjacks games are some ten times longer than Jack's Friends'.
GAMES = {"jacks_friends": 4000, "flapjacks": 400}


def throughput(game, batch: Batch, workers: int) -> tuple[float, list]:
    """(games per second, the records) of one batch."""
    start = time.perf_counter()
    records = run_batch(game, batch, workers)
    return batch.games / (time.perf_counter() - start), records


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
        rates = {}
        results = {}
        for workers in (1, 2):
            rates[workers], results[workers] = throughput(game, batch, workers)
        same = "same games" if results[1] == results[2] else "DIFFERENT GAMES"
        print(f"{name}: {batch.games} games  1 worker {rates[1]:7.0f} games/s   2 workers {rates[2]:7.0f} games/s"
              f"   x{rates[2] / rates[1]:.2f}   ({same})")


if __name__ == "__main__":
    main()
