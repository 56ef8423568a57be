"""Soak test: many random games spread over every player count; any error is reported.

Run: python bench/soak.py games/flapjacks --games 10000
Prints games per second, the mean game length per player count, and the
seeds of any game that failed (none expected).
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import rulelang  # noqa: E402
from rulelang.testing.smoke import play_random  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("path")
    parser.add_argument("--games", type=int, default=10_000)
    args = parser.parse_args()
    game = rulelang.load_game(args.path)
    counts = list(range(game.min_players, game.max_players + 1))
    turns: dict[int, list[int]] = defaultdict(list)
    results: dict[str, int] = defaultdict(int)
    problems = []
    start = time.perf_counter()
    for seed in range(args.games):
        players = counts[seed % len(counts)]
        outcome = play_random(game, players, seed)
        if outcome.problem:
            problems.append(outcome.problem)
            continue
        turns[players].append(outcome.state.turn)
        results[outcome.state.result] += 1
    took = time.perf_counter() - start
    print(f"{args.games} games of {game.name} in {took:.1f} s ({args.games / took:.0f} games/s), "
          f"{len(problems)} with errors")
    for players in counts:
        lengths = turns[players]
        if lengths:
            print(f"  {players} players: {len(lengths)} games, mean {sum(lengths) / len(lengths):.1f} turns, "
                  f"longest {max(lengths)}")
    for result, count in sorted(results.items(), key=lambda kv: -kv[1]):
        print(f"  ended by '{result}': {count}")
    for problem in problems[:20]:
        print("  error:", problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
