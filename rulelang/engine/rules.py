"""The compiled rules: every declaration of a checked spec, and the procedures its rules became.

``Rules`` is built once by the compiler (as a ``game.Game``, which adds the one thing that needs the whole
engine: starting a game) and never changed by play (the one thing it fills in later is its cache of
per-player-count ``Layout``s, which depend on nothing but the spec). The declaration classes here (zones,
card types, procedures, phases, end conditions) are what the run loop, the card primitives and the tools
read; the engine's modules below ``state.py`` take a game as ``Rules``, so they never import the top.
"""
from __future__ import annotations

import marshal
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rulelang.engine.names import player_name
from rulelang.errors import RulelangError, Span
from rulelang.lang.types import CARD, COUNTER, INT64, LOCATION, PLAYER, Type, tuple_items
from rulelang.model.decisions import DecisionSite
from rulelang.model.spec import CALL_DEPTH, EVENT_LIMIT, GAME_BUDGET, STEP_BUDGET, FirstSeat, TurnOrder

#: An instruction, ``op(state, frame)``, and a compiled expression, ``f(state, locals)``: the state is a
#: ``board.Board`` and the frame an ``interpreter.Frame``, both of which hold these rules, so the rules name
#: them as ``Any`` rather than import them back.
Op = Callable[[Any, Any], Any]
Fn = Callable[[Any, dict], Any]


@dataclass
class ZoneDecl:
    """A declared zone: one pile on the table, or one per player."""

    name: str
    index: int                    # position among table zones, or among player zones
    owner: str                    # "table" or "player"
    visibility: str
    label: str
    refill_from: int | None = None    # index of the ZoneDecl in Game.zones
    discard: int | None = None
    unique: bool = False
    unique_with: list[int] = field(default_factory=list)
    #: (condition, procedure, which card instances can pass the condition (None: any may), whether
    #: exactly those do): see compiler/forms.py
    on_enter: list[tuple[Fn | None, int, list[bool] | None, bool]] = field(default_factory=list)
    on_leave: list[tuple[Fn | None, int, list[bool] | None, bool]] = field(default_factory=list)
    watched: bool = False         # holds cards with discard_when
    #: the end conditions (bit k: the k-th) whose kept answer a card entering or leaving this zone sets
    #: aside, because they read it (compiler/derived.py); 0: none reads it
    ends_read: int = 0


@dataclass
class CardType:
    """One kind of card; a game holds ``count`` instances of it, numbered from 0."""

    id: str
    name: str
    index: int
    slot: str
    zone: int                     # ZoneDecl index where copies start
    discard: int | None
    props: dict[str, int]
    tags: tuple[str, ...]
    text: str = ""
    play_target: Fn | None = None     # condition on target; None: only `me`
    #: ``(state, me, this, seats)`` -> the seats, in order, that the condition lets its player target (legal_plays)
    play_targets: Callable | None = None
    #: the condition is `target != me`, or begins `target != me and`: the player is never a target,
    #: and in the first form every other seat is, so legal_plays asks the condition for no seat
    target_not_me: bool = False
    target_others: bool = False
    play_proc: int | None = None      # places the card and runs its effect
    answer_when: Fn | None = None
    answer_proc: int | None = None
    #: its `answer: when` reads `me` or `this` (the reactor, the answering card): only a reactor's hand can tell
    answer_personal: bool = False
    #: which answered cards can pass `answer: when` (None: any may), and whether exactly those do
    #: (the condition tests only the kind of `card`: compiler/forms.py)
    answer_gate: list[bool] | None = None
    answer_exact: bool = False
    discard_when: Fn | None = None
    span: Span | None = None
    token: bool = False               # waits in its start zone (a supply) until created; discarded back there
    zone_span: Span | None = None     # its `zone:` line: where a missing discard pile is reported


@dataclass
class Proc:
    """A compiled procedure: instructions, and the spec span of each for error messages."""

    name: str
    code: list[Op]
    spans: list[Span | None]
    sites: dict[int, DecisionSite] = field(default_factory=dict)    # pc -> the decision its instruction asks


@dataclass
class Phase:
    """A part of the game with a turn structure of its own (a game without `phases` has one)."""

    name: str
    order: TurnOrder              # by seat (one player's turn after another) or in rounds (the whole table)
    first: FirstSeat              # who starts: the first seat, a random one or the next (after the last turn's)
    limit: int                    # turns (counted over the whole game) after which it stops with an error
    until: Fn | None = None       # checked after each of its turns: when it holds, the next phase begins
    begin_pc: int = 0             # where its turns start and end in the turn loop
    end_pc: int = 0
    first_step_pc: int = -1       # where the first step of a turn starts (none: -1)
    in_place: Fn | None = None    # the whole turn played in place (compiler/direct.py), if it can be
    after_turn: Op | None = None  # the instruction at end_pc (next_turn), when no hook runs before it
    span: Span | None = None
    by_seat: bool = field(init=False)   # order is TurnOrder.SEAT: asked on every turn, so kept as a bool

    def __post_init__(self) -> None:
        self.by_seat = self.order is TurnOrder.SEAT


