"""Events in words: the play-by-play that `rulelang run` and `rulelang play` print; and a player's view in
words (`view_sections`), which `rulelang play` prints and `rulelang serve` sends to the page.

People read labels, not ids: a card by its name, an option by its label, a location, counter, role or
variable by its label (else its name in words), and a changed roll with the player whose die it is.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from rulelang.engine.rules import Rules
from rulelang.engine.views import HIDDEN_CHOICE
from rulelang.lang.types import CARD, COUNTER, LOCATION, Type, tuple_items
from rulelang.printable import counted, printable

#: Events whose line is a heading, printed after a blank line.
_HEADINGS = frozenset({"turn", "phase", "ended"})


class Narrator:
    """The play-by-play of one game told in order: one line per event, in the game's words.

    It remembers whose the last roll of each die was, so a change of a roll (a re-roll, dice added, a
    face changed: ``roll_changed``, which does not say whose roll it is) names the player whose die it
    is. That roll is the last one of the die, as the views take it to be (``Account``): a change comes
    from the roll's own `after roll` triggers or durations, right after it.
    """

    def __init__(self, game: Rules, scores_by_turn: dict[int, list[int]] | None = None) -> None:
        self.game = game
        self.scores_by_turn = scores_by_turn
        self.rolls: dict[str, str | None] = {}     # die -> the player whose die its last roll was

    def line(self, event: dict) -> str | None:
        """One readable line for an event, or None for events too small to show.

        ``scores_by_turn`` (turn -> scores at its start), when the caller watched the
        game, adds the scores to each turn's heading. The line is printable (names
        and labels come from the spec: ``printable``); a heading comes after a blank line.
        """
        kind = event["type"]
        if kind == "turn" and self.scores_by_turn and event["turn"] in self.scores_by_turn:
            event = dict(event, scores=self.scores_by_turn[event["turn"]])
        elif kind in ("rolled", "roll_changed"):
            event = self.whose_roll(event)
        say = _SAYINGS.get(kind)
        line = say(self.game, event) if say else None
        if line is None:
            return None
        return "\n" + printable(line) if kind in _HEADINGS else printable(line)

    def whose_roll(self, event: dict) -> dict:
        """A roll remembered as the one its die last made; a change of it told with the player it is for."""
        die = event["die"]
        if event["type"] == "rolled":
            self.rolls[die] = event.get("for") or event.get("player")
            return event
        if event["how"] == "cancelled":     # a roll stopped before it was made: not the last roll's
            self.rolls[die] = None
            return event
        whose = self.rolls.get(die)
        return dict(event, whose=whose) if whose else event


def narrate(game: Rules, event: dict, scores_by_turn: dict[int, list[int]] | None = None) -> str | None:
    """One event's line on its own (``Narrator.line``); a game told in order is told by one ``Narrator``,
    which also says whose die a changed roll is."""
    return Narrator(game, scores_by_turn).line(event)


@dataclass(frozen=True)
class _Words:
    """The words of one game, looked up once per game, not once per event: names and labels by id."""

    cards: dict[str, str]               # card id -> name
    zones: dict[str, str]               # zone name -> label
    locations: dict[str, str]           # location id -> label
    counters: dict[str, str]            # counter id -> label
    options: dict[tuple[str, str], str | None]   # (decision kind, option id) -> label; None: two labels
    any_options: dict[str, str | None]  # option id -> label, whatever the kind; None: two labels
    vars: dict[str, tuple[str, Type]]   # variable -> (its words, its type)


@lru_cache(maxsize=8)
def _words(game: Rules) -> _Words:
    """Every option a decision may offer (the catalogue, ``Game.decisions``) and every declared name's words."""
    options: dict[tuple[str, str], str | None] = {}
    any_options: dict[str, str | None] = {}
    for sites in game.decisions.values():
        for site in sites:
            for oid, label in site.options or ():
                _learn(options, (site.kind, oid), label)
                _learn(any_options, oid, label)
    counters = {c: game.counter_labels.get(c, readable(c)) for c in game.counters}
    locations = {name: game.location_labels.get(name, readable(name)) for name in game.locations}
    named = {name: (game.var_labels.get(name) or readable(name), kind)
             for name, kind in zip(game.var_names, game.var_types)}
    return _Words({c.id: c.name for c in game.cards}, {z.name: readable(z.label) for z in game.zones}, locations,
                  counters, options, any_options, named)


