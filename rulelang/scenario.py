"""Scenario files: a rule pinned as data, without Python.

A scenario names a game, a starting position (who holds what, whose turn,
which step), the scripted choices and dice, and what must hold afterwards.
``rulelang test`` and the pytest suite run them; a failing assertion shows
the expected and the actual value.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import load_game
from .engine import Game, State, player_name
from .errors import RulelangError, ScenarioError
from .loader import Document, load_document
from .schema import validate_document

_GAMES: dict[Path, Game] = {}


@dataclass
class Scenario:
    name: str
    file: str
    data: dict
    doc: Document
    path: tuple


@dataclass
class Result:
    scenario: Scenario
    failures: list[str] = field(default_factory=list)
    error: str | None = None

    @property
    def passed(self) -> bool:
        return not self.failures and self.error is None


# --- finding and loading -----------------------------------------------------------

def scenario_files(paths: list[str]) -> list[Path]:
    """Every scenario file under the given files and folders, sorted."""
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():       # a folder: the files of its `scenarios` folders (or itself, if it is one)
            found.extend(sorted(p for p in path.rglob("*.yaml") if p.is_file()
                                and "scenarios" in p.resolve().relative_to(path.resolve().parent).parts))
        elif path.exists():
            found.append(path)
        else:
            raise ScenarioError(f"no such file or folder: {raw}")
    return found


def load_scenarios(file: Path) -> list[Scenario]:
    doc = load_document(file, includes=False)
    validate_document(doc, "scenario")
    data = doc.data
    if "scenarios" in data:
        shared = {"game": data["game"]} if "game" in data else {}
        return [Scenario(s["scenario"], str(file), shared | s, doc, ("scenarios", i))
                for i, s in enumerate(data["scenarios"])]
    return [Scenario(data["scenario"], str(file), data, doc, ())]


def game_folder(scenario: Scenario) -> Path:
    """The scenario's game folder: `game:` relative to the file, else the nearest folder with a game.yaml."""
    base = Path(scenario.file).resolve().parent
    named = scenario.data.get("game")
    if named:
        return (base / named).resolve()
    folder = next((p for p in [base, *base.parents] if (p / "game.yaml").exists()), None)
    if folder is None:
        raise ScenarioError("no game for this scenario: give 'game:' or put it under a game folder",
                            scenario.doc.span(scenario.path))
    return folder


def game_for(scenario: Scenario) -> Game:
    """The scenario's game, loaded once per process."""
    folder = game_folder(scenario)
    if folder not in _GAMES:
        _GAMES[folder] = load_game(folder)
    return _GAMES[folder]


# --- running --------------------------------------------------------------------------------

def run_scenario(scenario: Scenario, game: Game | None = None) -> Result:
    """Run one scenario against its own game, or against ``game`` (a variant of it, say)."""
    result = Result(scenario)
    data = scenario.data
    try:
        game = game or game_for(scenario)
        state, first_event = start_position(game, data.get("setup") or {}, data.get("players", game.min_players),
                                            data.get("seed", 0), data.get("stop_before"))
        play_choices(state, data.get("choices") or [], result)
    except RulelangError as error:
        wanted = data.get("expect_error")
        if wanted is not None and wanted in error.message:
            return result
        if error.span is None:            # point at the scenario, at least
            error.span = scenario.doc.span(scenario.path + ("scenario",))
        result.error = error.format()
        return result
    if data.get("expect_error") is not None:
        result.failures.append(f"expected an error containing {data['expect_error']!r}, but none happened")
    if not result.failures:
        check_expectations(state, data.get("expect") or {}, first_event, result)
    return result


def start_position(game: Game, setup: dict, players: int, seed: int,
                   stop_before: dict | None = None) -> tuple[State, int]:
    """A new game moved to the position the scenario describes, and where its own events begin.

    The game's own setup runs first (shuffles, deals); the position is laid
    out before anything of turn 1 is played.
    """
    state = game.new_state(players, seed, before_first_turn=True)
    if "zones" in setup:
        state.arrange({label: list(ids or []) for label, ids in setup["zones"].items()})
    for label, ids in (setup.get("top") or {}).items():
        state.put_on_top(label, list(ids or []))
    for holder, values in (setup.get("counters") or {}).items():
        where = _holder(state, holder)
        if where is None:
            raise ScenarioError(f"zone {holder} is empty: no card to put counters on")
        for name, value in values.items():
            state.set_counter(where, name, value)
    for who, values in (setup.get("vars") or {}).items():
        for name, value in values.items():
            state.set_var(_player(state, who), name, value)
    state.dice_script = list(setup.get("dice") or [])
    stop = stop_before or {}
    if stop:
        state.halt_before(stop["step"], stop.get("turn", setup.get("turn", 1)))
    first_event = len(state.events) if "step" in setup else 0    # else the game's own start counts
    if "step" in setup:
        active = _player(state, setup["active"]) if "active" in setup else None
        state.go_to_step(setup["step"], setup.get("turn", 1), active)
    else:
        state.resume()
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


def _holder(state: State, holder: str) -> str | int | tuple | None:
    """'game', a location, a player (P2), or a zone label: the card on top of it (None if empty)."""
    if holder == "game" or holder in state.game.locations:
        return holder
    if holder in state.lay.zone_labels:
        cards = state.zones[state.lay.zone_labels.index(holder)]
        return ("card", cards[-1]) if cards else None
    return _player(state, holder)


# --- checking ----------------------------------------------------------------------------------

def check_expectations(state: State, expect: dict, first_event: int, result: Result) -> None:
    fail = result.failures.append
    game = state.game
    for holder, values in (expect.get("counters") or {}).items():
        for name, wanted in values.items():
            if name not in game.counters:
                raise ScenarioError(f"unknown counter '{name}'")
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


# --- the report -------------------------------------------------------------------------------

def run_scenario_files(paths: list[str], out=None) -> int:
    """Run scenario files, print a pass/fail report, and return the exit code."""
    out = out or sys.stdout
    passed = failed = 0
    for file in scenario_files(paths):
        try:
            scenarios = load_scenarios(file)
        except RulelangError as error:
            print(f"ERROR {file}\n{_indent(error.format())}", file=out)
            failed += 1
            continue
        for scenario in scenarios:
            result = run_scenario(scenario)
            if result.passed:
                passed += 1
                print(f"PASS  {file}: {scenario.name}", file=out)
                continue
            failed += 1
            print(f"FAIL  {file}: {scenario.name}", file=out)
            for line in result.failures:
                print(f"      {line}", file=out)
            if result.error:
                print(_indent(result.error), file=out)
    print(f"{passed} passed, {failed} failed", file=out)
    return 1 if failed else 0


def _indent(text: str) -> str:
    return "\n".join("      " + line for line in text.splitlines())
