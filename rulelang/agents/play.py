"""The table: seats for a game's agents, and asking them in turn.

Every loop that plays a game with agents (``play_out`` here, the batches of
`rulelang simulate`) goes through ``Table.decide``: it hands each agent its
seat, never the state, and applies what the agent chose.
"""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from rulelang.engine.fixtures import halted_before_step
from rulelang.engine.interpreter import run
from rulelang.engine.limits import DecisionLimit
from rulelang.engine.names import player_name
from rulelang.engine.state import State
from rulelang.engine.turns import resume_before_step
from rulelang.printable import counted

from ..errors import RuleError, RulelangError
from .seat import Seat

if TYPE_CHECKING:
    from rulelang.engine.game import Game


class Agent(Protocol):
    """What an agent does: choose one option of the decision waiting for its seat.

    ``choose(seat)`` returns an option id (``seat.options[k].id``) or an index
    into ``seat.options``. An agent may also offer
    ``choose_index(seat, player, count) -> int``: then the loop calls that
    instead and does not build the options (random play stays fast). An agent
    that needs nothing but the number of options may offer
    ``pick_index(player, count) -> int``: when every seat's agent does, the
    rules ask it in place, in the middle of a rule, and no decision is ever
    left pending (random play is fastest); it must not read the game. An agent
    that needs the decision's name and its option ids, and nothing else (a fixed
    policy: rulelang/agents/policy.py), may offer ``reader(game)``, a function
    ``(player, count, name, offered) -> int`` (ids ``offered[j][0]``): it too is
    asked in place, when every seat's agent picks by count or reads so.
    """

    def choose(self, seat: Seat) -> str | int: ...


class AgentError(RulelangError):
    """An agent failed or answered something that is not an option."""


def all_blind(agents: list[Any]) -> bool:
    """Whether every agent chooses by the number of options alone (``pick_index``) or by the decision's name and
    options (``reader``): none of them reads the game's history, so a game played by them need not keep it
    (``Game.new_state``)."""
    return all(_blind_pick(agent) is not None or _reads(agent) for agent in agents)


def _reads(agent: Any) -> bool:
    """Whether the agent offers ``reader(game)`` and chooses no other way below the class that defines it."""
    return getattr(agent, "reader", None) is not None and _chooses_through(type(agent), "reader")


def _blind_pick(agent: Any) -> Callable[[int, int], int] | None:
    """The agent's ``pick_index``, unless a subclass overrides how it chooses below where pick_index is defined.

    A subclass of RandomAgent that changes ``choose_index`` (to log, or to peek) must be asked through it.
    """
    pick = getattr(agent, "pick_index", None)
    return pick if pick is not None and _picks_blind(type(agent)) else None


def _picks_blind(cls: type) -> bool:
    """No way of choosing (``choose``, ``choose_index``) is defined below the class that defines pick_index."""
    return _chooses_through(cls, "pick_index")


@functools.cache
def _chooses_through(cls: type, method: str) -> bool:
    """No other way of choosing (``choose``, ``choose_index``) is defined below the class that defines ``method``:
    a subclass that changes how it chooses (to log, or to peek) must be asked through that."""
    home = _defined_in(cls, method)
    if home is None:                    # set on the instance itself: nothing below it can override it
        return True
    for way in ("choose", "choose_index"):
        where = _defined_in(cls, way)
        if where is not None and where is not home and issubclass(where, home):
            return False
    return True


def _defined_in(cls: type, name: str) -> type | None:
    return next((klass for klass in cls.__mro__ if name in vars(klass)), None)


