"""The seat: everything an agent is given, and nothing its player may not see.

An agent is handed a ``Seat``, never the ``State``. The seat reads the true
game on the agent's behalf and answers only with what its player may know:
the player's view, the options of the decision waiting for them, the
compiled game (the rules, the same for everyone) and, for agents that search,
a ``sample()``: a whole game drawn at random to agree with that view
(rulelang/agents/determinize.py).

The seat keeps the true state in a table of this module, keyed by the seat,
not in an attribute: walking a seat's attributes never reaches the state.
That is a boundary for honest agents and a check of the engine, not a sandbox
(Python code in the same process can reach any object); an agent that must
not be trusted belongs in a process of its own.
"""
from __future__ import annotations

import dataclasses
import random
import weakref

from rulelang.agents.determinize import determinize
from rulelang.engine.protocol import Decision, Option
from rulelang.engine.rules import Rules
from rulelang.engine.state import State
from rulelang.engine.views import player_name

from ..errors import RulelangError

#: The game each seat looks at. A seat holds no reference to its state.
_TABLE: weakref.WeakKeyDictionary[Seat, State] = weakref.WeakKeyDictionary()


class Seat:
    """One player's place at one game in progress: what that player may see, as the game goes on."""

    __slots__ = ("player", "name", "game", "players", "__weakref__")

    def __init__(self, state: State, player: int):
        if not 0 <= player < state.n:
            raise ValueError(f"no player {player} in a game of {state.n}")
        self.player = player                  # the seat, from 0
        self.name = player_name(player)       # "P1", as events and views name players
        self.game: Rules = state.game          # the compiled rules, the same for every seat
        self.players = state.n
        _TABLE[self] = state

    def view(self) -> dict:
        """What this player may see now (``State.view``): hidden cards are only counted."""
        return _TABLE[self].view(self.player)

    def decision(self) -> Decision | None:
        """The decision waiting for this player as they see it: every field of it, with only their own options.

        None when nothing waits for them. Policies that tell decisions apart
        read it (its kind, prompt and whatever else decisions carry).
        """
        decision = _TABLE[self].decision()
        if decision is None or self.player not in decision.options:
            return None
        return dataclasses.replace(decision, players=(self.player,),
                                   options={self.player: decision.options[self.player]})

    @property
    def options(self) -> tuple[Option, ...]:
        """The options (id, label) this player has now, in order; empty when they have nothing to choose."""
        decision = _TABLE[self].decision()
        if decision is None:
            return ()
        return decision.options.get(self.player, ())

    @property
    def count(self) -> int:
        """How many options this player has now (0 when nothing waits for them)."""
        return len(self.options)

    @property
    def prompt(self) -> str | None:
        """The waiting decision's prompt, when it waits for this player."""
        decision = _TABLE[self].decision()
        return decision.prompt if decision is not None and self.player in decision.options else None

    @property
    def kind(self) -> str | None:
        """The waiting decision's kind (choose, play, answer, secret, ...), when it waits for this player."""
        decision = _TABLE[self].decision()
        return decision.kind if decision is not None and self.player in decision.options else None

    def sample(self, rng: random.Random) -> State:
        """A whole game, yours to play forward, that agrees with this player's view.

        The cards this player cannot see (and was not shown) are dealt again
        at random over the places they could be, variables they may not see
        hold their declared initial values, the dice to come are drawn from
        ``rng``, and other players' secret choices not yet revealed are asked
        again. The sample is a new ``State``: changing it changes nothing at
        the table. It reads the game's history (what was played this turn), so a game started without
        it (``Game.new_state(history=False)``) has no samples.
        """
        state = _TABLE[self]
        if not state.history:
            raise RulelangError("this game keeps only what a replay needs (history=False), and a sample of it "
                                "needs its whole history", hint="start games played by agents that sample "
                                                                "(greedy, mcts) with history, the default")
        return determinize(state, self.player, rng)

    def __repr__(self) -> str:
        return f"<Seat {self.name} of {self.game.name}>"
