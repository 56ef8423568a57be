"""The sections of a rulebook, gathered from a checked game: what it is made of, not how it is written.

A ``Book`` is sections of ``Item``s; an item is one thing of the game (a zone, a step, a card, an end
condition...) with its facts and its rules in words (``Part``), the rulings its entry names, and where the
spec writes it. ``render`` writes a book out; ``modded`` compares two books item by item, by ``key``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rulelang.model.spec import Card, Event, Phase, Spec, Zone
from rulelang.printable import counted

from ..errors import Span
from .checked import Checked
from .words import Line, Words, article, humane, listed, upper_first

#: A rule in words: (depth, words) for each line, in reading order.
Lines = list[tuple[int, str]]


@dataclass
class Part:
    """One labelled part of an item: "Effect", "Played on", ... and its lines (no label: plain facts)."""

    label: str | None
    lines: Lines


@dataclass
class Item:
    key: tuple[str, str]               # (kind, name): the same thing in two books has the same key
    title: str
    parts: list[Part]
    rulings: list[str]
    span: Span | None
    marks: list[str] = field(default_factory=list)    # e.g. "changed by mod Sharp Blades"
    path: tuple = ()                   # where the spec writes it (its rule texts are under this path)

    def words(self) -> str:
        """Everything the item says, for comparing two books."""
        lines = [self.title] + [f"{part.label}:{depth}:{text}" for part in self.parts for depth, text in part.lines]
        return "\n".join(lines + self.rulings)


@dataclass
class Section:
    title: str
    intro: list[str]
    items: list[Item]
    ordered: bool = False              # its items are numbered (steps, end conditions)


@dataclass
class Book:
    title: str
    players: str
    sections: list[Section]
    rulings: dict[str, tuple[str, str]]            # id -> (what it decides, the rulebook section)
    changes: list[tuple[str, list[str]]] = field(default_factory=list)    # (mod, what it changes)

    def items(self) -> list[Item]:
        return [item for section in self.sections for item in section.items]


def facts(*texts: str) -> Part:
    return Part(None, [(0, text) for text in texts if text])


def lines(label: str | None, rule: list[Line]) -> Part:
    return Part(label, [pair for line in rule for pair in line.flat()])


class BookMaker:
    """Builds the ``Book`` of one checked game."""

    def __init__(self, checked: Checked):
        self.checked = checked
        self.spec: Spec = checked.spec
        self.words = Words(checked.spec)

    def rule(self, label: str | None, text: Any) -> list[Part]:
        tree = self.checked.tree(text)
        return [lines(label, self.words.rule(tree))] if tree is not None else []

    def item(self, kind: str, name: str, title: str, parts: list[Part], path: tuple, span: Span | None) -> Item:
        return Item((kind, name), title, [p for p in parts if p.lines], self.checked.rulings_of(path), span,
                    path=tuple(path))

    def make(self) -> Book:
        spec = self.spec
        # the published rulebooks' order: what is in the box, setup, a turn, scoring and winning, then the cards
        sections = [self.components(), self.setup(), *self.turns(), self.procedures(), self.scoring(),
                    self.ending(), *self.cards(), self.reactions()]
        rulings = {name: (self.checked.ruling_text(name), self.checked.ruling_section(name))
                   for name in (self.checked.doc.data.get("rulings") or {})}
        players = player_range(spec)
        return Book(spec.name, players, [s for s in sections if s.items or s.intro], rulings)

    # -- components ---------------------------------------------------------------------

    def components(self) -> Section:
        spec, items = self.spec, []
        for zone in spec.zones.values():
            items.append(self.item("zone", zone.name, upper_first(zone.label or humane(zone.name)),
                                   [facts(*self.zone_facts(zone))], ("zones", zone.name), zone.span))
        for name, die in spec.dice.items():
            outcomes = [f"{', '.join(map(str, faces))}: {humane(outcome)}" for outcome, faces in die.outcomes.items()]
            items.append(self.item("die", name, f"The {humane(name)} die",
                                   [facts(f"{die.faces} faces; {'; '.join(outcomes) or 'no named outcomes'}.",
                                          f"Its rolls are seen by {_SEEN.get(die.visibility, die.visibility)}.")],
                                   ("dice", name), die.span))
        for name, place in spec.counters.items():
            items.append(self.item("counter", name, upper_first(place.label or humane(name)),
                                   [facts("A counter, without limit.", _props(place.props))],
                                   ("counters", name), place.span))
        for name, place in spec.locations.items():
            items.append(self.item("location", name, upper_first(place.label or humane(name)),
                                   [facts("A location.", _props(place.props))], ("locations", name), place.span))
        for name, var in spec.vars.items():
            items.append(self.item("variable", name, f"Each player's {humane(name)}",
                                   [facts(f"{upper_first(article(str(var.type)))} kept for each player, "
                                          f"{_initial(var.initial)} at the start; seen by "
                                          f"{_SEEN.get(var.visibility, var.visibility)}.")], ("vars", name), var.span))
        for name, param in spec.params.items():
            items.append(self.item("param", name, f"Setting: {humane(name)}",
                                   [facts(f"Default {param.default!s}; it may be set for one game "
                                          f"(--param {name}=VALUE).")], ("params", name), param.span))
        intro = [f"{player_range(self.spec)}."]
        intro += [self.deck_summary(zone) for zone in spec.zones.values() if self.cards_in(zone.name)]
        return Section("Components", intro, items)

    def zone_facts(self, zone: Zone) -> list[str]:
        where = "one for each player" if zone.owner.value == "player" else "one on the table"
        out = [f"A pile of cards, {where}; seen by {_SEEN.get(zone.visibility, zone.visibility)}."]
        if zone.refill_from:
            out.append(f"When it runs out, the {self.words.zone_label(zone.refill_from)} is shuffled "
                       f"into it.")
        if zone.discard:
            out.append(f"Its cards are discarded to the {self.words.zone_label(zone.discard)}.")
        if zone.unique:
            out.append("It holds at most one card of each slot: a newcomer discards the card in its slot.")
        if zone.unique_with:
            others = listed([f"the {self.words.zone_label(z)}" for z in zone.unique_with])
            out.append(f"A slot held in {others} counts as held here.")
        return out

    def cards_in(self, zone: str) -> list[Card]:
        return [card for card in self.spec.cards if card.zone == zone and not card.token]

    def deck_summary(self, zone: Zone) -> str:
        cards = self.cards_in(zone.name)
        total = sum(card.count for card in cards)
        return f"{upper_first(zone.label or humane(zone.name))}: {counted(total, 'card')}, " \
               f"{listed([f'{card.count} {card.name}' for card in cards])}."

    # -- setup ------------------------------------------------------------------------------

    def setup(self) -> Section:
        spec, items = self.spec, []
        if spec.setup is not None:
            items.append(self.item("setup", "setup", "Before the first turn", self.rule(None, spec.setup),
                                   ("setup",), None))
        for count in range(spec.players.min, spec.players.max + 1):
            said = self.by_count(count)
            if said:
                items.append(self.item("players", str(count), f"With {counted(count, 'player')}", [facts(*said)],
                                       ("players",), spec.players.span))
        return Section("Setup", [], items)

    def by_count(self, count: int) -> list[str]:
        """What changes with the number of players: the roles' seats, the rows of the tables."""
        out = []
        if self.spec.roles:
            left = count - sum(role.count or 0 for role in self.spec.roles)
            seats = [f"{role.count if role.count is not None else max(left, 0)} {humane(role.name)}"
                     for role in self.spec.roles]
            out.append(f"Seats: {listed(seats)}.")
        for name, table in self.spec.tables.items():
            row = table.rows.get(count)
            if row is not None:
                cells = [f"{humane(column)} {value}" for column, value in zip(table.columns, row)]
                out.append(f"{upper_first(humane(name))}: {listed(cells)}.")
        return out

    # -- turns ------------------------------------------------------------------------------

    def turns(self) -> list[Section]:
        return [self.phase(phase) for phase in self.spec.phases]

    def phase(self, phase: Phase) -> Section:
        title = "The turn" if not self.spec.has_phases else f"Phase: {humane(phase.name)}"
        order = "Players take turns in seat order" if phase.seat else "Every player acts in each round, together"
        first = {"first": "seat 1 goes first", "random": "a random player goes first",
                 "next": "the player after the last turn's goes first"}[phase.first.value]
        intro = [f"{order}; {first}. At most {counted(phase.limit, 'turn')}."]
        intro += [f"Ruling {name}: {self.checked.ruling_text(name)}" for name in self.checked.rulings_of(phase.path)]
        if phase.until is not None:
            tree = self.checked.tree(phase.until)
            if tree is not None:
                intro.append(f"It lasts until {self.words.phrase(tree)}.")
        items = [self.item("step", step.name, upper_first(step.name), self.rule(None, step.effect),
                           step.path, step.span) for step in phase.steps]
        return Section(title, intro, items, ordered=True)

    # -- cards --------------------------------------------------------------------------------

    def cards(self) -> list[Section]:
        """A section per starting zone (the Tree deck, the Jack deck), its cards in the spec's order."""
        zones = list(dict.fromkeys(card.zone for card in self.spec.cards))
        return [Section(f"Cards: {upper_first(self.words.zone_label(zone))}", [],
                        [self.card(card) for card in self.spec.cards if card.zone == zone]) for zone in zones]

    def card(self, card: Card) -> Item:
        copies = "a token" if card.token else counted(card.count, "copy", "copies")
        about = [f"{upper_first(copies)}, starting in the {self.words.zone_label(card.zone)}."]
        if card.tags:
            about.append(f"Kinds: {', '.join(humane(tag) for tag in card.tags)}.")
        if card.named_slot or card.slot != card.id:
            about.append(f"Slot: {humane(card.slot)}.")
        if card.props:
            about.append(upper_first(_props(card.props)))
        parts = [facts(*about)]
        if card.play is not None:
            parts += self.rule("May be played on a player when", card.play.target) or \
                [facts("It is played on yourself.")]
            parts += self.rule("Goes to", card.play.to) or [Part("Goes to", [(0, "its discard pile as it resolves")])]
            parts += self.rule("When played", card.play.effect)
        else:
            parts.append(facts("It is not played from a hand."))
        if card.answer is not None:
            parts += self.rule("May answer a card just played when", card.answer.when)
            parts += self.rule("When it answers", card.answer.effect)
        parts += self.durations(card)
        return self.item("card", card.id, card.name, parts, card.path, card.span)

    def durations(self, card: Card) -> list[Part]:
        out = self.rule("Discarded as soon as", card.discard_when)
        lasts = []
        if card.discard_after_roll:
            lasts.append(f"until its owner's next {humane(card.discard_after_roll)} roll, then it is discarded")
        if card.lasts_in:
            lasts.append(f"its durations hold while it is in a {self.words.zone_label(card.lasts_in)}")
        return out + ([Part("Lasts", [(0, text) for text in lasts])] if lasts else [])

    # -- reactions and durations ------------------------------------------------------------------

    def reactions(self) -> Section:
        items = []
        for trig in self.spec.triggers:
            parts = [facts(f"When: {_on_words(self.words, trig.on)}.")]
            parts += self.rule("Only if", trig.cond)
            parts += self.rule("Then", trig.effect)
            items.append(self.item("trigger", trig.name, upper_first(trig.name), parts, trig.path, trig.span))
        answers = [card.name for card in self.spec.cards if card.answer is not None]
        lasting = [card.name for card in self.spec.cards
                   if card.discard_when is not None or card.discard_after_roll or card.lasts_in]
        intro = []
        if answers:
            intro.append(f"Cards that answer a card just played (see each card): {listed(answers)}.")
        if lasting:
            intro.append(f"Cards that last only for a while (see each card): {listed(lasting)}.")
        return Section("Reactions and durations", intro, items)

    # -- procedures, functions, scoring, end --------------------------------------------------------

    def procedures(self) -> Section:
        items = []
        for name, proc in self.spec.procedures.items():
            given = listed([f"{param} ({kind})" for param, kind in proc.params.items()])
            parts = [facts(f"Given {given}." if given else "")] + self.rule(None, proc.effect)
            items.append(self.item("procedure", name, f"\u201c{humane(name)}\u201d", parts,
                                   ("procedures", name), proc.span))
        for name, fn in self.spec.functions.items():
            given = listed(list(fn.params))
            parts = [facts(f"Given {given}." if given else "")] + self.rule("Its value", fn.value)
            items.append(self.item("function", name, f"\u201c{humane(name)}\u201d", parts, ("functions", name),
                                   fn.span))
        return Section("Procedures and values", [], items)

    def scoring(self) -> Section:
        spec, items = self.spec, []
        if spec.score is not None:
            items.append(self.item("score", "score", "A player's score", self.rule(None, spec.score),
                                   ("score",), None))
        for name, part in (spec.score_parts or {}).items():
            items.append(self.item("score", name, f"Score: {humane(name)}", self.rule(None, part),
                                   ("score", name), None))
        if spec.returns is not None:
            items.append(self.item("returns", "returns", "What each player gets at the end",
                                   self.rule(None, spec.returns), ("returns",), None))
        return Section("Scoring", [], items)

    def ending(self) -> Section:
        items = []
        for index, cond in enumerate(self.spec.end):
            parts = self.rule("The game ends when", cond.when) + self.rule("The winner", cond.winner)
            items.append(self.item("end", cond.name, upper_first(cond.name), parts, ("end", index), cond.span))
        intro = ["The conditions are checked in this order whenever the rules say to check; the first that "
                 "holds ends the game."] if items else []
        return Section("End of the game", intro, items, ordered=True)


