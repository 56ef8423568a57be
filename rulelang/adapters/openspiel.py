"""Any rulelang spec as an OpenSpiel game: ``load_game(path, players=N, **params)`` returns a ``pyspiel.Game``.

The game is a Python game registered with pyspiel (as OpenSpiel's own
``open_spiel/python/games`` are), so OpenSpiel's algorithms and tests take it
like any other:

- dynamics: ``SIMULTANEOUS`` when the spec has a secret choice (``each ...
  secretly chooses``), else ``SEQUENTIAL``; a node where one player chooses has
  that player to move, one where several choose at once is a simultaneous node
  (a seat with nothing to decide there has the single no-op action ``WAIT``);
- chance: ``SAMPLED_STOCHASTIC``. The engine draws shuffles, deals and dice from
  its seeded RNG and exposes no chance points, so a new state takes the next
  seed of the game's own stream (game parameter ``seed``) and its chance is
  fixed from then on (clones share it);
- information: ``IMPERFECT_INFORMATION``; the observation string is the
  player's ``State.view`` as JSON, the information-state string their own
  account of the event log (``rulelang.views.events_for``, without the seed)
  with that view; the observation tensor is the view as numbers
  (``rulelang.adapters.features``); there is no information-state tensor;
- returns: the spec's ``returns:`` at the end, or 1 for each winner and 0 for
  the others when it declares none (``GENERAL_SUM``);
- actions: ``rulelang.adapters.core.ActionMap`` (option ids numbered in the
  order the spec declares its decisions and their options, then a block of
  whole numbers, then the no-op). ``action_to_string`` is the option id.

Decisions with a single option are taken without asking unless the spec sets
``ask_single_options: true`` or ``ask_single_options=True`` is given here.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Sequence

import numpy as np
import pyspiel

from rulelang import RulelangError, State
from .core import DEFAULT_NUMBERS, Seeds, SpecTable

#: Adapter settings of each registered short name: a spec loaded again with other settings gets a new name.
_REGISTERED: dict[str, tuple] = {}


def load_game(path: str | Path, players: int | None = None, *, seed: int = 0,
              ask_single_options: bool | None = None, numbers: int = DEFAULT_NUMBERS,
              mods: Sequence[str | Path] = (), **params: Any) -> "RulelangGame":
    """The spec in ``path`` as a pyspiel game for ``players`` seats (default: its minimum).

    ``params`` are the spec's own params (``goal=50``); ``seed`` starts the stream of seeds new states take;
    ``numbers`` is how many whole-number actions (0, 1, ...) "how many" decisions may use. The game's class
    is registered with pyspiel under ``rulelang_NAME`` (see ``short_name``), so ``pyspiel.load_game`` of that
    name, with ``players``, ``seed`` and the spec's params as game parameters, makes the same game.
    """
    settings = (str(Path(path).resolve()), tuple(str(m) for m in mods), ask_single_options, int(numbers))
    table = SpecTable(path, players, mods=mods, ask_single_options=ask_single_options, numbers=numbers,
                      params=params)
    game_class = _register(table, settings)
    return game_class({"players": table.players, "seed": int(seed), **table.game.params})


def short_name(name: str) -> str:
    """``rulelang_`` and a spec's name in lower-case words joined by ``_``.

    A game named 'Dice and Coins' is ``rulelang_dice_and_coins``.
    """
    return "rulelang_" + ("_".join(re.findall(r"[a-z0-9]+", name.lower())) or "game")


def game_type_of(table: SpecTable, name: str) -> "pyspiel.GameType":
    dynamics = pyspiel.GameType.Dynamics
    return pyspiel.GameType(
        short_name=name,
        long_name=f"{table.game.name} (rulelang spec)",
        dynamics=dynamics.SIMULTANEOUS if table.simultaneous else dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=table.game.max_players,
        min_num_players=table.game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification={"players": table.game.min_players, "seed": 0, **table.game.params})


def _register(table: SpecTable, settings: tuple) -> type:
    """A ``RulelangGame`` class for this spec and these settings, registered with pyspiel once.

    A class (not a closure) is registered, as OpenSpiel's own Python games do: pyspiel keeps its factory
    until the process ends, and a class outlives the interpreter's shutdown safely.
    """
    base = short_name(table.game.name)
    name, k = base, 1
    while name in _REGISTERED and _REGISTERED[name][0] != settings:
        k += 1
        name = f"{base}_{k}"
    if name not in _REGISTERED:
        game_class = type(f"RulelangGame_{name}", (RulelangGame,),
                          {"settings": settings, "game_type": game_type_of(table, name)})
        _REGISTERED[name] = (settings, game_class)
        if name not in pyspiel.registered_names():
            pyspiel.register_game(game_class.game_type, game_class)
    return _REGISTERED[name][1]


class RulelangGame(pyspiel.Game):
    """A spec as a pyspiel game; ``spec`` is the ``SpecTable`` behind it. Made by ``load_game``."""

    settings: tuple = ()
    game_type: "pyspiel.GameType"

    def __init__(self, params: dict | None = None):
        params = dict(params or {})
        path, mods, ask, numbers = self.settings
        players = int(params.pop("players", 0)) or None
        seed = int(params.pop("seed", 0))
        table = SpecTable(path, players, mods=mods, ask_single_options=ask, numbers=numbers, params=params)
        low, high = table.utility_bounds()
        info = pyspiel.GameInfo(num_distinct_actions=table.actions.size, max_chance_outcomes=0,
                                num_players=table.players, min_utility=low, max_utility=high,
                                utility_sum=None, max_game_length=MAX_GAME_LENGTH)
        super().__init__(self.game_type, info, {"players": table.players, "seed": seed, **table.game.params})
        self.spec = table
        self._seeds = Seeds(seed)

    def new_initial_state(self) -> "RulelangState":
        """A new game whose chance is fixed by the next seed of the game's stream (drawn when first read)."""
        return RulelangState(self, Inner(self))

    def state_from(self, state: State) -> "RulelangState":
        """Wrap a rulelang state of this spec (one set up by hand, e.g. with ``State.arrange``) as a pyspiel state.

        A state stopped before its first turn (``positioned_state``) must be ``resume()``d first.
        """
        if state.game is not self.spec.game or state.n != self.spec.players:
            raise RulelangError("that state is not a game of this spec and player count")
        if not state.is_over and state.decision() is None:
            raise RulelangError("that state waits for no decision", hint="call state.resume() after setting it up")
        return RulelangState(self, Inner(self, state))

    def make_py_observer(self, iig_obs_type=None, params=None) -> "ViewObserver":
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return ViewObserver(self.spec, perfect_recall)


