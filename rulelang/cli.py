"""The `rulelang` command: validate specs, run games, test scenarios.

Errors are printed gcc-style and never as tracebacks. Exit codes: 0 success,
1 a spec, scenario or game error (or a log that could not be written in full),
2 a usage error such as a missing path (one line on stderr), 3 an internal
error of rulelang itself (one line, no traceback), 130 interrupted.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Sequence

from .errors import RulelangError
from .params import ParamError, parse_assignments

if TYPE_CHECKING:
    from .engine import State


class _Usage(Exception):
    pass


def _count(text: str) -> int:
    """A whole number of at least 0: a negative count of games is a usage error, not "play none"."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 0, got {text!r}")
    return value


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line and exit code 2."""

    def error(self, message: str):  # type: ignore[override]
        raise _Usage(message)


def add_mod_argument(parser: argparse.ArgumentParser) -> None:
    """`--mod FILE`, repeatable: mods laid over the game in the order given (docs/mods.md)."""
    parser.add_argument("--mod", action="append", default=[], metavar="FILE", dest="mods",
                        help="a mod file or folder laid over the game (repeat for several, applied in order)")


def add_param_argument(parser: argparse.ArgumentParser) -> None:
    """`--param NAME=VALUE`, repeatable: a value for one of the game's declared params (docs/language.md)."""
    parser.add_argument("--param", action="append", default=[], metavar="NAME=VALUE", dest="param_items",
                        help="set one of the game's params for this instance (repeat for several)")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="rulelang", description="A rules language for card and dice games.")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)

    validate = sub.add_parser("validate", help="check game specs and play a short batch of random games")
    validate.add_argument("paths", nargs="+", metavar="PATH")
    validate.add_argument("--games", type=_count, default=20, metavar="N",
                          help="random games to play per player count (0 to skip; default 20)")
    validate.add_argument("--seed", type=int, default=0, help="first seed of the batch")
    add_mod_argument(validate)

    run = sub.add_parser("run", help="play one game with random agents")
    run.add_argument("path", metavar="PATH")
    run.add_argument("--players", type=int, required=True, metavar="N")
    run.add_argument("--seed", type=int, default=0, metavar="S")
    run.add_argument("--log", metavar="FILE", help="write the event log as JSON lines")
    run.add_argument("--json", action="store_true", help="print a final JSON summary as the last line")
    run.add_argument("--quiet", action="store_true", help="no play-by-play")
    run.add_argument("--as", dest="as_player", metavar="P",
                     help="print the play-by-play as player P (P1, P2, ...) would see it; the log stays complete")
    add_mod_argument(run)

    test = sub.add_parser("test", help="run scenario files")
    test.add_argument("paths", nargs="+", metavar="PATH")
    test.add_argument("--coverage", action="store_true",
                      help="mutate each game's spec (with --mod: only the mods' own files) and report the "
                           "mutants its scenarios do not catch")
    test.add_argument("--workers", type=int, default=1, metavar="W", help="processes for --coverage (default 1)")
    test.add_argument("--json", action="store_true", help="--coverage: print the report as JSON")
    test.add_argument("--min-coverage", type=float, metavar="P", help="--coverage: exit 1 below P percent")
    test.add_argument("--seed", type=int, default=0, metavar="S",
                      help="--coverage: seed of the sample and of the random games that compare mutants")
    test.add_argument("--sample", type=int, metavar="N", help="--coverage: a seeded sample of N mutants")
    add_mod_argument(test)

    replay = sub.add_parser("replay", help="replay an event log and check that every event of it is the game's")
    replay.add_argument("path", metavar="PATH", help="the game")
    replay.add_argument("log", metavar="LOG", help="an event log written by `run --log`")
    add_mod_argument(replay)
    compile_ = sub.add_parser("compile", help="show what a game's rules compile to")
    compile_.add_argument("path", metavar="PATH")
    compile_.add_argument("--python", action="store_true", required=True,
                          help="print the Python generated from the rule texts, each function under its spec line")
    add_mod_argument(compile_)
    from .lab.command import add_arguments as simulate_arguments
    simulate_arguments(sub.add_parser("simulate", help="play a batch of games with agents and summarise them"))
    from .lab.sweep_command import add_arguments as sweep_arguments
    sweep_arguments(sub.add_parser("sweep", help="simulate every combination of spec values against a target"))
    from .play import add_arguments as play_arguments
    play_arguments(sub.add_parser("play", help="play a game at the terminal against bots"))
    for name in ("simulate", "sweep", "play"):
        add_mod_argument(sub.choices[name])
    for name in ("validate", "run", "test", "replay", "simulate", "sweep", "play", "compile"):
        add_param_argument(sub.choices[name])
    mods = sub.add_parser("mods", help="show what each mod changes in a game, and any conflict")
    mods.add_argument("path", metavar="PATH", help="the game")
    add_mod_argument(mods)
    from .scaffold import add_arguments as new_arguments
    new_arguments(sub.add_parser("new", help="start a game or a mod: files with a working schema line"))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; whatever happens, the user sees messages and an exit code, never a traceback."""
    try:
        code = _dispatch(argv)
        sys.stdout.flush()           # here, not at exit, so a closed pipe is still reported quietly
        return code
    except (_Usage, ParamError) as usage:
        _say(lambda: f"rulelang: error: {usage}")
        return 2
    except RulelangError as error:
        _say(error.format)
        return 1
    except KeyboardInterrupt:
        _say(lambda: "rulelang: interrupted")
        return 130
    except BrokenPipeError:          # the reader went away (e.g. `| head`): stop quietly
        _silence_stdout()
        return 141
    except OSError as error:         # the machine failed us (stdout on a full disk, ...): not a bug
        _silence_stdout()
        _say(lambda: f"rulelang: error: {error.strerror or error}"
             + (f": {error.filename}" if error.filename else ""))
        return 1
    except BaseException as error:   # MemoryError, RecursionError, a bug of rulelang: still one line
        if isinstance(error, SystemExit):
            raise
        _say(lambda: internal_error(error))
        return 3


def _dispatch(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        raise _Usage("a command is needed: validate, run, test, replay, compile, simulate, sweep, play, mods or new")
    _check_mods(getattr(args, "mods", []))
    try:
        args.params = parse_assignments(getattr(args, "param_items", []))
    except ParamError as refused:
        raise _Usage(str(refused)) from None
    return {"validate": cmd_validate, "run": cmd_run, "test": cmd_test, "replay": cmd_replay,
            "simulate": cmd_simulate, "sweep": cmd_sweep, "play": cmd_play, "mods": cmd_mods,
            "new": cmd_new, "compile": cmd_compile}[args.command](args)


def _check_mods(mods: list[str]) -> None:
    """A --mod that names nothing is a usage error, before any game is loaded."""
    for mod in mods:
        missing = _missing(mod)
        if missing:
            raise _Usage(f"--mod: {missing}")


def internal_error(error: BaseException) -> str:
    """The one line shown for a failure of rulelang itself (or of the machine)."""
    if isinstance(error, MemoryError):
        what = "out of memory"
    elif isinstance(error, RecursionError):
        what = "Python's recursion limit was reached (RecursionError)"
    else:
        what = f"{type(error).__name__}: {error}"
    return f"rulelang: internal error: {what} (please report it with the command that caused it)"


def _say(message: Callable[[], str]) -> None:
    """Print a message on stderr; if even that fails (no memory, stderr closed), stay silent."""
    try:
        print(message(), file=sys.stderr)
    except BaseException:           # noqa: BLE001 - the last resort must not raise
        pass


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the final flush at exit does not complain about the closed pipe."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def _missing(path: str) -> str | None:
    """The usage message for a path that cannot be used at all (missing, a link loop, a name too long)."""
    from . import files

    try:
        files.look_at(Path(path))
    except files.FileMissing:
        return f"no such file or folder: {path}"
    except files.FileRefused as refused:
        return f"'{path}' {refused.reason}"
    return None


# --- validate ------------------------------------------------------------------

def cmd_validate(args: argparse.Namespace) -> int:
    """Check every path given, even after one fails; the exit code is the worst outcome."""
    worst = 0
    for path in args.paths:
        worst = max(worst, validate_one(path, args.games, args.seed, args.mods, args.params))
    return worst


def validate_one(path: str, games: int, seed: int, mods: Sequence[str] = (), params: dict | None = None) -> int:
    """Load one game and play its smoke test; report the outcome and return its exit code."""
    from . import load_game
    from .sim import smoke_test

    missing = _missing(path)
    if missing:
        _say(lambda: f"rulelang: error: {missing}")
        return 2
    started = time.perf_counter()
    try:
        game = load_game(path, mods, params)
        problems = smoke_test(game, games, seed) if games > 0 else []
    except RulelangError as error:
        _say(error.format)
        return 1
    except ParamError as refused:
        _say(lambda: f"rulelang: error: {path}: {refused}")
        return 2
    except (KeyboardInterrupt, BrokenPipeError):
        raise
    except Exception as error:      # a bug of rulelang: report it for this path, go on with the others
        _say(lambda: f"{path}: {internal_error(error)}")
        return 3
    if problems:
        for problem in problems:
            prefix = "" if problem.span is not None else f"{path}: "
            print(prefix + problem.format(), file=sys.stderr)
        return 1
    took = time.perf_counter() - started
    played = f", {games} random games per player count" if games > 0 else ""
    modded = "".join(f" + {mod}" for mod in mods)
    print(f"ok: {path}{modded} ({game.name}{played}, {took:.2f}s)")
    return 0


# --- run -------------------------------------------------------------------------

def cmd_run(args: argparse.Namespace) -> int:
    from . import load_game
    from .logfile import LogFile, LogPathError

    missing = _missing(args.path)
    if missing:
        raise _Usage(missing)
    game = load_game(args.path, args.mods, args.params)
    if not game.min_players <= args.players <= game.max_players:
        raise _Usage(f"{game.name} is for {game.min_players} to {game.max_players} players, not {args.players}")
    args.as_player = _seat_arg(args.as_player, args.players)
    log = None
    if args.log:
        try:                        # a log that cannot be written is refused before anything is played
            log = LogFile(args.log)
        except LogPathError as error:
            raise _Usage(f"cannot write the log {args.log}: {error}") from None
    try:
        played = play(game, args.players, args.seed)
        return finish_run(game, args, played, log)
    finally:
        if log is not None:
            log.discard_unsaved()


def _seat_arg(text: str | None, players: int) -> int | None:
    """`--as P2` -> seat 1; a name that is not a seat of this game is a usage error."""
    if text is None:
        return None
    from .views import seat_of
    seat = seat_of(text.strip().upper())
    if seat is None or not 0 <= seat < players:
        raise _Usage(f"--as takes a player of this game, P1 to P{players}, not '{text}'")
    return seat


@dataclass
class Played:
    """A game played as far as it went: to its end, a rule error, an interrupt or a crash."""

    state: State | None = None
    scores_by_turn: dict[int, list[int]] = field(default_factory=dict)
    error: RulelangError | None = None      # a rule error: located, exit 1
    crash: BaseException | None = None      # rulelang itself (or memory) failed: exit 3
    interrupted: bool = False               # SIGINT: exit 130

    @property
    def events(self) -> list[dict]:
        return self.state.events if self.state is not None else []

    @property
    def finished(self) -> bool:
        return self.state is not None and self.error is None and self.crash is None and not self.interrupted


def play(game, players: int, seed: int) -> Played:
    """Play one game with random agents; whatever stops it, keep the state as far as it got."""
    from .agents import RandomAgent, play_out

    played = Played()

    def watch(st: State, step: str) -> None:
        """Keep the state from the first step (an interrupt in setup leaves no other handle on it)
        and note each turn's opening scores for the play-by-play (scores are derived, not events)."""
        played.state = st
        if game.score is not None and st.turn not in played.scores_by_turn:
            played.scores_by_turn[st.turn] = st.scores()

    try:
        played.state = game.new_state(players, seed, observer=watch)
        play_out(played.state, RandomAgent(seed))
    except RulelangError as error:
        played.error = error
        played.state = getattr(error, "state", None) or played.state
    except KeyboardInterrupt:
        played.interrupted = True
    except Exception as error:      # MemoryError, RecursionError, a bug: the log is still kept
        played.crash = error
        played.state = getattr(error, "state", None) or played.state
    return played


