"""The game behind an adapter's state, with chance sampled or explicit (``rulelang.engine.chance``).

A framework's state asks the same few things whichever way chance goes: is a
draw open, who chooses, take this action. ``Sampled`` answers with a rulelang
``State`` whose draws come from its seed; ``Explicit`` with a
``rulelang.engine.chance.Position``, so every shuffle, deal, die and random first
player is a chance point the framework draws itself. Nothing here imports an
extra.

Explicit chance never changes a ``State`` in place: a decision or a draw makes
a new one (``Position`` replays the transition from a copy), so a copy of an
``Explicit`` shares its states and costs nothing. The states it hands out
(``seen``) are read-only.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rulelang import Game, RulelangError, State
from rulelang.engine.chance import ChancePoint, Position, begin

if TYPE_CHECKING:
    from .core import SpecTable


#: How many positions of the setups' chance trees a table keeps (a small game's whole tree; a long shuffle's start).
SETUP_POSITIONS = 4096
#: How many moves after the setup (a decision taken, a draw given) a table remembers the position of: a small
#: game's whole tree (two-player Kuhn poker's has 48 moves), the first moves of a larger one. Kept small: every
#: position kept is objects the garbage collector walks again and again (4096 of Leduc poker's made its random
#: playouts 40% slower; 512 of Goofspiel's, whose positions after the shuffle never recur, 8%; 256, 2%).
TREE_MOVES = 256


def largest_draw(game: Game, players: int) -> int:
    """The most outcomes one random draw of this game can have.

    Draws are a random first player (``players``), a step of a shuffle (at most every card of the game) and a die
    (its largest face).
    """
    faces = max((max(outcomes) for outcomes in game.dice.values() if outcomes), default=0)
    return max(players, len(game.card_type), faces, 1)


class ChanceActions:
    """Chance outcomes <-> action integers, numbered after the players' actions.

    Outcome ``k`` of a draw is action ``base + k``, where ``base`` is the number of the players' actions: a chance
    action is never a player's action, so a history reads unambiguously and a player's action given at a chance
    node is refused. ``size`` (base plus the largest draw) bounds every chance action.
    """

    def __init__(self, base: int, bound: int):
        self.base = base
        self.bound = bound
        self.size = base + bound

    def action(self, outcome: int) -> int:
        return self.base + outcome

    def outcome(self, action: int) -> int:
        if not self.base <= action < self.size:
            raise RulelangError(f"action {action} is not a chance action of this game",
                                hint=f"chance actions are {self.base} to {self.size - 1}")
        return action - self.base

    def outcomes(self, point: ChancePoint) -> list[tuple[int, float]]:
        """(action, probability) of every outcome of the draw, as OpenSpiel's ``chance_outcomes`` lists them."""
        if point.outcomes > self.bound:
            raise RulelangError(f"a draw of {point.outcomes} outcomes is more than the {self.bound} this game "
                                "was sized for")
        return [(self.base + k, p) for k, p in point.probabilities]


class Sampled:
    """A game whose draws come from its seed: made at first use (``seed_of()`` is asked then), changed in place."""

    __slots__ = ("table", "seed_of", "_state")
    explicit = False
    chance: ChancePoint | None = None

    def __init__(self, table: SpecTable, seed_of, state: State | None = None):
        self.table = table
        self.seed_of = seed_of
        self._state = state

    @property
    def state(self) -> State:
        if self._state is None:
            self._state = self.table.new_state(self.seed_of())
        return self._state

    seen = state

    def choose(self, player: int, action: int) -> None:
        self.table.apply(self.state, player, action)

    def take(self, player: int, index: int, action: int) -> None:
        """Take the player's option ``index``, which ``action`` names (found by the caller)."""
        (self._state or self.state).apply_index(index, player)

    def choose_joint(self, actions: Sequence[int]) -> None:
        self.table.apply_joint(self.state, actions)

    def __deepcopy__(self, memo: dict) -> Sampled:
        return Sampled(self.table, self.seed_of, self.state.copy())


