"""Chance points: every random draw of a game as an explicit node with its outcomes and their odds.

All of a game's randomness comes from one place, ``State.randbelow(n)``: dice (a face of a
die of f faces is ``randbelow(f) + 1``), shuffles (Fisher-Yates: one draw per card, worked out
at once by ``State.draws_below``, which draws one by one here), a random first player.
Normally the seeded generator answers. With a chance *script* on the
state (``state.chance``, a list of outcomes; a fixture, never saved) each draw takes the next
outcome instead, and a draw with none left stops the transition with ``ChanceNeeded``:
a chance point of ``n`` equally likely outcomes (0..n-1).

``Position`` builds explicit chance on that, for search and exact odds (and for adapters
such as OpenSpiel's, which present chance nodes): a transition (the start of a game, or a
decision taken) is replayed from the last settled state with the outcomes chosen so far,
until it settles at the next decision or the end. A transition with m draws is replayed m
times; that is cheap for the dice and deals of a turn, and costs m^2 draws for a long shuffle.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rulelang.engine.board import ChanceNeeded
from rulelang.errors import RulelangError

if TYPE_CHECKING:
    from rulelang.engine.game import Game
    from rulelang.engine.state import State


@dataclass(frozen=True)
class ChancePoint:
    """A random draw inside a transition: ``outcomes`` equally likely results, 0 to outcomes - 1."""

    outcomes: int

    @property
    def probabilities(self) -> list[tuple[int, float]]:
        """(outcome, probability) for every outcome, as OpenSpiel's ``chance_outcomes`` lists them."""
        return [(k, 1.0 / self.outcomes) for k in range(self.outcomes)]


@dataclass
class Position:
    """A game with chance explicit: settled (``state`` waits for a decision or is over) or at a chance point."""

    state: State | None
    chance: ChancePoint | None
    replay: Callable[[list[int]], State] = field(repr=False)
    outcomes: list[int] = field(default_factory=list)

    @property
    def is_chance(self) -> bool:
        return self.chance is not None

    def choose(self, index: int, player: int | None = None) -> Position:
        """Take option ``index`` of ``player`` (default: the first still to choose) from a settled position."""
        if self.state is None:
            raise RulelangError("a chance point is open: give its outcome first (Position.draw)")
        base = self.state

        def replay(outcomes: list[int]) -> State:
            trial = base.copy()
            trial.chance = outcomes
            trial.apply_index(index, player)
            return trial
        return settle(replay, [])

    def draw(self, outcome: int) -> Position:
        """Give the open chance point its outcome, and go on to the next chance point or decision."""
        if self.chance is None:
            raise RulelangError("no chance point is open here")
        if not 0 <= outcome < self.chance.outcomes:
            raise RulelangError(f"chance outcome {outcome} is not one of the {self.chance.outcomes} outcomes")
        return settle(self.replay, self.outcomes + [outcome])


def begin(game: Game, players: int, seed: int = 0, **options: Any) -> Position:
    """A new game whose every random draw, from its set-up on, is a chance point."""
    return settle(lambda outcomes: game.new_state(players, seed, chance=outcomes, **options), [])


def settle(replay: Callable[[list[int]], State], outcomes: list[int]) -> Position:
    """Replay a transition with these outcomes: settled, or stopped at the next chance point."""
    try:
        state = replay(list(outcomes))
    except ChanceNeeded as point:
        return Position(None, ChancePoint(point.outcomes), replay, list(outcomes))
    state.chance = []               # later transitions draw explicitly too (Position.choose sets its own)
    return Position(state, None, replay, list(outcomes))
