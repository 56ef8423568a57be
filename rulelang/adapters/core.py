"""What every adapter needs from a spec, through rulelang's public API only.

A framework such as OpenSpiel or PettingZoo numbers actions with integers fixed
for the whole game, asks who moves, and shows each player a string of what
they know. ``ActionMap`` gives every option id a stable integer; ``SpecTable``
wraps a compiled game with those answers. Nothing here imports an extra.

Chance: a ``State`` draws shuffles, deals and dice from its seed (a copy
shares its future chance); ``rulelang.engine.chance`` makes every draw a chance point
instead, which ``rulelang.adapters.chance_nodes`` presents to adapters that
want explicit chance (OpenSpiel's by default; PettingZoo's samples).
"""
from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from operator import itemgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any

import rulelang
from rulelang import Game, RulelangError, State
from rulelang.engine.views import events_for
from rulelang.spec.inputs import whole_number

if TYPE_CHECKING:
    from .features import ViewEncoder

#: How many whole-number options (0, 1, ...) the number block holds by default: a "how many" decision.
DEFAULT_NUMBERS = 101
#: How many distinct option lists ``SpecTable.legal_actions`` remembers the actions of.
LEGAL_CACHE = 16384
#: The option id offered to a player who has nothing to decide while others choose at once (a no-op).
WAIT = "(wait)"


class ActionMap:
    """Option ids <-> integers, fixed per game.

    Every option the spec's decision catalogue (``Game.decisions``) can name is
    numbered in the order the spec declares its decisions and each decision
    its options, one number per distinct id (``pass`` at two decisions is one
    action). When some decision's options are open in the catalogue (a "how
    many" decision), a block of whole numbers ``0 .. numbers - 1`` follows;
    when the spec has secret choices, the last action is the no-op ``WAIT``
    that a simultaneous decision offers to a player who does not choose. So a
    game whose only decision offers ``pass`` then ``bet`` has just those two
    actions, 0 and 1. An id outside all of these is an error that names it.
    """

    def __init__(self, game: Game, numbers: int = DEFAULT_NUMBERS):
        self.ids: list[str] = []
        index: dict[str, int] = {}
        for sites in game.decisions.values():
            for site in sites:
                for oid, _label in site.options or ():
                    if oid not in index:
                        index[oid] = len(self.ids)
                        self.ids.append(oid)
        self.index = index
        open_sites = any(site.options is None for sites in game.decisions.values() for site in sites)
        secret = any(site.kind == "secret" for sites in game.decisions.values() for site in sites)
        self.number_base = len(self.ids)
        self.numbers = numbers if open_sites else 0
        self.wait = self.number_base + self.numbers if secret else -1
        self.size = self.number_base + self.numbers + (1 if secret else 0)

    def action(self, oid: str) -> int:
        """The integer of an option id."""
        known = self.index.get(oid)
        if known is not None:
            return known
        if oid == WAIT and self.wait >= 0:
            return self.wait
        number = whole_number(oid)
        if number is not None and 0 <= number < self.numbers:
            return self.number_base + number
        raise RulelangError(f"option '{oid}' has no action number",
                            hint=f"numbers from 0 to {self.numbers - 1} are actions; pass numbers=N for more")

    def option(self, action: int) -> str:
        """The option id of an integer."""
        if 0 <= action < self.number_base:
            return self.ids[action]
        if action == self.wait and action >= 0:
            return WAIT
        if self.number_base <= action < self.number_base + self.numbers:
            return str(action - self.number_base)
        raise RulelangError(f"action {action} is not an action of this game")


