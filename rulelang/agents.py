"""Agents choose among a decision's options. They see only options and views."""
from __future__ import annotations

import random
from typing import Protocol

from .engine import State


class Agent(Protocol):
    def choose(self, state: State, player: int) -> str: ...


class RandomAgent:
    """Uniformly random legal options, from its own seeded generator."""

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, state: State, player: int) -> str:
        options = state.legal(player)
        return options[self.rng.randrange(len(options))]

    def choose_index(self, state: State, player: int, count: int) -> int:
        return self.rng.randrange(count)


def play_out(state: State, agents: list[Agent] | Agent, max_decisions: int = 1_000_000) -> State:
    """Play a game to its end: each waiting player asks its agent, in seat order."""
    pick = agents if isinstance(agents, list) else None
    for _ in range(max_decisions):
        pend = state.pending
        if pend is None or state.over:
            return state
        for i, p in enumerate(pend["players"]):
            if pend["chosen"][i] is None:
                agent = pick[p] if pick is not None else agents
                fast = getattr(agent, "choose_index", None)
                if fast is not None:
                    state.apply_index(fast(state, p, len(pend["options"][i])), p)
                else:
                    state.apply(agent.choose(state, p), p)
                break
    raise RuntimeError("the game did not finish within the decision limit")
