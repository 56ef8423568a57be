"""Settled starts: a new game whose setup draws only a few numbers begins from a kept copy of its setup.

Every new game plays its setup again, up to the first decision. What that plays depends on nothing but
the game, the seat count, two settings (single options asked, history kept) and the numbers the setup
draws: a seed only picks those numbers. A small game's setup draws few (Kuhn poker's shuffle of three
cards: two numbers, six outcomes), so its new games keep meeting the same few settled starts, and search
and simulation start thousands of them a second.

``StartMemo`` keeps, per game and setting, a tree of the setup's draws: a ``Draw`` node knows how many
outcomes the next draw has (the same whatever the seed, since the draws so far decide it), a ``Kept``
leaf the start those draws lead to. A new game walks the tree with its own seed's numbers (the numbers
``State.randbelow`` would give) and, at a leaf, unpacks the kept start with its own seed and generator:
byte for byte the game its setup would have played (``tests/equivalence/test_starts.py`` holds it to that). A walk
that falls off the tree plays the setup as always, with a ``Recorder`` noting the draws, and keeps it.

It stays out of the way of the games it cannot help: a setup that draws more than ``MAX_DRAWS`` numbers
(any real deck's shuffle) turns the memo off for good at its first start, and so does a tree whose
``MAX_STARTS`` leaves are met less often than missed. Starts with an observer, a chance script or a stop
before the first turn are never kept. A kept start is one ``marshal`` blob of plain lists (made here, never
read from outside), which the garbage collector does not walk, and the log's few entries.
"""
from __future__ import annotations

import marshal
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from rulelang.engine.interpreter import Frame
from rulelang.engine.records import EventLog
from rulelang.engine.rng import draw_below, start_state

if TYPE_CHECKING:
    from rulelang.engine.board import Board
    from rulelang.engine.rules import Rules

#: The state a start is unpacked into: a ``state.State`` (typed by its ``Board``, which this module sees).
S = TypeVar("S", bound="Board")

#: A setup that draws more numbers than this is played every time: its starts rarely recur.
MAX_DRAWS = 8
#: How many settled starts one memo keeps (Leduc poker's shuffle of six cards has 720).
MAX_STARTS = 1024

#: What a kept start's blob holds: the lists the rules change in place, made anew for every game.
_LISTS = ("counters", "vars", "zones", "loc", "out", "revealed", "winners", "answer")
#: What a kept start holds as it is: numbers, names and None, the same for every game.
_SCALARS = ("turn", "phase", "active", "next_player", "over", "result", "allowed", "reserve")


class Draw:
    """A draw of the setup: ``bound`` equally likely outcomes, and the node each outcome met so far leads to."""

    __slots__ = ("bound", "after")

    def __init__(self, bound: int):
        self.bound = bound
        self.after: dict[int, Draw | Kept] = {}


class Kept:
    """A settled start: the lists the rules change, as one blob, and the rest as it is.

    The waiting decision's options and values are shared by every game unpacked, as the compiled rules
    share the options they offer: the protocol and the views only read them. Its ``chosen`` is each game's own.
    """

    __slots__ = ("blob", "scalars", "frames", "pending", "log")

    def __init__(self, st: Board):
        self.blob = marshal.dumps([getattr(st, name) for name in _LISTS] + [[f.locals for f in st.stack]])
        self.scalars = tuple(getattr(st, name) for name in _SCALARS)
        self.frames = tuple((f.proc, f.pc) for f in st.stack)
        self.pending = _own_pending(st.pending)
        self.log = tuple(_own_entries(st.log))      # the game kept goes on changing its own

    def unpack(self, st: Board, seed: int, rng: int) -> None:
        """Fill a new state (``State.blank``) with this start, as the game of ``seed`` plays it."""
        (st.counters, st.vars, st.zones, st.loc, st.out, st.revealed, st.winners, st.answer,
         local) = marshal.loads(self.blob)
        (st.turn, st.phase, st.active, st.next_player, st.over, st.result, st.allowed,
         st.reserve) = self.scalars        # the budgets as the setup left them: the game's work goes on from there
        st.stack = [Frame(proc, pc, values) for (proc, pc), values in zip(self.frames, local)]
        st.pending = _own_pending(self.pending)
        started, *rest = self.log
        started = dict(started, seed=seed)
        if "params" in started:
            started["params"] = dict(started["params"])
        if "mods" in started:
            started["mods"] = [dict(mod) for mod in started["mods"]]
        st.log = EventLog((started, *_own_entries(rest)))
        st.rng = rng