class Explicit:
    """A game whose every draw is a chance point: a ``Position`` (begun at first use) and what was last seen.

    ``seen`` is the settled state, or at a chance point the last settled one (nobody has seen the draws of a
    transition before it settles); None while the setup's draws are open. ``moves`` are the option ids taken
    since ``seen``, for the referee's string of a chance point.
    """

    __slots__ = ("table", "seed", "_position", "seen", "moves")
    explicit = True

    def __init__(self, table: SpecTable, seed: int, position: Position | None = None,
                 seen: State | None = None, moves: tuple = ()):
        self.table = table
        self.seed = seed
        self._position = position
        self.seen = seen
        self.moves = moves

    @classmethod
    def wrapping(cls, table: SpecTable, state: State) -> Explicit:
        """A state set up by hand, settled at a decision (or over), its later draws explicit."""
        settled = state.copy()
        settled.chance = []
        return cls(table, state.seed, Position(settled, None, lambda _outcomes: settled), settled)

    @property
    def position(self) -> Position:
        if self._position is None:
            self._moved(self._setup((), lambda: begin(self.table.game, self.table.players, self.seed,
                                                      ask_single_options=self.table.ask_single)), ())
        return self._position

    def _setup(self, outcomes: tuple, make) -> Position:
        """A position of the setup (reached by these outcomes), shared by every game of the table: it depends on
        nothing else, its states are read-only, and without it each game would replay its setup once per draw."""
        memo = self.table.setup_positions
        key = (self.seed, outcomes)
        found = memo.get(key)
        if found is None:
            found = make()
            if len(memo) < SETUP_POSITIONS:
                memo[key] = found
        return found

    @property
    def chance(self) -> ChancePoint | None:
        return self.position.chance

    @property
    def state(self) -> State | None:
        """The settled state; None at a chance point."""
        return self.position.state

    def _moved(self, position: Position, moves: tuple) -> None:
        self._position = position
        if position.state is not None:
            self.seen, self.moves = position.state, ()
        else:
            self.moves = moves

    def _after(self, position: Position, move: tuple, make) -> Position:
        """The position a move leads to from ``position``, remembered by the table for every game of it
        (``SpecTable.positions_after``): positions and their states are read-only and a move's result depends on
        nothing else, so games that meet the same position again (a small game's whole tree, OpenSpiel's searches)
        replay nothing. An entry keeps the position it starts from, so the identity it is known by is not given
        to another."""
        memo = self.table.positions_after
        key = (id(position), move)
        found = memo.get(key)
        if found is not None and found[0] is position:
            return found[1]
        after = make()
        if len(memo) < TREE_MOVES:
            memo[key] = (position, after)
        return after

    def draw(self, outcome: int) -> None:
        position = self.position
        if self.seen is None:           # still in the setup, which every game of the table shares
            after = self._setup((*position.outcomes, outcome), lambda: position.draw(outcome))
        else:
            after = self._after(position, ("draw", outcome), lambda: position.draw(outcome))
        self._moved(after, self.moves)

    def choose(self, player: int, action: int) -> None:
        position = self.position
        if position.state is None:
            raise RulelangError(f"a chance point is open: player {player} cannot take action {action} now")
        index = self.table.option_index(position.state, player, action)
        if index is not None:
            self.take(player, index, action)

    def take(self, player: int, index: int, action: int) -> None:
        """Take the player's option ``index``, which ``action`` names (found by the caller)."""
        position = self.position
        after = self._after(position, ("choose", index, player), lambda: position.choose(index, player))
        if after.state is not None:     # settled: nothing since it to tell (the usual case)
            self._moved(after, ())
        else:
            self._moved(after, self.moves + ((f"P{player + 1}", self.table.actions.option(action)),))

    def choose_joint(self, actions: Sequence[int]) -> None:
        for player in self.position.state.choosers():
            self.choose(player, actions[player])

    def __deepcopy__(self, memo: dict) -> Explicit:
        return Explicit(self.table, self.seed, self.position, self.seen, self.moves)
