"""The typed spec model: every declaration of a game as a frozen value, with its defaults applied.

The loader gives plain YAML data; the schema checks its shape. This model is
what the later stages read instead of that data: each declaration once, each
default written once (here, in ``model_build``), each with the ``Span`` of its
YAML so an error about it points at the file. Rule texts stay texts
(``RuleText``: the path to parse them at); the checker and compiler turn them
into trees. Nothing here is checked beyond what the schema checked: the
declaration checks are in ``check_decls``.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from rulelang.errors import Span
from rulelang.lang.types import Type

#: Declarations are values nobody changes; compared by identity (no generated __eq__/__hash__: cheaper to import).
_model = dataclass(frozen=True, eq=False)


class Owner(str, Enum):
    """Who a zone belongs to: one pile on the table, or one pile per player."""

    TABLE = "table"
    PLAYER = "player"


class TurnOrder(str, Enum):
    """How a phase's turns go round: seat by seat (`me` is the active seat), or whole rounds (no `me`)."""

    SEAT = "seat"
    ROUND = "round"


class FirstSeat(str, Enum):
    """Who starts a phase: seat 1, a random seat, or the seat after the last turn's."""

    FIRST = "first"
    NEXT = "next"
    RANDOM = "random"


class Event(str, Enum):
    """What a trigger is on (the first words of its `on:`)."""

    ENTER = "enter"
    LEAVE = "leave"
    RESOLVE = "resolve"
    BEFORE_ROLL = "before roll"
    AFTER_ROLL = "after roll"
    START_TURN = "start turn"
    END_TURN = "end turn"
    BEFORE_STEP = "before step"
    AFTER_STEP = "after step"
    BEFORE_DRAW = "before draw"
    BEFORE_PLAY = "before play"

    @property
    def on_roll(self) -> bool:
        return self in (Event.BEFORE_ROLL, Event.AFTER_ROLL)

    @property
    def on_turn(self) -> bool:
        """A turn or step event: its trigger runs from the turn loop."""
        return self in (Event.START_TURN, Event.END_TURN, Event.BEFORE_STEP, Event.AFTER_STEP)

    @property
    def on_action(self) -> bool:
        """A draw or a card's play about to happen: its trigger may cancel it (`cancel draw`, `cancel play`)."""
        return self in (Event.BEFORE_DRAW, Event.BEFORE_PLAY)

    @property
    def on_card(self) -> bool:
        """A card entering or leaving a zone."""
        return self in (Event.ENTER, Event.LEAVE)


@dataclass(frozen=True)
class TriggerOn:
    """A trigger's `on:` read: the event and what it names (a zone, a card kind, a die, a step; '' for a turn)."""

    event: Event
    subject: str


#: Every form `on:` may take, for the message when it takes none of them.
ON_FORMS = ("'enter ZONE', 'leave ZONE', 'resolve KIND', 'before roll DIE', 'after roll DIE', 'start turn', "
            "'end turn', 'before step STEP', 'after step STEP', 'before draw' or 'before play'")


def read_on(on: Any) -> TriggerOn | None:
    """`on:` as an event and its subject, or None when it has none of the forms of ``ON_FORMS``."""
    words = str(on).split()
    if len(words) == 2 and words[0] in ("enter", "leave", "resolve"):
        return TriggerOn(Event(words[0]), words[1])
    if len(words) == 3 and words[0] in ("before", "after") and words[1] == "roll":
        return TriggerOn(Event(f"{words[0]} roll"), words[2])
    if len(words) == 2 and words[0] in ("start", "end") and words[1] == "turn":
        return TriggerOn(Event(f"{words[0]} turn"), "")
    if words in (["before", "draw"], ["before", "play"]):
        return TriggerOn(Event(" ".join(words)), "")
    if len(words) >= 3 and words[0] in ("before", "after") and words[1] == "step":
        return TriggerOn(Event(f"{words[0]} step"), " ".join(words[2:]))
    return None


@_model
class RuleText:
    """A rule text of the spec: its words and the path of its YAML value (to parse it and locate errors)."""

    path: tuple
    text: str


@_model
class Players:
    """How many may play."""

    min: int
    max: int
    span: Span


@_model
class Role:
    """A role some seats take (`roles:`)."""

    name: str
    count: int | None          # None: the role takes the seats the others leave
    team: str                  # the role's own name when it names no team
    span: Span
    label: str | None = None   # the role's name shown to players, else NAME


@_model
class Place:
    """A location or a counter: a name, the words shown for it, and its properties (ints or names)."""

    name: str
    label: str
    props: Mapping[str, Any]
    span: Span


@_model
class Var:
    """A per-player variable."""

    name: str
    type: Type                 # int, bool, player, location, card, counter or a tuple of those
    initial: Any               # 0, false or none unless given
    visibility: str            # public, owner or hidden
    span: Span
    label: str | None = None   # the words narration shows for it, else NAME


@_model
class Table:
    """Numbers looked up by player count (`tables:`)."""

    name: str
    by: str
    columns: tuple[str, ...]
    rows: Mapping[Any, list]   # keyed by player count (anything else is an error of check_decls)
    span: Span


@_model
class Die:
    """A die: its faces and the outcomes they show."""

    name: str
    faces: int
    outcomes: Mapping[str, tuple]   # outcome -> the faces that show it
    visibility: str                 # who sees the faces of its rolls: public, owner or hidden
    span: Span