class SpecTable:
    """A compiled spec for a fixed player count, answering what adapters ask of a state."""

    def __init__(self, path: str | Path, players: int | None = None, *, mods: Sequence[str | Path] = (),
                 ask_single_options: bool | None = None, numbers: int = DEFAULT_NUMBERS,
                 params: Mapping[str, Any] | None = None):
        self.path = Path(path)
        self.params = dict(params or {})
        self.game = rulelang.load_game(path, mods=mods, params=self.params)
        self.players = self.game.min_players if players is None else int(players)
        if not self.game.min_players <= self.players <= self.game.max_players:
            raise RulelangError(f"{self.game.name} is for {self.game.min_players} to "
                                f"{self.game.max_players} players, not {self.players}")
        self.ask_single = ask_single_options
        self.actions = ActionMap(self.game, numbers)
        self.simultaneous = any(site.kind == "secret" for sites in self.game.decisions.values()
                                for site in sites)
        self._encoder: ViewEncoder | None = None
        #: option ids -> their sorted action integers, and the option index of each (``actions_of``)
        self._legal: dict[tuple[str, ...], tuple[list[int], dict[int, int]]] = {}
        #: (seed, chance outcomes) -> that position of the setup, shared by explicit-chance games (chance_nodes.py)
        self.setup_positions: dict[tuple, Any] = {}
        #: (id of a position, move) -> (that position, the one the move leads to), likewise (chance_nodes.py)
        self.positions_after: dict[tuple, tuple[Any, Any]] = {}

    # -- states -----------------------------------------------------------------------------

    def new_state(self, seed: int) -> State:
        return self.game.new_state(self.players, seed, ask_single_options=self.ask_single)

    def positioned_state(self, seed: int) -> State:
        """A new game stopped after its setup, before turn 1: arrange it, then ``resume()``."""
        return self.game.new_state(self.players, seed, before_first_turn=True,
                                   ask_single_options=self.ask_single)

    def view_encoder(self) -> ViewEncoder:
        """The views of this game as vectors (made once)."""
        if self._encoder is None:
            from .features import ViewEncoder
            self._encoder = ViewEncoder(self.game, self.players, self.new_state(0))
        return self._encoder

    # -- who moves and what they may do ---------------------------------------------------------
    #
    # A framework asks these many times a step, so they read the waiting decision as stored
    # (``State.choosers``, ``State.options_of``) rather than build ``state.decision()``.

    def mover(self, state: State) -> int | None:
        """The one player who must choose now; None when nobody must, or several choose at once (a secret choice)."""
        waiting = state.choosers()
        if len(waiting) != 1 or state.pending["kind"] == "secret":
            return None
        return waiting[0]

    def is_simultaneous_node(self, state: State) -> bool:
        """Several players choose at once (a secret choice), or one secret chooser in a simultaneous game."""
        waiting = state.choosers()
        return bool(waiting) and (len(waiting) > 1 or state.pending["kind"] == "secret")

    def legal_actions(self, state: State, player: int) -> list[int]:
        """The sorted integers of the player's legal options; ``[WAIT]`` at a simultaneous node they sit out."""
        options = state.options_of(player)
        if options is None:
            return [self.actions.wait] if self.is_simultaneous_node(state) else []
        return list(self.actions_of(options)[0])

    def actions_of(self, options: list[list[str]]) -> tuple[list[int], dict[int, int]]:
        """Options as a decision stores them, as actions: their sorted integers, and the option index each
        integer takes (the first option of that id). Remembered per list of option ids: a game offers the same
        few lists again and again. Both are shared: read them, never change them."""
        ids = option_ids(options)
        known = self._legal.get(ids)
        if known is None:
            index = self.actions.index
            found = [index.get(oid) for oid in ids]
            if None in found:               # whole numbers, the no-op, or an id with no number (an error)
                found = [self.actions.action(oid) for oid in ids]
            where: dict[int, int] = {}
            for j, action in enumerate(found):
                where.setdefault(action, j)
            known = (sorted(where), where)
            if len(self._legal) < LEGAL_CACHE:
                self._legal[ids] = known
        return known

    def apply(self, state: State, player: int, action: int) -> None:
        """Take one player's option by its integer."""
        index = self.option_index(state, player, action)
        if index is not None:
            state.apply_index(index, player)

    def option_index(self, state: State, player: int, action: int) -> int | None:
        """The index of the player's option that ``action`` names (for ``State.apply_index``); None for the no-op."""
        oid = self.actions.option(action)
        options = state.options_of(player)
        if options is None:
            if oid == WAIT and state.pending is not None and not state.over:
                return None
            raise RulelangError(f"player {player} has no decision to take action {action} at")
        for j, option in enumerate(options):
            if option[0] == oid:
                return j
        raise RulelangError(f"action {action} ('{oid}') is not legal for player {player} now")

    def apply_joint(self, state: State, actions: Sequence[int]) -> None:
        """Every chooser's action at once (indexed by seat); seats that sit out give ``WAIT``."""
        for player in state.choosers():
            self.apply(state, player, actions[player])

    # -- results and what players know ------------------------------------------------------------

    def returns(self, state: State) -> list[float]:
        """The spec's `returns:` at the end; without them 1 for each winner and 0 for the rest; 0s before."""
        if not state.is_over:
            return [0.0] * self.players
        told = state.returns()
        if told is not None:
            return [float(r) for r in told]
        won = set(state.winners)
        return [1.0 if p in won else 0.0 for p in range(self.players)]

    def utility_bounds(self) -> tuple[float, float]:
        """Bounds every return lies within: those `returns: {min, max}` declares, else the game's number limit;
        0..1 for a spec without returns."""
        if self.game.returns is None:
            return 0.0, 1.0
        if self.game.returns_bounds is not None:
            low, high = self.game.returns_bounds
            return float(low), float(high)
        limit = float(self.game.number_limit)
        return -limit, limit

    def observation_string(self, state: State, player: int) -> str:
        """What ``player`` sees now: their view of the state, as sorted JSON."""
        return json.dumps(state.view(player), sort_keys=True, separators=(",", ":"))

    def information_state_string(self, state: State, player: int) -> str:
        """All that ``player`` has seen so far: their own account of the event log and their view now.

        The seed is left out: it would tell them every hidden card.
        """
        told = [_without_seed(e) for e in events_for(self.game, state.events, player)]
        return json.dumps({"log": told, "view": state.view(player)}, sort_keys=True, separators=(",", ":"))




def option_ids(options: list[list[str]]) -> tuple[str, ...]:
    """The ids of options as a decision stores them (``[id, label]`` each), as a key."""
    return tuple(map(_FIRST, options))


_FIRST = itemgetter(0)


def _without_seed(event: dict) -> dict:
    return {k: v for k, v in event.items() if k != "seed"} if event.get("type") == "started" else event


class Seeds:
    """A stream of seeds for new games, itself seeded, so a run of an adapter is reproducible."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def next(self) -> int:
        return self.rng.getrandbits(63)