def _told_to(game, events: list[dict], seat: int | None) -> list[dict]:
    """The events the play-by-play tells: all of them, or those ``seat`` would see (rulelang.views)."""
    if seat is None:
        return events
    from .views import events_for
    return events_for(game, events, seat)


def finish_run(game, args: argparse.Namespace, played: Played, log) -> int:
    """Save the log first (it is what lasts), then print the play-by-play, the summary and the outcome."""
    from .logfile import LogIncomplete
    from .narrate import narrate

    events = played.events
    log_problem = None
    if log is not None:
        try:
            log.save(events)
        except LogIncomplete as error:
            log_problem = (f"cannot write all of the log {args.log}: {error.reason}; it holds the first "
                           f"{error.written} of the {len(events)} events")
    if not args.quiet:
        for event in _told_to(game, events, getattr(args, "as_player", None)):
            line = narrate(game, event, played.scores_by_turn)
            if line is not None:
                print(line)
    if args.json and played.finished:
        print(json.dumps(summary(played.state), sort_keys=True))
    sys.stdout.flush()
    saved = log is not None and log_problem is None
    code = 0
    if played.error is not None:
        report_game_error(played, args, saved)
        code = 1
    if log_problem:
        _say(lambda: f"rulelang: error: {log_problem}")
        code = 1
    if played.interrupted:
        _say(lambda: "rulelang: interrupted" + (f"; {log_kept(args, events, 'the interrupt')}" if saved else ""))
        return 130
    if played.crash is not None:
        _say(lambda: internal_error(played.crash) + (f"\nnote: {log_kept(args, events, 'it')}" if saved else ""))
        return 3
    return code


