"""A sweep as people and programs read it: one row per setting, a verdict, one JSON line, a plot."""
from __future__ import annotations

import json
from typing import IO

from rulelang.spec.paths import number_text

from ..printable import counted, printable, printable_lines
from .report import Section, plain_section, rich_table, rich_text
from .sweep import SweepResult, Target, Vary


def _value(value: float | None, rate: bool) -> str:
    if value is None:
        return "-"
    return f"{100 * value:.1f}%" if rate else f"{value:g}"


def _interval(result: SweepResult, rate: bool) -> str:
    m = result.measure
    if m.value is None or not m.has_interval:
        return "-"
    return f"{_value(m.low, rate)}-{_value(m.high, rate)}"


def _is_rate(results: list[SweepResult]) -> bool:
    return any(r.measure.has_interval for r in results)


def settings_section(varies: list[Vary], results: list[SweepResult], metric: str, target: Target | None) -> Section:
    """One row per setting: its values, the metric with its interval, and whether it meets the target."""
    rate = _is_rate(results)
    columns = [v.key for v in varies] + [metric, "95% interval"]
    if target is not None:
        columns += ["meets target", "point in range"]
    columns += ["turns (mean)", "failed"]
    rows = []
    for r in results:
        row = [number_text(v) for v in r.values] + [_value(r.measure.value, rate), _interval(r, rate)]
        if target is not None:
            row += ["yes" if r.meets else "no", "yes" if r.in_range else "no"]
        mean = r.summary["turns"]["mean"]
        row += ["-" if mean is None else f"{mean:.2f}", str(r.summary["errors"]["count"])]
        rows.append(row)
    note = ""
    if target is not None:
        note = ("meets target: the whole 95% interval lies inside the target; point in range: the rate itself does"
                if rate else "this metric has no interval: a setting meets the target when its value is in range")
    return Section(f"Settings ({len(results)})", columns, rows, note)


def grid_section(varies: list[Vary], results: list[SweepResult], metric: str, target: Target | None) -> Section:
    """Two varied keys as a grid: the first's values down, the second's across, the metric in each cell
    (with its interval; ``*`` marks a setting that meets the target)."""
    rate = _is_rate(results)
    across = varies[1].values
    cells = {r.values: r for r in results}
    rows = []
    for down in varies[0].values:
        row = [number_text(down)]
        for value in across:
            r = cells.get((down, value))
            if r is None:                    # not played: a sweep stopped by Ctrl-C
                row.append("-")
                continue
            shown = _value(r.measure.value, rate)
            if r.measure.has_interval and r.measure.value is not None:
                shown += f" ({_interval(r, rate)})"
            row.append(shown + (" *" if r.meets else ""))
        rows.append(row)
    columns = [f"{varies[0].key} \\ {varies[1].key}"] + [number_text(v) for v in across]
    note = f"{metric}" + (" (95% interval); * meets the target" if target is not None else " (95% interval)")
    return Section(f"Grid: {metric}", columns, rows, note)


