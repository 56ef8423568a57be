"""`rulelang test PATH --coverage`: which rule of a game does no scenario pin?

Each mutant of the spec (``mutate``) is compiled and played against the
game's scenario files; a mutant that every scenario still passes *survived*.
A survivor is *equivalent* only when a differential search finds no
difference from the unchanged game: random games at every player count,
play from each scenario's set-up with every option tried to a bounded depth,
and random play-outs from each scenario's set-up (many seeds, a bounded
length), compared decision by decision (options offered, events, result). Otherwise it
stays a survivor, shown with the seed or the scenario set-up where it differs.
The comparison is always made against the unchanged spec in the same process,
never against stored logs.

With mods (`--mod M`), the mods are laid over the game and only the values
and rule texts that come from the mods' own files are mutated, so every
survivor points into a mod. The scenarios are those `rulelang test GAME --mod M`
runs: each mod folder's own scenarios (run first: they pin the mod) and the
game's, all over the modded game. A scenario that already fails on the
unchanged modded game because of mods not its own (a game's scenario under a
mod that changes what it pins, say) is left out and listed, not held against
the mods; one that fails under its own rules alone is refused, as a failing
scenario of a game is without mods. A mod with no scenarios is
measured by the game's scenarios alone; a mod whose files hold nothing a
mutant can change reports 0 mutants and nothing to catch.

Results do not depend on the number of workers: each process rebuilds the
numbered mutants from the spec and reports by number.
"""
from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import random
import sys
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulelang.agents import RandomAgent
from rulelang.compiler import compile_game
from rulelang.engine.game import Game
from rulelang.engine.names import player_name
from rulelang.errors import RulelangError, ScenarioError
from rulelang.lab.workers import ignore_interrupt, quiet_workers, worker_count
from rulelang.pipeline import read_spec
from rulelang.printable import counted, printable, printable_lines
from rulelang.spec.loader import load_document
from rulelang.spec.schema import validate_document
from rulelang.testing.mutate import Mutant, build, mutants
from rulelang.testing.scenario import (
    Scenario,
    game_folder,
    game_roots,
    load_scenarios,
    own_mod,
    run_scenario,
    scenario_files,
    start_position,
)

EQUIVALENCE_GAMES = 10          # random games at each player count, compared decision by decision
MAX_DECISIONS = 20_000          # a random game longer than this is cut (the original's end is known)
SEARCH_DEPTH = 2                # decisions tried exhaustively from each scenario's set-up
SEARCH_POSITIONS = 60           # positions visited at most from one scenario's set-up
PLAYOUT_DECISIONS = 40          # decisions of a random play-out from a scenario's set-up, at most
PLAYOUT_EVENTS = 50_000         # events the play-outs of one mutant may log in all: seeds until it is spent

CAUGHT, SURVIVED, EQUIVALENT, INVALID = "caught", "survived", "equivalent", "invalid"


@dataclass
class Verdict:
    index: int
    status: str
    detail: str = ""             # the scenario that caught it, where a survivor differs, or why it is invalid


