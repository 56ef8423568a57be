"""Recording the random draws of a game: every outcome ``State.randbelow`` (or ``draws_below``, many at once)
gives while a block runs."""
from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator, Sequence

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
        if state.chance is not None:        # one by one, through randbelow: recorded there
            return real_many(state, bounds)
        outcomes = real_many(state, bounds)
        drawn.extend(outcomes)
        return outcomes

    State.randbelow, State.draws_below = recording, recording_many
    try:
        yield drawn
    finally:
        State.randbelow, State.draws_below = real, real_many
