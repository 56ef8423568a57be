"""Speed of rulelang: random-agent games per second, and the time to validate.

Run: python bench/bench.py [--games N] [--only jacks_friends|flapjacks]
This is a measurement script, not a test: it prints figures for the notes.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import rulelang  # noqa: E402
from rulelang.agents import RandomAgent, play_out  # noqa: E402

GAMES = {"jacks_friends": (2, 4, 6), "flapjacks": (2, 4, 8)}


def games_per_second(game, players: int, count: int) -> tuple[float, float, float]:
    """(games/s, mean turns, player turns/s) over seeds 0..count-1."""
    turns = 0
    start = time.perf_counter()
    for seed in range(count):
        state = game.new_state(players, seed)
        play_out(state, RandomAgent(seed))
        turns += state.turn
    took = time.perf_counter() - start
    return count / took, turns / count, turns / took


def validate_time(path: Path, repeats: int = 3) -> float:
    """Wall time of the whole `rulelang validate` command, best of a few runs."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "rulelang.cli", "validate", str(path)], check=True,
                       stdout=subprocess.DEVNULL, cwd=ROOT)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000, help="games per player count")
    parser.add_argument("--only", choices=sorted(GAMES))
    args = parser.parse_args()
    for name, counts in GAMES.items():
        if args.only and name != args.only:
            continue
        path = ROOT / "games" / name
        if not (path / "game.yaml").exists():
            continue
        start = time.perf_counter()
        game = rulelang.load_game(path)
        load = time.perf_counter() - start
        print(f"{name}: load+check+compile {load * 1000:.0f} ms; "
              f"`rulelang validate` {validate_time(path):.2f} s (wall, with its smoke games)")
        for players in counts:
            count = args.games if name == "jacks_friends" else max(200, args.games // 4)
            rates = [games_per_second(game, players, count) for _ in range(3)]
            best = max(rates)
            print(f"  {players} players: {best[0]:8.0f} games/s   mean length {best[1]:5.1f} turns"
                  f"   {best[2]:9.0f} turns/s   (best of 3 x {count} games; median "
                  f"{statistics.median(r[0] for r in rates):.0f})")


if __name__ == "__main__":
    main()
