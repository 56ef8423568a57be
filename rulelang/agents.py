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


class FirstAgent:
    """Always the first legal option: a fixed, predictable opponent and a baseline for policies."""

    def __init__(self, seed: int = 0):
        self.seed = seed            # unused; every agent is made from a seed

    def choose(self, state: State, player: int) -> str:
        return state.legal(player)[0]

    def choose_index(self, state: State, player: int, count: int) -> int:
        return 0


#: Agents by the name a command line uses; each is made from a seed (its own random stream).
AGENTS: dict[str, type] = {"random": RandomAgent, "first": FirstAgent}


def make_agent(name: str, seed: int) -> Agent:
    """The agent registered under ``name`` (or a policy file, ``policy:PATH``), seeded; KeyError if there is none."""
    from .policy import is_policy_spec, make_policy_agent
    if is_policy_spec(name):
        return make_policy_agent(name, seed)
    return AGENTS[name](seed)


def play_out(state: State, agents: list[Agent] | Agent, max_decisions: int = 1_000_000) -> State:
    """Play a game to its end: the first player still to choose asks its agent, and so on."""
    seats = agents if isinstance(agents, list) else None
    fast_paths: dict[int, object] = {}
    for _ in range(max_decisions):
        pend = state.pending
        if pend is None or state.over:
            return state
        i = pend["chosen"].index(None)
        player = pend["players"][i]
        agent = seats[player] if seats is not None else agents
        fast = fast_paths.get(id(agent), False)
        if fast is False:
            fast = fast_paths[id(agent)] = getattr(agent, "choose_index", None)
        if fast is not None:       # agents that pick by position skip the option ids
            state.apply_index(fast(state, player, len(pend["options"][i])), player)
        else:
            state.apply(agent.choose(state, player), player)
    raise RuntimeError("the game did not finish within the decision limit")
