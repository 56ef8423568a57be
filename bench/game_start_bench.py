"""What one game costs before and around its first decision: the fixed costs that small games pay in full.

Run: python bench/game_start_bench.py [--rounds R] [--count N]
A measurement script, not a test (the pyspiel columns need the `openspiel` extra, and are left out without it).
Each figure is microseconds per call, the best of R rounds of N calls, in one process (the machines here are
shared: compare figures of one run):

- ``new_state``: ``Game.new_state`` (the state, its setup and the turn loop up to the first decision; for a
  setup that draws few numbers, the start its draws lead to unpacked instead, rulelang/engine/starts.py);
- ``start``: ``State.blank`` and ``begin_afresh`` alone (the state's tables, from the layout's template, and
  the seed's stream);
- ``copy``: ``State.copy`` at the first decision (what a clone and each explicit-chance decision pay);
- ``pyspiel new``: the adapter's new state with sampled chance, up to its first ``current_player``;
- ``pyspiel clone``: pyspiel's ``clone`` of that state;
- ``explicit new``: a new state with explicit chance, its setup's chance nodes drawn at random (a tenth of N
  calls: a long shuffle replays its setup once per draw).
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import rulelang  # noqa: E402
from rulelang.engine.state import State  # noqa: E402

GAMES = {"kuhn_poker": "examples/kuhn_poker", "leduc_poker": "examples/leduc_poker",
         "goofspiel": "examples/goofspiel", "pig": "examples/pig", "jacks_friends": "games/jacks_friends",
         "flapjacks": "games/flapjacks"}


def per_call(measure: Callable[[int], object], count: int, rounds: int) -> float:
    """Microseconds per call of ``measure(k)``, best of ``rounds``."""
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for k in range(count):
            measure(k)
        best = min(best, (time.perf_counter() - start) / count)
    return best * 1e6


def engine_figures(path: Path, count: int, rounds: int) -> list[float]:
    game = rulelang.load_game(path)
    players = game.min_players
    layout = game.layout(players)
    first = game.new_state(players, 1)
    return [per_call(lambda k: game.new_state(players, k), count, rounds),
            per_call(lambda k: State.blank(game, layout, k, None, False, True).begin_afresh(), count, rounds),
            per_call(lambda k: first.copy(), count, rounds)]


def adapter_figures(path: Path, count: int, rounds: int) -> list[float]:
    from rulelang.adapters.openspiel import load_game

    sampled = load_game(path, chance="sampled")
    explicit = load_game(path)
    state = sampled.new_initial_state()
    state.current_player()

    def explicit_new(k: int) -> None:
        rng = random.Random(k)
        fresh = explicit.new_initial_state()
        while fresh.is_chance_node():
            fresh.apply_action(rng.choice(fresh.chance_outcomes())[0])

    return [per_call(lambda k: sampled.new_initial_state().current_player(), count, rounds),
            per_call(lambda k: state.clone(), count, rounds),
            per_call(explicit_new, max(1, count // 10), rounds)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="measurements per figure; the best is kept")
    parser.add_argument("--count", type=int, default=500, help="calls per measurement")
    args = parser.parse_args(argv)
    try:
        import pyspiel  # noqa: F401
        columns = ["new_state", "start", "copy", "pyspiel new", "pyspiel clone", "explicit new"]
    except ImportError:
        columns = ["new_state", "start", "copy"]
    print(f"microseconds per call, best of {args.rounds} x {args.count} (python {sys.version.split()[0]})")
    print(f"{'':14s}" + "".join(f"{c:>15s}" for c in columns))
    for name, folder in GAMES.items():
        figures = engine_figures(ROOT / folder, args.count, args.rounds)
        if len(columns) > 3:
            figures += adapter_figures(ROOT / folder, args.count, args.rounds)
        print(f"{name:14s}" + "".join(f"{f:15.1f}" for f in figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