@_model
class Zone:
    """A pile of cards: one on the table, or one per player."""

    name: str
    owner: Owner
    visibility: str
    label: str
    unique: bool               # `unique: slot`: one card of a slot at most
    refill_from: str | None
    discard: str | None
    unique_with: tuple[str, ...]
    span: Span


@_model
class CardPlay:
    """A card's `play:` section."""

    target: RuleText | None
    to: RuleText | None
    effect: RuleText | None
    span: Span


@_model
class CardAnswer:
    """A card's `answer:` section: it may cancel a card just played."""

    when: RuleText | None
    effect: RuleText | None
    span: Span


@_model
class Card:
    """One kind of card (``count`` copies of it)."""

    index: int                 # its place in `cards:`
    id: str
    name: str
    count: int
    zone: str                  # where its copies start
    discard: str | None
    token: bool
    slot: str                  # its own id unless it names one
    named_slot: bool           # it names a slot (a slot is then a card kind rules may name)
    tags: tuple[str, ...]
    props: Mapping[str, Any]   # only those the card sets (the others take card_props' defaults)
    text: str
    play: CardPlay | None
    answer: CardAnswer | None
    discard_when: RuleText | None
    lasts_in: str | None
    discard_after_roll: str | None     # `discard_after: {roll: DIE}`
    span: Span
    zone_span: Span

    @property
    def path(self) -> tuple:
        return ("cards", self.index)


@_model
class Param:
    """A named setting of a game instance (`params:`)."""

    name: str
    type: str | None
    default: Any
    declaration: Mapping[str, Any]     # as written, for rulelang.model.params (bounds and messages)
    span: Span


@_model
class Step:
    """One step of a turn."""

    name: str
    effect: RuleText | None
    path: tuple
    span: Span


@_model
class Phase:
    """A turn structure: `turn:`, or one of `phases:`."""

    name: str
    order: TurnOrder
    first: FirstSeat
    limit: int
    steps: tuple[Step, ...]
    until: RuleText | None
    path: tuple
    span: Span
    limit_span: Span | None    # where `limit:` is written, if it is
    until_span: Span | None

    @property
    def seat(self) -> bool:
        return self.order is TurnOrder.SEAT


@_model
class Trigger:
    """Rules run when something happens (`triggers:`)."""

    index: int
    name: str
    on: TriggerOn | None       # None: `on:` takes no known form (an error of check_decls)
    cond: RuleText | None      # `if:`
    effect: RuleText | None
    span: Span
    on_span: Span

    @property
    def path(self) -> tuple:
        return ("triggers", self.index)


@_model
class EndCondition:
    """One entry of the ordered `end:` list."""

    name: str
    when: RuleText | None
    winner: RuleText | None
    span: Span


@_model
class Procedure:
    """Statements that rules call by name."""

    name: str
    params: Mapping[str, Type]         # param -> the type its YAML word names (UNKNOWN if none)
    returns: Type | None
    effect: RuleText | None
    span: Span


@_model
class Function:
    """A value computed from arguments, by name."""

    name: str
    params: Mapping[str, Type]
    value: RuleText | None
    span: Span


#: The defaults of a game's limits, and the deepest chain of functions a game may load.
STEP_BUDGET = 100_000           # units of work between two decisions, by default
GAME_BUDGET = 20_000_000        # units of work of a whole game, by default
EVENT_LIMIT = 1_000_000         # events the log of one game keeps, by default
CALL_DEPTH = 1_000              # procedure and trigger frames on the stack, by default
FUNCTION_DEPTH = 32             # functions calling functions: deeper is refused when the game loads


@_model
class Limits:
    """The top-level limits (their ranges were checked by the schema)."""

    step_budget: int
    game_budget: int
    event_limit: int
    call_depth: int
    number_limit: int
    ask_single_options: bool
    forced_choices: str = "hidden"        # `forced_choices`: hidden (the default) or shown


@_model
class Spec:
    """A whole game's declarations, in the order the YAML gives them."""

    name: str
    path: str
    span: Span
    players: Players
    params: Mapping[str, Param]
    roles: tuple[Role, ...]
    locations: Mapping[str, Place]
    counters: Mapping[str, Place]
    vars: Mapping[str, Var]
    tables: Mapping[str, Table]
    dice: Mapping[str, Die]
    zones: Mapping[str, Zone]
    declared_tags: tuple[str, ...] | None
    card_props: Mapping[str, int]
    cards: tuple[Card, ...]
    setup: RuleText | None
    has_turn: bool                     # `turn:` is written
    has_phases: bool                   # `phases:` is written
    phases: tuple[Phase, ...]          # `phases:`, or `turn:` as the one phase
    score: RuleText | None             # one expression ...
    score_parts: Mapping[str, RuleText] | None     # ... or the sum of named parts
    heuristic: RuleText | None
    returns: RuleText | None
    returns_bounds: tuple[int, int] | None     # `returns: {min, max}`: every return lies within them
    procedures: Mapping[str, Procedure]
    functions: Mapping[str, Function]
    triggers: tuple[Trigger, ...]
    end: tuple[EndCondition, ...]
    limits: Limits

    @property
    def seat_turns(self) -> bool:
        """Some phase goes seat by seat: procedures and end conditions then know `me`."""
        return any(phase.seat for phase in self.phases)

    @property
    def tags(self) -> tuple[str, ...]:
        """The tags cards may carry: those declared, or else every tag some card carries (in card order)."""
        if self.declared_tags is not None:
            return self.declared_tags
        return tuple(dict.fromkeys(tag for card in self.cards for tag in card.tags))

    def step_names(self) -> list[str]:
        return [step.name for phase in self.phases for step in phase.steps]