def log_kept(args: argparse.Namespace, events: list[dict], upto: str) -> str:
    return f"the event log up to {upto} ({len(events)} events) is in {args.log}"


def report_game_error(played: Played, args: argparse.Namespace, saved: bool) -> None:
    error, state = played.error, played.state
    if "seed" not in (error.hint or ""):
        turn = f", turn {state.turn}" if state is not None else ""
        error.notes.append(f"seed {args.seed}{turn}")
    if saved:
        error.notes.append(log_kept(args, played.events, "the error"))
    prefix = "" if error.span is not None else f"{args.path}: "
    print(prefix + error.format(), file=sys.stderr)


def summary(state) -> dict:
    team = state.winning_team()
    found = {"game": state.game.name, "seed": state.seed, "players": state.n,
             "winners": [team] if team else state.winner_names(), "winning_players": state.winner_names(),
             "team": team, "turns": state.turn, "result": state.result, "events": len(state.events),
             "scores": state.scores()}
    if state.game.returns is not None and state.over:
        found["returns"] = state.returns()
    return found


# --- test ----------------------------------------------------------------------------

def cmd_test(args: argparse.Namespace) -> int:
    """Run the scenarios of every path that exists; a missing path is a usage error (exit 2)."""
    from .scenario_report import run_scenario_files

    if args.coverage:
        return _coverage(args)
    if args.json or args.min_coverage is not None or args.sample is not None or args.workers != 1:
        raise _Usage("--workers, --json, --min-coverage and --sample go with --coverage")
    code = 0
    present = []
    for path in args.paths:
        missing = _missing(path)
        if missing:
            _say(lambda: f"rulelang: error: {missing}")
            code = 2
        else:
            present.append(path)
    if present:
        code = max(code, run_scenario_files(present, mods=args.mods, params=args.params))
    return code


