"""`rulelang sweep`: read the request, check every key and value before playing, then report.

Usage mistakes (a malformed --vary or --target, an unknown metric) are one
line and exit 2; a key that names no number of the spec, or a value that
makes the spec invalid, is a located spec error (exit 1) before any game.
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rulelang.errors import UsageError
from rulelang.lab.command import game_and_agents, player_counts, progress_bar
from rulelang.printable import counted

from .command import provenance


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", metavar="PATH")
    parser.add_argument("--players", type=player_counts, required=True, metavar="N",
                        help="the player count, or several (2..6, or 2,4): a sweep each; a --target must hold at each")
    parser.add_argument("--vary", action="append", required=True, metavar="KEY=V1,V2,...",
                        help="a number of the spec and the values to try, e.g. tables.TABLE.ROW.COLUMN=6,8,10 "
                             "or cards.CARD.count=1..4 (repeat for a grid)")
    parser.add_argument("--games", type=int, default=1000, metavar="K", help="games per setting (default 1000)")
    parser.add_argument("--seed", type=int, default=0, metavar="S",
                        help="seed of the batch, the same for every setting (default 0)")
    parser.add_argument("--agents", action="append", metavar="A,B,...",
                        help="as for simulate (default random); repeat for several agent sets: a sweep each, and a "
                             "--target must hold under each (with every player count)")
    parser.add_argument("--workers", type=int, default=1, metavar="W",
                        help="processes to play in (default 1; never more than the CPUs or the games). On a busy or "
                             "2-core machine more may give no gain at all and cost more CPU in all (5-10%%: each "
                             "starts, has the game and sends its games back)")
    parser.add_argument("--target", metavar='"METRIC in [LO,HI]"',
                        help='e.g. "win_rate.TEAM in [0.5,0.6]": met when the 95%% interval lies inside')
    parser.add_argument("--json", action="store_true", help="print the sweep as one JSON object, last line")
    parser.add_argument("--plot", metavar="FILE.png", help="draw the metric per setting (needs matplotlib)")
    parser.add_argument("--csv", metavar="FILE", help="write one row per setting, with what made its games")


@dataclass
class SweepPlan:
    """A sweep checked before any game: the values to try, the target, the metric, the batch and the spec."""

    varies: list
    target: Any
    total: int
    metric: str
    batch: Any
    doc: Any


def plan_sweep(args: argparse.Namespace) -> SweepPlan:
    """Check every key, value, target and metric of a sweep of one player count and agent set (a UsageError or a
    located spec error) and plan it."""
    from rulelang.pipeline import read_spec

    from .simulate import Batch
    from .stats import game_summary
    from .sweep import check_metric, combinations, metric_names, parse_target, parse_vary

    _check_numbers(args, [args.players])
    try:
        varies = [parse_vary(text) for text in args.vary]
        both = [v.key for v in varies if v.key in args.params]
        if both:
            raise ValueError(f"--vary {both[0]} and --param {both[0]}: a param is either varied or set, not both")
        target = parse_target(args.target) if args.target else None
        total = len(combinations(varies))
    except ValueError as error:
        raise UsageError(str(error)) from None
    if args.plot:
        _check_plot(args.plot)
    _check_csv(args.csv)
    base, agents = game_and_agents(args.path, args.players, args.agents, args.mods, args.params)   # valid first
    batch = Batch(args.path, args.players, args.games, args.seed, agents, tuple(args.mods),
                  tuple(sorted(args.params.items())))
    empty = game_summary(base, batch, [])
    metric = target.metric if target else _default_metric(empty)
    try:
        check_metric(metric, metric_names(empty, [end.name for end in base.end]))
    except ValueError as error:
        raise UsageError(str(error)) from None
    return SweepPlan(varies, target, total, metric, batch, read_spec(args.path, mods=args.mods))


def sweep(args: argparse.Namespace) -> int:
    from .sweep import SweepInterrupted, run_sweep
    from .sweep_report import draw_sweep, print_sweep, sweep_json, write_sweep_csv

    agent_sets = args.agents or ["random"]
    if len(args.players) * len(agent_sets) > 1:
        _check_numbers(args, args.players)
        return _sweep_combinations(args, agent_sets)
    args.players, args.agents = args.players[0], agent_sets[0]
    plan = plan_sweep(args)
    varies, target, total, metric, batch, doc = plan.varies, plan.target, plan.total, plan.metric, plan.batch, plan.doc
    interrupted = False
    with progress_bar(total * args.games) as advance:
        try:
            results = run_sweep(doc, args.path, varies, batch, metric, target, args.workers, advance)
        except ValueError as error:
            raise UsageError(str(error)) from None
        except SweepInterrupted as stop:
            results, interrupted = stop.results, True
    if interrupted and not results:
        print("rulelang: interrupted before any setting finished", file=sys.stderr)
        return 130
    print_sweep(varies, results, metric, target, sys.stdout, sys.stdout.isatty())
    if args.csv:
        try:
            write_sweep_csv(args.csv, varies, results, metric, provenance(args))
        except OSError as error:
            raise UsageError(f"cannot write {args.csv}: {error.strerror or error}") from None
    if args.plot:
        try:
            draw_sweep(varies, results, metric, target, args.plot)
        except OSError as error:
            raise UsageError(f"cannot write {args.plot}: {error.strerror or error}") from None
    failed = sum(r.summary["errors"]["count"] for r in results)
    if failed:
        print(f"rulelang: {counted(failed, 'game')} failed (their seeds are in --json)", file=sys.stderr)
    if args.json:
        print(sweep_json(varies, results, metric, target), flush=True)
    if interrupted:
        print(f"rulelang: interrupted; the {len(results)} of {counted(total, 'setting')} that finished are shown"
              + (" and in the CSV" if args.csv else ""), file=sys.stderr)
        return 130
    return 1 if failed else 0


def _sweep_combinations(args: argparse.Namespace, agent_sets: list[str]) -> int:
    """The sweep under each player count and agent set (every one checked before any game), each shown as one
    sweep is, then, with a target, which settings meet it under all of them and where the others fail."""
    from rulelang.pipeline import read_spec

    from .report import plain_section
    from .simulate import Batch
    from .stats import game_summary
    from .sweep import SweepInterrupted, check_metric, combinations, metric_names, parse_target, parse_vary, run_sweep
    from .sweep_report import (
        combination_label,
        every_combination_json,
        every_combination_section,
        every_combination_verdict,
        print_sweep,
    )

    if args.plot or args.csv:
        raise UsageError("--plot and --csv show one sweep; give one --players count and one --agents")
    try:
        varies = [parse_vary(text) for text in args.vary]
        target = parse_target(args.target) if args.target else None
    except ValueError as error:
        raise UsageError(str(error)) from None
    combos: list[tuple] = []
    metric: str | None = target.metric if target else None
    for players in args.players:
        for agents_text in agent_sets:
            base, agents = game_and_agents(args.path, players, agents_text, args.mods, args.params)
            batch = Batch(args.path, players, args.games, args.seed, agents, tuple(args.mods),
                          tuple(sorted(args.params.items())))
            empty = game_summary(base, batch, [])
            metric = metric or _default_metric(empty)          # without a target: the first combination's
            try:
                check_metric(metric, metric_names(empty, [end.name for end in base.end]))
            except ValueError as error:
                raise UsageError(f"{combination_label(players, agents_text)}: {error}") from None
            combos.append((players, agents_text, batch))
    assert metric is not None              # every combination was given one above
    doc = read_spec(args.path, mods=args.mods)
    runs = []
    for players, agents_text, batch in combos:
        with progress_bar(len(combinations(varies)) * args.games) as advance:
            try:
                results = run_sweep(doc, args.path, varies, batch, metric, target, args.workers, advance)
            except ValueError as error:
                raise UsageError(f"{combination_label(players, agents_text)}: {error}") from None
            except SweepInterrupted:
                print("rulelang: interrupted; a target under several combinations needs every one",
                      file=sys.stderr)
                return 130
        runs.append((players, agents_text, results))
    for k, (players, agents_text, results) in enumerate(runs):
        print(("\n" if k else "") + f"== {combination_label(players, agents_text)} ==")
        print_sweep(varies, results, metric, target, sys.stdout, False)
    if target is not None:
        print(plain_section(every_combination_section(varies, runs, target)))
        print(every_combination_verdict(varies, runs))
    failed = sum(r.summary["errors"]["count"] for _, _, results in runs for r in results)
    if failed:
        print(f"rulelang: {failed} games failed (their seeds are in --json)", file=sys.stderr)
    if args.json:
        print(every_combination_json(varies, runs, metric, target), flush=True)
    return 1 if failed else 0


def _default_metric(summary: dict) -> str:
    """Without a target, the first team's win rate, else the first seat's."""
    seats = {f"P{s + 1}" for s in range(summary["players"])}
    teams = [label for label in summary["win_rate"] if label not in seats]
    return f"win_rate.{teams[0] if teams else 'P1'}"


def _check_numbers(args: argparse.Namespace, player_counts: Sequence[int]) -> None:
    for name in ("games", "workers"):
        if getattr(args, name) < 1:
            raise UsageError(f"--{name} must be at least 1, not {getattr(args, name)}")
    for players in player_counts:
        if players < 1:
            raise UsageError(f"--players must be at least 1, not {players}")


def _check_csv(path: str | None) -> None:
    from .report import check_writable
    if path:
        try:
            check_writable(path)
        except OSError as error:
            raise UsageError(str(error)) from None


def _check_plot(path: str) -> None:
    from .plot import PlotUnavailable, require_matplotlib
    from .report import check_writable
    try:
        require_matplotlib()
        check_writable(path)
    except PlotUnavailable as missing:
        raise UsageError(str(missing)) from None
    except OSError as error:
        raise UsageError(str(error)) from None