class Table:
    """A game in progress with one agent per seat."""

    __slots__ = ("state", "_seats", "agents", "fast", "blind", "reads")

    def __init__(self, state: State, agents: list[Any] | Any):
        self.state = state
        self._seats: list[Seat] | None = None
        if isinstance(agents, list):
            if len(agents) != state.n:
                raise ValueError(f"{counted(len(agents), 'agent')} for {counted(state.n, 'player')}")
            self.agents = agents
            self.fast = [getattr(agent, "choose_index", None) for agent in agents]
            self.blind = [_blind_pick(agent) for agent in agents]
        else:                           # one agent at every seat: looked at once (a table per game of a batch)
            self.agents = [agents] * state.n
            self.fast = [getattr(agents, "choose_index", None)] * state.n
            self.blind = [_blind_pick(agents)] * state.n
        self.reads = [_reads(agent) for agent in self.agents]

    @property
    def seats(self) -> list[Seat]:
        """One seat per player, made when an agent is first asked through one: agents that pick by count
        alone (``picker``) never are, and a random game then makes none."""
        if self._seats is None:
            self._seats = [Seat(self.state, p) for p in range(self.state.n)]
        return self._seats

    def picker(self) -> Callable[[int, int], int] | None:
        """(player, count) -> index for the whole table, if every agent can pick knowing only the count."""
        blind = self.blind
        if None in blind:
            return None
        if all(pick == blind[0] for pick in blind):
            return blind[0]                # one agent for the whole table
        return lambda player, count: blind[player](player, count)

    def reader(self) -> Callable[[int, int, str, list], int] | None:
        """(player, count, name, offered) -> index for the whole table, if every agent picks by count alone or reads
        only the decision's name and options, and one at least reads (else ``picker`` serves, or nothing)."""
        if not any(self.reads):
            return None
        game, ways = self.state.game, []
        for agent, blind, reads in zip(self.agents, self.blind, self.reads):
            if blind is not None:
                ways.append(_by_count(blind))
            elif reads:
                ways.append(agent.reader(game))
            else:
                return None
        return _guarded(self.agents, ways)

    def decide(self, state: State, player: int, count: int) -> None:
        """Ask ``player``'s agent, who has ``count`` options, and apply its choice to ``state``."""
        fast = self.fast[player]
        if fast is not None:
            state.apply_index(fast(self.seats[player], player, count), player)
            return
        agent = self.agents[player]
        try:
            choice = agent.choose(self.seats[player])
        except RulelangError:
            raise
        except Exception as error:  # noqa: BLE001 - the agent's own code failed: say whose, without a traceback
            raise agent_failed(agent, player, error) from None
        apply_choice(state, player, choice, agent)


def _guarded(agents: list, ways: list[Callable[[int, int, str, list], int]]) -> Callable[[int, int, str, list], int]:
    """The table's reader: each player's own way to read, whose failures are told as that player's agent's
    (``AgentError``), not as a rule that failed where it was asked (it runs in the middle of a rule).

    One function does both the choice of the player's way and the guard: a decision asked in place goes
    through it some thirty times a game, and each call layer less is felt in a batch."""
    def guarded(player: int, count: int, name: str, offered: list) -> int:
        try:
            return ways[player](player, count, name, offered)
        except RulelangError:
            raise
        except Exception as error:  # noqa: BLE001 - the agent's own code failed: say whose, without a traceback
            raise agent_failed(agents[player], player, error) from None
    return guarded


def agent_failed(agent: Any, player: int, error: Exception) -> AgentError:
    """An agent's own code failed: whose agent, and what, told as the agent's error and not as the rules'."""
    return AgentError(f"the agent of P{player + 1} ({type(agent).__name__}) failed: {type(error).__name__}: {error}",
                      hint="the error is in the agent's code, not in the rules")


def _by_count(pick: Callable[[int, int], int]) -> Callable[[int, int, str, list], int]:
    """A picker by count alone, asked as a reader is."""
    return lambda player, count, name, offered: pick(player, count)


def _tallied(read: Callable[[int, int, str, list], int], tally: Callable[[str, int], None]
             ) -> Callable[[int, int, str, list], int]:
    """A reader that first tells ``tally`` the decision's name and its number of options."""
    def told(player: int, count: int, name: str, offered: list) -> int:
        tally(name, count)
        return read(player, count, name, offered)
    return told


def _unnamed(player: int, count: int) -> int:
    """``State.autopick`` while a reader answers (``autoread``): every decision asked in place goes to the reader,
    with its name; a way of asking that forgot the name would come here."""
    raise RulelangError("a decision was asked in place without its name (rulelang's own error)")