# --- replay ----------------------------------------------------------------------------

def cmd_replay(args: argparse.Namespace) -> int:
    """Exit 0 when the log is the game's own, event for event; 1 at the first line that is not."""
    from . import load_game
    from .eventlog import read_log
    from .sim import verify_log

    for path in (args.path, args.log):
        missing = _missing(path)
        if missing:
            raise _Usage(missing)
    events = read_log(args.log)
    try:
        game = load_game(args.path, args.mods, {**_logged_params(events), **args.params})
    except ParamError as refused:
        raise _Usage(f"{args.log}: the params of its 'started' event do not fit the game: {refused}") from None
    check = verify_log(game, events)
    if not check.ok:
        _say(check.report(args.log).format)
        return 1
    print(check.summary(args.log))
    return 0


def cmd_compile(args: argparse.Namespace) -> int:
    """Print the generated Python of a game, so a designer or developer can read what a rule became."""
    from . import load_game

    missing = _missing(args.path)
    if missing:
        raise _Usage(missing)
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
    from .lab.command import UsageError, simulate

    try:
        return simulate(args)
    except UsageError as usage:
        raise _Usage(str(usage)) from None


def _coverage(args: argparse.Namespace) -> int:
    from .coverage import coverage_command

    for path in args.paths:
        missing = _missing(path)
        if missing:
            raise _Usage(missing)
    if args.workers < 1 or (args.sample is not None and args.sample < 1):
        raise _Usage("--workers and --sample take a number of at least 1")
    return coverage_command(args.paths, args.workers, args.json, args.min_coverage, args.seed, args.sample,
                            mods=args.mods)


# --- sweep and play -----------------------------------------------------------------------

def cmd_sweep(args: argparse.Namespace) -> int:
    from .lab.command import UsageError
    from .lab.sweep_command import sweep

    try:
        return sweep(args)
    except UsageError as usage:
        raise _Usage(str(usage)) from None


def cmd_play(args: argparse.Namespace) -> int:
    from .lab.command import UsageError
    from .play import play_command

    try:
        return play_command(args)
    except UsageError as usage:
        raise _Usage(str(usage)) from None


# --- mods and new -----------------------------------------------------------------------------

def cmd_mods(args: argparse.Namespace) -> int:
    """Print what each mod changes and every conflict; exit 1 when the mods do not load together."""
    from .mods_report import report_mods

    missing = _missing(args.path)
    if missing:
        raise _Usage(missing)
    if not args.mods:
        raise _Usage("name the mods to show: rulelang mods GAME --mod FILE [--mod FILE ...]")
    return report_mods(args.path, args.mods, sys.stdout, sys.stderr)


def cmd_new(args: argparse.Namespace) -> int:
    from .scaffold import ScaffoldError, new_command

    try:
        return new_command(args)
    except ScaffoldError as problem:
        raise _Usage(str(problem)) from None


if __name__ == "__main__":
    sys.exit(main())
