"""The agents that look at nothing but the number of options: random and first.

Both also take the fast path of the protocol, ``choose_index(seat, player,
count)``, which lets the loop skip building options. For tools that hold a
``State`` (the smoke games of `validate`), ``choose(state, player)`` still
works: the state is wrapped in a seat first.
"""
from __future__ import annotations

import random

from ..engine import State
from .seat import Seat


def as_seat(seat: Seat | State, player: int | None) -> Seat:
    """A seat from the older call ``choose(state, player)``, or the seat given."""
    if player is None:
        return seat
    return Seat(seat, player)


class RandomAgent:
    """Uniformly random legal options, from its own seeded generator."""

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, seat: Seat, player: int | None = None) -> str:
        options = as_seat(seat, player).options
        return options[self.rng.randrange(len(options))].id

    def choose_index(self, seat: Seat, player: int, count: int) -> int:
        return self.rng.randrange(count)


class FirstAgent:
    """Always the first legal option: a fixed, predictable opponent and a baseline for policies."""

    def __init__(self, seed: int = 0):
        self.seed = seed            # unused; every agent is made from a seed

    def choose(self, seat: Seat, player: int | None = None) -> str:
        return as_seat(seat, player).options[0].id

    def choose_index(self, seat: Seat, player: int, count: int) -> int:
        return 0
