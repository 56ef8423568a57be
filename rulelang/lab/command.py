"""`rulelang simulate`: check the request, play the batch, print and write the summary.

Usage mistakes raise UsageError before any game is played (the CLI prints
them in one line and exits 2). Games that fail are counted and reported
with their seeds; the command then exits 1, after printing the summary.
"""
from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from rulelang.errors import UsageError


def game_and_agents(path: str, players: int, agent_names: str, mods: Sequence[str] = (),
                    params: dict | None = None) -> tuple:
    """The game at ``path`` and one agent factory per seat, or a UsageError (simulate, sweep and play).

    A path that cannot be used (missing, a link loop, a name too long) and a
    player count the game refuses are usage mistakes, found before any game is played.
    """
    from rulelang import ParamError, load_game
    from rulelang.agents.policy import check_policies
    from rulelang.spec import files

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


def player_counts(text: str) -> tuple[int, ...]:
    """``4``, ``2..6`` or ``2,4,6``: the player counts to simulate, in the order given, each once."""
    counts: list[int] = []
    for part in (p.strip() for p in text.split(",")):
        low, dots, high = part.partition("..")
        try:
            span = range(int(low), int(high) + 1) if dots else [int(part)]
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a count (4), a range (2..6) or a list (2,4), got {text!r}") \
                from None
        counts.extend(n for n in span if n not in counts)
    if not counts:
        raise argparse.ArgumentTypeError(f"the range {text!r} holds no count: write it low..high")
    return tuple(counts)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", metavar="PATH")
    parser.add_argument("--players", type=player_counts, required=True, metavar="N",
                        help="the player count, or several (2..6, or 2,4): one batch each, summed up in one table")
    parser.add_argument("--games", type=int, default=1000, metavar="K",
                        help="games to play (per player count; default 1000)")
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the batch (default 0)")
    parser.add_argument("--agents", default="random", metavar="A,B,...",
                        help="one agent for every seat, or one per seat: random, first, greedy, mcts "
                             "(mcts:iterations=200 or mcts:ms=50), or MODULE:CLASS for your own (default random; "
                             "see docs/agents.md)")
    parser.add_argument("--workers", type=int, default=1, metavar="W", help="processes to play in (default 1; never more than the CPUs or the games)")
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON object, last line")
    parser.add_argument("--csv", metavar="FILE",
                        help="write one row per game, with the seed `rulelang run --agents A --seed SEED` replays")
    parser.add_argument("--plot", metavar="FILE.png", help="draw win rates and game lengths (needs matplotlib)")
    parser.add_argument("--quality", action="store_true",
                        help="also measure lead changes, decisiveness and drama from each turn's scores (games "
                             "with a score; slower), beside duration and decisions a game")
    parser.add_argument("--compare", metavar="FILE.json",
                        help="compare the win rates with another run's (what its --json printed), with a 95%% "
                             "interval on each difference")
    parser.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                        help="play on the Ray cluster at ADDRESS, or on a private local Ray (127.0.0.1 only, token "
                             "authentication) without one (needs rulelang[ray], Ray 2.52 or newer)")


def simulate(args: argparse.Namespace) -> int:
    """One batch per player count; Ctrl-C keeps the games played (summary and CSV), exit 130."""
    from .report import json_line, print_player_counts, print_table
    from .simulate import Batch, BatchInterrupted

    _check_numbers(args)
    if args.plot:
        _require_plot()
        if len(args.players) > 1:
            raise UsageError("--plot draws one player count; give --players one count")
    if getattr(args, "ray", None) is not None:
        _require_ray()
    _check_outputs(args)
    other = _read_compared(args)
    tables = [(players, *game_and_agents(args.path, players, args.agents, args.mods, args.params))
              for players in args.players]                       # every count checked before any game
    origin = provenance(args)
    runs: list[tuple] = []
    interrupted = False
    for players, game, agents in tables:
        batch = Batch(args.path, players, args.games, args.seed, agents, tuple(args.mods),
                      tuple(sorted(args.params.items())), getattr(args, "quality", False))
        try:
            records = _play_batch(args, game, batch)
        except BatchInterrupted as stop:
            records, interrupted = stop.records, True
        summary = batch_summary(game, batch, records, origin)
        if interrupted:
            summary["interrupted"] = True
        runs.append((batch, records, summary))
        if interrupted:
            break
    summaries = [summary for _, _, summary in runs]
    if other is not None:
        from .compare import compare
        summaries[0]["compare"] = {"with": args.compare, **_compared_run(other),
                                   "rates": compare(summaries[0], other)}
    if len(args.players) == 1:
        print_table(summaries[0], sys.stdout, sys.stdout.isatty())
    else:
        print_player_counts(summaries, sys.stdout, sys.stdout.isatty())
    _write_files(args, runs, origin)
    failed = [r for _, records, _ in runs for r in records if r.error is not None]
    if failed:
        print(failed[0].error, file=sys.stderr)
        print(f"rulelang: {len(failed)} of {sum(len(records) for _, records, _ in runs)} games failed "
              f"(seeds in the summary)", file=sys.stderr)
    if args.json:
        whole = summaries[0] if len(args.players) == 1 else {
            "game": summaries[0]["game"], "players": list(args.players), "provenance": origin,
            "by_players": {str(s["players"]): s for s in summaries}, **({"interrupted": True} if interrupted else {})}
        print(json_line(whole), flush=True)
    if interrupted:
        played = sum(len(records) for _, records, _ in runs)
        print(f"rulelang: interrupted after {played} games; the summary" + (" and the CSV" if args.csv else "")
              + " hold the games played", file=sys.stderr)
        return 130
    return 1 if failed else 0


