"""A scenario checked against its game before it runs.

The schema knows only shapes; whether `P4` is a player, `5` fits a bool
variable or a zone label exists depends on the game and the player count.
Every such mistake is a located error pointing at the scenario file's line,
raised before the game starts, instead of a value the engine would take and
trip over much later in an unrelated rule.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from rulelang.engine.rules import Layout, Rules
from rulelang.engine.views import player_name
from rulelang.errors import ScenarioError, Span, did_you_mean
from rulelang.lang.types import BOOL, COUNTER, INT, INT64, LOCATION, PLAYER, Type, tuple_items

#: The largest value a scenario may give a counter (a signed 64-bit integer); counters never go below 0.
#: Player variables of type int hold signed 64-bit values too.
INT_RANGE = (-(2**63), 2**63 - 1)


class Where:
    """Source spans of one scenario's nodes, addressed by keys below the scenario."""

    def __init__(self, doc, base: tuple) -> None:
        self.doc = doc
        self.base = base

    def value(self, *keys: Any) -> Span:
        return self.doc.span(self.base + keys)

    def key(self, *keys: Any) -> Span:
        return self.doc.key_span(self.base + keys)


def check_scenario(game: Rules, data: dict, where: Where) -> int:
    """Check every name and value of a scenario against the game; return its player count."""
    players = check_players(game, data.get("players", game.min_players), where)
    lay = game.layout(players)
    names = [player_name(p) for p in range(players)]
    check_setup(game, lay, names, data.get("setup") or {}, where)
    stop = data.get("stop_before") or {}
    if "step" in stop:
        check_step(game, stop["step"], where.value("stop_before", "step"))
    check_choices(data.get("choices") or [], names, where)
    check_expect(game, lay, names, data.get("expect") or {}, where)
    return players


def check_players(game: Rules, players: int, where: Where) -> int:
    if not game.min_players <= players <= game.max_players:
        raise ScenarioError(f"{game.name} is for {game.min_players} to {game.max_players} players, not {players}",
                            where.value("players"))
    return players


# --- setup ----------------------------------------------------------------------------------------

def check_setup(game: Rules, lay: Layout, names: list[str], setup: dict, where: Where) -> None:
    if "step" in setup:
        check_step(game, setup["step"], where.value("setup", "step"))
    if "active" in setup:
        if "step" not in setup:
            raise ScenarioError("'active' takes effect only with 'step' (the step to start at)",
                                where.key("setup", "active"), hint="add 'step:' to the setup, or remove 'active:'")
        check_player(setup["active"], names, where.value("setup", "active"))
    check_placed_cards(game, lay, setup.get("zones") or {}, ("setup", "zones"), where, across_zones=True)
    check_placed_cards(game, lay, setup.get("top") or {}, ("setup", "top"), where, across_zones=False)
    if "others" in setup:
        check_zone(game, lay, setup["others"], where.value("setup", "others"))
    for holder, values in (setup.get("counters") or {}).items():
        check_holder(game, lay, names, holder, where.key("setup", "counters", holder))
        for name, value in (values or {}).items():
            check_counter_name(game, name, where.key("setup", "counters", holder, name))
            check_counter_value(value, where.value("setup", "counters", holder, name), game.number_limit)
    for who, values in (setup.get("vars") or {}).items():
        check_player(who, names, where.key("setup", "vars", who))
        for name, value in (values or {}).items():
            kind = var_kind(game, name, where.key("setup", "vars", who, name))
            check_var_value(game, kind, name, value, names, where.value("setup", "vars", who, name))
    check_dice(game, setup.get("dice") or [], where)


def check_step(game: Rules, step: Any, span: Span) -> None:
    steps = game.step_pcs
    if step not in steps:
        hint = did_you_mean(str(step), steps) or "the steps are: " + ", ".join(f"'{s}'" for s in steps)
        raise ScenarioError(f"unknown step '{step}'", span, hint=hint)


def check_player(who: Any, names: list[str], span: Span) -> int:
    if who not in names:
        raise ScenarioError(f"unknown player '{who}'", span,
                            hint=f"this scenario has {len(names)} players: " + ", ".join(names))
    return names.index(who)


