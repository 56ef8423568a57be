"""`rulelang simulate`: check the request, play the batch, print and write the summary.

Usage mistakes raise UsageError before any game is played (the CLI prints
them in one line and exits 2). Games that fail are counted and reported
with their seeds; the command then exits 1, after printing the summary.
"""
from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path
from typing import Callable, Iterator, Sequence


class UsageError(Exception):
    """A command-line mistake: one line, exit code 2."""


def game_and_agents(path: str, players: int, agent_names: str, mods: Sequence[str] = (),
                    params: dict | None = None) -> tuple:
    """The game at ``path`` and one agent factory per seat, or a UsageError (simulate, sweep and play).

    A path that cannot be used (missing, a link loop, a name too long) and a
    player count the game refuses are usage mistakes, found before any game is played.
    """
    from .. import ParamError, files, load_game
    from ..policy import check_policies
    from .simulate import seat_agents

    try:
        files.look_at(Path(path))
    except files.FileMissing:
        raise UsageError(f"no such file or folder: {path}") from None
    except files.FileRefused as refused:
        raise UsageError(f"'{path}' {refused.reason}") from None
    try:
        game = load_game(path, mods, params)
    except ParamError as refused:
        raise UsageError(str(refused)) from None
    if not game.min_players <= players <= game.max_players:
        raise UsageError(f"{game.name} is for {game.min_players} to {game.max_players} players, not {players}")
    try:
        agents = seat_agents(agent_names, players)
    except ValueError as error:
        raise UsageError(str(error)) from None
    check_policies(game, agents)          # a policy that does not fit the game is a located error before play
    return game, agents


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", metavar="PATH")
    parser.add_argument("--players", type=int, required=True, metavar="N")
    parser.add_argument("--games", type=int, default=1000, metavar="K", help="games to play (default 1000)")
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the batch (default 0)")
    parser.add_argument("--agents", default="random", metavar="A,B,...",
                        help="one agent for every seat, or one per seat: random, first, greedy, mcts "
                             "(mcts:iterations=200 or mcts:ms=50), or MODULE:CLASS for your own (default random; "
                             "see docs/agents.md)")
    parser.add_argument("--workers", type=int, default=1, metavar="W", help="processes to play in (default 1)")
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON object, last line")
    parser.add_argument("--csv", metavar="FILE", help="write one row per game")
    parser.add_argument("--plot", metavar="FILE.png", help="draw win rates and game lengths (needs matplotlib)")
    parser.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                        help="play on a Ray cluster at ADDRESS, or on a local Ray without one (needs rulelang[ray])")


def simulate(args: argparse.Namespace) -> int:
    from .report import json_line, print_table
    from .simulate import Batch, run_batch
    from .stats import game_summary

    _check_numbers(args)
    if args.plot:
        _require_plot()
    if getattr(args, "ray", None) is not None:
        _require_ray()
    _check_outputs(args)
    game, agents = game_and_agents(args.path, args.players, args.agents, args.mods, args.params)
    batch = Batch(args.path, args.players, args.games, args.seed, agents, tuple(args.mods),
                  tuple(sorted(args.params.items())))
    with progress_bar(args.games) as advance:
        if getattr(args, "ray", None) is not None:
            records = _run_on_ray(args, batch, advance)
        else:
            records = run_batch(game, batch, args.workers, advance)
    summary = game_summary(game, batch, records)
    print_table(summary, sys.stdout, sys.stdout.isatty())
    _write_files(args, records, summary)
    failed = [r for r in records if r.error is not None]
    if failed:
        print(failed[0].error, file=sys.stderr)
        print(f"rulelang: {len(failed)} of {args.games} games failed (seeds in the summary)", file=sys.stderr)
    if args.json:
        print(json_line(summary), flush=True)
    return 1 if failed else 0


def _check_numbers(args: argparse.Namespace) -> None:
    if args.games < 1:
        raise UsageError(f"--games must be at least 1, not {args.games}")
    if args.workers < 1:
        raise UsageError(f"--workers must be at least 1, not {args.workers}")
    if args.players < 1:
        raise UsageError(f"--players must be at least 1, not {args.players}")


def _check_outputs(args: argparse.Namespace) -> None:
    """Refuse an output path that cannot be written before playing, not after."""
    from .report import check_writable
    for path in (args.csv, args.plot):
        if path:
            try:
                check_writable(path)
            except OSError as error:
                raise UsageError(str(error)) from None


def _require_ray() -> None:
    from .ray_runner import RayUnavailable, require_ray
    try:
        require_ray()
    except RayUnavailable as missing:
        raise UsageError(str(missing)) from None


def _run_on_ray(args: argparse.Namespace, batch, advance) -> list:
    """The batch on Ray: the spec is sent as loaded data, so the nodes need no copy of its files."""
    from ..loader import load_document
    from .ray_runner import run_batch_ray
    return run_batch_ray(load_document(args.path, mods=args.mods), batch, args.ray or None, advance)


def _require_plot() -> None:
    from .plot import PlotUnavailable, require_matplotlib
    try:
        require_matplotlib()
    except PlotUnavailable as missing:
        raise UsageError(str(missing)) from None


def _write_files(args: argparse.Namespace, records: list, summary: dict) -> None:
    from .report import write_csv
    try:
        if args.csv:
            write_csv(args.csv, records)
        if args.plot:
            from .plot import draw
            draw(summary, args.plot)
    except OSError as error:
        if error.strerror and error.filename:
            raise UsageError(f"cannot write {error.filename}: {error.strerror}") from None
        raise UsageError(str(error)) from None


@contextlib.contextmanager
def progress_bar(total: int) -> Iterator[Callable[[int], None] | None]:
    """A rich progress bar on stderr when it is a terminal; nothing (None) otherwise."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(TextColumn("games"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("games", total=total)
        yield lambda done: bar.update(task, advance=done)
