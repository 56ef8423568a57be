"""The state of one game being played: its plain data (board.py), its copies and its JSON.

A state is ints, strings, lists and dicts (and the run loop's ``Frame``s, saved
as lists) plus a reference to its compiled game, so it copies cheaply and
round-trips through JSON, even while it waits for a decision (saves.py checks a
saved one in full before it becomes a ``State``). ``Board`` holds the fields, the
one RNG int (SplitMix64) and reading them by name; this class adds what needs the
rest of the engine: the event log read as dicts, scores, views, copies, saving, and
the two primitives that change a counter or a variable and record the change.
How decisions are asked and taken is in protocol.py, position set-ups for tests
and scenarios in fixtures.py.
"""
from __future__ import annotations

import json
import marshal
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rulelang.engine import fixtures, records
from rulelang.engine.board import FIELDS
from rulelang.engine.cards import card_tables
from rulelang.engine.interpreter import FAILURES, Frame, located
from rulelang.engine.limits import fresh_budget, too_big
from rulelang.engine.names import player_name
from rulelang.engine.protocol import DecisionProtocol
from rulelang.engine.records import EventLog, expand
from rulelang.engine.rng import start_state
from rulelang.engine.views import make_view
from rulelang.errors import RuleError, RulelangError, Span

if TYPE_CHECKING:
    from rulelang.engine.rules import Fn, Layout, Rules


