"""The `rulelang` commands other than `run`: validate, test, replay, compile, simulate, sweep, play, mods, new, lsp.

Each ``cmd_<name>`` takes the parsed arguments and returns the exit code; most are thin over the module
that does the work (``sim``, ``scenario_report``, ``coverage``, ``lab``, ``play``, ``mods_report``,
``scaffold``), imported when the command runs so that starting the command stays quick. A path that
cannot be used is a usage error (exit 2) before any game is loaded.
"""
from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from rulelang.cli.errors import internal_error, missing_path, say
from rulelang.errors import RulelangError, UsageError
from rulelang.model.params import ParamError
from rulelang.printable import printable


def cmd_validate(args: argparse.Namespace) -> int:
    """Check every path given, even after one fails; the exit code is the worst outcome."""
    worst = 0
    for path in args.paths:
        worst = max(worst, validate_one(path, args.games, args.seed, args.mods, args.params, args.time_limit))
    return worst


def validate_one(path: str, games: int, seed: int, mods: Sequence[str] = (), params: dict | None = None,
                 seconds: float | None = None) -> int:
    """Load one game and play its smoke test (each player count's games for ``seconds`` at most); report the
    outcome and return its exit code."""
    from rulelang import load_game

    missing = missing_path(path)
    if missing:
        say(lambda: printable(f"rulelang: error: {missing}"))
        return 2
    started = time.perf_counter()
    try:
        game = load_game(path, mods, params)
        smoke = None
        if games > 0:
            from rulelang.testing.smoke import (
                smoke_test,  # only then: `--games 0` is the quick check of an editor's save
            )
            smoke = smoke_test(game, games, seed, seconds)
        problems = smoke.problems if smoke is not None else []
    except RulelangError as error:
        say(error.format)
        return 1
    except ParamError as refused:
        say(lambda refused=refused: printable(f"rulelang: error: {path}: {refused}"))
        return 2
    except (KeyboardInterrupt, BrokenPipeError):
        raise
    except Exception as error:  # noqa: BLE001 - a bug of rulelang: report it for this path, go on with the others
        say(lambda error=error: printable(f"{path}: {internal_error(error)}"))
        return 3
    if problems:
        for problem in problems:
            prefix = "" if problem.span is not None else printable(f"{path}: ")
            print(prefix + problem.format(), file=sys.stderr)
        return 1
    took = time.perf_counter() - started
    played = f", {games} random games per player count" if games > 0 else ""
    modded = "".join(f" + {mod}" for mod in mods)
    if smoke is not None and smoke.cut_short:
        counts = ", ".join(map(str, smoke.cut_short))
        played = (f", {smoke.played} of its {smoke.planned} random games: those of {counts} players stopped at "
                  f"the time limit of {seconds:g}s a player count")
    print(printable(f"ok: {path}{modded} ({game.name}{played}, {took:.2f}s)"))
    if smoke is not None and smoke.cut_short:
        say(lambda: printable(f"rulelang: note: {path}: the random games stopped at the time limit "
                              f"({smoke.played} of {smoke.planned} played); raise --time-limit to play them all"))
    return 0


# --- test ----------------------------------------------------------------------------

def cmd_test(args: argparse.Namespace) -> int:
    """Run the scenarios of every path that exists; a missing path is a usage error (exit 2)."""
    from rulelang.testing.scenario_report import run_scenario_files

    if args.coverage:
        if args.show or args.events:
            raise UsageError("--show and --events go without --coverage")
        return _coverage(args)
    if args.json or args.min_coverage is not None or args.sample is not None or args.workers != 1:
        raise UsageError("--workers, --json, --min-coverage and --sample go with --coverage")
    for game in args.games:
        missing = missing_path(game)
        if missing:
            raise UsageError(missing)
    code = 0
    present = []
    for path in args.paths:
        missing = missing_path(path)
        if missing:
            say(lambda missing=missing: printable(f"rulelang: error: {missing}"))
            code = 2
        else:
            present.append(path)
    if present:
        code = max(code, run_scenario_files(present, mods=args.mods, params=args.params, games=args.games,
                                            show=args.show, events=args.events))
    return code