@dataclass
class Report:
    path: str
    game: str
    mutants: list[Mutant]
    verdicts: list[Verdict]
    scenarios: int
    sampled: bool = False
    mods: list[str] = field(default_factory=list)
    mod_scenarios: int = 0               # of ``scenarios``, those of the mods' own folders
    left_out: list[str] = field(default_factory=list)    # scenarios that other mods than their own make fail
    counts: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.counts = {s: sum(1 for v in self.verdicts if v.status == s) for s in (CAUGHT, SURVIVED, EQUIVALENT,
                                                                                  INVALID)}

    @property
    def subject(self) -> str:
        """What was mutated, as the command line named it: the game, or the game and its mods."""
        return self.path + "".join(f" + {mod}" for mod in self.mods)

    @property
    def rate(self) -> float:
        """Percent of the valid, non-equivalent mutants that a scenario caught (100 when there are none)."""
        judged = self.counts[CAUGHT] + self.counts[SURVIVED]
        return 100.0 if judged == 0 else 100.0 * self.counts[CAUGHT] / judged

    def of(self, status: str) -> list[tuple[Mutant, Verdict]]:
        return [(self.mutants[v.index], v) for v in self.verdicts if v.status == status]

    def to_json(self) -> dict:
        def entry(m: Mutant, v: Verdict) -> dict:
            return {"file": m.file, "line": m.line, "change": m.change, "kind": m.kind, "group": m.group,
                    "status": v.status}
        return {"path": self.path, "game": self.game, "mods": self.mods, "mutants": len(self.verdicts),
                "scenarios": self.scenarios, "mod_scenarios": self.mod_scenarios, "left_out": self.left_out,
                "sampled": self.sampled, "caught": self.counts[CAUGHT], "survived": self.counts[SURVIVED],
                "equivalent": self.counts[EQUIVALENT], "invalid": self.counts[INVALID],
                "coverage": round(self.rate, 2), "by_kind": self.by_kind(),
                "survivors": [entry(m, v) | {"differs": v.detail} for m, v in self.of(SURVIVED)]
                + [entry(m, v) for m, v in self.of(EQUIVALENT)]}

    def by_kind(self) -> dict[str, dict[str, int]]:
        """For each kind of mutant, how many got each verdict."""
        table: dict[str, dict[str, int]] = {}
        for v in self.verdicts:
            row = table.setdefault(self.mutants[v.index].kind, dict.fromkeys((CAUGHT, SURVIVED, EQUIVALENT, INVALID), 0))
            row[v.status] += 1
        return table

    def format(self) -> str:
        c = self.counts
        sample = " (a sample)" if self.sampled else ""
        own = " of the mods' own files" if self.mods else ""
        of_mods = f" ({self.mod_scenarios} of them the mods')" if self.mods else ""
        lines = [f"{self.subject}: {counted(len(self.verdicts), 'mutant')}{own}{sample} against "
                 f"{counted(self.scenarios, 'scenario')}{of_mods}: {c[CAUGHT]} caught, {c[SURVIVED]} survived, {c[EQUIVALENT]} "
                 f"equivalent, {c[INVALID]} invalid (skipped)"]
        lines += self._left_out_lines()
        if not self.mutants:
            where = ("the mods' files hold no value or rule text a mutant could change (a mod that only removes "
                     "things, say)" if self.mods else "the spec holds nothing a mutant could change")
            lines.append(f"coverage: nothing to measure: {where}; counted as 100%")
        else:
            lines.append(f"coverage: {self.rate:.1f}% of {counted(c[CAUGHT] + c[SURVIVED], 'non-equivalent mutant')} caught")
        survivors = self.of(SURVIVED)
        if survivors:
            lines.append("survivors (no scenario notices them; each with where it plays differently):")
            lines.extend(_grouped(survivors))
        equivalent = self.of(EQUIVALENT)
        if equivalent:
            lines.append(f"equivalent (no difference in {EQUIVALENCE_GAMES} random games at each player count, "
                         f"within {SEARCH_DEPTH} decisions of any scenario's set-up, nor in random play-outs "
                         "from those set-ups):")
            lines.extend(_grouped(equivalent, detail=False))
        return printable_lines(lines)

    def _left_out_lines(self, shown: int = 10) -> list[str]:
        """The scenarios that fail with the mods laid over, so could judge no mutant."""
        if not self.left_out:
            return []
        more = len(self.left_out) - shown
        fail = "fails" if len(self.left_out) == 1 else "fail"
        return ([f"left out: {counted(len(self.left_out), 'scenario')} {fail} on the unchanged game with the mods laid over "
                 "(mods not their own change what they pin):"]
                + [f"  {name}" for name in self.left_out[:shown]] + ([f"  ... and {more} more"] if more > 0 else []))


def _grouped(found: Iterable[tuple[Mutant, Verdict]], detail: bool = True) -> list[str]:
    """`file:line: change` lines under their card, step or rule, each group where its first mutant comes."""
    groups: dict[str, list[tuple[Mutant, Verdict]]] = {}
    for m, v in found:
        groups.setdefault(m.group, []).append((m, v))
    out = []
    for group, items in groups.items():
        out.append(f"  {group}")
        for m, v in items:
            out.append(f"    {m.location}: {m.change}")
            if detail and v.detail:
                out.append(f"      differs: {v.detail}")
    return out


