"""The `rulelang` command: validate specs, run games, test scenarios.

Errors are printed gcc-style and never as tracebacks. Exit codes: 0 success,
1 a spec, scenario or game error, 2 a usage error (one line on stderr).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Sequence

from .errors import RulelangError


class _Usage(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line and exit code 2."""

    def error(self, message: str):  # type: ignore[override]
        raise _Usage(message)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="rulelang", description="A rules language for card and dice games.")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)

    validate = sub.add_parser("validate", help="check game specs and play a short batch of random games")
    validate.add_argument("paths", nargs="+", metavar="PATH")
    validate.add_argument("--games", type=int, default=20, metavar="N",
                          help="random games to play per player count (0 to skip; default 20)")
    validate.add_argument("--seed", type=int, default=0, help="first seed of the batch")

    run = sub.add_parser("run", help="play one game with random agents")
    run.add_argument("path", metavar="PATH")
    run.add_argument("--players", type=int, required=True, metavar="N")
    run.add_argument("--seed", type=int, default=0, metavar="S")
    run.add_argument("--log", metavar="FILE", help="write the event log as JSON lines")
    run.add_argument("--json", action="store_true", help="print a final JSON summary as the last line")
    run.add_argument("--quiet", action="store_true", help="no play-by-play")

    test = sub.add_parser("test", help="run scenario files")
    test.add_argument("paths", nargs="+", metavar="PATH")
    test.add_argument("--coverage", action="store_true",
                      help="mutate each game's spec and report the mutants its scenarios do not catch")
    test.add_argument("--workers", type=int, default=1, metavar="W", help="processes for --coverage (default 1)")
    test.add_argument("--json", action="store_true", help="--coverage: print the report as JSON")
    test.add_argument("--min-coverage", type=float, metavar="P", help="--coverage: exit 1 below P percent")
    test.add_argument("--seed", type=int, default=0, metavar="S",
                      help="--coverage: seed of the sample and of the random games that compare mutants")
    test.add_argument("--sample", type=int, metavar="N", help="--coverage: a seeded sample of N mutants")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            raise _Usage("a command is needed: validate, run or test")
    except _Usage as usage:
        print(f"rulelang: error: {usage}", file=sys.stderr)
        return 2
    try:
        return {"validate": cmd_validate, "run": cmd_run, "test": cmd_test}[args.command](args)
    except _Usage as usage:
        print(f"rulelang: error: {usage}", file=sys.stderr)
        return 2
    except RulelangError as error:
        print(error.format(), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("rulelang: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:          # the reader went away (e.g. `| head`): stop quietly
        sys.stdout = open(os.devnull, "w")
        return 141
    except Exception as error:  # a bug of rulelang itself: still no traceback for the user
        print(f"rulelang: internal error: {type(error).__name__}: {error} (please report it with the "
              "command that caused it)", file=sys.stderr)
        return 3


# --- validate ------------------------------------------------------------------

def cmd_validate(args: argparse.Namespace) -> int:
    from . import load_game
    from .sim import smoke_test

    failed = False
    for path in args.paths:
        if not Path(path).exists():
            raise _Usage(f"no such file or folder: {path}")
        started = time.perf_counter()
        try:
            game = load_game(path)
            problems = smoke_test(game, args.games, args.seed) if args.games > 0 else []
        except RulelangError as error:
            print(error.format(), file=sys.stderr)
            failed = True
            continue
        if problems:
            failed = True
            for problem in problems:
                prefix = "" if problem.span is not None else f"{path}: "
                print(prefix + problem.format(), file=sys.stderr)
            continue
        took = time.perf_counter() - started
        played = f", {args.games} random games per player count" if args.games > 0 else ""
        print(f"ok: {path} ({game.name}{played}, {took:.2f}s)")
    return 1 if failed else 0


# --- run -------------------------------------------------------------------------

def cmd_run(args: argparse.Namespace) -> int:
    from . import load_game
    from .agents import RandomAgent, play_out
    from .narrate import narrate

    if not Path(args.path).exists():
        raise _Usage(f"no such file or folder: {args.path}")
    game = load_game(args.path)
    if not game.min_players <= args.players <= game.max_players:
        raise _Usage(f"{game.name} is for {game.min_players} to {game.max_players} players, not {args.players}")
    state = None
    error: RulelangError | None = None
    scores_by_turn: dict[int, list[int]] = {}

    def scoreboard(st, step: str) -> None:
        """Note each turn's opening scores for the play-by-play (scores are derived, not events)."""
        if game.score is not None and st.turn not in scores_by_turn:
            scores_by_turn[st.turn] = st.scores()

    try:
        state = game.new_state(args.players, args.seed, observer=scoreboard)
        play_out(state, RandomAgent(args.seed))
    except RulelangError as err:
        error = err
        state = state or getattr(err, "state", None)
    except Exception as err:  # a bug of rulelang: keep the log, then report it as an internal error
        state = state or getattr(err, "state", None)
        if args.log:
            write_log(args.log, state.events if state is not None else [])
        raise
    events = state.events if state is not None else []
    if args.log:
        write_log(args.log, events)
    if not args.quiet:
        for event in events:
            line = narrate(game, event, scores_by_turn)
            if line is not None:
                print(line)
    if error is not None:
        if "seed" not in (error.hint or ""):
            turn = f", turn {state.turn}" if state is not None else ""
            error.notes.append(f"seed {args.seed}{turn}")
        if args.log:
            error.notes.append(f"the event log up to the error ({len(events)} events) is in {args.log}")
        prefix = "" if error.span is not None else f"{args.path}: "
        print(prefix + error.format(), file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(summary(state), sort_keys=True))
    return 0


def summary(state) -> dict:
    team = state.winning_team()
    return {"game": state.game.name, "seed": state.seed, "players": state.n,
            "winners": [team] if team else state.winner_names(), "winning_players": state.winner_names(),
            "team": team, "turns": state.turn, "result": state.result, "events": len(state.events),
            "scores": state.scores()}


def write_log(path: str, events: list[dict]) -> None:
    try:
        with open(path, "w", encoding="utf-8") as out:
            for event in events:
                out.write(json.dumps(event, sort_keys=True, separators=(",", ":")))
                out.write("\n")
    except OSError as error:
        raise _Usage(f"cannot write the log {path}: {error.strerror}") from None


# --- test ----------------------------------------------------------------------------

def cmd_test(args: argparse.Namespace) -> int:
    from .scenario import run_scenario_files

    if args.coverage:
        return _coverage(args)
    if args.json or args.min_coverage is not None or args.sample is not None or args.workers != 1:
        raise _Usage("--workers, --json, --min-coverage and --sample go with --coverage")
    return run_scenario_files(args.paths)


def _coverage(args: argparse.Namespace) -> int:
    from .coverage import coverage_command

    for path in args.paths:
        if not Path(path).exists():
            raise _Usage(f"no such file or folder: {path}")
    if args.workers < 1 or (args.sample is not None and args.sample < 1):
        raise _Usage("--workers and --sample take a number of at least 1")
    return coverage_command(args.paths, args.workers, args.json, args.min_coverage, args.seed, args.sample)


if __name__ == "__main__":
    sys.exit(main())