def check_zone(game: Rules, lay: Layout, label: Any, span: Span) -> None:
    """A zone label: a table zone by name, a player's zone as name:P2 (with a hint when the owner is wrong)."""
    if label in lay.zone_labels:
        return
    name, colon, owner = str(label).partition(":")
    decl = next((z for z in game.zones if z.name == name), None)
    if decl is None:
        hint = did_you_mean(str(label), lay.zone_labels) or _listing("zones", lay.zone_labels)
    elif decl.owner == "table":
        hint = f"'{name}' is a table zone: name it '{name}', without an owner"
    elif not colon:
        hint = f"'{name}' is a zone of each player: name one as '{name}:P1'"
    else:
        hint = f"this scenario has {lay.n} players: P1 to {player_name(lay.n - 1)}"
    raise ScenarioError(f"unknown zone '{label}'", span, hint=hint)


def check_placed_cards(game: Rules, lay: Layout, zones: dict, keys: tuple, where: Where, across_zones: bool) -> None:
    """Zone labels and card ids of `zones` or `top`, and no more copies of a card than the game has."""
    copies = Counter(t.id for t in game.card_type)
    used: Counter = Counter()
    for label, ids in zones.items():
        check_zone(game, lay, label, where.key(*keys, label))
        if not across_zones:
            used = Counter()              # `top` takes each zone's cards from anywhere, zone by zone
        for i, cid in enumerate(ids or []):
            span = where.value(*keys, label, i)
            if cid not in copies:
                raise ScenarioError(f"unknown card '{cid}'", span,
                                    hint=did_you_mean(str(cid), copies) or _listing("cards", sorted(copies)))
            used[cid] += 1
            if used[cid] > copies[cid]:
                raise ScenarioError(f"the game has only {copies[cid]} '{cid}' card{'s' * (copies[cid] != 1)}",
                                    span, hint="each card can be placed once")


def check_holder(game: Rules, lay: Layout, names: list[str], holder: Any, span: Span) -> None:
    if holder == "game" or holder in game.locations or holder in names or holder in lay.zone_labels:
        return
    if isinstance(holder, str) and holder[:1] == "P" and holder[1:].isdigit():
        check_player(holder, names, span)
    known = ["game", *game.locations, *names, *lay.zone_labels]
    raise ScenarioError(f"unknown holder '{holder}'", span,
                        hint=did_you_mean(str(holder), known)
                        or "a holder is 'game', a location, a player (P1) or a zone (its top card)")


def check_counter_name(game: Rules, name: Any, span: Span | None) -> None:
    if name not in game.counters:
        raise unknown_counter(game, name, span)


def unknown_counter(game: Rules, name: Any, span: Span | None) -> ScenarioError:
    """A counter the game has not: a variable's name says so, and where a variable goes."""
    if name in game.var_names:
        return ScenarioError(f"'{name}' is a variable, not a counter", span,
                             hint=f"give a variable under `vars:`, by player: {{P1: {{{name}: VALUE}}}}")
    return ScenarioError(f"unknown counter '{name}'", span,
                         hint=did_you_mean(str(name), game.counters) or _listing("counters", game.counters))


def check_counter_value(value: Any, span: Span, limit: int = INT64) -> None:
    if not _is_int(value):
        raise ScenarioError(f"a counter holds a whole number, not {_shown(value)}", span)
    if value < 0:
        raise ScenarioError(f"a counter cannot be negative ({value})", span, hint="counters never go below 0")
    if value > limit:
        raise ScenarioError(f"{value} is more than a counter can hold", span,
                            hint=f"the largest is {limit:,} (the game's number_limit)")


def var_kind(game: Rules, name: Any, span: Span) -> Type:
    if name not in game.var_names:
        raise ScenarioError(f"unknown variable '{name}'", span,
                            hint=did_you_mean(str(name), game.var_names) or _listing("variables", game.var_names))
    return game.var_types[game.var_names.index(name)]


