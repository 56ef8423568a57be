"""The engine: a compiled ``Game`` and the ``State`` of one game being played.

A state is plain data (ints, strings, lists, dicts) so it copies cheaply and
round-trips through JSON, including while it waits for a decision. The
interpreter keeps its place in ``State.stack``: a list of frames
``[procedure, pc, locals]`` over compiled code, never in Python generators.
Each compiled instruction is a closure ``op(state, frame)``; one that needs a
decision stores it in ``State.pending`` and returns True, and runs again
with ``State.answer`` set once every chooser has chosen.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable

from .decisions import DecisionSite
from .errors import RulelangError, RuleError, Span, did_you_mean
from .limits import CALL_DEPTH, INT64, STEP_BUDGET, over_budget, spend, too_big, too_deep
from .rng import start_state
from .chance import scripted_draw
from .views import forget_revealed, shown_by_name, var_shown

MASK64 = (1 << 64) - 1
Op = Callable[["State", list], Any]
Fn = Callable[["State", dict], Any]


# --- the compiled game -----------------------------------------------------

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
    on_enter: list[tuple[Fn | None, int]] = field(default_factory=list)   # (condition, procedure)
    on_leave: list[tuple[Fn | None, int]] = field(default_factory=list)
    watched: bool = False         # holds cards with discard_when


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
    play_proc: int | None = None      # places the card and runs its effect
    answer_when: Fn | None = None
    answer_proc: int | None = None
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
    order: str                    # "seat" or "round"
    first: str                    # who starts: "first", "random" or "next" (the seat after the last turn's)
    limit: int                    # turns (counted over the whole game) after which it stops with an error
    until: Fn | None = None       # checked after each of its turns: when it holds, the next phase begins
    begin_pc: int = 0             # where its turns start and end in the turn loop
    end_pc: int = 0
    span: Span | None = None


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


class Game:
    """A compiled, immutable spec. ``new_state`` starts a game."""

    def __init__(self) -> None:
        self.name = ""
        self.path = ""
        self.min_players = 2
        self.max_players = 2
        self.locations: list[str] = []
        self.location_labels: dict[str, str] = {}
        self.counters: list[str] = []
        self.counter_labels: dict[str, str] = {}
        self.var_names: list[str] = []
        self.var_initial: list[Any] = []
        self.var_types: list[str] = []
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
        self.call_depth = CALL_DEPTH              # frames on the stack
        self.number_limit = INT64                 # every number lies in [-number_limit, number_limit]
        self.score_span: Span | None = None
        self.returns: Fn | None = None            # a player's return (payoff) at the end, if the game declares one
        self.returns_span: Span | None = None
        self.roles: list[dict] = []
        self.teams: dict[str, list[str]] = {}
        self.tables: dict[str, dict] = {}
        self.dice: dict[str, dict[int, str]] = {}
        self.reaction_types: list[CardType] = []
        self.step_pcs: dict[str, int] = {}        # step name -> its place in the turn loop
        self.step_phase: dict[str, int] = {}      # step name -> its phase
        self.card_counters = False                # do rules put counters on cards?
        self.score: Fn | None = None              # a player's score, if the game keeps one
        self.params: dict[str, int | bool] = {}   # this instance's param values (`params:`), folded into the rules
        self.ask_single_options = False           # ask a decision that has a single option (else it is taken)
        self.heuristic: Fn | None = None          # how well a player stands, for agents that search
        self.program: Any = None                   # the generated Python (rulelang/compiler/program.py)
        #: every decision the rules can ask, by name (rulelang/decisions.py); one name may have several sites
        self.decisions: dict[str, list[DecisionSite]] = {}
        #: die -> (which card instances last until their owner's next roll of it, the zones they stay in)
        self.discard_after_roll: dict[str, tuple[list[bool], list[ZoneDecl]]] = {}
        self._layouts: dict[int, Layout] = {}

    def plain(self, kind: str, value: Any) -> Any:
        """A runtime value as people and JSON see it: places, counters and cards by name."""
        if value is None:
            return None
        if kind == "player":
            return player_name(value)
        if kind == "location":
            return self.locations[value - 1]
        if kind == "counter":
            return self.counters[value]
        if kind == "card":
            return self.card_type[value].id
        return value

    # -- derived numbers ------------------------------------------------------

    @property
    def player_holder(self) -> int:
        """Holder id of player 0: holders are game, the locations, then players."""
        return 1 + len(self.locations)

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
        return Layout(n, zones, labels, roles, role_players, team_players, tables)

    def new_state(self, players: int, seed: int = 0, observer: Callable | None = None,
                  before_first_turn: bool = False, ask_single_options: bool | None = None,
                  chance: list[int] | None = None) -> "State":
        """A new game for ``players`` seats, played until its first decision.

        ``ask_single_options`` (default: the game's `ask_single_options`) asks every decision, even one with a
        single option, as adapters whose action histories hold every decision need.

        ``observer(state, step_name)``, if given, is called before every step from the first.
        ``before_first_turn`` stops right after the game's setup instead, with nothing of
        turn 1 played (``resume()`` goes on): tools set up positions there.
        ``chance``, a list of outcomes, answers the random draws in order instead of the seed's
        generator; a draw with none left raises ``chance.ChanceNeeded`` (see rulelang/chance.py).
        """
        if not self.min_players <= players <= self.max_players:
            raise RulelangError(
                f"{self.name} is for {self.min_players} to {self.max_players} players, not {players}")
        lay = self.layout(players)
        missing = [name for name in self.tables if name not in lay.tables]
        if missing:
            raise RulelangError(f"table '{missing[0]}' has no row for {players} players")
        st = State.__new__(State)
        st.game = self
        st.lay = lay
        st.n = players
        st.seed = seed
        st.rng = start_state(seed)
        holders = self.player_holder + players + len(self.card_type)    # game, places, players, cards
        st.counters = [[0] * len(self.counters) for _ in range(holders)]
        st.vars = [list(self.var_initial) for _ in range(players)]
        st.zones = [[] for _ in lay.zones]
        st.loc = [0] * len(self.card_type)
        for card, ctype in enumerate(self.card_type):
            zid = self.zone_id(self.zones[ctype.zone], 0, players)
            st.zones[zid].append(card)
            st.loc[card] = zid
        st.stack = [[self.main, 0, {}]]
        st.revealed = []              # [card, seat] pairs: cards shown to a player, until they move
        st.pending = None
        st.answer = None
        st.turn = 0
        st.phase = 0
        st.active = 0
        st.next_player = None
        st.out = [False] * players              # eliminated seats (rulelang/elimination.py)
        st.over = False
        st.winners = []
        st.result = None
        st.events = []
        st.dice_script = []
        st.halt = None
        st.chance = None if chance is None else list(chance)
        st.observer = observer
        st.ask_single = self.ask_single_options if ask_single_options is None else bool(ask_single_options)
        st.fired = []
        st.work = st.game.step_budget     # the work budget of the next run (set again by run)
        st._decision = None
        first = self.phases[0]
        if first.order == "seat" and first.first == "random":
            st.active = st.randbelow(players)
        started = {"type": "started", "game": self.name, "players": players, "seed": seed,
                   "roles": lay.roles, "first": player_name(st.active)}
        if self.params:                   # only a game that declares params records them: old logs stay the same
            started["params"] = dict(self.params)
        st.events.append(started)
        if self.named_phases:
            st.events.append({"type": "phase", "turn": 0, "phase": first.name})
        if before_first_turn and self.step_pcs:
            st.halt = [1, next(iter(self.step_pcs))]
        run(st)
        return st


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


NAMES = [f"P{p + 1}" for p in range(256)]


def _no_room(card: str, zone: str) -> RulelangError:
    """A card displaced by an arrangement whose starting zone is arranged too; ``zone`` says which."""
    error = RulelangError(f"no room for {card}: its starting zone {zone} is arranged too",
                          hint=f"place every {card} card, or name a zone for the cards left over: "
                               "setup: {others: ZONE}")
    error.zone = zone             # type: ignore[attr-defined]
    return error


def player_name(p: int) -> str:
    return NAMES[p]


# --- decisions ---------------------------------------------------------------

@dataclass(frozen=True)
class Option:
    id: str
    label: str


@dataclass(frozen=True)
class Decision:
    """Who must choose now, and every legal option of each of them.

    ``name`` is the decision's stable name from the spec (``roll.choice``,
    ``2_draw.n``: see rulelang/decisions.py) and ``rule`` the rulings of
    the step, procedure or card that asks it.
    """

    kind: str
    prompt: str
    players: tuple[int, ...]
    options: dict[int, tuple[Option, ...]]
    name: str = ""
    rule: tuple[str, ...] = ()

    @property
    def player(self) -> int:
        return self.players[0]

    @property
    def simultaneous(self) -> bool:
        return self.kind == "secret"


# --- the state ---------------------------------------------------------------

_FIELDS = ("n", "seed", "rng", "counters", "vars", "zones", "loc", "stack", "pending", "answer",
           "turn", "phase", "active", "next_player", "over", "winners", "result", "events", "out", "revealed")
#: Set by tests and scenarios, never saved: scripted dice (``dice_script``), a step to stop before (``halt``),
#: and the outcomes of random draws given one by one (``chance``: rulelang/chance.py; None draws from ``rng``).
_FIXTURES = ("dice_script", "halt", "chance")


class State:
    """One game in progress: plain data plus a reference to its compiled game."""

    __slots__ = _FIELDS + _FIXTURES + ("game", "lay", "fired", "_decision", "observer", "work", "ask_single")

    # -- chance ---------------------------------------------------------------

    def randbelow(self, n: int) -> int:
        """SplitMix64: a tiny, fast RNG whose whole state is one int; every random draw of a game comes here."""
        if self.chance is not None:             # explicit chance: the outcome is given (rulelang/chance.py)
            return scripted_draw(self, n)
        self.rng = x = (self.rng + 0x9E3779B97F4A7C15) & MASK64
        x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK64
        return ((x ^ (x >> 31)) * n) >> 64

    def roll_die(self, faces: int) -> int:
        if self.dice_script:
            return self.dice_script.pop(0)
        return self.randbelow(faces) + 1

    # -- decisions ------------------------------------------------------------

    def decision(self) -> Decision | None:
        """Who must choose now and their options; None once the game is over."""
        pend = self.pending
        if pend is None or self.over:
            return None
        if self._decision is None:
            players, options = [], {}
            for i, p in enumerate(pend["players"]):
                if pend["chosen"][i] is None:
                    players.append(p)
                    options[p] = tuple(Option(o[0], o[1]) for o in pend["options"][i])
            site = self.site()
            self._decision = Decision(pend["kind"], pend["prompt"], tuple(players), options,
                                      site.name if site else "", site.rule if site else ())
        return self._decision

    def site(self) -> DecisionSite | None:
        """The place in the rules that asks the waiting decision: the instruction the top frame stands on."""
        if self.pending is None or not self.stack:
            return None
        frame = self.stack[-1]
        return self.game.procs[frame[0]].sites.get(frame[1])

    def legal(self, player: int | None = None) -> list[str]:
        """The option ids of a player who must choose (the first one by default)."""
        pend = self.pending
        if pend is None:
            return []
        i = _chooser_index(pend, player)
        return [o[0] for o in pend["options"][i]]

    def apply(self, option: str, player: int | None = None) -> None:
        """Take one option, by id, for ``player`` (default: the first who must choose)."""
        pend = self.pending
        if pend is None or self.over:
            raise RulelangError("no decision is waiting")
        i = _chooser_index(pend, player)
        for j, known in enumerate(pend["options"][i]):
            if known[0] == option:
                self._take(pend, i, j)
                return
        ids = [o[0] for o in pend["options"][i]]
        raise RulelangError(f"'{option}' is not an option of {player_name(pend['players'][i])}",
                            hint="options: " + ", ".join(ids))

    def apply_index(self, j: int, player: int | None = None) -> None:
        """Take the j-th option of ``player``: the fast path for simulations."""
        pend = self.pending
        if pend is None or self.over:
            raise RulelangError("no decision is waiting")
        chosen = pend["chosen"]
        if player is None:
            i = chosen.index(None)
        else:
            i = _chooser_index(pend, player)
        if not 0 <= j < len(pend["options"][i]):
            raise RulelangError(f"option {j} is out of range")
        self._take(pend, i, j)

    def _take(self, pend: dict, i: int, j: int) -> None:
        chosen = pend["chosen"]
        chosen[i] = j
        self._decision = None
        kind = pend["kind"]
        event = {"type": "chose", "turn": self.turn, "player": NAMES[pend["players"][i]],
                 "option": pend["options"][i][j][0], "decision": kind}
        if kind == "secret":
            event["secret"] = True
        self.events.append(event)
        if None not in chosen:
            values = pend["values"]
            self.answer = [values[k][c] for k, c in enumerate(chosen)]
            self.pending = None
            run(self)

    def ask(self, kind: str, prompt: str, players: list[int], options: list[list], values: list[list]) -> bool:
        """Called by an instruction: wait for these players to choose."""
        if None in players:
            raise RuleError("a decision waits for a player who is none",
                            hint="the player before 'chooses' can be none here; test it first (if p != none:)")
        self.pending = {"kind": kind, "prompt": prompt, "players": players, "options": options,
                        "values": values, "chosen": [None] * len(players)}
        self._decision = None
        return True

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
        """Every player's return (payoff), in seat order, if the game declares `returns`: told when it ends."""
        return self._per_player(self.game.returns, self.game.returns_span, "returns")

    def _per_player(self, value: Fn | None, span: Span | None, what: str) -> list[int] | None:
        """A per-player expression for every seat, with a work budget of its own; a failure is located."""
        if value is None:
            return None
        saved = self.work
        self.work = self.game.step_budget
        try:
            return [value(self, {"p": p}) for p in range(self.n)]
        except FAILURES as error:
            raise located(error, span) from None
        except MemoryError:
            raise RuleError(f"the {what} ran out of memory", span) from None
        finally:
            self.work = saved

    def winner_names(self) -> list[str]:
        return [player_name(p) for p in self.winners]

    def winning_team(self) -> str | None:
        """The team whose players are exactly the winners, if there is one."""
        won = set(self.winners)
        for team, players in self.lay.team_players.items():
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

    # -- setting up a position (scenarios, tests, tools) -----------------------------

    def go_to_step(self, step: str, turn: int | None = None, active: int | None = None) -> None:
        """Abandon whatever the game was doing and continue from the start of a step."""
        game = self.game
        self._check_step(step)
        del self.stack[1:]
        self.stack[0][1] = game.step_pcs[step]
        self.phase = game.step_phase[step]
        self.stack[0][2] = {}
        self.pending = self.answer = None
        self._decision = None
        if turn is not None:
            self.turn = turn
        if active is not None:
            self.active = active
        run(self)

    def resume(self) -> None:
        """Go on after a halt (see ``halt_before``)."""
        if self.pending is None and not self.over:
            run(self)

    def halt_before(self, step: str, turn: int) -> None:
        """Stop (with no decision waiting) when ``step`` of ``turn`` is about to start."""
        self._check_step(step)
        self.halt = [turn, step]

    def _check_step(self, step: str) -> None:
        steps = self.game.step_pcs
        if step not in steps:
            hint = did_you_mean(step, steps) or "the steps are: " + ", ".join(f"'{s}'" for s in steps)
            raise RulelangError(f"unknown step '{step}'", hint=hint)

    def set_counter(self, holder: str | int | tuple, name: str, value: int) -> None:
        self.counters[self._holder(holder)][self.game.counters.index(name)] = value

    def set_var(self, player: int, name: str, value: Any) -> None:
        game = self.game
        kind = game.var_types[game.var_names.index(name)]
        if kind == "location" and isinstance(value, str):
            value = 1 + game.locations.index(value)
        elif kind == "counter" and isinstance(value, str):
            value = game.counters.index(value)
        self.vars[player][game.var_names.index(name)] = value

    def zone_id_of(self, label: str) -> int:
        """A zone by its label: "deck" for a table zone, "hand:P2" for a player's."""
        try:
            return self.lay.zone_labels.index(label)
        except ValueError:
            raise RulelangError(f"unknown zone '{label}'",
                                hint="zones: " + ", ".join(self.lay.zone_labels)) from None

    def arrange(self, contents: dict[str, list[str]], others: str | None = None) -> None:
        """Put exactly these cards (by id, bottom to top) in these zones, without events.

        Cards are taken first from their starting zones; cards displaced from an
        arranged zone go back to their starting zone, or, when that is arranged
        too, to the bottom of the zone ``others`` (a scenario's "every other card
        goes there", beneath its arranged cards if it is arranged itself).
        Without ``others`` that is an error whose ``zone`` names the starting zone.
        """
        game = self.game
        targets = {self.zone_id_of(label): ids for label, ids in contents.items()}
        spare = self.zone_id_of(others) if others is not None else None
        leftover: list[int] = []
        claimed: set[int] = set()
        placement: dict[int, list[int]] = {}
        for zid, ids in targets.items():
            placement[zid] = []
            for cid in ids:
                card = self._free_card(cid, claimed, targets)
                claimed.add(card)
                placement[zid].append(card)
        for zid in targets:
            for card in list(self.zones[zid]):
                if card not in claimed:
                    home = game.zone_id(game.zones[game.card_type[card].zone], 0, self.n)
                    if home in targets:
                        if spare is None:
                            raise _no_room(game.card_type[card].id, self.lay.zone_labels[home])
                        self.zones[zid].remove(card)
                        leftover.append(card)
                        continue
                    self.zones[zid].remove(card)
                    self.zones[home].append(card)
                    self.loc[card] = home
        for zid, cards in placement.items():
            for card in cards:
                self.zones[self.loc[card]].remove(card)
            self.zones[zid].extend(cards)
            for card in cards:
                self.loc[card] = zid
        if leftover:
            self.zones[spare][0:0] = leftover
            for card in leftover:
                self.loc[card] = spare

    def put_on_top(self, label: str, ids: list[str]) -> None:
        """Put these cards (by id) on top of a zone, the last one on top, without events.

        Each is taken from the zone itself if it holds one, else from wherever
        a copy lies outside the players' zones.
        """
        game = self.game
        zid = self.zone_id_of(label)
        placed: set[int] = set()
        for cid in ids:
            copies = [c for c, t in enumerate(game.card_type) if t.id == cid and c not in placed]
            if not copies:
                known = {t.id for t in game.cards}
                raise RulelangError(f"unknown card '{cid}'" if cid not in known else f"not that many '{cid}' cards",
                                    hint=did_you_mean(cid, known))
            here = [c for c in copies if self.loc[c] == zid]
            loose = [c for c in copies if self.lay.zones[self.loc[c]][1] is None]
            pick = (here or loose or copies)[0]
            placed.add(pick)
            self.zones[self.loc[pick]].remove(pick)
            self.zones[zid].append(pick)
            self.loc[pick] = zid

    def _free_card(self, cid: str, claimed: set[int], targets: dict) -> int:
        game = self.game
        candidates = [c for c, t in enumerate(game.card_type) if t.id == cid and c not in claimed]
        if not candidates:
            known = {t.id for t in game.card_type}
            if cid not in known:
                raise RulelangError(f"unknown card '{cid}'", hint=did_you_mean(cid, known))
            raise RulelangError(f"there are not that many '{cid}' cards")
        home = lambda c: game.zone_id(game.zones[game.card_type[c].zone], 0, self.n)
        candidates.sort(key=lambda c: (self.loc[c] != home(c), self.loc[c] in targets, c))
        return candidates[0]

    # -- copying and saving ---------------------------------------------------------

    def copy(self) -> "State":
        new = State.__new__(State)
        new.game, new.lay, new.n, new.seed, new.rng = self.game, self.lay, self.n, self.seed, self.rng
        new.ask_single = self.ask_single
        new.counters = [list(h) for h in self.counters]
        new.vars = [list(v) for v in self.vars]
        new.zones = [list(z) for z in self.zones]
        new.loc = list(self.loc)
        new.revealed = [list(pair) for pair in self.revealed]
        new.stack = [[f[0], f[1], _copy_plain(f[2])] for f in self.stack]
        new.pending = _copy_plain(self.pending)
        new.answer = _copy_plain(self.answer)
        new.turn, new.active, new.over = self.turn, self.active, self.over
        new.next_player = self.next_player
        new.out = list(self.out)
        new.phase = self.phase
        new.winners, new.result = list(self.winners), self.result
        new.events = list(self.events)
        new.dice_script = list(self.dice_script)
        new.halt = self.halt
        new.chance = None if self.chance is None else list(self.chance)
        new.fired = []
        new.work = self.game.step_budget
        new._decision = None
        new.observer = None
        return new

    def _fields(self) -> dict:
        """The saved fields, live (not copied): for dumps, which only reads them.

        ``revealed`` is left out while empty, so states of games without reveals save as before.
        """
        fields = {name: getattr(self, name) for name in _FIELDS} | {"game": self.game.name}
        if not self.revealed:
            del fields["revealed"]
        return fields

    def to_json(self) -> dict:
        """A snapshot of the game (fixtures such as scripted dice are not part of it)."""
        return _copy_plain(self._fields())

    def dumps(self) -> str:
        return json.dumps(self._fields(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, game: Game, data: Any, source: str | None = None) -> "State":
        """A saved game, checked in full first (rulelang/saves.py): a bad one is a SavedStateError.

        ``source`` (a file name) is named in the error.
        """
        from .saves import load_state

        return load_state(game, data, source)

    @classmethod
    def _restore(cls, game: Game, data: dict) -> "State":
        """Rebuild a state from saved fields already checked (see ``from_json``)."""
        st = cls.__new__(cls)
        st.game = game
        for name in _FIELDS:          # only `revealed` may be missing (left out while empty)
            setattr(st, name, _copy_plain(data[name]) if name in data else [])
        st.lay = game.layout(st.n)
        st.ask_single = game.ask_single_options
        st.dice_script = []
        st.halt = None
        st.chance = None
        st.fired = []
        st.work = st.game.step_budget     # the work budget of the next run (set again by run)
        st._decision = None
        st.observer = None
        return st


def _chooser_index(pend: dict, player: int | None) -> int:
    for i, p in enumerate(pend["players"]):
        if pend["chosen"][i] is None and (player is None or p == player):
            return i
    raise RulelangError(f"{player_name(player) if player is not None else 'nobody'} has nothing to choose now")


def _copy_plain(value: Any) -> Any:
    if isinstance(value, list):
        return [_copy_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _copy_plain(v) for k, v in value.items()}
    return value


# --- the interpreter -----------------------------------------------------------

def run(st: State) -> None:
    """Execute instructions until a decision is needed or the game is over.

    Each instruction is one unit of work, counted in a local; the primitives
    take the work done inside one instruction (cards moved, loop passes, ...)
    from ``st.work`` as they go. Whenever the frame changes, the two together
    must stay within the budget.
    """
    code = st.game.code
    stack = st.stack
    fired = st.fired
    depth = st.game.call_depth
    st.work = st.game.step_budget
    steps = 0
    try:
        while stack and not st.over:
            fr = stack[-1]
            ops = code[fr[0]]
            size = len(ops)
            while True:            # stay on this frame while it is on top
                pc = fr[1]
                if pc >= size:
                    stack.pop()
                    break
                fr[1] = pc + 1
                if ops[pc](st, fr):
                    return         # waiting for a decision, or the game is over
                steps += 1
                if fired:
                    if fr[1] >= size and stack[-1] is fr:
                        stack.pop()    # nothing left to run here: triggers that bounce do not pile up
                    stack.extend(reversed(fired))
                    fired.clear()
                    if len(stack) > depth:
                        raise too_deep(st)
                    break
                if stack[-1] is not fr:
                    if fr[1] >= size and len(stack) > 1 and stack[-2] is fr:
                        del stack[-2]  # a call in last place: the caller is done
                    if len(stack) > depth:
                        raise too_deep(st)
                    break          # a frame was pushed, or the turn was unwound
            if steps > st.work:    # the statements run and the work done inside them, together
                raise over_budget(st)
    except RuleError as error:
        raise _locate_runtime(st, error) from None
    except RulelangError as error:
        error.state = st
        raise
    except RecursionError:
        raise _locate_runtime(st, RuleError("the rules nest too deeply")) from None
    except MemoryError:
        raise _locate_runtime(st, RuleError("the rules ran out of memory")) from None
    except (ArithmeticError, TypeError, ValueError, IndexError, KeyError) as error:
        raise _locate_runtime(st, failure(error)) from None
    except Exception as error:      # a bug of rulelang itself: keep the state for the log
        error.state = st
        raise


def failure(error: Exception, span: Span | None = None) -> RuleError:
    """A Python error inside a rule, told in the spec's words."""
    text = str(error)
    if "NoneType" in text or "None" in text.split(":")[-1]:
        return RuleError("a value used here is none: no such player, card or place", span,
                         hint="test it before using it, as in: if x != none:")
    return RuleError(f"a rule failed while playing: {text}", span)


#: What can go wrong inside a statement: a rule's own error, or Python's, told in the spec's words.
FAILURES = (RuleError, ArithmeticError, TypeError, ValueError, IndexError, KeyError, RecursionError)


def located(error: BaseException, span: Span | None) -> RuleError:
    """A failure inside a statement as a RuleError that points at it (unless it points somewhere already)."""
    if isinstance(error, RuleError):
        error.span = error.span or span
        return error
    if isinstance(error, RecursionError):
        return RuleError("the rules nest too deeply", span)
    return failure(error, span)


def _locate_runtime(st: State, error: RuleError) -> RuleError:
    """Point a runtime error at the spec line of the instruction that failed.

    The error keeps the state (``error.state``) so a caller can still write the
    event log up to the failure.
    """
    error.state = st
    if error.span is None and st.stack:
        fr = st.stack[-1]
        proc = st.game.procs[fr[0]]
        pc = max(0, min(fr[1] - 1, len(proc.spans) - 1))
        if proc.spans:
            error.span = proc.spans[pc]
        where = f"in {proc.name}"
    else:
        where = ""
    context = f"seed {st.seed}, turn {st.turn}" + (f", {where}" if where else "")
    error.hint = f"{error.hint} ({context})" if error.hint and "seed" not in error.hint else (error.hint or context)
    return error


# --- card movement: the primitives every card statement is built on ---------------

def move_card(st: State, card: int, dest: int, how: str = "move") -> None:
    """Move one card; one-of-a-kind slots evict, triggers fire, watchers check."""
    src = st.loc[card]
    if src == dest:
        return
    st.work -= 1
    if st.work < 0:
        raise over_budget(st)
    zones, lay = st.zones, st.lay
    zones[src].remove(card)
    ddecl, downer = lay.zones[dest]
    if ddecl.unique:
        _evict_slot(st, card, ddecl, downer)
    zones[dest].append(card)
    st.loc[card] = dest
    if st.revealed:
        forget_revealed(st, card)
    st.events.append({"type": "moved", "turn": st.turn, "card": st.game.card_type[card].id, "id": card,
                      "from": lay.zone_labels[src], "to": lay.zone_labels[dest], "how": how})
    sdecl, sowner = lay.zones[src]
    if sdecl is not ddecl and st.game.card_counters:
        _clear_card_counters(st, card)
    if sdecl.on_leave:
        _fire(st, sdecl.on_leave, card, sowner)
    if ddecl.on_enter:
        _fire(st, ddecl.on_enter, card, downer)
    if ddecl.watched:
        _check_watchers(st, dest, downer)


def _clear_card_counters(st: State, card: int) -> None:
    """Counters on a card travel with it between zones of one kind and fall off otherwise."""
    h = st.game.player_holder + st.n + card
    row = st.counters[h]
    if any(row):
        st.counters[h] = [0] * len(row)
        st.events.append({"type": "cleared", "turn": st.turn, "holder": holder_label(st, h)})


def _evict_slot(st: State, card: int, decl: ZoneDecl, owner: int | None) -> None:
    game = st.game
    slot = game.slot_of[card]
    for zdecl in [decl] + [game.zones[i] for i in decl.unique_with]:
        zid = game.zone_id(zdecl, owner, st.n)
        spend(st, len(st.zones[zid]))
        for other in [c for c in st.zones[zid] if game.slot_of[c] == slot]:
            discard_card(st, other, how="replaced")


def _fire(st: State, triggers: list, card: int, owner: int | None) -> None:
    for cond, proc in triggers:
        local = {"card": card, "owner": owner, "me": owner}
        if cond is None or cond(st, local):
            st.fired.append([proc, 0, local])


def _check_watchers(st: State, zid: int, owner: int | None) -> None:
    types = st.game.card_type
    cards = list(st.zones[zid])
    spend(st, len(cards))
    for card in cards:
        rule = types[card].discard_when
        if rule is not None and st.loc[card] == zid and rule(st, {"this": card, "owner": owner, "me": owner}):
            discard_card(st, card, how="discarded")


def end_roll_durations(st: State, die: str, roller: int | None) -> None:
    """After a roll: discard the roller's cards that last until their owner's next roll of this die."""
    lasting = st.game.discard_after_roll.get(die)
    if lasting is None or roller is None:
        return
    marked, decls = lasting
    game = st.game
    for decl in decls:
        zid = game.zone_id(decl, roller, st.n)
        for card in [c for c in st.zones[zid] if marked[c]]:
            discard_card(st, card, how="expired")


def discard_zone(st: State, card: int) -> int:
    ctype = st.game.card_type[card]
    if ctype.discard is None:
        zone = st.game.zones[ctype.zone].name
        raise RuleError(f"card '{ctype.id}' has nowhere to be discarded", ctype.zone_span,
                        hint=f"give zone '{zone}' a 'discard:' pile, or the card a 'discard:' key")
    decl = st.game.zones[ctype.discard]
    owner = st.lay.zones[st.loc[card]][1] if decl.owner == "player" else None
    return st.game.zone_id(decl, owner, st.n)


def discard_card(st: State, card: int, how: str = "discarded") -> None:
    move_card(st, card, discard_zone(st, card), how)


def draw_cards(st: State, count: int, src: int, dest: int) -> None:
    """Draw from the top, refilling the source when it runs out (each card moved is work)."""
    zones = st.zones
    for _ in range(count):
        if not zones[src]:
            refill(st, src)
            if not zones[src]:
                return
        move_card(st, zones[src][-1], dest, "draw")


def refill(st: State, zid: int) -> None:
    decl, owner = st.lay.zones[zid]
    if decl.refill_from is None:
        return
    source = st.game.zone_id(st.game.zones[decl.refill_from], owner, st.n)
    cards = st.zones[source]
    if not cards:
        return
    spend(st, len(cards))
    st.zones[zid].extend(cards)
    for card in cards:
        st.loc[card] = zid
    st.zones[source] = []
    st.events.append({"type": "refilled", "turn": st.turn, "zone": st.lay.zone_labels[zid],
                      "from": st.lay.zone_labels[source], "cards": len(st.zones[zid])})
    shuffle_zone(st, zid)


def shuffle_zone(st: State, zid: int) -> None:
    cards = st.zones[zid]
    spend(st, len(cards))
    for i in range(len(cards) - 1, 0, -1):
        j = st.randbelow(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    st.events.append({"type": "shuffled", "turn": st.turn, "zone": st.lay.zone_labels[zid]})


# --- views -------------------------------------------------------------------------

def make_view(st: State, player: int | None) -> dict:
    game, lay = st.game, st.lay
    holders = {"game": st.counters[0]}
    for i, name in enumerate(game.locations):
        holders[name] = st.counters[1 + i]
    counters = {h: {c: v for c, v in zip(game.counters, values) if v} for h, values in holders.items()}
    players = []
    for p in range(st.n):
        players.append({
            "name": player_name(p), "role": lay.roles[p],
            "counters": {c: v for c, v in zip(game.counters, st.counters[game.player_holder + p]) if v},
            "vars": {name: game.plain(kind, value)
                     for name, kind, value, shown in zip(game.var_names, game.var_types, st.vars[p],
                                                         var_shown(game, p, player)) if shown},
        })
    zones = {}
    for zid, (decl, owner) in enumerate(lay.zones):
        cards = st.zones[zid]
        visible = decl.visibility == "public" or (decl.visibility == "owner" and owner == player)
        zones[lay.zone_labels[zid]] = [game.card_type[c].id for c in cards] if visible else len(cards)
    tokens = {}
    if game.card_counters:           # counters on the cards a player can see
        base = game.player_holder + st.n
        for zid, (decl, owner) in enumerate(lay.zones):
            if decl.visibility == "public" or (decl.visibility == "owner" and owner == player):
                for card in st.zones[zid]:
                    held = {c: v for c, v in zip(game.counters, st.counters[base + card]) if v}
                    if held:
                        tokens[f"{game.card_type[card].id}#{card}"] = held
    revealed = shown_by_name(st, player, zones)
    view = {"turn": st.turn, "phase": game.phases[st.phase].name, "active": player_name(st.active),
            "card_counters": tokens, "you": None if player is None else player_name(player),
            "counters": counters, "players": players, "zones": zones, "over": st.over,
            "winners": st.winner_names(), "scores": st.scores()}
    if revealed:
        view["revealed"] = revealed
    decision = st.decision()
    if decision is not None:
        view["waiting_for"] = [player_name(p) for p in decision.players]
        view["decision"] = {"name": decision.name, "rule": list(decision.rule)}    # public: who decides what
        if player in decision.options:
            view["prompt"] = decision.prompt
            view["options"] = [[o.id, o.label] for o in decision.options[player]]
    return view


# --- what instructions share: counters, turns, the end, card play and answers ---------

def holder_label(st: State, h: int) -> str:
    """How events name a holder: game, a location, P2, or a card as id#instance."""
    if h == 0:
        return "game"
    game = st.game
    if h < game.player_holder:
        return game.locations[h - 1]
    if h < game.player_holder + st.n:
        return NAMES[h - game.player_holder]
    card = h - game.player_holder - st.n
    return f"{game.card_type[card].id}#{card}"


def set_counter(st: State, h: int, c: int, v: int) -> None:
    v = max(0, v)
    if v > st.game.number_limit:
        raise too_big(v, st.game.number_limit)
    if st.counters[h][c] != v:
        st.counters[h][c] = v
        st.events.append({"type": "set", "turn": st.turn, "holder": holder_label(st, h),
                          "counter": st.game.counters[c], "value": v})


def set_player_var(st: State, p: int, vi: int, v: Any) -> None:
    """Set a player variable, recording the change."""
    row = st.vars[p]
    if row[vi] != v:
        row[vi] = v
        game = st.game
        st.events.append({"type": "set", "turn": st.turn, "player": NAMES[p], "var": game.var_names[vi],
                          "value": game.plain(game.var_types[vi], v)})


def end_turn(st: State) -> None:
    """Unwind to the turn loop, which moves on to the next turn."""
    del st.stack[1:]
    st.stack[0][1] = st.game.phases[st.phase].end_pc
    st.fired.clear()


def check_end(st: State, L: dict) -> bool:
    """The first end condition that holds ends the game."""
    game = st.game
    seat = game.phases[st.phase].order == "seat"
    local = {"me": st.active} if seat else {}    # `me` in end conditions: the active player
    for cond in game.end:
        if cond.when(st, local):
            won = cond.winner(st, local)
            st.winners = [won] if isinstance(won, int) else sorted(set(won or []))
            st.over = True
            st.result = cond.name
            event = {"type": "ended", "turn": st.turn, "condition": cond.name,
                     "winners": st.winner_names(), "team": st.winning_team()}
            if game.score is not None:
                event["scores"] = st.scores()
            if game.returns is not None:          # only when declared: other games' logs stay the same
                event["returns"] = st.returns()
            st.events.append(event)
            return True
    return False


def kinds_in(st: State, zid: int) -> list[tuple[int, CardType]]:
    """One card of each kind in a zone, in zone order: copies of a card make one option."""
    seen: set[str] = set()
    found = []
    cards = st.zones[zid]
    st.work -= len(cards)
    if st.work < 0:
        raise over_budget(st)
    for card in cards:
        ctype = st.game.card_type[card]
        if ctype.id not in seen:
            seen.add(ctype.id)
            found.append((card, ctype))
    return found


def legal_plays(st: State, player: int, zid: int) -> tuple[list, list]:
    """Every (card, target) the player may play from a zone, targets in seat order from the player."""
    options, values = [], []
    for card, ctype in kinds_in(st, zid):
        if ctype.play_proc is None:
            continue
        if ctype.play_target is None:
            targets = [player]
        else:
            targets = []
            local = {"me": player, "this": card}
            for i in range(st.n):
                t = (player + i) % st.n
                local["target"] = t
                if ctype.play_target(st, local):
                    targets.append(t)
        for t in targets:
            if t == player:
                options.append([ctype.id, f"play {ctype.name}"])
            else:
                options.append([f"{ctype.id}>{NAMES[t]}", f"play {ctype.name} on {NAMES[t]}"])
            values.append(["play", card, player, t])
    return options, values


def discard_options(st: State, zid: int) -> tuple[list, list]:
    kinds = kinds_in(st, zid)
    return ([[f"discard:{ctype.id}", f"discard {ctype.name}"] for _, ctype in kinds],
            [["discard", card] for card, _ in kinds])


def answerers(st: State, card: int, player: int) -> list[int]:
    """Players who may answer this card, in seat order from its player's left."""
    game = st.game
    if not game.reaction_types:
        return []
    local = {"card": card, "me": player, "player": player}
    if not any(r.answer_when(st, local) for r in game.reaction_types):
        return []
    return [(player + i) % st.n for i in range(1, st.n)]


def zone_of_hand(st: State, reactor: int, card: int, player: int) -> int:
    """The reactor's zone of the same kind as the one the card was played from."""
    decl = st.lay.zones[st.loc[card]][0]
    return st.game.zone_id(decl, reactor, st.n) if decl.owner == "player" else st.loc[card]


def reaction_options(st: State, card: int, player: int, reactor: int, zid: int) -> tuple[list, list]:
    """The answers the reactor holds for this card (the caller adds "pass")."""
    options, values = [], []
    for reaction, rtype in kinds_in(st, zid):
        if rtype.answer_when is not None and rtype.answer_when(st, {"card": card, "me": reactor, "this": reaction,
                                                                    "player": player}):
            options.append([f"answer:{rtype.id}", f"answer with {rtype.name}"])
            values.append([reactor, reaction])
    return options, values


def answer_card(st: State, card: int, player: int, reactor: int, reaction: int) -> None:
    """The first answer cancels the card: both are discarded, then the answer acts."""
    game = st.game
    st.events.append({"type": "answered", "turn": st.turn, "player": NAMES[reactor],
                      "card": game.card_type[reaction].id, "cancels": game.card_type[card].id})
    discard_card(st, card, how="cancelled")
    discard_card(st, reaction, how="answered")
    proc = game.card_type[reaction].answer_proc
    if proc is not None:
        st.stack.append([proc, 0, {"me": reactor, "card": card, "this": reaction, "player": player}])