#: A bound on the decisions of one game that pyspiel asks for: the engine bounds turns, not decisions.
MAX_GAME_LENGTH = 100_000


class Inner:
    """The rulelang ``State`` behind a pyspiel state, made at first use.

    pyspiel clones a Python state by making a new initial state and deep-copying its attributes onto it:
    made lazily, that new state never plays a setup nor takes a seed, and a deep copy is ``State.copy``.
    """

    __slots__ = ("game", "_state")

    def __init__(self, game: RulelangGame, state: State | None = None):
        self.game = game
        self._state = state

    @property
    def state(self) -> State:
        if self._state is None:
            self._state = self.game.spec.new_state(self.game._seeds.next())
        return self._state

    def __deepcopy__(self, memo: dict) -> "Inner":
        return Inner(self.game, self.state.copy())


class RulelangState(pyspiel.State):
    """A pyspiel state holding a rulelang ``State`` (``inner``)."""

    def __init__(self, game: RulelangGame, inner: Inner):
        super().__init__(game)
        self._inner = inner

    @property
    def inner(self) -> State:
        return self._inner.state

    @property
    def spec(self) -> SpecTable:
        return self._inner.game.spec

    def current_player(self) -> int:
        """Asked many times a step by pyspiel, so read straight from the waiting decision."""
        box = self._inner
        decision = (box._state or box.state).decision()
        if decision is None:
            return pyspiel.PlayerId.TERMINAL
        if decision.kind == "secret" or len(decision.players) > 1:
            return pyspiel.PlayerId.SIMULTANEOUS
        return decision.players[0]

    def _legal_actions(self, player: int) -> list[int]:
        return self.spec.legal_actions(self.inner, player)

    def _apply_action(self, action: int) -> None:
        self.spec.apply(self.inner, self.current_player(), action)

    def _apply_actions(self, actions: Sequence[int]) -> None:
        self.spec.apply_joint(self.inner, actions)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.spec.actions.option(action)

    def is_terminal(self) -> bool:
        return self.inner.is_over

    def returns(self) -> list[float]:
        return self.spec.returns(self.inner)

    def __str__(self) -> str:
        return self.spec.observation_string(self.inner, None)


class ViewObserver:
    """What a player knows, from their view.

    Strings: the view as JSON (``perfect_recall``: with their account of the log). The tensor is the view
    as numbers (``rulelang.adapters.features``), imperfect recall only: there is no information-state tensor.
    """

    def __init__(self, table: SpecTable, perfect_recall: bool):
        self.spec = table
        self.perfect_recall = perfect_recall
        self.encoder = table.view_encoder()
        self.tensor = np.zeros(self.encoder.size, np.float32)
        self.dict = {"view": self.tensor}

    def set_from(self, state: RulelangState, player: int) -> None:
        self.tensor[:] = self.encoder.encode(state.inner.view(player))

    def string_from(self, state: RulelangState, player: int) -> str:
        if self.perfect_recall:
            return self.spec.information_state_string(state.inner, player)
        return self.spec.observation_string(state.inner, player)
