"""The command line: the argument parser of every `rulelang` command and its options.

A usage error is one line and exit code 2 (``_Parser`` raises ``UsageError`` instead of printing argparse's
usage block); ``--mod`` and ``--param`` are added alike to every command that loads a game. Commands
whose options are long (simulate, sweep, play, new) add their own through their modules' ``add_arguments``.
"""
from __future__ import annotations

import argparse

from rulelang.errors import UsageError
from rulelang.testing.smoke import SMOKE_SECONDS


def _count(text: str) -> int:
    """A whole number of at least 0: a negative count of games is a usage error, not "play none"."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 0, got {text!r}")
    return value


def _seconds(text: str) -> float:
    """A time in seconds, more than 0 and finite."""
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a number of seconds above 0, got {text!r}")
    return value


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line and exit code 2."""

    def error(self, message: str):  # type: ignore[override]
        raise UsageError(message)


def add_mod_argument(parser: argparse.ArgumentParser) -> None:
    """`--mod FILE`, repeatable: mods laid over the game in the order given (docs/mods.md)."""
    parser.add_argument("--mod", action="append", default=[], metavar="FILE", dest="mods",
                        help="a mod file or folder laid over the game (repeat for several, applied in order)")


def add_param_argument(parser: argparse.ArgumentParser) -> None:
    """`--param NAME=VALUE`, repeatable: a value for one of the game's declared params (docs/language.md)."""
    parser.add_argument("--param", action="append", default=[], metavar="NAME=VALUE", dest="param_items",
                        help="set one of the game's params for this instance (repeat for several)")


def build_parser() -> argparse.ArgumentParser:
    from rulelang import __version__

    parser = _Parser(prog="rulelang", description="A rules language for card and dice games.")
    parser.add_argument("--version", action="version", version=f"rulelang {__version__}")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)

    validate = sub.add_parser("validate", help="check game specs and play a short batch of random games")
    validate.add_argument("paths", nargs="+", metavar="PATH")
    validate.add_argument("--games", type=_count, default=20, metavar="N",
                          help="random games to play per player count (0 to skip; default 20)")
    validate.add_argument("--seed", type=int, default=0, help="first seed of the batch")
    validate.add_argument("--time-limit", type=_seconds, default=SMOKE_SECONDS, metavar="SECONDS",
                          help="wall-clock seconds the random games of each player count may take; those not "
                               f"played by then are left out, and validate says how many were (default {SMOKE_SECONDS:g})")
    add_mod_argument(validate)

    run = sub.add_parser("run", help="play one game with random agents")
    run.add_argument("path", metavar="PATH")
    run.add_argument("--players", type=int, required=True, metavar="N")
    run.add_argument("--seed", type=int, default=0, metavar="S")
    run.add_argument("--agents", metavar="A,B,...",
                     help="one agent for every seat, or one per seat, as for simulate, each seeded as simulate "
                          "seeds game S's: a seed from simulate's --csv replays that game (default: random "
                          "agents on the seed)")
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
    test.add_argument("--workers", type=int, default=1, metavar="W", help="processes for --coverage (default 1; never more than the CPUs or the mutants)")
    test.add_argument("--json", action="store_true", help="--coverage: print the report as JSON")
    test.add_argument("--min-coverage", type=float, metavar="P", help="--coverage: exit 1 below P percent")
    test.add_argument("--seed", type=int, default=0, metavar="S",
                      help="--coverage: seed of the sample and of the random games that compare mutants")
    test.add_argument("--sample", type=int, metavar="N", help="--coverage: a seeded sample of N mutants")
    test.add_argument("--show", action="store_true",
                      help="print each scenario's play-by-play (its events in words, as `run` tells a game)")
    test.add_argument("--events", action="store_true",
                      help="print each scenario's events as the JSON lines `run --log` writes")
    test.add_argument("--game", action="append", default=[], metavar="GAME", dest="games",
                      help="a game the scenarios may name besides those under PATH (a mod's scenarios name "
                           "their game), and the game of scenarios that name none; repeat for several")
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
    from rulelang.lab.command import add_arguments as simulate_arguments
    simulate_arguments(sub.add_parser("simulate", help="play a batch of games with agents and summarise them"))
    from rulelang.lab.sweep_command import add_arguments as sweep_arguments
    sweep_arguments(sub.add_parser("sweep", help="simulate every combination of spec values against a target"))
    from rulelang.cli.play import add_arguments as play_arguments
    play_arguments(sub.add_parser("play", help="play a game at the terminal against bots"))
    for name in ("simulate", "sweep", "play"):
        add_mod_argument(sub.choices[name])
    for name in ("validate", "run", "test", "replay", "simulate", "sweep", "play", "compile"):
        add_param_argument(sub.choices[name])
    mods = sub.add_parser("mods", help="show what each mod changes in a game, and any conflict")
    mods.add_argument("path", metavar="PATH", help="the game")
    add_mod_argument(mods)
    from rulelang.cli.scaffold import add_arguments as new_arguments
    new_arguments(sub.add_parser("new", help="start a game or a mod: files with a working schema line"))
    from rulelang.rulebook.command import add_explain_arguments, add_rules_arguments
    add_rules_arguments(sub.add_parser("rules", help="the rulebook made from the game's checked rules "
                                                     "(Markdown, or -o FILE.md / FILE.html)"))
    add_explain_arguments(sub.add_parser("explain", help="all about one name of a game: its spec lines, rule in "
                                                         "words, rulings, scenarios, readers and writers"))
    for name in ("rules", "explain"):
        add_mod_argument(sub.choices[name])
    sub.add_parser("lsp", help="serve the language server on stdin and stdout, for editors (docs/editors.md)")
    return parser
