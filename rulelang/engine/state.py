"""The state of one game being played: plain data, its copies and its JSON.

A state is ints, strings, lists and dicts (and the run loop's ``Frame``s, saved
as lists) plus a reference to its compiled game, so it copies cheaply and
round-trips through JSON, even while it waits for a decision (saves.py checks a
saved one in full before it becomes a ``State``). It holds the one RNG int
(SplitMix64), reads counters, variables, zones and scores by name, and keeps
the two primitives that change a counter or a variable and record the change.
How decisions are asked and taken is in protocol.py, position set-ups for tests
and scenarios in fixtures.py.
"""
from __future__ import annotations

import json
import marshal
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from rulelang.engine import fixtures, records
from rulelang.engine.cards import card_tables
from rulelang.engine.chance import scripted_draw
from rulelang.engine.interpreter import FAILURES, Frame, located
from rulelang.engine.limits import fresh_budget, too_big
from rulelang.engine.protocol import DecisionProtocol
from rulelang.engine.records import EventLog, expand
from rulelang.engine.rng import MASK64, MIX1, MIX2, STEP, outputs, start_state
from rulelang.engine.views import make_view, player_name
from rulelang.errors import RuleError, RulelangError, Span
from rulelang.lang.types import COUNTER, LOCATION

if TYPE_CHECKING:
    from rulelang.engine.game import Fn, Game, Layout

#: A game's first draws come one at a time; then the RNG works out this many outputs at once (rng.outputs).
SINGLE_DRAWS, BATCH = 16, 128
#: Fewer draws than this at once (``draws_below``) are drawn one by one: a batch costs more to set up.
FEW_DRAWS = 16

_FIELDS = ("n", "seed", "rng", "counters", "vars", "zones", "loc", "stack", "pending", "answer",
           "turn", "phase", "active", "next_player", "over", "winners", "result", "events", "out", "revealed")
#: Held in slots of their own: ``events`` is read through the log (``log``, see records.py).
_SLOTS = tuple(name for name in _FIELDS if name not in ("events", "rng")) + ("log", "_rng", "_drawn", "_ahead",
                                                                               "_singles")
#: Set by tests and scenarios (fixtures.py), never saved: scripted dice (``dice_script``), a step to stop before
#: (``halt``), and the outcomes of random draws given one by one (``chance``: rulelang/engine/chance.py; None draws
#: from ``rng``).
_FIXTURES = ("dice_script", "halt", "chance")
#: Never saved either: ``autopick``, an agent that answers every decision in place (protocol.ask, agents.play_out),
#: and ``autoread``, set beside it when some agent reads the decision's name and option ids (a policy): then it is
#: asked instead, as ``(player, count, name, offered)``;
#: and ``picks_left``, how many more decisions a play-out allows (interpreter.run_within counts those taken in place);
#: ``end_known``, the end conditions known to be false (a bit each) while nothing they read changes (None: none;
#: compiler/derived.py); ``history``, whether the log keeps the game's whole history or only what a replay needs
#: (``Game.new_state``; a copy keeps it, a saved game always has it).


