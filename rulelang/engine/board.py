"""A game in progress as plain data: its fields, its one RNG, and reading or setting them by name.

``Board`` is what the engine's working modules (the run loop, cards, records, views, limits) take: ints,
strings, lists and dicts plus a reference to the compiled ``Rules``. ``state.State`` adds what needs them
all (decisions, copies, saving, set-ups for tests), so the modules below it never import it.
Every random draw of a game comes through ``randbelow``: the seed's SplitMix64 stream, or with explicit
chance (rulelang/engine/chance.py) the outcomes given one by one.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rulelang.engine.rng import MASK64, MIX1, MIX2, STEP, outputs
from rulelang.errors import RulelangError
from rulelang.lang.types import COUNTER, LOCATION

if TYPE_CHECKING:
    from rulelang.engine.rules import Layout, Rules

#: A game's first draws come one at a time; then the RNG works out this many outputs at once (rng.outputs).
SINGLE_DRAWS, BATCH = 16, 128
#: Fewer draws than this at once (``draws_below``) are drawn one by one: a batch costs more to set up.
FEW_DRAWS = 16

FIELDS = ("n", "seed", "rng", "counters", "vars", "zones", "loc", "stack", "pending", "answer",
           "turn", "phase", "active", "next_player", "over", "winners", "result", "events", "out", "revealed")
#: Held in slots of their own: ``events`` is read through the log (``log``, see records.py).
_SLOTS = tuple(name for name in FIELDS if name not in ("events", "rng")) + ("log", "_rng", "_drawn", "_ahead",
                                                                               "_singles")
#: Set by tests and scenarios (fixtures.py), never saved: scripted dice (``dice_script``), a step to stop before
#: (``halt``), and the outcomes of random draws given one by one (``chance``: rulelang/engine/chance.py; None draws
#: from ``rng``).
_FIXTURES = ("dice_script", "halt", "chance")
#: Never saved either: ``autopick``, an agent that answers every decision in place (protocol.ask, agents.play_out),
#: and ``picks_left``, how many more decisions a play-out allows (interpreter.run_within counts those taken in place);
#: ``end_known``, the end conditions known to be false (a bit each) while nothing they read changes (None: none;
#: compiler/derived.py); ``history``, whether the log keeps the game's whole history or only what a replay needs
#: (``Game.new_state``; a copy keeps it, a saved game always has it).


class Board:
    """One game in progress as plain data, with a reference to its compiled rules."""

    __slots__ = _SLOTS + _FIXTURES + ("game", "lay", "fired", "_decision", "observer", "work", "allowed",
                                        "reserve", "ask_single", "autopick", "picks_left", "end_known", "tables",
                                        "history")

    game: Rules
    lay: Layout                   # the zones, roles and tables of this player count
    n: int
    seed: int
    counters: list[list[int]]     # by holder: the game, places, players, card instances
    vars: list[list[Any]]         # by player
    zones: list[list[int]]        # card instances, bottom to top
    loc: list[int]                # each card instance's zone
    stack: list[Any]              # the run loop's frames (interpreter.Frame)
    pending: dict | None          # the decision waiting, as plain data (saved with the game)
    answer: list | None           # the values chosen, for the instruction that asked
    turn: int
    phase: int
    active: int
    next_player: int | None
    over: bool
    winners: list[int]
    result: Any
    out: list[bool]
    revealed: list[list[int]]
    log: Any                      # records.EventLog
    _rng: int
    _drawn: int
    _ahead: list[int]
    _singles: int
    dice_script: list[int]
    halt: Any
    chance: Any
    fired: list
    _decision: Any
    observer: Any
    work: int
    allowed: int
    reserve: int
    ask_single: bool
    autopick: Any
    picks_left: int
    end_known: Any
    tables: Any
    history: bool

    # -- chance ---------------------------------------------------------------

    @property
    def rng(self) -> int:
        """The RNG's state (SplitMix64's whole state is one int): where the next draw starts."""
        return (self._rng + self._drawn * STEP) & MASK64

    @rng.setter
    def rng(self, value: int) -> None:
        self._rng, self._drawn, self._ahead, self._singles = value, 0, [], SINGLE_DRAWS

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
        """The next ``BATCH`` raw outputs, from the exact state (``rng.outputs``); none is ``[]``."""
        self._rng, self._drawn = self.rng, 0
        self._ahead = outputs(self._rng, BATCH)
        return self._ahead

    def roll_die(self, faces: int) -> int:
        if self.dice_script:
            return self.dice_script.pop(0)
        return self.randbelow(faces) + 1

    # -- reading and setting by name ------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.over

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


class ChanceNeeded(Exception):
    """A random draw with no outcome scripted: the transition stops at a chance point.

    Not a RuleError: the rules did nothing wrong, and no rule catches it on its way out.
    """

    def __init__(self, outcomes: int):
        super().__init__(f"a chance point of {outcomes} outcomes")
        self.outcomes = outcomes


def scripted_draw(state: Board, n: int) -> int:
    """``randbelow(n)`` for a state with a chance script: its next outcome, or a chance point."""
    script = state.chance
    if type(script) is not list:    # not a script: a recorder of the seed's own draws (rulelang/engine/starts.py)
        return script.draw(n)
    if not script:
        raise ChanceNeeded(n)
    outcome = script.pop(0)
    if not 0 <= outcome < n:
        raise RulelangError(f"chance outcome {outcome} is not one of the {n} outcomes of this draw")
    return outcome