# --- replay ----------------------------------------------------------------------------

def cmd_replay(args: argparse.Namespace) -> int:
    """Exit 0 when the log is the game's own, event for event; 1 at the first line that is not."""
    from rulelang import load_game
    from rulelang.logs.eventlog import read_log
    from rulelang.logs.replay import verify_log

    for path in (args.path, args.log):
        missing = missing_path(path)
        if missing:
            raise UsageError(missing)
    events = read_log(args.log)
    try:
        game = load_game(args.path, args.mods, {**_logged_params(events), **args.params})
    except ParamError as refused:
        raise UsageError(f"{args.log}: the params of its 'started' event do not fit the game: {refused}") from None
    check = verify_log(game, events)
    if not check.ok:
        say(check.report(args.log).format)
        return 1
    print(printable(check.summary(args.log)))
    return 0


def cmd_compile(args: argparse.Namespace) -> int:
    """Print the generated Python of a game, so a designer or developer can read what a rule became."""
    from rulelang import load_game

    missing = missing_path(args.path)
    if missing:
        raise UsageError(missing)
    game = load_game(args.path, args.mods, args.params)
    print(game.program.source(), end="")
    return 0


def _logged_params(events: list) -> dict:
    """The param values a log's `started` event records (none when the game declares no params)."""
    start = events[0] if isinstance(events, list) and events and isinstance(events[0], dict) else {}
    logged = start.get("params") if start.get("type") == "started" else None
    return dict(logged) if isinstance(logged, dict) else {}


# --- simulate ----------------------------------------------------------------------------

def cmd_simulate(args: argparse.Namespace) -> int:
    from rulelang.lab.command import simulate

    return simulate(args)


def _coverage(args: argparse.Namespace) -> int:
    from rulelang.testing.coverage import coverage_command

    if args.games:
        raise UsageError("--game goes without --coverage: with --coverage, PATH is the game")
    for path in args.paths:
        missing = missing_path(path)
        if missing:
            raise UsageError(missing)
    if args.workers < 1 or (args.sample is not None and args.sample < 1):
        raise UsageError("--workers and --sample take a number of at least 1")
    return coverage_command(args.paths, args.workers, args.json, args.min_coverage, args.seed, args.sample,
                            mods=args.mods)


# --- sweep and play -----------------------------------------------------------------------

def cmd_sweep(args: argparse.Namespace) -> int:
    from rulelang.lab.sweep_command import sweep

    return sweep(args)


def cmd_play(args: argparse.Namespace) -> int:
    from rulelang.cli.play import play_command

    return play_command(args)


# --- mods and new -----------------------------------------------------------------------------

def cmd_mods(args: argparse.Namespace) -> int:
    """Print what each mod changes and every conflict; exit 1 when the mods do not load together."""
    from rulelang.mods.report import report_mods

    missing = missing_path(args.path)
    if missing:
        raise UsageError(missing)
    if not args.mods:
        raise UsageError("name the mods to show: rulelang mods GAME --mod FILE [--mod FILE ...]")
    return report_mods(args.path, args.mods, sys.stdout, sys.stderr)


def cmd_new(args: argparse.Namespace) -> int:
    from rulelang.cli.scaffold import new_command

    return new_command(args)


# --- lsp -----------------------------------------------------------------------------

def cmd_lsp(args: argparse.Namespace) -> int:
    """The language server on stdin and stdout (rulelang/lsp/); without pygls, a usage error that says how to get it."""
    from rulelang.lsp import missing_pygls
    missing = missing_pygls()
    if missing:
        raise UsageError(missing)
    from rulelang.lsp.server import main as serve
    return serve()