# --- one process's view of the game --------------------------------------------------------

class Subject:
    """The unchanged game, its scenarios and numbered mutants, and the baseline of random games."""

    def __init__(self, path: str, first_seed: int = 0, mods: Sequence[str] = ()):
        game_path = _game_of(Path(path))
        self.mods = tuple(mods)
        self.doc = read_spec(game_path, mods=self.mods)
        validate_document(self.doc)
        self.game = compile_game(self.doc)
        folder = game_path.resolve()
        given = Path(path)
        source = game_path if given.is_file() and given.resolve().parent == folder else given   # a spec file
        self.scenarios = gather_scenarios(source, folder, self.mods)
        self.mutants = mutants(self.doc, in_files(mod_files(self.mods)) if self.mods else None)
        self.first_seed = first_seed
        self.trees: dict = {}            # parsed rule texts, shared by the mutants' compiles
        self.originals: dict[tuple, Game] = {(): self.game}     # the unchanged game by param values

    def original(self, key: tuple) -> Game:
        """The unchanged game for a scenario's param values, compiled once."""
        if key not in self.originals:
            self.originals[key] = compile_game(self.doc, dict(key))
        return self.originals[key]

    def failing_scenarios(self) -> list[int]:
        """The numbers of the scenarios that fail on the unchanged game: they would 'catch' every mutant."""
        return [i for i, s in enumerate(self.scenarios) if not run_scenario(s, self.original(_params_key(s))).passed]

    def leave_out(self, numbers: Iterable[int]) -> list[str]:
        """Stop running these scenarios (by number); their names."""
        dropped = set(numbers)
        names = [_named(s) for i, s in enumerate(self.scenarios) if i in dropped]
        self.scenarios = [s for i, s in enumerate(self.scenarios) if i not in dropped]
        return names

    def mod_scenarios(self) -> int:
        return sum(1 for s in self.scenarios if own_mod(Path(s.file)))


    def judge(self, index: int) -> Verdict:
        mutant = self.mutants[index]
        try:
            game = build(self.doc, mutant, self.trees)
        except RulelangError as error:
            return Verdict(index, INVALID, error.message)
        except Exception as error:  # noqa: BLE001 - a compiler bug on one mutant must not end the whole run
            return Verdict(index, INVALID, f"rulelang failed to compile it ({type(error).__name__}: {error})")
        variants: dict[tuple, Game] = {(): game}

        def game_for(key: tuple) -> Game:
            """The mutant for a scenario's own param values (`params:`), compiled once per set of values."""
            if key not in variants:
                variants[key] = build(self.doc, mutant, self.trees, dict(key))
            return variants[key]
        caught_by = self.catcher(game_for)
        if caught_by is not None:
            return Verdict(index, CAUGHT, caught_by)
        witness = self.difference(game_for)
        return Verdict(index, EQUIVALENT) if witness is None else Verdict(index, SURVIVED, witness)

    def catcher(self, game_for: Callable[[tuple], Game]) -> str | None:
        """The first scenario that fails (or crashes) with this game (for its param values), if any."""
        for scenario in self.scenarios:
            try:
                passed = run_scenario(scenario, game_for(_params_key(scenario))).passed
            except Exception:  # noqa: BLE001 - a mutant that breaks the engine is noticed, not a crash of the tool
                passed = False
            if not passed:
                return f"{scenario.file}: {scenario.name}"
        return None

    def difference(self, game_for: Callable[[tuple], Game]) -> str | None:
        """Where the mutant first plays differently from the unchanged game, or None if the search finds nowhere."""
        game = game_for(())
        if (game.min_players, game.max_players) != (self.game.min_players, self.game.max_players):
            return (f"players {game.min_players}-{game.max_players}, not "
                    f"{self.game.min_players}-{self.game.max_players}")
        for players in range(self.game.min_players, self.game.max_players + 1):
            for seed in range(self.first_seed, self.first_seed + EQUIVALENCE_GAMES):
                step = random_game_difference(self.game, game, players, seed)
                if step is not None:
                    return f"a random game, seed {seed}, {players} players, at decision {step}"
        for scenario in self.scenarios:
            key = _params_key(scenario)
            path = scenario_difference(scenario, self.original(key), game_for(key))
            if path is not None:
                after = f" after {', '.join(path)}" if path else ""
                return f"from the set-up of {_named(scenario)}{after}"
        return self.playout_difference(game_for)

    def playout_difference(self, game_for: Callable[[tuple], Game]) -> str | None:
        """Where a random play-out from a scenario's set-up first differs, or None if none does.

        A difference that shows only after a round or two of choices by several players lies beyond the
        search's two decisions, and a random game from the start seldom comes near the position a
        scenario sets up. So each distinct set-up is played on at random, seed after seed (every set-up
        once with the first seed, then with the next), until the play-outs have logged
        ``PLAYOUT_EVENTS`` events: a bound on the work, not on the seeds, so a game whose decisions log
        many events (long turns of dice and moves) gets fewer seeds, and the same on any machine.
        """
        starts = distinct_setups(self.scenarios)
        spent, seed = 0, self.first_seed
        while starts and spent < PLAYOUT_EVENTS:
            for scenario in starts:
                key = _params_key(scenario)
                step, logged = playout_difference(scenario, self.original(key), game_for(key), seed)
                if step is not None:
                    return (f"a random play-out from the set-up of {_named(scenario)}, seed {seed}, "
                            f"at decision {step}")
                spent += max(1, logged)
                if spent >= PLAYOUT_EVENTS:
                    break
            seed += 1
        return None


