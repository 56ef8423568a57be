"""The greedy agent: one step of lookahead on the game's heuristic, on sampled games.

For each option it plays that option on a few samples of the game drawn to
agree with its view (never the true game), lets the game run to the next
decision, and reads how well it stands: the spec's ``heuristic`` for its
player, or the ``score`` when there is no heuristic, or 0. A win is worth
more than any heuristic, a loss less. The best average wins; ties are broken
at random, so a game with nothing to measure is played at random.
"""
from __future__ import annotations

import random

from rulelang.engine.state import State

from .mcts import is_whole
from .seat import Seat

#: What an ended game is worth, beyond any heuristic: a win (shared among the winners) or a loss.
WIN, LOSS = 1e9, -1e9


class GreedyAgent:
    """Take the option whose immediate result the heuristic likes best."""

    def __init__(self, seed: int = 0, samples: int = 4):
        if not (is_whole(samples) and samples >= 1):
            raise ValueError(f"samples must be a whole number of at least 1, not {samples!r}")
        self.rng = random.Random(seed)
        self.samples = samples

    def choose(self, seat: Seat) -> str:
        options = seat.options
        if len(options) == 1:
            return options[0].id
        totals = [0.0] * len(options)
        for _ in range(self.samples):
            base = seat.sample(self.rng)
            for k, option in enumerate(options):
                after = base.copy()         # the same dice for every option: a fair comparison
                if step(after, seat.player, option.id, self.rng):
                    totals[k] += worth(after, seat.player)
                else:
                    totals[k] += LOSS       # not an option in this sample
        best = max(totals)
        return self.rng.choice([o.id for o, t in zip(options, totals) if t == best])


def step(state: State, player: int, option: str, rng: random.Random) -> bool:
    """Take ``option`` for ``player``, and let the others finish the same decision at random.

    False when the sample does not offer that option (it can differ from the true game).
    """
    pend = state.pending
    if pend is None or state.over or option not in offered(state, player):
        return False
    state.apply(option, player)
    while state.pending is pend and not state.over:      # a secret decision still waiting for others
        i = pend["chosen"].index(None)
        state.apply_index(rng.randrange(len(pend["options"][i])), pend["players"][i])
    return True


def offered(state: State, player: int) -> list[str]:
    """The option ids waiting for ``player`` in ``state`` (none when nothing waits for them)."""
    pend = state.pending
    for i, p in enumerate(pend["players"]):
        if p == player and pend["chosen"][i] is None:
            return [o[0] for o in pend["options"][i]]
    return []


def worth(state: State, player: int) -> float:
    """How well ``player`` stands: the result once the game is over, else the heuristic."""
    if state.over:
        return WIN / len(state.winners) if player in state.winners else LOSS
    game = state.game
    measure = game.heuristic if game.heuristic is not None else game.score
    return 0.0 if measure is None else float(measure(state, {"p": player}))
