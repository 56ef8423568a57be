"""Recording the random draws of a game: every outcome ``State.randbelow`` (or ``draws_below``, many at once)
gives while a block runs."""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from rulelang import State


@contextmanager
def draws_recorded() -> Iterator[list[int]]:
    """The outcomes drawn inside the ``with`` block, in order (the list grows as the block runs)."""
    drawn: list[int] = []
    real, real_many = State.randbelow, State.draws_below

    def recording(state: State, n: int) -> int:
        outcome = real(state, n)
        drawn.append(outcome)
        return outcome

    def recording_many(state: State, bounds: Sequence[int]) -> list[int]:
        before = len(drawn)
        outcomes = real_many(state, bounds)
        if len(drawn) == before:            # worked out at once; drawn one by one, randbelow recorded them
            drawn.extend(outcomes)
        return outcomes

    State.randbelow, State.draws_below = recording, recording_many
    try:
        yield drawn
    finally:
        State.randbelow, State.draws_below = real, real_many