def distinct_setups(scenarios: Sequence[Scenario]) -> list[Scenario]:
    """The first scenario of each distinct set-up (players, seed, `setup:`, params) a game accepts: the
    ones a play-out starts from (scenarios that only differ in their choices start alike)."""
    found: dict[str, Scenario] = {}
    for scenario in scenarios:
        data = scenario.data
        if "refused" in (data.get("expect") or {}):
            continue
        key = json.dumps([data.get("players"), data.get("seed"), data.get("setup"), _params_key(scenario)],
                         sort_keys=True, default=str)
        found.setdefault(key, scenario)
    return list(found.values())


def _under_own_rules(scenario: Scenario) -> bool:
    """Does the scenario play its game with no mod but its own (if it is a mod's)?"""
    return tuple(scenario.mods) == own_mod(Path(scenario.file))


def _named(scenario: Scenario) -> str:
    return f"{scenario.file}: {scenario.name}"


def gather_scenarios(source: Path, folder: Path, mods: tuple[str, ...] = ()) -> list[Scenario]:
    """The scenarios that play the game in ``folder``, as `rulelang test PATH --mod M ...` gathers them.

    Those of each mod given as a folder come first (they pin the mods, so they
    catch a mod's mutants soonest), then those under ``source``; a file reached
    twice is read once. A scenario of a mod that is not given plays another game
    and is left out. Every scenario plays the game with the mods given.

    A mod's own scenarios count the cards of the modded game as it is, but a
    scenario run under more mods than its own has its card counts adjusted to
    what the other mods add (``scenario.added_by_mods``), measured on the game
    it is given: a mutant. So when its mod is the only one given, the scenario
    names just its own mod, and a mutant's card count is not adjusted away.
    """
    given = {_mod_folder(m) for m in mods}
    roots = [m for m in mods if (Path(m) / "mod.yaml").is_file()] + [str(source)]
    found, seen = [], set()
    for file in scenario_files(roots):
        real = os.path.realpath(file)
        if real in seen:
            continue
        seen.add(real)
        for scenario in load_scenarios(file):
            own = scenario.mods
            if not set(own) <= given:
                continue
            scenario.mods = own if own and set(own) == given else mods
            scenario.default_game = folder if mods else None
            scenario.games = game_roots([str(source)])
            if game_folder(scenario) == folder:
                found.append(scenario)
    return found


