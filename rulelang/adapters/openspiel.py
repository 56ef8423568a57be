"""Any rulelang spec as an OpenSpiel game: ``load_game(path, players=N, **params)`` returns a ``pyspiel.Game``.

The game is a Python game registered with pyspiel (as OpenSpiel's own
``open_spiel/python/games`` are), so OpenSpiel's algorithms and tests take it
like any other:

- dynamics: ``SIMULTANEOUS`` when the spec has a secret choice (``each ...
  secretly chooses``), else ``SEQUENTIAL``; a node where one player chooses has
  that player to move, one where several choose at once is a simultaneous node
  (a seat with nothing to decide there has the single no-op action ``WAIT``);
- chance (game parameter ``chance``): ``"explicit"`` (the default) is
  ``EXPLICIT_STOCHASTIC``: every random draw (a step of a shuffle, a die, a
  random first player) is a chance node of equally likely outcomes
  (``rulelang.engine.chance``); outcome ``k`` is chance action ``A + k``, ``A`` being
  the number of the players' actions, so the two never share a number
  (``rulelang.adapters.chance_nodes.ChanceActions``). ``"sampled"`` is
  ``SAMPLED_STOCHASTIC``: no chance nodes; a new state takes the next seed of
  the game's own stream (game parameter ``seed``) and its chance is fixed from
  then on (clones share it);
- information: ``IMPERFECT_INFORMATION``; the observation string is the
  player's ``State.view`` as JSON, the information-state string their own
  account of the event log (``rulelang.engine.views.events_for``, without the seed)
  with that view; the observation tensor is the view as numbers
  (``rulelang.adapters.features``); there is no information-state tensor;
- returns: the spec's ``returns:`` at the end, or 1 for each winner and 0 for
  the others when it declares none (``GENERAL_SUM``; ``ZERO_SUM`` with the game
  parameter ``zero_sum``, which a game whose returns do not add up to 0 breaks
  with an error);
- actions: ``rulelang.adapters.core.ActionMap`` (option ids numbered in the
  order the spec declares its decisions and their options, then a block of
  whole numbers, then the no-op). ``action_to_string`` is the option id.

Decisions with a single option are taken without asking unless the spec sets
``ask_single_options: true`` or ``ask_single_options=True`` is given here.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel

from rulelang import RulelangError, State

from .chance_nodes import ChanceActions, Explicit, Sampled, largest_draw
from .core import DEFAULT_NUMBERS, LEGAL_CACHE, Seeds, SpecTable, option_ids

#: How a game presents chance (game parameter ``chance``).
CHANCE_MODES = {"explicit": pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
                "sampled": pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC}

#: Who is to move besides a player (read once: pyspiel asks ``current_player`` many times a step).
CHANCE, TERMINAL, SIMULTANEOUS = (pyspiel.PlayerId.CHANCE, pyspiel.PlayerId.TERMINAL,
                                  pyspiel.PlayerId.SIMULTANEOUS)

#: Adapter settings of each registered short name: a spec loaded again with other settings gets a new name.
_REGISTERED: dict[str, tuple] = {}


def load_game(path: str | Path, players: int | None = None, *, chance: str = "explicit", seed: int = 0,
              zero_sum: bool = False, ask_single_options: bool | None = None, numbers: int = DEFAULT_NUMBERS,
              mods: Sequence[str | Path] = (), **params: Any) -> RulelangGame:
    """The spec in ``path`` as a pyspiel game for ``players`` seats (default: its minimum).

    ``params`` are the spec's own params (``goal=50``); ``chance`` is ``"explicit"`` (chance nodes) or
    ``"sampled"`` (draws from seeds); ``seed`` starts the stream of seeds new states take with sampled chance
    (with explicit chance it is only the seed the log records); ``zero_sum`` says the returns add up to 0 (as
    ``exploitability`` wants); ``numbers`` is how many whole-number actions (0, 1, ...) "how many" decisions may
    use. The game's class is registered with pyspiel under ``rulelang_NAME`` (see ``short_name``), so
    ``pyspiel.load_game`` of that name, with ``players``, ``chance``, ``seed``, ``zero_sum`` and the spec's
    params as game parameters, makes the same game.
    """
    _check_chance(chance)
    settings = (str(Path(path).resolve()), tuple(str(m) for m in mods), ask_single_options, int(numbers))
    table = SpecTable(path, players, mods=mods, ask_single_options=ask_single_options, numbers=numbers,
                      params=params)
    game_class = _register(table, settings)
    return game_class({"players": table.players, "chance": chance, "seed": int(seed), "zero_sum": bool(zero_sum),
                       **table.game.params})


def _check_chance(chance: str) -> None:
    if chance not in CHANCE_MODES:
        raise RulelangError(f"chance '{chance}' is not a way to present chance",
                            hint="use chance='explicit' (chance nodes) or chance='sampled'")


def short_name(name: str) -> str:
    """``rulelang_`` and a spec's name in lower-case words joined by ``_``.

    A game named 'Dice and Coins' is ``rulelang_dice_and_coins``.
    """
    return "rulelang_" + ("_".join(re.findall(r"[a-z0-9]+", name.lower())) or "game")


def game_type_of(table: SpecTable, name: str, chance: str = "explicit",
                 zero_sum: bool = False) -> pyspiel.GameType:
    """The game type of a spec; chance mode and utility follow the game parameters of each game made."""
    dynamics = pyspiel.GameType.Dynamics
    utility = pyspiel.GameType.Utility
    return pyspiel.GameType(
        short_name=name,
        long_name=f"{table.game.name} (rulelang spec)",
        dynamics=dynamics.SIMULTANEOUS if table.simultaneous else dynamics.SEQUENTIAL,
        chance_mode=CHANCE_MODES[chance],
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility.ZERO_SUM if zero_sum else utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=table.game.max_players,
        min_num_players=table.game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification={"players": table.game.min_players, "chance": "explicit", "seed": 0,
                                 "zero_sum": False, **table.game.params})


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
    game_type: pyspiel.GameType

    def __init__(self, params: dict | None = None):
        params = dict(params or {})
        path, mods, ask, numbers = self.settings
        players = int(params.pop("players", 0)) or None
        chance = str(params.pop("chance", "explicit"))
        seed = int(params.pop("seed", 0))
        zero_sum = bool(params.pop("zero_sum", False))
        _check_chance(chance)
        table = SpecTable(path, players, mods=mods, ask_single_options=ask, numbers=numbers, params=params)
        low, high = table.utility_bounds()
        self.explicit = chance == "explicit"
        self.chance_actions = ChanceActions(table.actions.size, largest_draw(table.game, table.players))
        info = pyspiel.GameInfo(num_distinct_actions=table.actions.size,
                                max_chance_outcomes=self.chance_actions.size if self.explicit else 0,
                                num_players=table.players, min_utility=low, max_utility=high,
                                utility_sum=0.0 if zero_sum else None, max_game_length=MAX_GAME_LENGTH)
        kind = game_type_of(table, self.game_type.short_name, chance, zero_sum)
        super().__init__(kind, info, {"players": table.players, "chance": chance, "seed": seed,
                                      "zero_sum": zero_sum, **table.game.params})
        self.spec = table
        self.zero_sum = zero_sum
        self.seed = seed
        self._seeds = Seeds(seed)
        self.rules = Rules(self.chance_actions, zero_sum)

    def new_initial_state(self) -> RulelangState:
        """A new game: every draw a chance node, or (sampled) fixed by the next seed of the game's stream.

        The game is made when first read, so pyspiel's clone (a new initial state with attributes copied onto
        it) plays no setup.
        """
        if self.explicit:
            return RulelangState(self, Explicit(self.spec, self.seed))
        return RulelangState(self, Sampled(self.spec, self._seeds.next))

    def state_from(self, state: State) -> RulelangState:
        """Wrap a rulelang state of this spec (one set up by hand, e.g. with ``State.arrange``) as a pyspiel state.

        A state stopped before its first turn (``positioned_state``) must be ``resume()``d first.
        """
        if state.game is not self.spec.game or state.n != self.spec.players:
            raise RulelangError("that state is not a game of this spec and player count")
        if not state.is_over and state.decision() is None:
            raise RulelangError("that state waits for no decision", hint="call state.resume() after setting it up")
        if self.explicit:
            return RulelangState(self, Explicit.wrapping(self.spec, state))
        return RulelangState(self, Sampled(self.spec, self._seeds.next, state))

    def make_py_observer(self, iig_obs_type=None, params=None) -> ViewObserver:
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return ViewObserver(self.spec, perfect_recall)


#: A bound on the decisions of one game that pyspiel asks for: the engine bounds turns, not decisions.
MAX_GAME_LENGTH = 100_000


class Rules:
    """What every state of one game reads and a clone shares rather than copies.

    ``nodes`` remembers the ``Node`` of each (player, option ids) met: a game offers the same few again and again.
    """

    __slots__ = ("chance_actions", "zero_sum", "nodes")

    def __init__(self, chance_actions: ChanceActions, zero_sum: bool):
        self.chance_actions = chance_actions
        self.zero_sum = zero_sum
        self.nodes: dict[tuple[int, tuple[str, ...]], Node] = {}

    def __deepcopy__(self, memo: dict) -> Rules:
        return self


class Node:
    """Who is to move at a state and what they may do, worked out once per action applied (pyspiel asks several
    times a step). When one player chooses alone: their sorted legal actions (``legal``) and the option index each
    action takes (``where``); at a simultaneous node, the same pair for each seat that chooses (``seats``, in the
    order they choose). Never changed, so a clone shares it."""

    __slots__ = ("to_move", "legal", "where", "seats")

    def __init__(self, to_move: int, legal: list[int] | None = None, where: dict[int, int] | None = None,
                 seats: dict[int, tuple[list[int], dict[int, int]]] | None = None):
        self.to_move = to_move
        self.legal = legal
        self.where = where
        self.seats = seats

    def __deepcopy__(self, memo: dict) -> Node:
        return self


#: The nodes where nobody chooses (the same for every state).
CHANCE_NODE, TERMINAL_NODE = Node(CHANCE), Node(TERMINAL)


def _play(box: Any, player: int, where: dict[int, int] | None, action: int) -> None:
    """A player's action: their option it names, found in ``where``; or, for one it does not name (a seat
    that sits out, the no-op, an action that is not legal), as ``choose`` tells it."""
    index = None if where is None else where.get(action)
    if index is None:
        box.choose(player, action)
    else:
        box.take(player, index, action)


class RulelangState(pyspiel.State):
    """A pyspiel state holding the game in play (``rulelang.adapters.chance_nodes``: sampled or explicit)."""

    def __init__(self, game: RulelangGame, inner: Sampled | Explicit):
        super().__init__(game)
        self._inner = inner
        self._rules = game.rules
        self._node: Node | None = None          # who moves and their actions, until an action is applied

    @property
    def inner(self) -> State | None:
        """The rulelang ``State``; with explicit chance, at a chance node the last settled one (None before the
        setup settles), and read-only: clones share it."""
        return self._inner.seen

    @property
    def spec(self) -> SpecTable:
        return self._inner.table

    def current_player(self) -> int:
        """Asked many times a step by pyspiel, so worked out once per action applied."""
        node = self._node
        if node is None:
            node = self._node = self._find_node()
        return node.to_move

    def _find_node(self) -> Node:
        box = self._inner
        state = box.state
        if state is None:               # a draw is open (explicit chance)
            return CHANCE_NODE
        alone = state.lone_chooser()
        if alone is not None:
            player, options = alone
            key = (player, option_ids(options))
            nodes = self._rules.nodes
            node = nodes.get(key)
            if node is None:
                node = Node(player, *box.table.actions_of(options))
                if len(nodes) < LEGAL_CACHE:
                    nodes[key] = node
            return node
        if state.pending is None or state.over:
            return TERMINAL_NODE
        table = box.table
        return Node(SIMULTANEOUS, seats={player: table.actions_of(options) for player, options in state.choices_left()})

    # pyspiel's own is_chance_node, is_simultaneous_node and legal_actions reach Python through C++ several times
    # a call (current_player, is_terminal, _legal_actions); answered here, a Python caller (OpenSpiel's Python
    # algorithms, a play loop) gets the same answers at a fraction of the cost. C++ callers still take pyspiel's.

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def is_simultaneous_node(self) -> bool:
        return self.current_player() == SIMULTANEOUS

    def legal_actions(self, player: int | None = None) -> list[int]:
        """As pyspiel's ``PyState::LegalActions``: none at the end, the chance actions at a chance node, the
        player's own while they (or, at a simultaneous node, any seat) choose, none for a player who does not."""
        node = self._node
        if node is None:
            node = self._node = self._find_node()
        to_move = node.to_move
        if to_move >= 0 and (player is None or player == to_move):      # the usual question: the mover's
            return list(node.legal)                                     # a copy: the caller may change it
        if to_move == SIMULTANEOUS and player is not None and player in node.seats:
            return list(node.seats[player][0])
        player = to_move if player is None else int(player)
        if self.is_terminal():
            return []
        if to_move == CHANCE:
            return [action for action, _odds in self.chance_outcomes()]
        if player == to_move or (player >= 0 and to_move == SIMULTANEOUS):
            return self._legal_actions(player)
        if player < 0:
            raise pyspiel.SpielError(f"Called LegalActions for pseudo-player {player}")
        return []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        point = self._inner.chance
        if point is None:
            raise RulelangError("this is not a chance node")
        return self._rules.chance_actions.outcomes(point)

    def _legal_actions(self, player: int) -> list[int]:
        box = self._inner
        state = box.state
        return [] if state is None else box.table.legal_actions(state, player)

    def _node_to_apply(self) -> Node:
        """The node an action is applied at, forgotten as the action moves the game on (found now if nobody
        asked: pyspiel asks current_player first, so that is rare)."""
        node = self._node
        if node is None:
            node = self._find_node()
        self._node = None
        return node

    def _apply_action(self, action: int) -> None:
        node = self._node_to_apply()
        if node.to_move == CHANCE:
            self._inner.draw(self._rules.chance_actions.outcome(action))
            return
        _play(self._inner, node.to_move, node.where, action)

    def _apply_actions(self, actions: Sequence[int]) -> None:
        """Every seat's action at a simultaneous node (``WAIT`` for a seat that does not choose)."""
        node = self._node_to_apply()
        if node.seats is None:      # not a simultaneous node: told by choose_joint
            self._inner.choose_joint(actions)
            return
        for player, (_legal, where) in node.seats.items():
            _play(self._inner, player, where, actions[player])

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance outcome {self._rules.chance_actions.outcome(action)}"
        return self.spec.actions.option(action)

    def is_terminal(self) -> bool:
        if self.current_player() != TERMINAL:        # answered once per action: most calls end here
            return False
        state = self._inner.state
        return state is not None and state.over

    def returns(self) -> list[float]:
        state = self._inner.state
        if state is None:
            return [0.0] * self.spec.players
        returns = self.spec.returns(state)
        if self._rules.zero_sum and state.is_over and abs(sum(returns)) > 1e-9:
            raise RulelangError(f"the returns {returns} add up to {sum(returns)}, not 0, in a game loaded as "
                                "zero-sum", hint="load it without zero_sum=True")
        return returns

    def __str__(self) -> str:
        box = self._inner
        seen = "" if box.seen is None else self.spec.observation_string(box.seen, None)
        point = box.chance
        if point is None:
            return seen
        drawn = box.position.outcomes
        return f"{seen}\nchance: after {list(box.moves)} drew {drawn}, now a draw of {point.outcomes}"


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
        seen = state.inner
        if seen is None:                        # before the setup settles there is nothing to see
            self.tensor[:] = 0.0
        else:
            self.tensor[:] = self.encoder.encode(seen.view(player))

    def string_from(self, state: RulelangState, player: int) -> str:
        """At a chance node, what the player saw at the last decision (draws show when they settle)."""
        seen = state.inner
        if seen is None:
            return NOTHING_SEEN
        if self.perfect_recall:
            return self.spec.information_state_string(seen, player)
        return self.spec.observation_string(seen, player)


#: A player's strings at the chance nodes of the setup, before there is anything to see.
NOTHING_SEEN = "{}"
