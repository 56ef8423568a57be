"""Scenario files: a rule pinned as data, without Python.

A scenario names a game, a starting position (who holds what, whose turn,
which step), the scripted choices and dice, and what must hold afterwards.
``rulelang test`` and the pytest suite run them; a failing assertion shows
the expected and the actual value.

Finding and loading scenario files and their games is in ``scenario_load.py`` (its names are
importable from here too); the checks of a scenario against its game in ``scenario_check.py``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rulelang.engine.fixtures import arrange, go_to_step, halt_before, put_on_top, resume, script_dice
from rulelang.engine.game import Game
from rulelang.engine.state import State
from rulelang.engine.views import player_name
from rulelang.errors import RuleError, RulelangError, ScenarioError
from rulelang.lang.types import COUNTER, LOCATION, PLAYER, Type, tuple_items
from rulelang.testing.scenario_check import Where, check_scenario, unknown_counter
from rulelang.testing.scenario_load import (
    GAME_FILE,
    GAME_KEYS,
    Scenario,
    added_by_mods,
    game_folder,
    game_for,
    game_roots,
    load_scenarios,
    own_mod,
    scenario_files,
    scenario_files_of,
    starting_cards,
)

__all__ = ["GAME_FILE", "GAME_KEYS", "Result", "Scenario", "added_by_mods", "check_expectations", "game_folder",
           "game_for", "game_roots", "load_scenarios", "own_mod", "run_scenario", "scenario_files", "scenario_files_of",
           "start_position"]


@dataclass
class Result:
    scenario: Scenario
    failures: list[str] = field(default_factory=list)
    error: str | None = None
    #: The game played, as far as it went, and where the scenario's own events begin in its log (its set-up
    #: step, or the game's start), so `rulelang test --show` can tell what the scenario produced.
    state: State | None = None
    first_event: int = 0

    @property
    def passed(self) -> bool:
        return not self.failures and self.error is None

    @property
    def events(self) -> list[dict]:
        """The events the scenario produced (none when no game was set up)."""
        return self.state.events[self.first_event:] if self.state is not None else []


# --- running --------------------------------------------------------------------------------

def run_scenario(scenario: Scenario, game: Game | None = None) -> Result:
    """Run one scenario against its own game, or against ``game`` (a variant of it, say)."""
    result = Result(scenario)
    data = scenario.data
    if "refused" in (data.get("expect") or {}):
        return run_refusal(scenario, result, game)
    state: State | None = None
    script_from = first_event = 0
    try:
        game = game or game_for(scenario)
        where = Where(scenario.doc, scenario.path)
        players = check_scenario(game, data, where)
        seed = data.get("seed", 0)
        state = game.new_state(players, seed, before_first_turn=True)
        script_from = len(state.events)             # rolls from here on take the scripted faces first
        state, first_event = start_position(game, data.get("setup") or {}, players, seed,
                                            data.get("stop_before"), where, state=state)
        play_choices(state, data.get("choices") or [], result)
        check_scripted_dice(scenario, state, script_from)
    except RulelangError as error:
        _keep_events(result, state, first_event)
        if state is not None and not isinstance(error, MisfitDie):   # a misfit die explains what went wrong
            error = misfit_die(scenario, state, script_from) or error
        wanted = data.get("expect_error")
        if wanted is not None and wanted in error.message:
            return result
        result.error = _located(scenario, error).format()
        return result
    _keep_events(result, state, first_event)
    if data.get("expect_error") is not None:
        result.failures.append(f"expected an error containing {data['expect_error']!r}, but none happened")
    if not result.failures:
        check_expectations(state, data.get("expect") or {}, first_event, result, added_by_mods(scenario, game))
    return result


def _keep_events(result: Result, state: State | None, first_event: int) -> None:
    """Keep the game the scenario played (one whose position failed to start included), for its events."""
    result.state, result.first_event = state, first_event


def start_position(game: Game, setup: dict, players: int, seed: int,
                   stop_before: dict | None = None, where: Where | None = None,
                   state: State | None = None) -> tuple[State, int]:
    """A new game moved to the position the scenario describes, and where its own events begin.

    The game's own setup runs first (shuffles, deals); the position is laid
    out before anything of turn 1 is played. The setup has passed ``check_scenario``;
    ``where`` locates what only the laid-out position can tell (a holder zone left empty).
    ``state``: that new game, made by the caller (who then still holds it if the position fails).
    """
    if state is None:
        state = game.new_state(players, seed, before_first_turn=True)
    if "zones" in setup:
        try:
            arrange(state, {label: list(ids or []) for label, ids in setup["zones"].items()}, setup.get("others"))
        except RulelangError as error:      # no room: point at the zone in the scenario that holds the start
            zone = getattr(error, "zone", None)
            if where is not None and zone in setup["zones"] and error.span is None:
                error.span = where.key("setup", "zones", zone)
            raise
    for label, ids in (setup.get("top") or {}).items():
        put_on_top(state, label, list(ids or []))
    for holder, values in (setup.get("counters") or {}).items():
        card = _holder(state, holder)
        if card is None:
            raise ScenarioError(f"zone {holder} is empty: no card to put counters on",
                                where.key("setup", "counters", holder) if where else None)
        for name, value in values.items():
            state.set_counter(card, name, value)
    for who, values in (setup.get("vars") or {}).items():
        for name, value in values.items():
            state.set_var(_player(state, who), name, _var_value(game, name, value, state))
    script_dice(state, setup.get("dice") or [])
    stop = stop_before or {}
    if stop:
        halt_before(state, stop["step"], stop.get("turn", setup.get("turn", 1)))
    first_event = len(state.events) if "step" in setup else 0    # else the game's own start counts
    if "step" in setup:
        active = _player(state, setup["active"]) if "active" in setup else None
        go_to_step(state, setup["step"], setup.get("turn", 1), active)
    else:
        resume(state)
    return state, first_event


def play_choices(state: State, choices: list, result: Result) -> None:
    for number, choice in enumerate(choices, 1):
        who, option = _parse_choice(choice)
        if state.over:
            result.failures.append(f"choice {number} ({who}: {option}): the game is already over")
            return
        if state.pending is None:
            result.failures.append(f"choice {number} ({who}: {option}): the game stopped before it "
                                   "(stop_before)")
            return
        decision = state.decision()
        player = _player(state, who)
        if decision is None or player not in decision.players:
            waiting = ", ".join(player_name(p) for p in decision.players) if decision else "nobody"
            result.failures.append(f"choice {number} ({who}: {option}): {who} is not choosing now "
                                   f"(waiting for {waiting})")
            return
        ids = [o.id for o in decision.options[player]]
        if option not in ids:
            result.failures.append(f"choice {number}: '{option}' is not an option of {who}; "
                                   f"options: {', '.join(ids)}")
            return
        state.apply(option, player)


def _parse_choice(choice: Any) -> tuple[str, str]:
    if isinstance(choice, dict) and len(choice) == 1:
        who, option = next(iter(choice.items()))
        return str(who), _option_text(option)
    if isinstance(choice, str) and ":" in choice:
        who, option = choice.split(":", 1)
        return who.strip(), option.strip()
    raise ScenarioError(f"a choice reads 'P1: option', not {choice!r}")


def _option_text(option: Any) -> str:
    if option is True:
        return "true"
    if option is False:
        return "false"
    return str(option)


def _player(state: State, who: Any) -> int:
    names = [player_name(p) for p in range(state.n)]
    if who not in names:
        raise ScenarioError(f"unknown player '{who}'", hint="players are " + ", ".join(names))
    return names.index(who)


def _var_value(game: Game, name: str, value: Any, state: State) -> Any:
    """A checked variable value as the engine holds it: a player by seat (places and counters set_var maps)."""
    kind = game.var_types[game.var_names.index(name)]
    elements = tuple_items(kind)
    if elements is not None:           # a tuple: each element as the engine holds it
        return [_element_value(game, k, v, state) for k, v in zip(elements, value)]
    return _player(state, value) if kind == PLAYER and value is not None else value


def _element_value(game: Game, kind: Type, value: Any, state: State) -> Any:
    if value is None or kind not in (PLAYER, LOCATION, COUNTER):
        return value
    if kind == PLAYER:
        return _player(state, value)
    return 1 + game.locations.index(value) if kind == LOCATION else game.counters.index(value)


def _holder(state: State, holder: str) -> str | int | tuple | None:
    """'game', a location, a player (P2), or a zone label: the card on top of it (None if empty)."""
    if holder == "game" or holder in state.game.locations:
        return holder
    if holder in state.lay.zone_labels:
        cards = state.zones[state.lay.zone_labels.index(holder)]
        return ("card", cards[-1]) if cards else None
    return _player(state, holder)


# --- checking ----------------------------------------------------------------------------------

def check_expectations(state: State, expect: dict, first_event: int, result: Result,
                       added: dict[str, int] | None = None) -> None:
    fail = result.failures.append
    game = state.game
    for holder, values in (expect.get("counters") or {}).items():
        for name, wanted in values.items():
            if name not in game.counters:
                raise unknown_counter(game, name, None)
            where = _holder(state, holder)
            actual = 0 if where is None else state.counter(where, name)    # an empty zone holds nothing
            if actual != wanted:
                fail(f"{holder}.{name}: expected {wanted}, got {actual}")
    for who, values in (expect.get("vars") or {}).items():
        p = _player(state, who)
        for name, wanted in values.items():
            if name not in game.var_names:
                raise ScenarioError(f"unknown variable '{name}'")
            actual = plain_var(state, p, name)
            if actual != wanted:
                fail(f"{who}.{name}: expected {_show(wanted)}, got {_show(actual)}")
    for label, wanted in (expect.get("zones") or {}).items():
        actual = [game.card_type[c].id for c in state.zones[state.zone_id_of(label)]]
        if sorted(actual) != sorted(wanted or []):
            fail(f"zone {label}: expected {sorted(wanted or [])}, got {sorted(actual)}")
    for label, wanted in (expect.get("counts") or {}).items():
        actual = len(state.zones[state.zone_id_of(label)])
        if isinstance(wanted, str):         # "all - N": N fewer than the cards the game starts there
            wanted = starting_cards(game, label) - int(wanted.partition("-")[2] or 0)
        else:                               # a number of the game's own cards, and those mods added there
            wanted += (added or {}).get(label, 0)
        if actual != wanted:
            fail(f"zone {label} holds {actual} cards, expected {wanted}")
    for key in ("over", "turn", "result"):
        if key in expect:
            actual = {"over": state.over, "turn": state.turn, "result": state.result}[key]
            if actual != expect[key]:
                fail(f"{key}: expected {_show(expect[key])}, got {_show(actual)}")
    if "winners" in expect:
        team = state.winning_team()
        actual = [team] if team else state.winner_names()
        wanted = sorted(expect["winners"])          # the team, or the players by seat
        if wanted not in (sorted(actual), sorted(state.winner_names())):
            fail(f"winners: expected {expect['winners']}, got {actual}")
    if "active" in expect and player_name(state.active) != expect["active"]:
        fail(f"active player: expected {expect['active']}, got {player_name(state.active)}")
    if "options" in expect:
        check_options(state, expect["options"], fail)
    events = state.events[first_event:]
    check_events(events, expect.get("events") or [], fail)
    for pattern in expect.get("absent") or []:
        hit = next((e for e in events if _matches(e, pattern)), None)
        if hit is not None:
            fail(f"event {pattern} should not happen, but did: {hit}")


def check_options(state: State, wanted: dict, fail) -> None:
    decision = state.decision()
    for who, ids in wanted.items():
        p = _player(state, who)
        actual = [o.id for o in decision.options.get(p, ())] if decision else []
        if sorted(actual) != sorted(_option_text(i) for i in ids):
            fail(f"options of {who}: expected {sorted(ids)}, got {sorted(actual)}")


def check_events(events: list[dict], patterns: list[dict], fail) -> None:
    """Each pattern must match an event, in this order (other events may come between)."""
    position = 0
    for pattern in patterns:
        while position < len(events) and not _matches(events[position], pattern):
            position += 1
        if position == len(events):
            fail(f"expected event {pattern} (in order) but it did not happen")
            return
        position += 1


def _matches(event: dict, pattern: dict) -> bool:
    return all(event.get(key) == value for key, value in pattern.items())


def plain_var(state: State, player: int, name: str) -> Any:
    game = state.game
    i = game.var_names.index(name)
    return game.plain(game.var_types[i], state.vars[player][i])


def _show(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


# --- pins: scripted dice fit their die; a refused player count -------------------------------

class MisfitDie(ScenarioError):
    """A scripted face that the die it is rolled on does not have (a 7 on a six-sided die)."""


def misfit_die(scenario: Scenario, state: State, script_from: int) -> MisfitDie | None:
    """The first scripted face that its die cannot show, located at that face in the scenario.

    The scripted faces are used by the first rolls after ``script_from``, in
    order, so the `rolled` events tell which die each one landed on.
    """
    script = (scenario.data.get("setup") or {}).get("dice") or []
    landed = [event["die"] for event in state.events[script_from:] for _ in _fresh_dice(event)]
    for index, (face, die) in enumerate(zip(script, landed)):
        sides = max(state.game.dice[die])
        if not 1 <= face <= sides:
            return MisfitDie(f"scripted die {index + 1} shows {face}, but it is rolled on die '{die}', "
                             f"which has {sides} faces", scenario.doc.span(scenario.path + ("setup", "dice", index)),
                             f"a scripted face of '{die}' is a number from 1 to {sides}")
    largest = max((max(faces) for faces in state.game.dice.values()), default=0)
    for index in range(len(landed), len(script)):       # faces no roll reached must still fit some die
        if not 1 <= script[index] <= largest:
            return MisfitDie(f"no die of this game has a face {script[index]}",
                             scenario.doc.span(scenario.path + ("setup", "dice", index)),
                             f"the largest die has {largest} faces")
    return None


def _fresh_dice(event: dict) -> range:
    """The dice an event rolled anew: every face of a roll, the re-rolled or added ones of a changed roll."""
    if event.get("type") == "rolled":
        return range(len(event.get("faces") or ()))
    if event.get("type") == "roll_changed":
        return range(event.get("rolled") or 0)
    return range(0)


def check_scripted_dice(scenario: Scenario, state: State, script_from: int) -> None:
    """Raise MisfitDie if a scripted face does not fit its die: a scenario pins the size of a die this way."""
    misfit = misfit_die(scenario, state, script_from)
    if misfit is not None:
        raise misfit


def run_refusal(scenario: Scenario, result: Result, game: Game | None = None) -> Result:
    """`expect: {refused: players}`: the game (its own, or the variant given) must refuse this many players."""
    data = scenario.data
    try:
        _refusal_alone(scenario)
        game = game or game_for(scenario)
    except RulelangError as error:
        result.error = _located(scenario, error).format()
        return result
    try:
        game.new_state(data["players"], data.get("seed", 0), before_first_turn=True)
    except RuleError as error:              # a rule broke while setting the game up: a fault, not a refusal
        result.error = _located(scenario, error).format()
        return result
    except RulelangError:
        return result                       # refused, as expected
    count = f"{data['players']} player" + ("" if data["players"] == 1 else "s")
    result.failures.append(f"refused: expected the game to refuse {count}, but it set up a game "
                           f"(it is for {game.min_players} to {game.max_players} players)")
    return result


def _refusal_alone(scenario: Scenario) -> None:
    """A refusal scenario names its player count and expects nothing else: no game is played."""
    data, path = scenario.data, scenario.path
    if "players" not in data:
        raise ScenarioError("a scenario expecting 'refused: players' names the player count with 'players:'",
                            scenario.doc.span(path + ("expect", "refused")), "add 'players: N'")
    others = [(key,) for key in ("setup", "choices", "stop_before", "expect_error") if key in data]
    others += [("expect", key) for key in data["expect"] if key != "refused"]
    if others:
        raise ScenarioError(f"'{others[0][-1]}' means nothing in a scenario expecting 'refused: players'",
                            scenario.doc.key_span(path + others[0]), "a refused game is never played; pin it "
                            "in another scenario")


def _located(scenario: Scenario, error: RulelangError) -> RulelangError:
    """The error, pointing at the scenario at least when it has no place of its own."""
    if error.span is None:
        error.span = scenario.doc.span(scenario.path + ("scenario",))
    return error
