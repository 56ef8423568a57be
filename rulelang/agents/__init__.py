"""Agents choose among a decision's options, seeing only what their player may see.

The protocol (docs/agents.md): an agent is made as ``Agent(seed, **params)``
and answers ``choose(seat)`` with an option id or index; the ``Seat``
(``seat.py``) is all it gets: its player's view, its options, the rules and,
for search, samples of the game that agree with the view. Built in:
``random``, ``first``, ``greedy`` and ``mcts``; ``module:Class`` plugs in
the user's own.
"""
from __future__ import annotations

from .basic import FirstAgent, RandomAgent
from .greedy import GreedyAgent
from .mcts import MctsAgent
from .play import Agent, AgentError, Table, apply_choice, play_new, play_out
from .registry import AGENTS, AgentSpec, make_agent, parse_agent
from .seat import Seat

__all__ = ["AGENTS", "Agent", "AgentError", "AgentSpec", "FirstAgent", "GreedyAgent", "MctsAgent", "RandomAgent",
           "Seat", "Table", "apply_choice", "make_agent", "parse_agent", "play_new",
           "play_out"]