def make_book(checked: Checked) -> Book:
    return BookMaker(checked).make()


#: Who sees a zone, a die or a variable, in words.
_SEEN = {"public": "everyone", "owner": "its owner only", "hidden": "no one"}


def _props(props: Any) -> str:
    return "; ".join(f"{humane(str(key))}: {value}" for key, value in dict(props).items()) + "." if props else ""


def _initial(value: Any) -> str:
    if value is None:
        return "none"
    if value is True or value is False:
        return "true" if value else "false"
    return str(value)


def _on_words(words: Words, on: Any) -> str:
    if on is None:
        return "never"
    subject = on.subject
    return {Event.ENTER: lambda: f"a card enters a {words.zone_label(subject)}",
            Event.LEAVE: lambda: f"a card leaves a {words.zone_label(subject)}",
            Event.RESOLVE: lambda: f"{article(words.kind(subject))} card has been played and resolved",
            Event.BEFORE_ROLL: lambda: f"before a {humane(subject)} roll",
            Event.AFTER_ROLL: lambda: f"after a {humane(subject)} roll",
            Event.START_TURN: lambda: "a turn starts",
            Event.END_TURN: lambda: "a turn ends",
            Event.BEFORE_STEP: lambda: f"before the step \u201c{subject}\u201d",
            Event.AFTER_STEP: lambda: f"after the step \u201c{subject}\u201d",
            Event.BEFORE_DRAW: lambda: "before a player draws",
            Event.BEFORE_PLAY: lambda: "before a card is played"}[on.event]()


def player_range(spec: Spec) -> str:
    """How many play, in words: "2 to 8 players", or "2 players" when the game is for one count."""
    low, high = spec.players.min, spec.players.max
    return f"{low} to {high} players" if low != high else counted(low, "player")