def _learn(labels: dict, key, label: str) -> None:
    """Keep an option's label; one id with two different labels keeps none (None), so none is guessed."""
    if labels.setdefault(key, label) != label:
        labels[key] = None


def readable(name: str) -> str:
    """An id as words, where nothing gives it a label: ``lend_to`` is "lend to"."""
    return name.replace("_", " ")


def option_words(game: Rules, kind: str, option: str) -> str:
    """An option as people read it: its label among the options a decision of this kind offers (a branch's
    text, a card's name, a location's or counter's label), else the card, location or counter it names,
    else the id in words. ``kind`` is the decision's (``branch``, ``choose``, ``secret``...)."""
    words = _words(game)
    label = words.options.get((kind, option)) or words.any_options.get(option)
    return (label or words.cards.get(option) or words.locations.get(option) or words.counters.get(option)
            or readable(option))


def _card(game: Rules, card_id: str) -> str:
    return _words(game).cards.get(card_id, card_id)


def role_words(game: Rules, role: str) -> str:
    """A role by its label ("the Dealer"), else its name in words."""
    return game.role_labels.get(role) or readable(role)


def counter_words(game: Rules, counter: str) -> str:
    """A counter by its label ("gold coin"), else its name in words."""
    return _words(game).counters.get(counter, readable(counter))


def var_words(game: Rules, var: str) -> tuple[str, Type | None]:
    """A variable by its label, else its name in words, and its type (None: not a variable of the game)."""
    return _words(game).vars.get(var, (readable(var), None))


def _started(game: Rules, e: dict) -> str:
    seats = ", ".join(f"P{i + 1} {role_words(game, role)}" for i, role in enumerate(e["roles"]))
    return f"{e['game']}: {counted(e['players'], 'player')}, seed {e['seed']} ({seats}); {e['first']} starts"


def _turn(game: Rules, e: dict) -> str:
    who = f": {e['player']}" if "player" in e else ""
    return f"== Turn {e['turn']}{who} ==" + _scores(e)


def _scores(e: dict) -> str:
    if e.get("scores") is None:
        return ""
    return "  (scores: " + ", ".join(f"P{i + 1} {s}" for i, s in enumerate(e["scores"])) + ")"


def zone_words(game: Rules, label: str) -> str:
    """'hand:P2' reads "P2's hand"; a zone's own `label` is used where the spec gives one."""
    name, _, owner = label.partition(":")
    words = _words(game).zones.get(name, readable(name))
    return f"{owner}'s {words}" if owner else words


def _moved(game: Rules, e: dict) -> str:
    name = _card(game, e["card"])
    how = e.get("how", "move")
    zone, _, owner = e["to"].partition(":")
    if how == "draw":
        where = f" to their {zone_words(game, zone)}" if owner else f" to {zone_words(game, e['to'])}"
        return f"  {owner or 'the table'} draws {name}{where}"
    if how == "play":
        return f"  {name} goes to {zone_words(game, e['to'])}"
    reasons = {"replaced": "is replaced", "cancelled": "is cancelled", "answered": "is spent",
               "resolved": "resolves", "discarded": "is discarded", "expired": "is used up",
               "created": "is created"}
    reason = reasons.get(how, "moves")
    return f"  {name} {reason}: {zone_words(game, e['from'])} -> {zone_words(game, e['to'])}"