def _mod_folder(mod: str) -> str:
    """The real folder of a mod given as a folder or as its mod.yaml (what ``own_mod`` names); else the file."""
    path = Path(mod)
    return os.path.realpath(path.parent if path.name == "mod.yaml" else path)


def mod_files(mods: Sequence[str]) -> set[str]:
    """The real paths of every file the mods read: their main files and what they include."""
    from rulelang.mods.layers import MOD_FILE

    found: set[str] = set()
    for mod in mods:
        path = Path(mod)
        doc = load_document(path / MOD_FILE if path.is_dir() else path)
        found.update(os.path.realpath(f) for f in _files_of(doc, doc.data, ()))
    return found


def _files_of(doc, value: Any, path: tuple) -> Iterable[str]:
    """The file of every value of a loaded document."""
    yield doc.span(path).file
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        yield from _files_of(doc, item, path + (key,))


def in_files(files: set[str]) -> Callable[[str], bool]:
    """A test on a mutant's file: is it one of ``files`` (real paths)?"""
    return lambda file: os.path.realpath(file) in files


def _params_key(scenario) -> tuple:
    """A scenario's own param values as a key (empty: the game's defaults)."""
    return tuple(sorted((scenario.data.get("params") or {}).items()))


def _game_of(path: Path) -> Path:
    """The game folder of a path: itself, or the nearest folder above it with a game.yaml (a scenario path)."""
    folder = path.parent if path.is_file() else path
    for candidate in [folder, *folder.parents]:
        if (candidate / "game.yaml").is_file():
            return candidate
    return folder          # loading it reports what is missing


# --- the differential search ---------------------------------------------------------------------

def observed(state: Any, seen: int) -> tuple:
    """What a position shows from event ``seen`` on: the new events, the options offered, the result.

    The events since the last decision are compared as a set with repeats: two
    independent statements in the other order (two counters reset) log the
    same events in another order, and that order is no rule anyone can play
    differently; anything that depends on it shows in what follows.
    """
    events = sorted(json.dumps(event, sort_keys=True, default=str) for event in state.events[seen:])
    return (events,) + _offered_and_result(state)


def _offered_and_result(state: Any) -> tuple:
    """The options offered to each player still to choose, whether the game is over, and who won."""
    pend = state.pending
    offered = None if pend is None else (
        tuple(pend["players"]),
        tuple(None if done is not None else tuple(o[0] for o in options)
              for done, options in zip(pend["chosen"], pend["options"])))
    return (offered, state.over, tuple(state.winners or ()) if state.over else ())


def alike(a: Any, b: Any, seen: int) -> bool:
    """Whether two positions show the same (``observed``) from event ``seen`` on. Events logged in the same
    order are the same set at once, without writing each as text: most positions of the search are so, and
    a value the spec types (a number, a flag) cannot turn into another type in a mutant that validates."""
    if a.events[seen:] == b.events[seen:]:
        return _offered_and_result(a) == _offered_and_result(b)
    return observed(a, seen) == observed(b, seen)


def _started(make: Callable[[], Any]) -> tuple[Any, str | None]:
    """(a state, None), or (None, the error) when the rules fail to start it."""
    try:
        return make(), None
    except Exception as error:  # noqa: BLE001 - a rule error or a broken mutant: either is an outcome
        return None, f"{type(error).__name__}: {error}"


def _applied(state: Any, option: str, player: int) -> str | None:
    """Apply an option in place; the error it raises, if any, as text (an outcome to compare)."""
    try:
        state.apply(option, player)
        return None
    except Exception as error:  # noqa: BLE001 - see _started
        return f"{type(error).__name__}: {error}"


def _chooser(state: Any) -> int | None:
    """The next player who must choose, or None when the game waits for nobody."""
    pend = state.pending
    if state.over or pend is None:
        return None
    return pend["players"][pend["chosen"].index(None)]


def random_game_difference(original: Game, mutant: Game, players: int, seed: int) -> int | None:
    """The first decision at which one random game (same seed, same agent) shows a difference; None if never."""
    return played_difference(lambda game: game.new_state(players, seed), original, mutant, seed, MAX_DECISIONS)[0]


