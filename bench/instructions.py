"""What the run loop executes in random play: instructions per game by kind, and runs between frame changes.

Run: python bench/instructions.py [--games N] [--players P] [GAME ...]   (GAME: a folder under games/)
This is a measurement script, not a test. A *stint* is what the run loop does on one frame before the
frame changes (a call, a step's frame, a trigger, a return) or play pauses for a decision: its length
bounds what fusing a procedure's instructions into one function can save (issue 8). In November 2026 a
stint was 2.3 instructions on average for Flapjacks and 2.8 for Jack's Friends at 4 players, and
generated drivers per procedure (branch `procfuse`, its two experiment commits) saved only 1-2.4% of
machine instructions (cachegrind) and no measurable CPU time, while loading took 16-21 ms more.
"""
from __future__ import annotations

import argparse
import collections
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import rulelang  # noqa: E402
from rulelang.agents import RandomAgent, play_out  # noqa: E402


def instrument(game) -> tuple[collections.Counter, collections.Counter]:
    """Wrap every instruction of the run loop's table so it counts itself (by kind) and the stints it ends."""
    kinds: collections.Counter = collections.Counter()
    stints: collections.Counter = collections.Counter()
    current = {"frame": None, "length": 0}

    def counted(op: Callable) -> Callable:
        kind = getattr(op, "__qualname__", type(op).__name__).replace(".<locals>", "")

        def run(st, fr):
            if fr is not current["frame"]:
                if current["length"]:
                    stints[current["length"]] += 1
                current["frame"], current["length"] = fr, 0
            current["length"] += 1
            kinds[kind] += 1
            paused = op(st, fr)
            if paused:
                stints[current["length"]] += 1
                current["frame"], current["length"] = None, 0
            return paused
        return run

    game.code = [[counted(op) for op in ops] for ops in game.code]
    return kinds, stints


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("names", nargs="*", default=["jacks_friends", "flapjacks"])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    for name in args.names:
        game = rulelang.load_game(ROOT / "games" / name)
        kinds, stints = instrument(game)
        for seed in range(args.games):
            state = game.new_state(args.players, seed)
            play_out(state, RandomAgent(seed))
        total, runs = sum(kinds.values()), sum(stints.values())
        print(f"{name}, {args.players} players: {total / args.games:.0f} instructions a game in "
              f"{runs / args.games:.0f} stints ({total / max(runs, 1):.1f} instructions a stint)")
        for kind, count in kinds.most_common(8):
            print(f"  {count / args.games:8.1f}  {kind}")


if __name__ == "__main__":
    main()