def _revealed(game: Rules, e: dict) -> str:
    """Secret choices shown together, or cards shown to a player (or to all) where they lie."""
    if "choices" in e:
        return "  revealed: " + ", ".join(f"{p} {option_words(game, 'secret', c)}" for p, c in e["choices"].items())
    whom = "everyone" if e["to"] == "all" else e["to"]
    shown = ", ".join(f"{_card(game, c)} ({zone_words(game, z)})" for c, z in zip(e["cards"], e["zones"]))
    return f"  shown to {whom}: {shown}"


def _rolled(game: Rules, e: dict) -> str:
    who = f"{e['player']} rolls" if e.get("player") else "roll:"
    whose = f" for {e['for']}" if e.get("for") else ""
    faces = " ".join(str(f) for f in e["faces"]) or "no dice"
    return f"  {who} {len(e['faces'])} {e['die']}{whose}: {faces}"


def _rolled_again(game: Rules, e: dict) -> str:
    """A change of a roll, with the player whose die it is when the roll was told (``Narrator``)."""
    roll = f"{e['whose']}'s roll of {e['die']}" if e.get("whose") else f"the roll of {e['die']}"
    if e["how"] == "cancelled":
        return f"  {roll} is cancelled"
    how = _CHANGES.get(e["how"], e["how"])
    return f"  {roll} {how}: " + (" ".join(str(f) for f in e["faces"]) or "no dice")


#: How each change of a roll reads after "P2's roll of d6".
_CHANGES = {"rerolled": "is rolled again", "added": "gets more dice", "removed": "loses dice",
            "changed": "is changed"}


def _set(game: Rules, e: dict) -> str | None:
    """A variable or a counter set: "P4 lends to: P3" with the variable's label, else "P4's lend to: P3"."""
    if "var" in e:
        if e["value"] is None or e["value"] is False:
            return None            # a variable cleared for the next turn: bookkeeping, not play
        var = e["var"]
        words, kind = var_words(game, var)
        value = value_words(game, e["value"], kind)
        if var in game.var_labels:
            return f"  {e['player']} {words}: {value}"
        return f"  {e['player']}'s {words}: {value}"
    counter = counter_words(game, e["counter"])
    holder = e["holder"]
    if holder == "game":
        return f"  {counter}: {e['value']}"
    return f"  {holder_words(game, holder)}'s {counter}: {e['value']}"


def _transferred(game: Rules, e: dict) -> str:
    counter = counter_words(game, e["counter"])
    return f"  {e['amount']} {counter}: {holder_words(game, e['from'])} -> {holder_words(game, e['to'])}"


def holder_words(game: Rules, holder: str) -> str:
    """A holder of counters as players see it: a card ('id#instance') by name, a location by its label,
    the game's own counters as "the table"."""
    card_id, hash_, _ = holder.partition("#")
    if hash_:
        return _card(game, card_id)
    if holder == "game":
        return "the table"
    return _words(game).locations.get(holder, holder)


def value_words(game: Rules, value, kind: Type | None = None) -> str:
    """A value as the rules write it, a card, location or counter by its name (``kind``: the variable's type)."""
    if value is None:
        return "none"
    if value is True:
        return "yes"
    if value is False:
        return "no"
    if isinstance(value, list):         # a tuple, as the rules write it
        items = tuple_items(kind)
        elements: list[Type | None] = list(items) if items is not None else [None] * len(value)
        return "(" + ", ".join(value_words(game, v, k) for v, k in zip(value, elements)) + ")"
    if isinstance(value, str) and kind in (CARD, LOCATION, COUNTER):
        words = _words(game)
        names = words.cards if kind == CARD else words.locations if kind == LOCATION else words.counters
        return names.get(value, value)
    return str(value)


def _chose(game: Rules, e: dict) -> str | None:
    """A choice the others see: the option by its label (a card, secret or answer choice is told by the
    events it causes)."""
    kind = e.get("decision")
    if kind in ("secret", "play", "answer"):
        return None
    option = e["option"]
    words = option if option == HIDDEN_CHOICE else option_words(game, kind or "", option)
    return f"  {e['player']} chooses {words}"


