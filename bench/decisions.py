"""Speed of the decision paths at 4 players: the random fast path (``apply_index``, no Decision built),
the path of agents that read ``state.decision()`` (where a decision's name is looked up), and policy files.

Run: python bench/decisions.py [--games N]. A measurement script, not a test: it prints figures for the notes.
Rates are per CPU second of this process (``time.process_time``), best of 5, so that other work on a shared
machine moves them less than wall time would.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import rulelang  # noqa: E402
from rulelang.agents import RandomAgent, play_out  # noqa: E402


def fast_path(game, seed: int) -> None:
    play_out(game.new_state(4, seed), RandomAgent(seed))


def decision_path(game, seed: int) -> None:
    """Each choice reads the Decision (name, options) first, as agents that look at it do."""
    rng, state = random.Random(seed), game.new_state(4, seed)
    while not state.over:
        decision = state.decision()
        player = decision.players[0]
        state.apply(decision.options[player][rng.randrange(len(decision.options[player]))].id, player)


def policy_path(game, seed: int, agents: list) -> None:
    state = game.new_state(4, seed)
    while not state.over:
        decision = state.decision()
        player = decision.players[0]
        state.apply(agents[player].choose(state, player), player)


def best_rate(run, count: int) -> float:
    rates = []
    for _ in range(5):
        start = time.process_time()
        for seed in range(count):
            run(seed)
        rates.append(count / (time.process_time() - start))
    return max(rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000, help="Jack's Friends games per figure (Flapjacks: a quarter)")
    args = parser.parse_args()
    for name in ("jacks_friends", "flapjacks"):
        game = rulelang.load_game(ROOT / "games" / name)
        count = args.games if name == "jacks_friends" else max(50, args.games // 4)
        print(f"{name}, 4 players, best of 5 x {count} games, per CPU second:")
        print(f"  random, fast path (apply_index)   {best_rate(lambda s: fast_path(game, s), count):8.0f} games/s")
        print(f"  random through state.decision()   {best_rate(lambda s: decision_path(game, s), count):8.0f} games/s")
        folder = ROOT / "games" / name / "policies"
        if (folder / "giant.yaml").exists():
            from rulelang.agents import make_agent
            seats = [str(folder / "giant.yaml")] + [str(folder / "townsfolk.yaml")] * 3
            rate = best_rate(lambda s: policy_path(game, s, [make_agent(a, s + i) for i, a in enumerate(seats)]), count)
            print(f"  designer policies (policy files)  {rate:8.0f} games/s")


if __name__ == "__main__":
    main()
