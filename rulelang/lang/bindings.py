"""Which names each kind of rule text sees, with their types: one table for the checker and the runtime.

A card's play effect sees `me`, `target` and `this`; an end condition sees
`me` only when turns go by seat; a score sees `p`. The checker builds each
rule text's scope from ``BINDINGS``, and the runtime builds the matching
locals when it starts that text (``tests/language/test_bindings.py`` plays the games
and holds every place that builds locals to this table). The reserved words
of the language are here too, in one place.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

from rulelang.lang.types import ANY_DIE, CARD, INT, PLAYER, UNKNOWN, ZONE, Type, list_of, roll_of

PLAYERS = list_of(PLAYER)

#: Stands for the roll's own type, `roll:DIE`, in a roll trigger's binding (see ``Binding.scope``).
ROLLED = roll_of(ANY_DIE)

#: The names that some kind of rule text binds: never a global name, never assigned to.
BOUND_WORDS = ("me", "target", "this", "card", "owner", "winners")

#: Names every rule text sees: all players, all but `me`, the game (its counters) and the turn number.
GLOBAL_WORDS = ("players", "others", "game", "turn")

#: Words a game may not use as the name of a location, counter, zone, role, table, card or param.
RESERVED_WORDS = frozenset(BOUND_WORDS) | frozenset(GLOBAL_WORDS) | {"none", "true", "false"}


class Rule(Enum):
    """A kind of rule text, by what starts it."""

    SETUP = "setup"
    STEP = "step"                   # a step's effect, and its phase's `until`
    PROCEDURE = "procedure"
    FUNCTION = "function"
    CARD_PLAY = "card play"         # `play: target`, `to` and `effect`
    ANSWER = "answer"               # `answer: when` and `effect`
    DISCARD_WHEN = "discard_when"
    ON_MOVE = "enter or leave"      # a trigger on a card entering or leaving a zone
    ON_RESOLVE = "resolve"          # a trigger after a card's effect
    BEFORE_ROLL = "before roll"
    AFTER_ROLL = "after roll"
    BEFORE_DRAW = "before draw"
    BEFORE_PLAY = "before play"
    ON_TURN = "turn or step"        # a trigger on `start turn`, `end turn`, `before step`, `after step`
    PLAYER_VALUE = "player value"   # `score` (or its parts), `heuristic`
    RETURNS = "returns"             # `returns`: told once the game is over, so it also sees the winners
    END = "end condition"           # `end: when` and `winner`


@dataclass(frozen=True)
class Binding:
    """The names one kind of rule text sees.

    ``me_by_seat``: `me` (the active player) is bound only when turns go seat by seat (the phase's, or any
    phase's for texts that outlive a phase). ``internal``: locals the runtime adds that no rule text can name.
    """

    names: Mapping[str, Type]
    me_by_seat: bool = False
    internal: tuple[str, ...] = field(default=())

    def scope(self, seat: bool = True, rolled: Type = UNKNOWN) -> dict[str, Type]:
        """The names with their types; ``rolled`` is the type of a roll trigger's `rolled` (`roll:DIE`)."""
        out = {"me": PLAYER} if self.me_by_seat and seat else {}
        out.update(self.names)
        return {name: rolled if kind == ROLLED else kind for name, kind in out.items()}

    def locals_names(self, seat: bool = True) -> frozenset[str]:
        """The keys of the runtime locals that start such a text."""
        return frozenset(self.scope(seat)) | frozenset(self.internal)


BINDINGS: dict[Rule, Binding] = {
    Rule.SETUP: Binding({}),
    Rule.STEP: Binding({}, me_by_seat=True),
    Rule.PROCEDURE: Binding({}, me_by_seat=True),      # and its params
    Rule.FUNCTION: Binding({}),                         # its params only
    Rule.CARD_PLAY: Binding({"me": PLAYER, "target": PLAYER, "this": CARD}),
    Rule.ANSWER: Binding({"me": PLAYER, "card": CARD, "this": CARD, "player": PLAYER}),
    Rule.DISCARD_WHEN: Binding({"me": PLAYER, "owner": PLAYER, "this": CARD}),
    Rule.ON_MOVE: Binding({"me": PLAYER, "owner": PLAYER, "card": CARD}),
    Rule.ON_RESOLVE: Binding({"me": PLAYER, "target": PLAYER, "card": CARD}),
    Rule.BEFORE_ROLL: Binding({"me": PLAYER, "roller": PLAYER, "dice": INT}, internal=("$roll",)),
    Rule.AFTER_ROLL: Binding({"me": PLAYER, "roller": PLAYER, "rolled": ROLLED}, internal=("$roll",)),
    Rule.BEFORE_DRAW: Binding({"me": PLAYER, "source": ZONE, "dest": ZONE}, internal=("$draw",)),
    Rule.BEFORE_PLAY: Binding({"me": PLAYER, "card": CARD, "target": PLAYER}, internal=("$play",)),
    Rule.ON_TURN: Binding({}, me_by_seat=True),
    Rule.PLAYER_VALUE: Binding({"p": PLAYER}),
    Rule.RETURNS: Binding({"p": PLAYER, "winners": PLAYERS}),
    Rule.END: Binding({}, me_by_seat=True),
}


def scope(rule: Rule, seat: bool = True, rolled: Type = UNKNOWN) -> dict[str, Type]:
    """The names (with types) a rule text of kind ``rule`` sees: see ``Binding.scope``."""
    return BINDINGS[rule].scope(seat, rolled)
