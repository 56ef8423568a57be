"""Recording the random draws of a game: every outcome ``State.randbelow`` gives while a block runs."""
from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from rulelang import State


@contextmanager
def draws_recorded() -> Iterator[list[int]]:
    """The outcomes drawn inside the ``with`` block, in order (the list grows as the block runs)."""
    drawn: list[int] = []
    real = State.randbelow

    def recording(state: State, n: int) -> int:
        outcome = real(state, n)
        drawn.append(outcome)
        return outcome

    State.randbelow = recording
    try:
        yield drawn
    finally:
        State.randbelow = real