def playout_difference(scenario: Scenario, original: Game, mutant: Game, seed: int) -> tuple[int | None, int]:
    """A random play-out (agent seeded ``seed``) from the scenario's set-up, of ``PLAYOUT_DECISIONS`` at
    most: (the first decision at which the games differ, or None; the events it logged)."""
    return played_difference(lambda game: _scenario_start(scenario, game), original, mutant, seed,
                             PLAYOUT_DECISIONS)


def played_difference(start: Callable[[Game], Any], original: Game, mutant: Game, seed: int,
                      limit: int) -> tuple[int | None, int]:
    """Both games started alike and played by one random agent (seeded ``seed``), the mutant taking the
    original's choices: (the first decision at which they differ within ``limit``, or None if they never
    do; the events the original logged from its start)."""
    a, error_a = _started(lambda: start(original))
    b, error_b = _started(lambda: start(mutant))
    if a is None or b is None:
        return (None if error_a == error_b else 0), 0
    agent, seen = RandomAgent(seed), 0
    first = len(a.events)
    for step in range(limit + 1):       # the last decision's consequences are compared too
        if not alike(a, b, seen):
            return step, len(a.events) - first
        seen = len(a.events)
        player = _chooser(a)
        if player is None or step == limit:
            break
        option = agent.choose(a, player)
        error = _applied(a, option, player)
        if error != _applied(b, option, player):
            return step + 1, len(a.events) - first
        if error is not None:
            break                   # both games fail alike: nothing further to compare
    return None, len(a.events) - first


def _scenario_start(scenario: Scenario, game: Game) -> Any:
    """A game at the scenario's set-up (its dice scripted), before any of its choices."""
    data = scenario.data
    players = data.get("players", game.min_players)
    seed = data.get("seed", 0)
    return start_position(game, data.get("setup") or {}, players, seed)[0]


def scenario_difference(scenario: Scenario, original: Game, mutant: Game) -> list[str] | None:
    """The choices after which the two games first differ from this scenario's set-up, every option tried to
    ``SEARCH_DEPTH`` decisions (at most ``SEARCH_POSITIONS`` positions); None if none differs."""
    if "refused" in (scenario.data.get("expect") or {}):
        return None                 # a player count or set-up the game refuses: no position to play from
    a, error_a = _started(lambda: _scenario_start(scenario, original))
    b, error_b = _started(lambda: _scenario_start(scenario, mutant))
    if error_a or error_b:
        return None if error_a == error_b else []
    frontier: deque[tuple[Any, Any, list[str], int]] = deque([(a, b, [], 0)])
    visited = 0
    while frontier and visited < SEARCH_POSITIONS:          # breadth first: the shortest difference is shown
        a, b, path, seen = frontier.popleft()
        visited += 1
        if not alike(a, b, seen):
            return path
        player = _chooser(a)
        if player is None or len(path) >= SEARCH_DEPTH:
            continue
        for option in a.legal(player):
            next_a, next_b, step = a.copy(), b.copy(), path + [f"{player_name(player)} {option}"]
            error = _applied(next_a, option, player)
            if error != _applied(next_b, option, player):
                return step
            if error is None:
                frontier.append((next_a, next_b, step, len(a.events)))
    return None


# --- running -------------------------------------------------------------------------------------

_SUBJECT: Subject | None = None


def _start_worker(path: str, first_seed: int, mods: tuple[str, ...], left_out: list[int]) -> None:
    global _SUBJECT
    ignore_interrupt()
    _SUBJECT = Subject(path, first_seed, mods)
    _SUBJECT.leave_out(left_out)


def _judge(index: int) -> Verdict:
    assert _SUBJECT is not None
    return _SUBJECT.judge(index)


def chosen(total: int, sample: int | None, seed: int) -> list[int]:
    """The mutant numbers to run: all, or a seeded sample of ``sample`` of them."""
    if sample is None or sample >= total:
        return list(range(total))
    return sorted(random.Random(seed).sample(range(total), sample))


