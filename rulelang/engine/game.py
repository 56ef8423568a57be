"""The compiled game: its ``Rules`` (rules.py), and ``new_state`` to start one (rulelang/engine/turns.py).

A ``Game`` is what the compiler builds and every tool holds. Its declarations and procedures are in
``Rules``, which the run loop, the card primitives and the views take; starting a game needs the whole
engine, so it is here, at the engine's top.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rulelang.engine.rules import Rules
from rulelang.engine.turns import start_game

if TYPE_CHECKING:
    from rulelang.engine.state import State


class Game(Rules):
    """A compiled, immutable spec. ``new_state`` starts a game."""

    def new_state(self, players: int, seed: int = 0, observer: Callable | None = None,
                  before_first_turn: bool = False, ask_single_options: bool | None = None,
                  chance: list[int] | None = None, history: bool = True) -> State:
        """A new game for ``players`` seats, played until its first decision.

        ``ask_single_options`` (default: the game's `ask_single_options`) asks every decision, even one with a
        single option, as adapters whose action histories hold every decision need.

        ``observer(state, step_name)``, if given, is called before every step from the first.
        ``before_first_turn`` stops right after the game's setup instead, with nothing of
        turn 1 played (``resume()`` goes on): tools set up positions there.
        ``chance``, a list of outcomes, answers the random draws in order instead of the seed's
        generator; a draw with none left raises ``chance.ChanceNeeded`` (see rulelang/engine/chance.py).
        ``history=False`` keeps in the log only what a replay needs (records.py): the start, every choice, every
        card played or answered, and the rare events of the game's course (phases, shuffles, reveals, the end),
        without a record of each step, turn, change, move and roll. Simulations that read none of those run
        faster so; the game itself, its dice and its choices are the same.
        """
        return start_game(self, players, seed, observer, before_first_turn, ask_single_options, chance, history)
