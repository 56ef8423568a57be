"""The agents that look at nothing but the number of options: random and first.

Both also take the fast path of the protocol, ``choose_index(seat, player,
count)``, which lets the loop skip building options. For tools that hold a
``State`` (the smoke games of `validate`), ``choose(state, player)`` still
works: these two are the engine's own code, and read only the options.
"""
from __future__ import annotations

import random

from rulelang.engine.state import State

from .seat import Seat


def option_ids(seat: Seat | State, player: int | None) -> list[str]:
    """The ids of the options waiting: of the seat, or (the older call) of ``player`` in a state."""
    if player is None:
        return [option.id for option in seat.options]
    return seat.legal(player)


class RandomAgent:
    """Uniformly random legal options, from its own seeded generator."""

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)
        self._bits = self.rng.getrandbits

    def choose(self, seat: Seat, player: int | None = None) -> str:
        ids = option_ids(seat, player)
        return ids[self.rng.randrange(len(ids))]

    def choose_index(self, seat: Seat, player: int, count: int) -> int:
        return self.pick_index(player, count)

    def pick_index(self, player: int, count: int) -> int:
        """``self.rng.randrange(count)``, draw for draw, without its two layers of Python calls (a tenth of
        a random game of few options): CPython draws ``count.bit_length()`` bits until they are below
        ``count``. tests/engine/test_agents.py holds it to ``randrange`` on this interpreter."""
        if count <= 0:
            raise ValueError(f"no option to pick among {count}")
        bits, k = self._bits, count.bit_length()
        r = bits(k)
        while r >= count:
            r = bits(k)
        return r


class FirstAgent:
    """Always the first legal option: a fixed, predictable opponent and a baseline for policies."""

    def __init__(self, seed: int = 0):
        self.seed = seed            # unused; every agent is made from a seed

    def choose(self, seat: Seat, player: int | None = None) -> str:
        return option_ids(seat, player)[0]

    def choose_index(self, seat: Seat, player: int, count: int) -> int:
        return self.pick_index(player, count)

    def pick_index(self, player: int, count: int) -> int:
        return 0
