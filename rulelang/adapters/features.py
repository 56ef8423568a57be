"""A player's view as a fixed-length list of numbers, for learners that want vectors rather than strings.

The layout is fixed per game and player count, from the spec alone: the turn
and whether the game is over; who is active and who looks (one-hot seats);
every counter of the game and of each location; each player's counters,
variables and score; and for every zone its card count followed by how many
of each card type the looker sees there (cards of a hidden zone revealed to
them count too). A variable holding a name (a player, location, counter or
card) is its position in the game's list of names, from 1 (0 is none); a
tuple variable takes one number per element.

The length grows as zones times card kinds: a large spec asked for 358
million numbers (2.9 GB) for each observation. Past ``MAX_VIEW_NUMBERS`` the
encoder is refused with an error that says why; the observation strings
(the view as JSON) work for every game.
"""
from __future__ import annotations

from typing import Any

from rulelang import Game, RulelangError, State
from rulelang.engine.names import seat_of
from rulelang.lang.types import tuple_items

#: Most numbers in one observation vector: 4 MB as float32, far past what the games and examples need.
MAX_VIEW_NUMBERS = 1_000_000


class ViewEncoder:
    """Turns ``State.view(p)`` into a list of ``size`` floats with the same meaning at each position."""

    def __init__(self, game: Game, players: int, sample: State):
        self.players = players
        self.holders = ["game"] + list(game.locations)
        self.counters = list(game.counters)
        self.var_names = list(game.var_names)
        #: How many numbers each variable takes: one, or one per element of a tuple (its type is `(a,b,...)`).
        self.var_widths = [len(tuple_items(kind) or [kind]) for kind in game.var_types]
        self.cards = list(dict.fromkeys(c.id for c in game.cards))
        self.card_index = {cid: i for i, cid in enumerate(self.cards)}
        self.zones = list(sample.view(None)["zones"])
        self.size = (2 + 2 * players + len(self.holders) * len(self.counters)
                     + players * (len(self.counters) + sum(self.var_widths) + 1)
                     + len(self.zones) * (1 + len(self.cards)))
        if self.size > MAX_VIEW_NUMBERS:
            raise self._too_large(game.name)
        names = [f"P{p + 1}" for p in range(players)] + self.holders[1:] + self.counters + self.cards
        self.names = {name: i + 1 for i, name in enumerate(dict.fromkeys(names))}

    def _too_large(self, game: str) -> RulelangError:
        return RulelangError(
            f"the view of {game!r} for {self.players} players as numbers would take {self.size:,} of them "
            f"({len(self.zones):,} zones, each a count and {len(self.cards):,} card kinds); an observation vector "
            f"holds at most {MAX_VIEW_NUMBERS:,}",
            hint="use the observation strings (the view as JSON) instead, or a game with fewer zones or card kinds")

    def encode(self, view: dict) -> list[float]:
        out: list[float] = [float(view["turn"]), 1.0 if view["over"] else 0.0]
        out += self._one_hot(view["active"]) + self._one_hot(view["you"])
        for holder in self.holders:
            held = view["counters"].get(holder, {})
            out += [float(held.get(c, 0)) for c in self.counters]
        scores = view.get("scores") or [0] * self.players
        for seat, player in enumerate(view["players"]):
            out += [float(player["counters"].get(c, 0)) for c in self.counters]
            for name, width in zip(self.var_names, self.var_widths):
                value = player["vars"].get(name)
                out += [self._value(value)] if width == 1 else self._values(value, width)
            out.append(float(scores[seat]))
        revealed = view.get("revealed", {})
        for zone in self.zones:
            out += self._zone(view["zones"].get(zone, 0), revealed.get(zone, ()))
        return out

    def _one_hot(self, name: Any) -> list[float]:
        seat = seat_of(name)
        seat = -1 if seat is None else seat
        return [1.0 if p == seat else 0.0 for p in range(self.players)]

    def _value(self, value: Any) -> float:
        if value is None:
            return 0.0
        if isinstance(value, bool):
            return 1.0 if value else 0.0
        if isinstance(value, (int, float)):
            return float(value)
        return float(self.names.get(str(value), 0))

    def _values(self, value: Any, width: int) -> list[float]:
        """A tuple's elements (zeros for a value the looker may not see)."""
        items = value if isinstance(value, list) else []
        return [self._value(x) for x in items[:width]] + [0.0] * (width - len(items[:width]))

    def _zone(self, content: Any, revealed: Any) -> list[float]:
        kinds = [0.0] * len(self.cards)
        seen = list(content) if isinstance(content, list) else []
        for cid in seen + list(revealed):
            if cid in self.card_index:
                kinds[self.card_index[cid]] += 1.0
        count = float(len(content)) if isinstance(content, list) else float(content)
        return [count] + kinds
