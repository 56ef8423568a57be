"""Cost of the agents: a sample of the hidden cards, a greedy decision, an MCTS decision.

Run: python bench/agents.py [--iterations 50] [--only jacks_friends|flapjacks]
A measurement script, not a test: it prints figures for the notes. The
positions are the decisions of random 4-player games (seeds 0, 1, ...), and
each figure is the mean over them, in CPU time of this process (the machine
is shared, so wall time says less).
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
from rulelang.agents import GreedyAgent, MctsAgent, Seat  # noqa: E402

GAMES = ("jacks_friends", "flapjacks")


def positions(game, count: int, players: int = 4) -> list[tuple[object, int]]:
    """(state, player) at ``count`` decisions spread over random games."""
    found = []
    seed = 0
    while len(found) < count:
        state = game.new_state(players, seed)
        rng = random.Random(seed)
        seed += 1
        while not state.over and len(found) < count:
            decision = state.decision()
            player = decision.players[0]
            if rng.random() < 0.2:
                found.append((state.copy(), player))
            state.apply_index(rng.randrange(len(decision.options[player])), player)
    return found


def per_call(calls: list, repeat: int = 1) -> float:
    """Mean CPU milliseconds of each call."""
    start = time.process_time()
    for _ in range(repeat):
        for call in calls:
            call()
    return (time.process_time() - start) * 1000 / (len(calls) * repeat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--iterations", type=int, default=50, help="MCTS iterations per decision")
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--only", choices=GAMES)
    args = parser.parse_args()
    for name in GAMES:
        if args.only and name != args.only:
            continue
        game = rulelang.load_game(ROOT / "games" / name)
        spots = positions(game, args.positions)
        seats = [Seat(state, player) for state, player in spots]
        rng = random.Random(0)
        sample = per_call([lambda s=s: s.sample(rng) for s in seats], repeat=20)
        greedy = per_call([lambda s=s: GreedyAgent(1).choose(s) for s in seats])
        mcts = per_call([lambda s=s: MctsAgent(1, iterations=args.iterations).choose(s) for s in seats])
        print(f"{name} (4 players, {len(seats)} positions): sample {sample:.3f} ms; greedy decision {greedy:.1f} ms; "
              f"mcts decision ({args.iterations} iterations) {mcts:.0f} ms = {mcts / args.iterations:.2f} ms/iteration")


if __name__ == "__main__":
    main()