class State(DecisionProtocol):
    """One game in progress: plain data plus a reference to its compiled game."""

    __slots__ = _SLOTS + _FIXTURES + ("game", "lay", "fired", "_decision", "observer", "work", "allowed",
                                        "reserve", "ask_single", "autopick", "autoread", "picks_left", "end_known",
                                        "tables", "history")

    # -- chance ---------------------------------------------------------------

    @property
    def rng(self) -> int:
        """The RNG's state (SplitMix64's whole state is one int): where the next draw starts."""
        return (self._rng + self._drawn * STEP) & MASK64

    @rng.setter
    def rng(self, value: int) -> None:
        self._rng, self._drawn, self._ahead, self._singles = value, 0, (), SINGLE_DRAWS

    def randbelow(self, n: int) -> int:
        """A number below ``n`` from SplitMix64, a tiny, fast RNG; every random draw of a game comes here.

        A game's first draws are worked out one at a time; after them, ``BATCH`` raw outputs at once
        (``_draw_ahead``), ``_drawn`` of them taken since the state ``_rng``. ``rng`` is the exact state
        at every moment, so copies, saves and replays see the one stream they always did."""
        if self.chance is not None:             # explicit chance: the outcome is given (rulelang/engine/chance.py)
            return scripted_draw(self, n)
        ahead = self._ahead
        if not ahead:
            if self._singles:                   # a batch costs a microsecond to set up: few-draw games skip it
                self._singles -= 1
                self._rng = x = (self._rng + STEP) & MASK64
                x = ((x ^ (x >> 30)) * MIX1) & MASK64
                x = ((x ^ (x >> 27)) * MIX2) & MASK64
                return ((x ^ (x >> 31)) * n) >> 64
            ahead = self._draw_ahead()
        self._drawn += 1
        return (ahead.pop() * n) >> 64

    def draws_below(self, bounds: Sequence[int]) -> list[int]:
        """A number below each of ``bounds``, in order: what ``randbelow`` gives for them one by one, worked out
        at once (a shuffle's draws, a call fewer each). With explicit chance each is still a draw of its own,
        and so is each of a few (a batch costs a few microseconds to set up: more than a few single draws)."""
        if self.chance is not None or len(bounds) < FEW_DRAWS:
            return [self.randbelow(n) for n in bounds]
        start = self.rng
        raw = outputs(start, len(bounds))           # the last first
        raw.reverse()
        self.rng = (start + len(bounds) * STEP) & MASK64
        return [(x * n) >> 64 for x, n in zip(raw, bounds)]

    def _draw_ahead(self) -> list[int]:
        """The next ``BATCH`` raw outputs, from the exact state (``rng.outputs``); none is ``()``."""
        self._rng, self._drawn = self.rng, 0
        self._ahead = outputs(self._rng, BATCH)
        return self._ahead

    def roll_die(self, faces: int) -> int:
        if self.dice_script:
            return self.dice_script.pop(0)
        return self.randbelow(faces) + 1

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

    @property
    def is_over(self) -> bool:
        return self.over

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

    def counter(self, holder: str | int | tuple, name: str) -> int:
        """A counter by holder: "game", a location's name, a player index, or ("card", instance)."""
        return self.counters[self._holder(holder)][self.game.counters.index(name)]

    def _holder(self, holder: str | int | tuple) -> int:
        if isinstance(holder, tuple):
            return self.game.player_holder + self.n + holder[1]
        if isinstance(holder, int):
            return self.game.player_holder + holder
        if holder == "game":
            return 0
        return 1 + self.game.locations.index(holder)

    def var(self, player: int, name: str) -> Any:
        return self.vars[player][self.game.var_names.index(name)]

    def zone(self, name: str, owner: int | None = None) -> list[str]:
        """The card ids in a zone, bottom to top."""
        decl = next(z for z in self.game.zones if z.name == name)
        zid = self.game.zone_id(decl, owner, self.n)
        return [self.game.card_type[c].id for c in self.zones[zid]]

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

    def set_counter(self, holder: str | int | tuple, name: str, value: int) -> None:
        """Set a counter by holder (as ``counter`` names it) and name, without an event: setting up a position."""
        self.counters[self._holder(holder)][self.game.counters.index(name)] = value

    def set_var(self, player: int, name: str, value: Any) -> None:
        """Set a player's variable by name (a location or counter may be given by name), without an event."""
        game = self.game
        kind = game.var_types[game.var_names.index(name)]
        if kind == LOCATION and isinstance(value, str):
            value = 1 + game.locations.index(value)
        elif kind == COUNTER and isinstance(value, str):
            value = game.counters.index(value)
        self.vars[player][game.var_names.index(name)] = value

    def zone_id_of(self, label: str) -> int:
        """A zone by its label: "deck" for a table zone, "hand:P2" for a player's."""
        try:
            return self.lay.zone_labels.index(label)
        except ValueError:
            raise RulelangError(f"unknown zone '{label}'",
                                hint="zones: " + ", ".join(self.lay.zone_labels)) from None

    # -- coming to be: a new game, a copy, a saved game -------------------------------

    @classmethod
    def blank(cls, game: Game, lay: Layout, seed: int, observer: Callable | None, ask_single: bool,
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
        fields = {name: getattr(self, name) for name in _FIELDS} | {"game": self.game.name}
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
    def from_json(cls, game: Game, data: Any, source: str | None = None) -> State:
        """A saved game, checked in full first (rulelang/logs/saves.py): a bad one is a SavedStateError.

        ``source`` (a file name) is named in the error.
        """
        from rulelang.logs.saves import load_state

        return load_state(game, data, source)

    @classmethod
    def _restore(cls, game: Game, data: dict) -> State:
        """Rebuild a state from saved fields already checked (see ``from_json``)."""
        st = cls.__new__(cls)
        st.game = game
        for name in _FIELDS:          # only `revealed` may be missing (left out while empty)
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