def check_var_value(game: Rules, kind: Type, name: str, value: Any, names: list[str], span: Span) -> None:
    """A value of the variable's declared type, as a scenario writes it (players and places by name)."""
    elements = tuple_items(kind)
    if elements is not None:            # a tuple: a list of its elements, each checked as its own type
        if not isinstance(value, list) or len(value) != len(elements):
            got = f"a list of {len(value)}" if isinstance(value, list) else _shown(value)
            raise ScenarioError(f"'{name}' is a ({', '.join(map(str, elements))}) variable: expected a list of "
                                f"{len(elements)} values, got {got}", span)
        for k, (element, item) in enumerate(zip(elements, value)):
            check_var_value(game, element, f"{name}[{k}]", item, names, span)
    elif kind == INT:
        if not _is_int(value) or not INT_RANGE[0] <= value <= INT_RANGE[1]:
            raise ScenarioError(f"'{name}' is an int variable: expected a whole number, got {_shown(value)}", span)
    elif kind == BOOL:
        if not isinstance(value, bool):
            raise ScenarioError(f"'{name}' is a bool variable: expected true or false, got {_shown(value)}", span)
    elif value is None:
        return
    elif kind == PLAYER:
        if value not in names:
            raise ScenarioError(f"'{name}' is a player variable: expected a player of this scenario or null, "
                                f"got {_shown(value)}", span, hint="players are " + ", ".join(names))
    elif kind in (LOCATION, COUNTER):
        known = game.locations if kind == LOCATION else game.counters
        if value not in known:
            raise ScenarioError(f"'{name}' is a {kind} variable: expected a {kind} or null, got {_shown(value)}",
                                span, hint=did_you_mean(str(value), known) or _listing(f"{kind}s", known))
    else:
        raise ScenarioError(f"'{name}' is a {kind} variable: a scenario can set it only to null", span,
                            hint="a card id names a kind of card, not one card")


def check_dice(game: Rules, dice: list, where: Where) -> None:
    """Scripted dice need a game with dice. Whether each face fits is told by the die it lands on,
    after the run (``scenario.misfit_die``), which names that die."""
    if dice and not game.dice:
        raise ScenarioError("this game has no dice to script", where.key("setup", "dice"))


# --- choices and expectations ------------------------------------------------------------------------

def check_choices(choices: list, names: list[str], where: Where) -> None:
    for i, choice in enumerate(choices):
        if isinstance(choice, dict):
            for who in choice:
                check_player(who, names, where.key("choices", i, who))
        elif isinstance(choice, str) and ":" in choice:
            check_player(choice.split(":", 1)[0].strip(), names, where.value("choices", i))


def check_expect(game: Rules, lay: Layout, names: list[str], expect: dict, where: Where) -> None:
    for holder, values in (expect.get("counters") or {}).items():
        check_holder(game, lay, names, holder, where.key("expect", "counters", holder))
        for name in values or {}:
            check_counter_name(game, name, where.key("expect", "counters", holder, name))
    for who, values in (expect.get("vars") or {}).items():
        check_player(who, names, where.key("expect", "vars", who))
        for name in values or {}:
            var_kind(game, name, where.key("expect", "vars", who, name))
    for key in ("zones", "counts"):
        for label in expect.get(key) or {}:
            check_zone(game, lay, label, where.key("expect", key, label))
    for label, wanted in (expect.get("counts") or {}).items():
        if isinstance(wanted, str) and label not in {z.name for z in game.zones if z.owner == "table"}:
            raise ScenarioError(f"'{wanted}' counts the cards that start in a table zone; '{label}' is not one",
                                where.value("expect", "counts", label), hint="give a number of cards")
    for who in expect.get("options") or {}:
        check_player(who, names, where.key("expect", "options", who))
    if "active" in expect:
        check_player(expect["active"], names, where.value("expect", "active"))
    for i, winner in enumerate(expect.get("winners") or []):
        if winner not in names and winner not in lay.team_players:
            raise ScenarioError(f"unknown winner '{winner}'", where.value("expect", "winners", i),
                                hint="winners are players (" + ", ".join(names) + ")"
                                + (" or teams (" + ", ".join(lay.team_players) + ")" if lay.team_players else ""))


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _shown(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f"the text '{value}'"
    return repr(value) if not isinstance(value, (dict, list)) else type(value).__name__


def _listing(what: str, names: Iterable[str]) -> str:
    names = list(names)
    return f"the {what} are: " + ", ".join(names) if names else f"this game has no {what}"