_SAYINGS = {
    "started": _started,
    "turn": _turn,
    "step": lambda g, e: f" - {e['step']}",
    "phase": lambda g, e: f"###### Phase: {e['phase']} ######",
    "chose": _chose,
    "revealed": lambda g, e: _revealed(g, e),
    "transferred": _transferred,
    "set": _set,
    "moved": _moved,
    "rolled": _rolled,
    "roll_changed": _rolled_again,
    "cancelled": lambda g, e: f"  the draw of {e['player'] or 'the table'} is cancelled" if e["action"] == "draw"
    else f"  {e['player']}'s play of {_card(g, e['card'])} is cancelled",
    "played": lambda g, e: f"  {e['player']} plays {_card(g, e['card'])}"
                           + (f" on {e['target']}" if e["target"] != e["player"] else ""),
    "answered": lambda g, e: f"  {e['player']} answers with {_card(g, e['card'])}, cancelling "
                             f"{_card(g, e['cancels'])}",
    "skipped": lambda g, e: f"  {e['player']} skips this turn",
    "another_turn": lambda g, e: f"  {e['player']} takes another turn",
    "eliminated": lambda g, e: f"  {e['player']} is eliminated",
    "cleared": lambda g, e: f"  the counters on the {holder_words(g, e['holder'])} fall off",
    "shuffled": lambda g, e: f"  {zone_words(g, e['zone'])} is shuffled",
    "refilled": lambda g, e: f"  {zone_words(g, e['zone'])} is refilled from {zone_words(g, e['from'])}",
    "ended": lambda g, e: f"Game over on turn {e['turn']}: {e['condition']}. Winners: "
                          f"{e['team'] or ', '.join(e['winners']) or 'nobody'}"
                          + (f" ({', '.join(e['winners'])})" if e.get("team") else "") + _scores(e),
}


# --- a player's view in words -----------------------------------------------------------

def view_sections(game: Rules, view: dict) -> list[dict]:
    """A player's view in named sections of [label, value] rows, everything by its name or label as the
    play-by-play names it (the terminal prints them as lines, `rulelang serve` sends them to the page): the
    turn with the table's counters, the players, the zones, the cards shown to the viewer. The text is the
    spec's, unescaped."""
    table = [[holder_words(game, holder), _counters(game, counters)]
             for holder, counters in view["counters"].items() if counters]
    players = []
    for i, seat in enumerate(view["players"]):
        facts = [_counters(game, seat["counters"])] if seat["counters"] else []
        facts += [_var(game, name, value) for name, value in seat["vars"].items() if value not in (None, False, 0)]
        score = f", score {view['scores'][i]}" if view.get("scores") else ""
        you = " (you)" if seat["name"] == view["you"] else ""
        players.append([f"{seat['name']}{you} {role_words(game, seat['role'])}{score}", ", ".join(facts)])
    zones = []
    for label, cards in view["zones"].items():
        where = zone_words(game, label)
        if isinstance(cards, int):
            zones.append([where, f"{counted(cards, 'card')} face down" if cards else "empty"])
        elif cards:
            zones.append([where, ", ".join(value_words(game, c, CARD) for c in cards)])
    shown = [[f"shown to you in {zone_words(game, label)}", ", ".join(value_words(game, c, CARD) for c in cards)]
             for label, cards in view.get("revealed", {}).items()]
    you = f"; you are {view['you']}" if view["you"] is not None else ""
    return [{"title": f"Turn {view['turn']}, {view['active']} is active{you}", "rows": table},
            {"title": "Players", "rows": players}, {"title": "Zones", "rows": zones},
            {"title": "Shown to you", "rows": shown}]


def _counters(game: Rules, counters: dict) -> str:
    return ", ".join(f"{counter_words(game, name)} {value}" for name, value in counters.items())


def _var(game: Rules, name: str, value) -> str:
    words, kind = var_words(game, name)
    return f"{words} {value_words(game, value, kind)}"