def ready_subject(path: str, seed: int = 0, mods: Sequence[str] = ()) -> tuple[Subject, list[int]]:
    """The game (with ``mods``) and its scenarios, checked on the unchanged game; the numbers left out.

    A scenario that fails on the unchanged game would catch every mutant. One
    that plays under its own rules only (a game's without mods, a mod's under
    that mod alone) is broken and refused; one that plays under mods not its own
    (a game's scenario under any mod, a mod's under other mods too) pins a rule
    those mods may change on purpose: it is left out and reported.
    """
    subject = Subject(path, seed, mods)
    failing = subject.failing_scenarios()
    refused = [subject.scenarios[i] for i in failing if _under_own_rules(subject.scenarios[i])]
    if refused:
        command = "rulelang test PATH" + "".join(f" --mod {m}" for m in mods)
        raise ScenarioError("scenarios fail on the unchanged game, so they would catch every mutant: "
                            + "; ".join(_named(s) for s in refused), hint=f"fix them first ({command})")
    return subject, failing


def run_coverage(path: str, workers: int = 1, seed: int = 0, sample: int | None = None,
                 tick: Callable[[int, int], None] | None = None, mods: Sequence[str] = ()) -> Report:
    """Judge the mutants of the game at ``path`` (of the ``mods``' own files, if any mods are given).

    ``tick(done, total)`` reports progress.
    """
    subject, failing = ready_subject(path, seed, mods)
    left_out = subject.leave_out(failing)
    indices = chosen(len(subject.mutants), sample, seed)
    verdicts: list[Verdict] = []
    if tick:
        tick(0, len(indices))
    workers = worker_count(workers, len(indices))
    if workers <= 1:
        global _SUBJECT
        _SUBJECT = subject
        results: Iterable[Verdict] = map(_judge, indices)
        for verdict in results:
            verdicts.append(verdict)
            if tick:
                tick(len(verdicts), len(indices))
    else:
        with contextlib.ExitStack() as stack:
            with quiet_workers():
                pool = stack.enter_context(multiprocessing.get_context().Pool(
                    workers, _start_worker, (path, seed, tuple(mods), failing)))
            for verdict in pool.imap_unordered(_judge, indices, chunksize=4):
                verdicts.append(verdict)
                if tick:
                    tick(len(verdicts), len(indices))
    verdicts.sort(key=lambda v: v.index)
    return Report(path, subject.game.name, subject.mutants, verdicts, len(subject.scenarios),
                  sampled=len(indices) < len(subject.mutants), mods=list(mods),
                  mod_scenarios=subject.mod_scenarios(), left_out=left_out)


# --- the command ----------------------------------------------------------------------------------

def _progress_bar() -> Any:
    """A rich progress bar on a terminal's stderr, else None."""
    if not sys.stderr.isatty():
        return None
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    return Progress(TextColumn("{task.description}", markup=False), BarColumn(), MofNCompleteColumn(),
                    TimeRemainingColumn(), console=Console(stderr=True), transient=True)


def coverage_command(paths: list[str], workers: int, as_json: bool, min_coverage: float | None, seed: int,
                     sample: int | None, out=None, mods: Sequence[str] = ()) -> int:
    """Run the coverage of each game (of the mods' files, with ``mods``), print the report (or JSON), return the exit code."""
    out = out or sys.stdout
    reports = []
    for path in paths:
        bar = _progress_bar()
        if bar is None:
            reports.append(run_coverage(path, workers, seed, sample, mods=mods))
            continue
        with bar:
            what = f"mutants of {', '.join(mods)}" if mods else f"mutants of {path}"
            task = bar.add_task(printable(what), total=None)
            reports.append(run_coverage(path, workers, seed, sample,
                                        lambda done, total, bar=bar, task=task: bar.update(task, completed=done, total=total), mods))
    if as_json:
        print(json.dumps([r.to_json() for r in reports], sort_keys=True), file=out)
    else:
        print("\n\n".join(r.format() for r in reports), file=out)
    below = [r for r in reports if min_coverage is not None and r.rate < min_coverage]
    for report in below:
        print(printable(f"rulelang: {report.subject}: coverage {report.rate:.1f}% is below {min_coverage:g}%"),
              file=sys.stderr)
    return 1 if below else 0