class State(DecisionProtocol):
    """One game in progress: the plain data of ``Board``, and what needs the whole engine."""

    __slots__ = ()

    # -- the event log --------------------------------------------------------

    @property
    def events(self) -> list[dict]:
        """The event log, every record appended since the last read expanded into its dict (records.py).

        The list itself is the log: the run loop goes on appending to it.
        """
        return expand(self, self.log)

    @events.setter
    def events(self, value: list) -> None:
        """A new log: the entries given (a copy, kept as an ``EventLog``)."""
        self.log = EventLog(value)

    # -- reading --------------------------------------------------------------

    def scores(self) -> list[int] | None:
        """Every player's score, in seat order, if the game declares `score`.

        Read between runs too (views, summaries): it has a work budget of its own,
        and a failure is told like any rule's.
        """
        return self._per_player(self.game.score, self.game.score_span, "score")

    def returns(self) -> list[int] | None:
        """Every player's return (payoff), in seat order, if the game declares `returns`: told when it ends.

        A finished game's are those its `ended` event holds (computed once, as the game ended).
        """
        if self.over and self.log:
            last = self.log[-1]
            if isinstance(last, dict) and last.get("type") == "ended" and "returns" in last:
                return list(last["returns"])
        told = self._per_player(self.game.returns, self.game.returns_span, "returns", {"winners": list(self.winners)})
        if told is not None and self.game.returns_bounds is not None:
            self._within_returns_bounds(told)
        return told

    def _within_returns_bounds(self, told: list[int]) -> None:
        """A game that declares its returns' bounds keeps them: adapters tell learners every return lies there."""
        low, high = self.game.returns_bounds
        for seat, value in enumerate(told):
            if not low <= value <= high:
                raise RuleError(f"P{seat + 1}'s return is {value}, outside the bounds 'returns' declares "
                                f"({low} to {high})", self.game.returns_span,
                                "widen min and max, or change the value so that it stays within them")

    def _per_player(self, value: Fn | None, span: Span | None, what: str, extra: dict | None = None) -> list[int] | None:
        """A per-player expression for every seat (`p`, and ``extra`` names), with a work budget of its own."""
        if value is None:
            return None
        saved = self.work, self.reserve
        self.work = self.game.step_budget
        self.reserve = self.game.game_budget    # not the game's: over_budget names the step budget
        local = dict(extra or {})         # one set of locals, `p` bound to each seat in turn
        try:
            out = []
            for p in range(self.n):
                local["p"] = p
                out.append(value(self, local))
            return out
        except FAILURES as error:
            raise located(error, span) from None
        except MemoryError:
            raise RuleError(f"the {what} ran out of memory", span) from None
        finally:
            self.work, self.reserve = saved

    def winner_names(self) -> list[str]:
        return [player_name(p) for p in self.winners]

    def winning_team(self) -> str | None:
        """The team whose players are exactly the winners, if there is one."""
        teams = self.lay.team_players
        if not teams:                   # most games have none: asked at every end
            return None
        won = set(self.winners)
        for team, players in teams.items():
            if won and set(players) == won:
                return team
        return None

    def view(self, player: int | None) -> dict:
        """What ``player`` may see (None: a spectator who sees only public things)."""
        return make_view(self, player)

    # -- setting up a position (scenarios, tests, tools; see fixtures.py) ---------------

    def go_to_step(self, step: str, turn: int | None = None, active: int | None = None) -> None:
        """Abandon whatever the game was doing and continue from the start of a step."""
        fixtures.go_to_step(self, step, turn, active)

    def resume(self) -> None:
        """Go on after a halt (see ``halt_before``)."""
        fixtures.resume(self)

    def halt_before(self, step: str, turn: int) -> None:
        """Stop (with no decision waiting) when ``step`` of ``turn`` is about to start."""
        fixtures.halt_before(self, step, turn)

    def arrange(self, contents: dict[str, list[str]], others: str | None = None) -> None:
        """Put exactly these cards (by id, bottom to top) in these zones, without events (``fixtures.arrange``)."""
        fixtures.arrange(self, contents, others)

    # -- coming to be: a new game, a copy, a saved game -------------------------------

    @classmethod
    def blank(cls, game: Rules, lay: Layout, seed: int, observer: Callable | None, ask_single: bool,
              history: bool) -> State:
        """A state of this game and seed with everything but its play: filled by ``begin_afresh``, or with a
        settled start kept by rulelang/engine/starts.py."""
        st = cls.__new__(cls)
        st.game = game
        st.history = history
        st.lay = lay
        st.n = lay.n
        st.tables = card_tables(game, lay.n)
        st.seed = seed
        st.dice_script = []
        st.halt = None
        st.chance = None
        st.observer = observer
        st.ask_single = ask_single
        st.fired = []
        fresh_budget(st)
        st._decision = None
        st.autopick = None
        st.autoread = None
        st.picks_left = 0
        st.end_known = None
        return st

    def begin_afresh(self) -> None:
        """Every card in its starting zone, the seed's stream at its start, the turn loop about to run."""
        self.rng = start_state(self.seed)
        self.counters, self.vars, self.zones, self.loc, self.out = self.lay.fresh_lists()   # made once per player count
        self.stack = [Frame(self.game.main, 0, {})]
        self.revealed = []            # [card, seat] pairs: cards shown to a player, until they move
        self.pending = None
        self.answer = None
        self.turn = 0
        self.phase = 0
        self.active = 0
        self.next_player = None
        self.over = False
        self.winners = []
        self.result = None
        self.events = []

    def copy(self) -> State:
        new = State.__new__(State)
        new.game, new.lay, new.n, new.seed, new.rng = self.game, self.lay, self.n, self.seed, self.rng
        new.ask_single, new.history = self.ask_single, self.history
        new.tables = self.tables
        new.counters = list(map(list.copy, self.counters))      # row by row, without a Python loop
        new.vars = list(map(list.copy, self.vars))
        new.zones = list(map(list.copy, self.zones))
        new.loc = list(self.loc)
        new.revealed = [list(pair) for pair in self.revealed]
        new.pending, new.answer, frames = _copy_nested([self.pending, self.answer, [f.locals for f in self.stack]])
        new.stack = [Frame(f.proc, f.pc, local) for f, local in zip(self.stack, frames)]
        new.turn, new.active, new.over = self.turn, self.active, self.over
        new.next_player = self.next_player
        new.out = list(self.out)
        new.phase = self.phase
        new.winners, new.result = list(self.winners), self.result
        new.log = EventLog(self.log)
        new.log.shown = self.log.shown
        new.dice_script = list(self.dice_script)
        new.halt = self.halt
        new.chance = None if self.chance is None else list(self.chance)
        new.fired = []
        new.work, new.allowed, new.reserve = self.allowed, self.allowed, self.reserve     # the game's budgets go on
        new._decision = None
        new.autopick = None
        new.autoread = None
        new.picks_left = 0
        new.observer = None
        new.end_known = None          # a copy may be changed by hand (determinize): its end check is asked again
        return new

    def _fields(self) -> dict:
        """The saved fields, live (not copied): for dumps, which only reads them.

        ``revealed`` is left out while empty, so states of games without reveals save as before. A game
        without its history cannot be saved: a saved game is checked by replaying its whole log (saves.py).
        """
        if not self.history:
            raise RulelangError("this game keeps only what a replay needs (history=False), so it cannot be saved",
                                hint="start it with history (the default) to save it")
        fields = {name: getattr(self, name) for name in FIELDS} | {"game": self.game.name}
        fields["stack"] = [frame.saved() for frame in self.stack]
        if not self.revealed:
            del fields["revealed"]
        return fields

    def to_json(self) -> dict:
        """A snapshot of the game (fixtures such as scripted dice are not part of it)."""
        return _copy_plain(self._fields())

    def dumps(self) -> str:
        return json.dumps(self._fields(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, game: Rules, data: Any, source: str | None = None) -> State:
        """A saved game, checked in full first (rulelang/logs/saves.py): a bad one is a SavedStateError.

        ``source`` (a file name) is named in the error. The check replays and compares, so it needs the
        whole engine and the logs: it is the loader ``logs/saves.py`` hands over when it is imported
        (``check_saved_games_with``), which ``import rulelang`` does; the engine never imports the logs.
        """
        if _saved_loader is None:
            raise RulelangError("saved games cannot be read before rulelang.logs.saves is imported",
                                hint="import rulelang (it imports the loader of saved games)")
        return _saved_loader(game, data, source)

    @classmethod
    def _restore(cls, game: Rules, data: dict) -> State:
        """Rebuild a state from saved fields already checked (see ``from_json``)."""
        st = cls.__new__(cls)
        st.game = game
        for name in FIELDS:          # only `revealed` may be missing (left out while empty)
            setattr(st, name, _copy_plain(data[name]) if name in data else [])
        st.stack = [Frame(proc, pc, local) for proc, pc, local in st.stack]
        st.lay = game.layout(st.n)
        st.tables = card_tables(game, st.n)
        st.ask_single = game.ask_single_options
        st.history = True
        st.dice_script = []
        st.halt = None
        st.chance = None
        st.fired = []
        fresh_budget(st)                  # a saved game does not hold the work it did: it has its whole budget
        st._decision = None
        st.autopick = None
        st.autoread = None
        st.picks_left = 0
        st.observer = None
        st.end_known = None
        return st



#: The loader of saved games (``logs.saves.load_state``), handed over by that module when it is imported.
_saved_loader: Callable[[Rules, Any, str | None], State] | None = None


def check_saved_games_with(loader: Callable[[Rules, Any, str | None], State]) -> None:
    """Make ``loader`` the one ``State.from_json`` uses: checks a saved game in full, then rebuilds it."""
    global _saved_loader
    _saved_loader = loader


def _copy_nested(values: list) -> list:
    """Fresh copies of small nested plain data (a decision's options, frame locals), in one C call.

    ``marshal`` here only copies values made in this process (never reads outside data); format 2 keeps no
    references, so, as with ``_copy_plain``, nothing in the copy is shared with the original or within itself.
    """
    try:
        return marshal.loads(marshal.dumps(values, 2))
    except ValueError:          # something marshal does not know: copied list by list instead
        return _copy_plain(values)


def _copy_plain(value: Any) -> Any:
    if isinstance(value, list):
        return [_copy_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _copy_plain(v) for k, v in value.items()}
    return value


# --- changes the event log records ----------------------------------------------------

def set_counter(st: State, h: int, c: int, v: int) -> None:
    """Set a counter of holder ``h`` (never below 0, never past the number limit), recording the change."""
    if v < 0:
        v = 0
    elif v > st.game.number_limit:
        raise too_big(v, st.game.number_limit)
    row = st.counters[h]
    if row[c] != v:
        row[c] = v
        if st.history:
            st.log.append((_COUNTER_SET, st.turn, h, c, v))


_COUNTER_SET = records.set_counter


def set_player_var(st: State, p: int, vi: int, v: Any) -> None:
    """Set a player variable, recording the change."""
    row = st.vars[p]
    if row[vi] != v:
        row[vi] = v
        if st.history:
            st.log.append((records.set_var, st.turn, p, vi, v))

