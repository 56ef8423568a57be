"""The sites of decisions, recorded while statements are compiled (see rulelang/model/decisions.py).

Each instruction that asks a decision is registered with its name, kind,
rulings and, where the spec fixes them, every option it could offer: the
game's catalogue (``Game.decisions``) that policies are checked against, and
the table by instruction (``Proc.sites``) that names a waiting decision.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rulelang.engine.game import Game
from rulelang.engine.names import NAMES
from rulelang.lang import nodes as n
from rulelang.lang.types import CARD, COUNTER, LOCATION, PLAYER, Type
from rulelang.model.decisions import DecisionSite, Place

#: The WHAT of a decision with no variable and no `as NAME`.
CHOICE, PLAY, ANSWER = "choice", "play", "answer"


def target_word(target: n.Expr) -> str:
    """The variable a choice is stored in: ``n``, ``pick`` of ``p.pick``; ``choice`` when it has no name."""
    if isinstance(target, n.Name):
        return target.id
    if isinstance(target, n.Attr):
        return target.name
    return CHOICE


class Sites:
    """Names and records the decision sites of the code being compiled."""

    def __init__(self, game: Game):
        self.game = game
        self.place = Place("rules")

    def add(self, codes: dict[int, DecisionSite], pc: int, kind: str, what: str, span: Any,
            options: tuple[tuple[str, str], ...] | None, numeric: bool = False) -> DecisionSite:
        """Record that instruction ``pc`` (of the procedure whose ``codes`` these are) asks this decision."""
        name = self.name(what)
        site = DecisionSite(name, kind, self.place.rule, options, numeric, span)
        codes[pc] = site
        self.game.decisions.setdefault(name, []).append(site)
        return site

    def name(self, what: str) -> str:
        """The name of a decision asked here: ``WHERE.WHAT`` (rulelang/model/decisions.py)."""
        return f"{self.place.where}.{what}"

    def items(self, kind: Type, fixed: tuple[bool, Any], text: Callable) -> tuple[tuple[str, str], ...] | None:
        """Every (id, label) a choice among items of ``kind`` could offer: the fixed list, or all of that kind."""
        known, values = fixed
        if known and isinstance(values, list):
            return _unique(text(None, v) for v in values)
        game = self.game
        if kind == PLAYER:
            return tuple((name, name) for name in NAMES[:game.max_players])
        if kind == CARD:
            return _unique((c.id, c.name) for c in game.cards)
        if kind == LOCATION:
            return tuple((name, game.location_labels[name]) for name in game.locations)
        if kind == COUNTER:
            return tuple((name, game.counter_labels[name]) for name in game.counters)
        return None

    def plays(self, else_discard: bool) -> tuple[tuple[str, str], ...]:
        """What `play from` may offer: each playable card (``ID``, or ``ID>P2`` on a target), or a discard."""
        cards, seats = self.game.cards, NAMES[:self.game.max_players]       # the spec's cards, playable or not
        options = [(c.id, f"play {c.name}") for c in cards]
        options += [(f"{c.id}>{seat}", f"play {c.name} on {seat}") for c in cards for seat in seats]
        if else_discard:
            options += [(f"discard:{c.id}", f"discard {c.name}") for c in self.game.cards]
        return _unique(options)

    def answers(self) -> tuple[tuple[str, str], ...]:
        """What an answer window may offer: each card that answers, or pass."""
        return _unique([(f"answer:{c.id}", f"answer with {c.name}") for c in self.game.cards] + [("pass", "pass")])


def _unique(pairs) -> tuple[tuple[str, str], ...]:
    seen: dict[str, str] = {}
    for oid, label in pairs:
        seen.setdefault(str(oid), str(label))
    return tuple(seen.items())