def write_sweep_csv(path: str, varies: list[Vary], results: list[SweepResult], metric: str, origin: dict) -> None:
    """One row per setting: its values, the metric and its interval, the verdict, and what made the games."""
    import csv

    from .report import _cell, check_writable
    check_writable(path)
    with open(path, "w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out)
        writer.writerow([v.key for v in varies] + ["metric", "value", "low", "high", "meets_target", "point_in_range",
                                                   "completed", "failed", "turns_mean", "players", "games", "seed",
                                                   "agents", "rulelang", "spec_sha256", "mods", "params"])
        for r in results:
            m, s = r.measure, r.summary
            writer.writerow([number_text(v) for v in r.values] + [
                _cell(metric), _csv_number(m.value), _csv_number(m.low), _csv_number(m.high), int(r.meets),
                int(r.in_range), s["completed"], s["errors"]["count"], _csv_number(s["turns"]["mean"]), s["players"],
                s["games"], s["seed"], _cell(",".join(s["agents"])), origin["rulelang"], origin["spec_sha256"],
                _cell(" ".join(origin["mods"])),
                _cell(" ".join(f"{name}={value}" for name, value in origin["params"].items()))])


def _csv_number(value: float | None) -> str:
    return "" if value is None else f"{value:.6g}"


def verdict(varies: list[Vary], results: list[SweepResult], metric: str, target: Target | None) -> str:
    """The answer in a sentence or two, each line ``printable``."""
    if target is None:
        return printable(f"{counted(len(results), 'setting')} played; no --target given")
    rate = _is_rate(results)
    band = f"{metric} in [{_value(target.low, rate)}, {_value(target.high, rate)}]"
    sure = [r for r in results if r.meets]
    maybe = [r for r in results if r.in_range and not r.meets]
    lines = [f"{len(sure)} of {counted(len(results), 'setting')} meet {band} (95% interval inside)"
             + (": " + "; ".join(_setting(varies, r) for r in sure) if sure else "")]
    if maybe:
        lines.append(f"{len(maybe)} more {'has' if len(maybe) == 1 else 'have'} the point estimate in range "
                     "but an interval reaching outside: "
                     + "; ".join(_setting(varies, r) for r in maybe))
    return printable_lines(lines)


def _setting(varies: list[Vary], result: SweepResult) -> str:
    return ", ".join(f"{v.key}={number_text(x)}" for v, x in zip(varies, result.values))


def heading(summary: dict, count: int) -> str:
    agents = sorted(set(summary["agents"]))
    who = agents[0] if len(agents) == 1 else ",".join(summary["agents"])
    return (f"{summary['game']}: {counted(count, 'setting')} x {counted(summary['games'], 'game')}, "
            f"{counted(summary['players'], 'player')}, "
            f"seed {summary['seed']} (the same games' seeds in every setting), agents {who}")


def print_sweep(varies: list[Vary], results: list[SweepResult], metric: str, target: Target | None,
                out: IO[str], terminal: bool) -> None:
    """Rich tables on a terminal, aligned plain text otherwise."""
    part = settings_section(varies, results, metric, target)
    title = heading(results[0].summary, len(results))
    answer = verdict(varies, results, metric, target)
    grid = grid_section(varies, results, metric, target) if len(varies) == 2 else None
    if not terminal:
        shown = plain_section(part) + ("\n" + plain_section(grid) if grid else "")
        out.write(f"{printable(title)}\n\n{shown}\n{answer}\n")
        return
    from rich.console import Console
    from rich.text import Text

    console = Console(file=out, highlight=False)
    console.print(rich_text(title), style="bold")
    table = rich_table(part)
    for column in part.columns:
        table.add_column(rich_text(column), justify="right")
    for row, result in zip(part.rows, results):
        table.add_row(*map(rich_text, row), style="green" if result.meets else ("yellow" if result.in_range else None))
    console.print(table)
    if grid is not None:
        drawn = rich_table(grid)
        for column in grid.columns:
            drawn.add_column(rich_text(column), justify="right")
        for row in grid.rows:
            drawn.add_row(*map(rich_text, row))
        console.print(drawn)
    console.print(Text(answer))         # printable already, line by line (``verdict``)


def sweep_json(varies: list[Vary], results: list[SweepResult], metric: str, target: Target | None) -> str:
    """One JSON object: the sweep, and per setting its values, metric, verdict and main figures."""
    first = results[0].summary
    settings = []
    for r in results:
        s = r.summary
        settings.append({
            "values": {v.key: _plain_number(x) for v, x in zip(varies, r.values)},
            "metric": {"value": r.measure.value, "low": r.measure.low, "high": r.measure.high},
            "meets": r.meets if target else None, "point_in_range": r.in_range if target else None,
            "completed": s["completed"], "win_rate": s["win_rate"], "role_win_rate": s["role_win_rate"],
            "first_player": s["first_player"], "turns": {k: v for k, v in s["turns"].items() if k != "histogram"},
            "end_conditions": s["end_conditions"], "errors": s["errors"]})
    return json.dumps({
        "game": first["game"], "players": first["players"], "games": first["games"], "seed": first["seed"],
        "agents": first["agents"], "vary": [{"key": v.key, "values": [_plain_number(x) for x in v.values]}
                                            for v in varies],
        "metric": metric, "target": None if target is None else {"low": target.low, "high": target.high},
        "settings": settings}, sort_keys=True, separators=(",", ":"))


def _plain_number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def draw_sweep(varies: list[Vary], results: list[SweepResult], metric: str, target: Target | None, path: str) -> None:
    """The metric against the first --vary's values, one line per combination of the others, with the target band."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, chart = plt.subplots(figsize=(9, 5))
    try:
        lines: dict[tuple, list[SweepResult]] = {}
        for r in results:
            lines.setdefault(r.values[1:], []).append(r)
        for rest, members in lines.items():
            shown = [m for m in members if m.measure.value is not None]
            xs = [m.values[0] for m in shown]
            ys = [m.measure.value for m in shown]
            below = [m.measure.value - m.measure.low for m in shown]
            above = [m.measure.high - m.measure.value for m in shown]
            label = ", ".join(f"{v.key}={number_text(x)}" for v, x in zip(varies[1:], rest)) or metric
            chart.errorbar(xs, ys, yerr=[below, above], capsize=4, marker="o", label=label)
        if target is not None:
            chart.axhspan(target.low, target.high, color="tab:green", alpha=0.15, label="target")
        chart.set_xlabel(varies[0].key)
        chart.set_ylabel(f"{metric} (95% interval)")
        summary = results[0].summary
        chart.set_title(f"{summary['game']}, {counted(summary['players'], 'player')}: "
                        f"{counted(summary['games'], 'game')} per setting")
        chart.legend(fontsize="small")
        figure.tight_layout()
        figure.savefig(path)
    finally:
        plt.close(figure)


# --- a target under several player counts and agent sets at once ------------------------------------------------

def combination_label(players: int, agents: str) -> str:
    return f"{players} players, agents {agents}"


def under_every(runs: list[tuple[int, str, list[SweepResult]]]) -> list[tuple[tuple[float, ...], bool, list[str]]]:
    """Per setting (every combination plays the same settings, in order): its values, whether the target holds
    under every combination (its interval inside the target in each), and the combinations where it does not."""
    out = []
    for k, first in enumerate(runs[0][2]):
        fails = [combination_label(players, agents) for players, agents, results in runs if not results[k].meets]
        out.append((first.values, not fails, fails))
    return out


def every_combination_section(varies: list[Vary], runs: list[tuple[int, str, list[SweepResult]]],
                              target: Target) -> Section:
    """One row per setting: the metric under each combination (ok where it meets the target), and the verdict."""
    rate = _is_rate(runs[0][2])
    columns = ["setting"] + [combination_label(p, a) for p, a, _ in runs] + ["every one"]
    rows = []
    for k, (_, ok, _) in enumerate(under_every(runs)):
        cells = [f"{_value(results[k].measure.value, rate)} {_interval(results[k], rate)}"
                 + (" ok" if results[k].meets else "") for _, _, results in runs]
        rows.append([_setting(varies, runs[0][2][k])] + cells + ["yes" if ok else "no"])
    return Section(f"The target {target.metric} in [{target.low:g}, {target.high:g}] under every combination",
                   columns, rows, note="ok: the 95% interval lies inside the target under that combination")


def every_combination_verdict(varies: list[Vary], runs: list[tuple[int, str, list[SweepResult]]]) -> str:
    """Which settings meet the target under every combination; else, for each setting, where it fails."""
    verdicts = under_every(runs)
    settings = [_setting(varies, result) for result in runs[0][2]]
    good = [setting for setting, (_, ok, _) in zip(settings, verdicts) if ok]
    if good:
        return printable(f"meets the target under all {len(runs)} combinations: " + "; ".join(good))
    lines = [f"no setting meets the target under all {len(runs)} combinations:"]
    lines += [f"  {setting} fails at {'; '.join(fails)}" for setting, (_, _, fails) in zip(settings, verdicts)]
    return printable_lines(lines)


def every_combination_json(varies: list[Vary], runs: list[tuple[int, str, list[SweepResult]]], metric: str,
                           target: Target | None) -> str:
    """One JSON object: each combination's sweep (as ``sweep_json``) and, with a target, each setting's verdict."""
    combos = [{"players": players, "agents": agents, "sweep": json.loads(sweep_json(varies, results, metric, target))}
              for players, agents, results in runs]
    every = None if target is None else [
        {"values": {v.key: _plain_number(x) for v, x in zip(varies, values)}, "meets": ok, "fails": fails}
        for values, ok, fails in under_every(runs)]
    return json.dumps({"combinations": combos, "metric": metric, "every": every}, sort_keys=True,
                      separators=(",", ":"))
