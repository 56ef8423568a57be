"""Any rulelang spec as a PettingZoo AEC environment: ``env(path, players=N, **params)``.

Agents are ``P1`` ... ``Pn``. The agent to act is a player who must choose now;
when several choose at once (a secret choice), each acts in turn in seat
order and the choices are taken together once all are in, as the engine does
(none sees another's secret choice). Each agent's observation is a dict:

- ``observation``: their view as numbers (``rulelang.adapters.features``),
- ``action_mask``: 1 for the actions legal for them now.

Actions are the integers of ``rulelang.adapters.core.ActionMap`` (the same
numbers as the OpenSpiel adapter). Rewards are 0 until the game ends, then
each player's return (the spec's ``returns:``, or 1 for a winner and 0 for
the rest). ``render()`` (render_mode ``"ansi"``) is the acting agent's view
as JSON. Chance is sampled (an AEC environment has no chance agent): draws come
from the engine's seeded RNG, and ``reset(seed=...)`` fixes a game.
"""
from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .core import DEFAULT_NUMBERS, SpecTable


def env(path: str | Path, players: int | None = None, *, render_mode: str | None = None,
        ask_single_options: bool | None = None, numbers: int = DEFAULT_NUMBERS,
        mods: Sequence[str | Path] = (), **params: Any) -> RulelangEnv:
    """The spec in ``path`` as an AEC environment for ``players`` seats (default: its minimum)."""
    table = SpecTable(path, players, mods=mods, ask_single_options=ask_single_options, numbers=numbers,
                      params=params)
    return RulelangEnv(table, render_mode)


class RulelangEnv(AECEnv):
    """A spec as an AEC environment; ``spec_table`` is the ``SpecTable`` behind it, ``game_state`` the game in play."""

    metadata = {"render_modes": ["ansi"], "name": "rulelang", "is_parallelizable": False}

    def __init__(self, table: SpecTable, render_mode: str | None = None):
        super().__init__()
        self.spec_table = table
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"rulelang_{table.game.name}"}
        self.possible_agents = [f"P{p + 1}" for p in range(table.players)]
        self.encoder = table.view_encoder()
        size = table.actions.size
        self._action_spaces = {a: spaces.Discrete(size) for a in self.possible_agents}
        self._observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (self.encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (size,), np.int8)}) for a in self.possible_agents}
        self._seed_rng = random.Random()
        self.game_state = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_spaces[agent]

    # -- the AEC cycle -------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._seed_rng = random.Random(seed)
        self.game_state = self.spec_table.new_state(self._seed_rng.getrandbits(63))
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._select()

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.possible_agents.index(agent)
        self._cumulative_rewards[agent] = 0.0
        self.spec_table.apply(self.game_state, seat, int(action))
        if self.game_state.is_over:
            returns = self.spec_table.returns(self.game_state)
            for a in self.agents:
                self.rewards[a] = returns[self.possible_agents.index(a)]
                self.terminations[a] = True
        else:
            self.rewards = {a: 0.0 for a in self.agents}
        self._select()
        self._accumulate_rewards()

    def _select(self) -> None:
        """The next agent to act: the first player who must still choose (everyone in turn once it is over)."""
        if self.game_state.is_over:
            live = [a for a in self.agents if self.terminations[a]]
            self.agent_selection = live[0] if live else self.agents[0]
            return
        self.agent_selection = self.possible_agents[self.game_state.choosers()[0]]

    def observe(self, agent: str) -> dict:
        seat = self.possible_agents.index(agent)
        features = self.encoder.encode(self.game_state.view(seat))
        mask = np.zeros(self.spec_table.actions.size, np.int8)
        if not self.game_state.is_over and seat in self.game_state.choosers():
            mask[self.spec_table.legal_actions(self.game_state, seat)] = 1
        return {"observation": np.asarray(features, np.float32), "action_mask": mask}

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.game_state is None:
            return None
        seat = self.possible_agents.index(self.agent_selection) if self.agents else None
        return json.dumps(self.game_state.view(seat), sort_keys=True)

    def close(self) -> None:
        self.game_state = None