def apply_choice(state: State, player: int, choice: Any, agent: Any = None) -> None:
    """Take an agent's answer: an option id, or an index into the player's options."""
    if isinstance(choice, bool) or not isinstance(choice, (int, str)):
        who = f" ({type(agent).__name__})" if agent is not None else ""
        raise AgentError(f"the agent of P{player + 1}{who} chose {choice!r}, not an option id or index",
                         hint="choose(seat) returns seat.options[k].id or k")
    if isinstance(choice, int):
        state.apply_index(choice, player)
    else:
        state.apply(choice, player)


def play_out(state: State, agents: list[Any] | Any, max_decisions: int = 1_000_000,
             tally: Callable[[str, int], None] | None = None, in_place: bool = True) -> State:
    """Play a game to its end: the first player still to choose asks its agent, and so on.

    The one play loop of agents, simulations and `validate`'s smoke games. A
    decision nobody can take is a RuleError, and so (``DecisionLimit``) is a game
    still going after ``max_decisions``. When every agent picks by count alone
    (``pick_index``), the decision waiting now is taken here and every later one
    where the rules ask it, in the order this loop would ask them: the same game.
    ``tally(name, count)``, if given, is told the name and the number of options of every decision asked (the
    branching factor of `simulate --quality`); the game is the same, a little slower.
    ``in_place=False`` turns that speed-up off (engine/speedups.py): every decision
    is stored and its agent asked here, and no step is played in place.
    """
    table = Table(state, agents)
    pick = table.picker() if in_place else None                   # agents that pick by count alone are asked in
    read = table.reader() if in_place and pick is None else None  # place (protocol.ask); agents that read, by name
    if tally is not None and (pick is not None or read is not None):
        read, pick = _tallied(read if read is not None else _by_count(pick), tally), None
    state.autopick, state.autoread = (_unnamed if read is not None else pick), read
    state.picks_left = max_decisions           # steps played in place count their decisions here too
    try:
        if halted_before_step(state):
            resume_before_step(state)          # stopped before a step (``play_new``): it goes on from there
        while state.picks_left > 0:
            state.picks_left -= 1
            if state.answer is not None and not state.over:    # picked in place: the asking instruction takes it
                run(state)
                continue
            waiting = state.waiting()
            if waiting is None:
                return state
            player, count = waiting
            if not count:
                raise RuleError(f"{player_name(player)} must choose but has no legal option")
            if pick is not None:
                state.apply_index(pick(player, count))
            elif read is not None:
                state.apply_index(read_waiting(state, read, player, count))
            else:
                if tally is not None:
                    site = state.site()
                    tally(site.name if site is not None else "", count)
                table.decide(state, player, count)
    except DecisionLimit as error:              # counted inside a step played in place
        raise _decision_limit(max_decisions, error.state) from None
    finally:
        state.autopick = state.autoread = None
    raise _decision_limit(max_decisions, state)


def read_waiting(state: State, read: Callable[[int, int, str, list], int], player: int, count: int) -> int:
    """A reader's pick for the decision left waiting (one asked before the play-out began): its name from where
    the rules stand, its options as stored."""
    site = state.site()
    return read(player, count, site.name if site is not None else "", state.options_of(player) or [])


def play_new(game: Game, players: int, seed: int, agents: list[Any] | Any,
             max_decisions: int = 1_000_000, history: bool = True) -> State:
    """A new game played to its end: the game ``play_out(game.new_state(players, seed), agents)`` plays.

    The game stops before turn 1's first step instead of at its first decision, so that agents that
    pick by count alone are asked in place from the first decision on, and turn 1 is played in place
    too (compiler/direct.py); the simulations use it. ``history=False``: the log keeps only what a replay
    needs (``Game.new_state``).
    """
    return play_out(game.new_state(players, seed, before_first_turn=True, history=history), agents, max_decisions)


def _decision_limit(count: int, state: State | None) -> DecisionLimit:
    error = DecisionLimit(f"the game did not end after {count:,} decisions")
    error.state = state
    return error