def batch_summary(game, batch, records: list, origin: dict) -> dict:
    """One player count's summary as `simulate --json` prints it: the statistics and what made the games."""
    from .stats import game_summary

    summary = game_summary(game, batch, records)
    summary["provenance"] = {**origin, "players": batch.players, "agents": list(batch.agents)}
    return summary


def _read_compared(args: argparse.Namespace) -> dict | None:
    """The summary ``--compare`` names, read before any game is played (one player count only)."""
    if not getattr(args, "compare", None):
        return None
    if len(args.players) > 1:
        raise UsageError("--compare compares one player count; give --players one count")
    from .compare import CompareError, read_summary
    try:
        return read_summary(args.compare)
    except CompareError as error:
        raise UsageError(str(error)) from None


def _compared_run(other: dict) -> dict:
    """What the other run was, as its summary says (shown, so only plain numbers and strings are kept)."""
    agents = other.get("agents")
    return {"games": other.get("completed") if type(other.get("completed")) is int else None,
            "agents": [a for a in agents if isinstance(a, str)] if isinstance(agents, list) else []}


def _play_batch(args: argparse.Namespace, game, batch) -> list:
    from .simulate import run_batch
    with progress_bar(batch.games) as advance:
        if getattr(args, "ray", None) is not None:
            return _run_on_ray(args, batch, advance)
        return run_batch(game, batch, args.workers, advance)


def provenance(args: argparse.Namespace) -> dict:
    """What made these games, for --json and --csv: enough to play any of them again."""
    import json

    from rulelang.spec.cache import digest

    from .. import __version__
    from ..pipeline import read_spec

    data = read_spec(args.path, mods=args.mods).data
    spec = json.dumps(data, sort_keys=True, default=str, ensure_ascii=False)
    return {"rulelang": __version__, "spec": args.path, "spec_sha256": digest(spec), "mods": list(args.mods),
            "params": dict(sorted(args.params.items())), "agents": args.agents, "seed": args.seed,
            "games": args.games, "players": list(args.players) if isinstance(args.players, tuple) else args.players}


def _check_numbers(args: argparse.Namespace) -> None:
    if args.games < 1:
        raise UsageError(f"--games must be at least 1, not {args.games}")
    if args.workers < 1:
        raise UsageError(f"--workers must be at least 1, not {args.workers}")
    for players in args.players:
        if players < 1:
            raise UsageError(f"--players must be at least 1, not {players}")


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
    from rulelang.pipeline import read_spec

    from .ray_runner import run_batch_ray
    return run_batch_ray(read_spec(args.path, mods=args.mods), batch, args.ray or None, advance)


def _require_plot() -> None:
    from .plot import PlotUnavailable, require_matplotlib
    try:
        require_matplotlib()
    except PlotUnavailable as missing:
        raise UsageError(str(missing)) from None


def _write_files(args: argparse.Namespace, runs: list[tuple], origin: dict) -> None:
    from .report import write_csv
    try:
        if args.csv:
            write_csv(args.csv, [(batch, records) for batch, records, _ in runs], origin)
        if args.plot:
            from .plot import draw
            draw(runs[0][2], args.plot)
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