@dataclass
class EndCondition:
    """One entry of the ordered `end` list."""

    name: str
    when: Fn
    winner: Fn
    span: Span | None


@dataclass
class Layout:
    """What depends on the player count: zone ids, seats, roles."""

    n: int
    zones: list[tuple[ZoneDecl, int | None]]      # zid -> (decl, owner)
    zone_labels: list[str]
    roles: list[str]                                # seat -> role
    role_players: dict[str, list[int]]
    team_players: dict[str, list[int]]
    tables: dict[str, dict[str, int]]
    #: a new game's counters, variables, zones, card places and eliminated flags, which no seed changes, packed
    #: once (``marshal``: made here, never read from outside) so that each game unpacks fresh lists in one call
    blank: bytes = b""
    #: zid -> the zones a card arriving there evicts a card of its slot from: the zone itself, then those
    #: sharing slots with it (``unique_with``, of the same owner); () for a zone without slots
    slot_zones: list[tuple[int, ...]] = field(default_factory=list)

    def fresh_lists(self) -> tuple[list[list[int]], list[list], list[list[int]], list[int], list[bool]]:
        """New lists of a game that has not begun: (counters, vars, zones, loc, out), shared with nothing."""
        return marshal.loads(self.blank)


class Rules:
    """A compiled, immutable spec: everything of a ``Game`` but starting one (``game.Game.new_state``)."""

    def __init__(self) -> None:
        self.name = ""
        self.path = ""
        self.min_players = 2
        self.max_players = 2
        self.locations: list[str] = []
        #: holder id of player 0: holders are the game (0), the locations, then the players, then the cards
        self.player_holder = 1
        self.location_labels: dict[str, str] = {}
        self.counters: list[str] = []
        self.counter_labels: dict[str, str] = {}
        self.var_names: list[str] = []
        self.var_initial: list[Any] = []
        self.var_types: list[Type] = []
        #: variable name -> the words narration shows for it (only variables declared with a `label:`)
        self.var_labels: dict[str, str] = {}
        self.var_visibility: list[str] = []        # public, owner or hidden: who sees the value
        self.zones: list[ZoneDecl] = []
        self.table_zones: list[ZoneDecl] = []
        self.player_zones: list[ZoneDecl] = []
        self.cards: list[CardType] = []            # card types
        self.card_type: list[CardType] = []        # instance -> type
        self.slot_of: list[str] = []               # instance -> slot
        self.procs: list[Proc] = []
        self.code: list[list[Op]] = []
        self.main = 0
        self.end: list[EndCondition] = []
        self.phases: list[Phase] = []
        self.named_phases = False                 # declared with `phases:` (rather than `turn:`)
        self.step_budget = STEP_BUDGET            # units of work between two decisions (see limits)
        self.game_budget = GAME_BUDGET            # units of work of the whole game
        self.event_limit = EVENT_LIMIT            # events the log of one game keeps
        self.call_depth = CALL_DEPTH              # frames on the stack
        self.number_limit = INT64                 # every number lies in [-number_limit, number_limit]
        self.score_span: Span | None = None
        self.returns: Fn | None = None            # a player's return (payoff) at the end, if the game declares one
        self.returns_span: Span | None = None
        self.returns_bounds: tuple[int, int] | None = None   # declared by `returns: {value, min, max}`
        self.roles: list[dict] = []
        self.role_labels: dict[str, str] = {}     # role -> its name shown to players (roles declared with a `label:`)
        self.teams: dict[str, list[str]] = {}
        self.tables: dict[str, dict] = {}
        self.dice: dict[str, dict[int, str]] = {}
        self.dice_visibility: dict[str, str] = {}  # die -> who sees the faces of its rolls (public, owner, hidden)
        self.reaction_types: list[CardType] = []
        self.step_pcs: dict[str, int] = {}        # step name -> its place in the turn loop
        self.step_phase: dict[str, int] = {}      # step name -> its phase
        self.card_counters = False                # do rules put counters on cards?
        self.score: Fn | None = None              # a player's score, if the game keeps one
        self.params: dict[str, int | bool] = {}   # this instance's param values (`params:`), folded into the rules
        #: the SHA-256 of the game's files and the mods laid over it (``Document.origin``); empty without mods
        self.origin: dict = {}
        #: the mod files or folders as the user named them, for the commands a message suggests
        self.mod_paths: list[str] = []
        #: what the spec declares but never uses (``check/unused.py``), in file order: `validate` prints them
        self.warnings: list[RulelangError] = []
        self.ask_single_options = False           # ask a decision that has a single option (else it is taken)
        self.forced_choices_hidden = True         # log a forced choice the others may not see (`forced_choices`)
        #: decision kind -> option id -> whether the others are kept from it (``views.hidden_option``), as met
        self.hidden_options: dict[object, dict[str, bool]] = {}
        self.heuristic: Fn | None = None          # how well a player stands, for agents that search
        self.program: Any = None                  # the generated Python (rulelang/compiler/program.py), if any
        #: ``f(state, locals, known)``: the index of the first end condition that holds, or -1, skipping those
        #: ``known`` (a bit each) says are false (generated; None: ask each)
        self.end_first: Any = None
        #: whether end_first's answers are kept, each condition's until a zone it reads changes (compiler/derived.py)
        self.end_kept = False
        #: a bit for each end condition: ``State.end_known`` when every one is known to be false
        self.end_all = 0
        #: whether end_first may read its locals (`me`): if not, none are made for it (compiler/derived.py)
        self.end_reads_locals = True
        #: each procedure's direct function, played while decisions are answered in place (compiler/direct.py)
        self.direct: list[Any] = []
        #: a finished frame of each procedure, put on the stack while its direct function runs (call depth)
        self.markers: list[Any] = []
        #: what the play protocol reads of every card (cards.CardTables), made when the game is first played
        self.card_tables: Any = None
        #: every decision the rules can ask, by name (rulelang/model/decisions.py); one name may have several sites
        self.decisions: dict[str, list[DecisionSite]] = {}
        #: die -> (which card instances last until their owner's next roll of it, the zones they stay in)
        self.discard_after_roll: dict[str, tuple[list[bool], list[ZoneDecl]]] = {}
        self._layouts: dict[int, Layout] = {}
        #: (seat count, single options asked, history kept) -> the settled starts of its setup (starts.py), or None
        #: where its setup draws too much to keep them; None for all: no start is ever kept
        self.starts: dict[tuple, Any] | None = {}
        #: whether the RNG works out its outputs many at a time (board.Board.randbelow); off: one at a time
        #: (a speed-up's switch, engine/speedups.py)
        self.batched_draws = True

    def plain(self, kind: Type, value: Any) -> Any:
        """A runtime value as people and JSON see it: places, counters and cards by name."""
        if value is None:
            return None
        elements = tuple_items(kind)
        if elements is not None:          # a tuple: its elements, each as people see it
            return [self.plain(k, v) for k, v in zip(elements, value)]
        if kind == PLAYER:
            return player_name(value)
        if kind == LOCATION:
            return self.locations[value - 1]
        if kind == COUNTER:
            return self.counters[value]
        if kind == CARD:
            return self.card_type[value].id
        return value

    # -- derived numbers ------------------------------------------------------

    def zone_id(self, decl: ZoneDecl, owner: int | None, n: int) -> int:
        if decl.owner == "table":
            return decl.index
        return len(self.table_zones) + decl.index * n + owner

    def layout(self, n: int) -> Layout:
        if n not in self._layouts:
            self._layouts[n] = self._make_layout(n)
        return self._layouts[n]

    def _make_layout(self, n: int) -> Layout:
        zones: list[tuple[ZoneDecl, int | None]] = [(z, None) for z in self.table_zones]
        labels = [z.name for z in self.table_zones]
        for decl in self.player_zones:
            for p in range(n):
                zones.append((decl, p))
                labels.append(f"{decl.name}:{player_name(p)}")
        roles = assign_roles(self.roles, n)
        role_players: dict[str, list[int]] = {r["name"]: [] for r in self.roles}
        for seat, role in enumerate(roles):
            role_players.setdefault(role, []).append(seat)
        team_players = {team: [p for r in members for p in role_players[r]]
                        for team, members in self.teams.items()}
        tables = {}
        for name, table in self.tables.items():
            row = table["rows"].get(n)
            if row is not None:
                tables[name] = dict(zip(table["columns"], row))
        start_zones: list[list[int]] = [[] for _ in zones]
        start_loc = []
        for card, ctype in enumerate(self.card_type):
            zid = self.zone_id(self.zones[ctype.zone], 0, n)
            start_zones[zid].append(card)
            start_loc.append(zid)
        holders = self.player_holder + n + len(self.card_type)    # game, places, players, cards
        blank = ([[0] * len(self.counters) for _ in range(holders)], [list(self.var_initial) for _ in range(n)],
                 start_zones, start_loc, [False] * n)
        slot_zones = [(zid, *(self.zone_id(self.zones[k], owner, n) for k in decl.unique_with)) if decl.unique else ()
                      for zid, (decl, owner) in enumerate(zones)]
        return Layout(n, zones, labels, roles, role_players, team_players, tables,
                      marshal.dumps(blank), slot_zones)


def assign_roles(roles: list[dict], n: int) -> list[str]:
    """Seats filled in role order; the role without a count takes the rest."""
    if not roles:
        return ["player"] * n
    fixed = sum(r.get("count", 0) or 0 for r in roles)
    seats: list[str] = []
    for role in roles:
        count = role.get("count")
        seats.extend([role["name"]] * (count if count is not None else max(0, n - fixed)))
    return (seats + [roles[-1]["name"]] * n)[:n]

