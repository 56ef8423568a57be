"""The agents that look at nothing but the number of options: random and first.

Both also take the fast path of the protocol, ``choose_index(seat, player,
count)``, which lets the loop skip building options. For tools that hold a
``State`` (the smoke games of `validate`), ``choose(state, player)`` still
works: these two are the engine's own code, and read only the options.
"""
from __future__ import annotations

import functools
import random

from rulelang.engine.rng import stream_block
from rulelang.engine.state import State

from .seat import Seat


def option_ids(seat: Seat | State, player: int | None) -> list[str]:
    """The ids of the options waiting: of the seat, or (the older call) of ``player`` in a state."""
    if player is None:
        return [option.id for option in seat.options]
    return seat.legal(player)


class RandomAgent:
    """Uniformly random legal options, from its own stream keyed by its seed (``engine.rng.stream_block``).

    Each pick maps one 64-bit number onto the options by multiplying (``(w * count) >> 64``), so a pick is
    one draw whatever the count; its bias, under ``count / 2**64``, is far below anything a batch can show.
    """

    def __init__(self, seed: int = 0):
        self.seed = seed
        self._block = 0
        self._words = stream_block(seed, 0)

    def choose(self, seat: Seat, player: int | None = None) -> str:
        ids = option_ids(seat, player)
        return ids[self.pick_index(player, len(ids))]

    def choose_index(self, seat: Seat, player: int, count: int) -> int:
        return self.pick_index(player, count)

    def pick_index(self, player: int | None, count: int) -> int:
        """The index of a uniformly random one of ``count`` options: the next number of the stream."""
        if count <= 0:
            raise ValueError(f"no option to pick among {count}")
        words = self._words or self._next_block()
        return (words.pop() * count) >> 64

    def _next_block(self) -> list[int]:
        self._block += 1
        self._words = stream_block(self.seed, self._block)
        return self._words

    @functools.cached_property
    def rng(self) -> random.Random:
        """A ``random.Random`` seeded with the agent's seed, for a subclass's own draws; the picks above do not
        draw from it (agents written before the stream took their picks from it)."""
        return random.Random(self.seed)


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