def _own_pending(pending: dict | None) -> dict | None:
    """A waiting decision with a ``chosen`` of its own, the one part taking an option changes."""
    return None if pending is None else dict(pending, chosen=list(pending["chosen"]))


def _own_entries(entries) -> list:
    """Log entries for another game: its own copy of each dict event; records (tuples) are never changed."""
    return [dict(e) if type(e) is dict else e for e in entries]


class Recorder:
    """Stands in for a chance script while a setup is played from a seed: draws the seed's own numbers, noting
    each draw's outcomes and result (``rulelang.engine.chance.scripted_draw`` asks it)."""

    __slots__ = ("rng", "draws")

    def __init__(self, rng: int):
        self.rng = rng              # the seed's stream at its start
        self.draws: list[tuple[int, int]] = []

    def draw(self, n: int) -> int:
        self.rng, value = draw_below(self.rng, n)
        self.draws.append((n, value))
        return value


class StartMemo:
    """The settled starts of one game, seat count and settings (see the module's docstring)."""

    __slots__ = ("root", "kept", "hits", "misses", "on")

    def __init__(self) -> None:
        self.root: Draw | Kept | None = None
        self.kept = 0
        self.hits = self.misses = 0
        self.on = True

    def start(self, seed: int, st: S, play: Callable[[S], None]) -> S:
        """The game of ``seed`` in ``st`` (a ``State.blank``): a kept start unpacked, or its setup played (``play``)."""
        node, rng = self.root, start_state(seed)
        while type(node) is Draw:
            rng, value = draw_below(rng, node.bound)
            node = node.after.get(value)
        if node is not None:
            self.hits += 1
            node.unpack(st, seed, rng)
            return st
        self.misses += 1
        st.begin_afresh()
        if self.kept >= MAX_STARTS:
            if self.misses > self.hits:         # full, and most games miss it: not worth the walk
                self.on = False
            play(st)
            return st
        recorder = Recorder(st.rng)         # begin_afresh put the seed's stream at its start
        st.chance = recorder
        try:
            play(st)
        finally:
            st.chance = None
        st.rng = recorder.rng
        if len(recorder.draws) > MAX_DRAWS:
            self.on = False
        else:
            self._keep(recorder.draws, st)
        return st

    def _keep(self, draws: list[tuple[int, int]], st: Board) -> None:
        try:
            kept = Kept(st)
        except ValueError:          # something marshal does not know in the state: played every time
            self.on = False
            return
        if not draws:
            self.root = kept
        else:
            if self.root is None:
                self.root = Draw(draws[0][0])
            node = self.root
            for (bound, value), following in zip(draws, draws[1:] + [None]):
                if type(node) is not Draw or node.bound != bound:
                    self.on = False     # a setup that does not draw as it did before (never expected): stop
                    return
                if following is None:
                    node.after[value] = kept
                else:
                    node = node.after.setdefault(value, Draw(following[0]))
        self.kept += 1


def memo_of(game: Rules, key: tuple) -> StartMemo | None:
    """The game's memo for ``key`` (seat count and settings), made at first use; None once it is off, or
    when the game keeps no starts at all (``Game.starts`` None: tests compare against it)."""
    if game.starts is None:
        return None
    if key not in game.starts:
        game.starts[key] = StartMemo()
    memo = game.starts[key]
    if memo is not None and not memo.on:            # turned itself off: None from now on
        game.starts[key] = memo = None
    return memo
