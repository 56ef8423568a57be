"""A batch summary as people and programs read it: a table, one JSON line, CSV rows, a plot.

The table is built once as plain sections (a title, columns, rows) and then
drawn by rich on a terminal or as aligned plain text otherwise, so a log
file or a pipe gets no escape codes or box characters. Names in them come
from the spec: both drawings make every piece ``printable`` first, and rich
is handed ``Text``, never markup.
"""
from __future__ import annotations

import csv
import json
import os
import stat
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING

from ..printable import counted, printable
from .simulate import Batch, GameRecord
from .stats import histogram_bins, player_label, winner_label

if TYPE_CHECKING:
    from rich.table import Table
    from rich.text import Text


@dataclass
class Section:
    title: str
    columns: list[str]
    rows: list[list[str]] = field(default_factory=list)
    note: str = ""


def percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def interval(rate: dict) -> str:
    if rate["rate"] is None:
        return "-"
    return f"{100 * rate['low']:.1f}-{100 * rate['high']:.1f}%"


def _rate_cells(rate: dict) -> list[str]:
    return [str(rate["wins"]), percent(rate["rate"]), interval(rate)]


def sections(summary: dict) -> list[Section]:
    """Everything the table shows, in reading order; sections with nothing to say are left out."""
    out = [_seat_section(summary)]
    seats = {player_label(s) for s in range(summary["players"])}
    teams = {k: v for k, v in summary["win_rate"].items() if k not in seats}
    for title, rates in (("Win rate by team", teams), ("Win rate by role", summary["role_win_rate"])):
        if rates:
            out.append(Section(title, ["", "wins", "rate", "95% interval"],
                               [[name] + _rate_cells(rate) for name, rate in rates.items()]))
    if len(summary["agent_win_rate"]) > 1:
        out.append(Section("Win rate by agent", ["agent", "wins", "rate", "95% interval"],
                           [[name] + _rate_cells(rate) for name, rate in summary["agent_win_rate"].items()],
                           note="wins out of games played, a team once per game however many of its seats the "
                                "agent played; seats in no team one each"))
    out.append(_first_player_section(summary["first_player"]))
    out.extend(_length_sections(summary["turns"]))
    done = summary["completed"]
    out.append(Section("How games ended", ["end condition", "games", "share"],
                       [[name, str(count), percent(count / done)]
                        for name, count in _most_first(summary["end_conditions"])]))
    out.append(Section("Winners", ["winner", "games", "share"],
                       [[name, str(count), percent(count / done)] for name, count in _most_first(summary["winners"])]))
    if summary["cards"]:
        out.append(_card_section(summary["cards"]))
    out.extend(_decision_sections(summary))
    if summary.get("skill"):
        out.append(_skill_section(summary["skill"]))
    if summary.get("quality"):
        out.append(_quality_section(summary["quality"]))
        out.append(_branching_section(summary["quality"]["branching"]))
    if "compare" in summary:
        out.append(_compare_section(summary["compare"]))
    errors = summary["errors"]
    if errors["count"]:
        shown = ", ".join(str(s) for s in errors["seeds"][:10]) + (", ..." if errors["count"] > 10 else "")
        out.append(Section(f"{counted(errors['count'], 'game')} failed", ["game", "seed", "error"],
                           [[str(g["index"]), str(g["seed"]), g["message"]] for g in errors["games"][:10]],
                           note=f"seeds: {shown}"))
    return [part for part in out if part.rows]


def _most_first(counts: dict[str, int]) -> list[tuple[str, int]]:
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))


def _seat_section(summary: dict) -> Section:
    rows = []
    for seat in range(summary["players"]):
        label = player_label(seat)
        rows.append([label, summary["roles"][seat], summary["agents"][seat]] + _rate_cells(summary["win_rate"][label]))
    return Section("Win rate by seat", ["seat", "role", "agent", "wins", "rate", "95% interval"], rows)


def _first_player_section(first: dict) -> Section:
    """Where seats are symmetric, whoever moved first against the fair share; otherwise, per role whose
    seats do not win together, the first mover of that role against that role's seats in the same games."""
    columns = ["", "wins", "rate", "95% interval", "fair share"]
    if first.get("rounds"):
        return Section("First-player advantage", ["", ""],
                       [["none", "every turn is played by all seats at once (turn order: round): no one moves first"]])
    if first["symmetric"]:
        row = ["whoever moved first"] + _rate_cells(first) + [percent(first["fair"])]
        return Section("First-player advantage", columns, [row],
                       note="fair share: winners per game over seats, 1/players when one player wins")
    rows = [[f"first {role} to move"] + _rate_cells(rate) + [percent(rate["fair"])]
            for role, rate in first["by_role"].items() if rate["of"]]
    return Section("First-player advantage by role (seats differ)", columns, rows,
                   note="fair share: that role's winners per game over its seats, in the same games")


def _length_sections(turns: dict) -> list[Section]:
    if turns["mean"] is None:
        return []
    figures = Section("Game length (turns)", ["mean", "sd", "median", "min", "max"],
                      [[f"{turns['mean']:.2f}", f"{turns['sd']:.2f}", str(turns["median"]), str(turns["min"]),
                        str(turns["max"])]])
    bins = histogram_bins(turns["histogram"])
    top = max(count for _, _, count in bins)
    rows = [[str(low) if low == high else f"{low}-{high}", str(count), "#" * max(1 if count else 0,
                                                                             round(40 * count / top))]
            for low, high, count in bins]
    return [figures, Section("Game length histogram", ["turns", "games", ""], rows)]


def _card_section(cards: dict) -> Section:
    rows = [[info["name"], str(info["played"]), str(info["games"]), percent(info["win_rate"]["rate"]),
             percent(info["others"]["rate"]), _signed_interval(info["difference"])]
            for _, info in sorted(cards.items(), key=lambda item: (-item[1]["played"], item[0]))]
    return Section("Cards played", ["card", "times", "games", "players' win rate", "others' win rate",
                                    "difference (95% interval)"], rows,
                   note="players: the seats that played the card at least once; others: the other seats "
                        "of the same games")


def _figures(dist: dict) -> list[str]:
    """mean, sd, median, min-max of a distribution (stats.distribution)."""
    if dist["mean"] is None:
        return ["-", "-", "-", "-"]
    return [f"{dist['mean']:.2f}", f"{dist['sd']:.2f}", f"{dist['median']:g}", f"{dist['min']}..{dist['max']}"]


def _decision_sections(summary: dict) -> list[Section]:
    """What the players chose, how the counters ended, and by how much the winners won."""
    taken = [[label, option, str(info["times"]), percent(info["share"]), f"{info['per_game']:.2f}"]
             for label, options in summary["decisions"].items() for option, info in options.items()]
    finals = [[name] + _figures(dist) for name, dist in summary["final_counters"].items()]
    seats = [[name] + _figures(info["all"]) + _figures(info["margin"])[:1] + _figures(info["margin"])[2:]
             for name, info in summary["player_counters"].items()]
    return [Section("Decisions taken", ["decision", "option", "times", "share", "per game"], taken,
                    note="a decision is named by its kind and, where roles differ, the chooser's role"),
            Section("Counters at the end", ["counter", "mean", "sd", "median", "range"], finals),
            Section("Player counters at the end", ["counter", "mean", "sd", "median", "range", "margin mean",
                                                   "margin median", "margin range"], seats,
                    note="over every seat; margin: the best winner's value minus the best loser's, per game")]


def _skill_section(skill: dict) -> Section:
    """``--skill``: the better agent's win rate at the turning seat against the run's, and the difference."""
    diff = skill["difference"]
    shown = "-" if diff["value"] is None else (f"{100 * diff['value']:+.1f} ({100 * diff['low']:+.1f} to "
                                              f"{100 * diff['high']:+.1f})")
    rows = [[skill["agent"], *_rate_cells(skill["better"])], ["the run's agents", *_rate_cells(skill["baseline"])],
            ["difference", "", shown, ""]]
    return Section("Skill against luck", ["at the turning seat", "wins", "rate", "95% interval"], rows,
                   note="the better agent at seat i mod n of its games, the others as in the run; the run compared at "
                        "the same seats; difference in points, with Newcombe's interval")


def _branching_section(factor: dict) -> Section:
    """The branching factor of each named decision: how many times it was asked, and its options."""
    rows = [[name, str(sum(times for _, times in dist["histogram"]))] + _figures(dist)
            for name, dist in factor["by_decision"].items()]
    return Section("Branching factor by decision", ["decision", "asked", "mean", "sd", "median", "range"], rows,
                   note="the options a decision had when asked; a decision with one option is taken, not asked")


def _quality_section(q: dict) -> Section:
    """Browne's measures (docs/simulate.md): each a row with its value and what it means."""
    def shown(value: float | None, digits: str = ".2f") -> str:
        return "-" if value is None else format(value, digits)
    rows = [["duration (turns)"] + _figures(q["duration"])[:1] + [_figures(q["duration"])[3], "turns a game"],
            ["decisions a game"] + _figures(q["decisions"])[:1] + [_figures(q["decisions"])[3], "choices taken"]]
    if q["scored_games"]:
        rows += [["lead changes"] + _figures(q["lead_changes"])[:1] + [_figures(q["lead_changes"])[3],
                  f"per turn {shown(q['lead_changes_per_turn'], '.3f')}"],
                 ["decisiveness", shown(q["decisiveness"], ".3f"), "0..1",
                  "how far into the game the winner leads for good"],
                 ["drama (points behind)"] + _figures(q["drama"])[:1] + [_figures(q["drama"])[3],
                  f"comebacks {percent(q['comebacks'])}"]]
    factor = q["branching"]["all"]
    rows.append(["branching factor"] + _figures(factor)[:1] + [_figures(factor)[3], "options a decision asked"])
    return Section("Game quality", ["measure", "mean", "range", ""], rows,
                   note="lead changes, decisiveness and drama follow the scores as each turn began: "
                        "only for games with a score" if not q["scored_games"] else
                        f"from the scores of {counted(q['scored_games'], 'game')} as each turn began and at the end")


def _compare_section(compared: dict) -> Section:
    """This run's rates beside the other run's, and the difference in points with its 95% interval."""
    rows = []
    for label, info in compared["rates"].items():
        this, other = info["this"], info["other"]
        rows.append([label, f"{percent(this['wins'] / this['of'])} of {this['of']}",
                     f"{percent(other['wins'] / other['of'])} of {other['of']}",
                     _signed_interval({"value": info["difference"], "low": info["low"], "high": info["high"]})])
    agents = ",".join(compared["agents"]) or "?"
    return Section(f"Compared with {compared['with']} (agents {agents})",
                   ["rate", "this run", "that run", "difference (95% interval)"], rows,
                   note="difference: this run minus that run, in points; Newcombe's interval, runs taken as "
                        "independent")


def _signed_interval(difference: dict) -> str:
    """A difference of rates in points, with its interval: '+11.2 (+6.0 to +16.3)'."""
    if difference["value"] is None:
        return "-"
    return (f"{100 * difference['value']:+.1f} ({100 * difference['low']:+.1f} to "
            f"{100 * difference['high']:+.1f})")


def player_count_section(summaries: list[dict]) -> Section:
    """One row per player count: games finished, mean length, and each side's win rate with its interval.

    The sides are the roles where seats differ, else the teams, else the first seat beside whoever moved
    first and the fair share (seats are symmetric there)."""
    labels: list[str] = []
    for summary in summaries:
        for label in _sides(summary):
            if label not in labels:
                labels.append(label)
    symmetric = (all(summary["symmetric"] and not summary["first_player"].get("rounds") for summary in summaries)
                 and labels == ["P1"])
    columns = ["players", "finished", "mean turns"] + [f"{label} win rate (95%)" for label in labels]
    if symmetric:
        columns += ["first mover (95%)", "fair share"]
    rows = []
    for summary in summaries:
        sides = _sides(summary)
        row = [str(summary["players"]), str(summary["completed"]),
               "-" if summary["turns"]["mean"] is None else f"{summary['turns']['mean']:.2f}"]
        row += [_rate_and_interval(sides[label]) if label in sides else "-" for label in labels]
        if symmetric:
            row += [_rate_and_interval(summary["first_player"]), percent(summary["first_player"]["fair"])]
        rows.append(row)
    return Section("By player count", columns, rows)


def _sides(summary: dict) -> dict:
    if summary["role_win_rate"]:
        return summary["role_win_rate"]
    seats = {player_label(s) for s in range(summary["players"])}
    teams = {k: v for k, v in summary["win_rate"].items() if k not in seats}
    return teams or {"P1": summary["win_rate"]["P1"]}


def _rate_and_interval(rate: dict) -> str:
    return "-" if rate["rate"] is None else f"{percent(rate['rate'])} ({interval(rate)})"


def print_player_counts(summaries: list[dict], out: IO[str], terminal: bool) -> None:
    """The table of ``--players 2..6``: a heading and one row per count."""
    first = summaries[0]
    agents = sorted(set(first["provenance"]["agents"]))
    head = (f"{first['game']}: {counted(first['games'], 'game')} per player count, seed {first['seed']}, agents "
            f"{agents[0] if len(agents) == 1 else first['provenance']['agents']}")
    part = player_count_section(summaries)
    if terminal:
        from rich.console import Console
        console = Console(file=out, highlight=False)
        console.print(rich_text(head), style="bold")
        table = rich_table(part)
        for i, column in enumerate(part.columns):
            table.add_column(rich_text(column), justify="left" if i == 0 else "right")
        for row in part.rows:
            table.add_row(*map(rich_text, row))
        console.print(table)
    else:
        out.write(printable(head) + "\n\n" + plain_section(part))


def heading(summary: dict) -> str:
    agents = sorted(set(summary["agents"]))
    who = agents[0] if len(agents) == 1 else ",".join(summary["agents"])
    failed = summary["errors"]["count"]
    return (f"{summary['game']}: {counted(summary['games'], 'game')}, {counted(summary['players'], 'player')}, "
            f"seed {summary['seed']}, "
            f"agents {who}; {summary['completed']} finished" + (f", {failed} failed" if failed else ""))


def print_table(summary: dict, out: IO[str], terminal: bool) -> None:
    """The summary as rich tables on a terminal, as aligned plain text otherwise."""
    parts = sections(summary)
    if terminal:
        _print_rich(summary, parts, out)
    else:
        out.write(printable(heading(summary)) + "\n")
        for part in parts:
            out.write("\n" + plain_section(part))


def printable_section(part: Section) -> Section:
    """The section with its title, columns, cells and note made ``printable``, as they are drawn."""
    return Section(printable(part.title), [printable(c) for c in part.columns],
                   [[printable(cell) for cell in row] for row in part.rows], printable(part.note))


def rich_text(text: str) -> Text:
    """Text for rich to draw as it is: made ``printable``, and never read as markup (a '[/]' in a name is text)."""
    from rich.text import Text

    return Text(printable(text))


def rich_table(part: Section) -> Table:
    """An empty rich Table with the section's title and note; its columns and rows go in as ``rich_text``."""
    from rich.table import Table

    return Table(title=rich_text(part.title), title_justify="left", show_header=any(part.columns),
                 caption=rich_text(part.note) if part.note else None, caption_justify="left")


def plain_section(part: Section) -> str:
    """A section as a title and columns aligned with spaces."""
    part = printable_section(part)
    table = ([part.columns] if any(part.columns) else []) + part.rows      # no header of blanks
    widths = [max(len(row[i]) for row in table) for i in range(len(part.columns))]
    lines = [part.title]
    for row in table:
        lines.append("  " + "  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())
    if part.note:
        lines.append(f"  ({part.note})")
    return "\n".join(lines) + "\n"


def _print_rich(summary: dict, parts: list[Section], out: IO[str]) -> None:
    from rich.console import Console

    console = Console(file=out, highlight=False)
    console.print(rich_text(heading(summary)), style="bold")
    for part in parts:
        table = rich_table(part)
        for i, column in enumerate(part.columns):
            table.add_column(rich_text(column), justify="left" if i == 0 or not column else "right")   # bars: left
        for row in part.rows:
            table.add_row(*map(rich_text, row))
        console.print(table)


def json_line(summary: dict) -> str:
    return json.dumps(summary, sort_keys=True, separators=(",", ":"))


# --- files -----------------------------------------------------------------------------

def check_writable(path: str) -> None:
    """Refuse to write over anything but a plain file (a FIFO would hang, a device would be lost)."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return
    except OSError as error:
        raise OSError(f"cannot write {path}: {error.strerror}") from None
    if not stat.S_ISREG(mode):
        raise OSError(f"cannot write {path}: it exists and is not a plain file")


CSV_COLUMNS = ["game", "players", "seed", "turns", "end_condition", "winner", "winning_players", "team", "error",
               "agents", "batch_seed", "rulelang", "spec_sha256", "mods", "params"]


def write_csv(path: str, runs: list[tuple[Batch, list[GameRecord]]], origin: dict) -> None:
    """One row per game, in game order, each with what made it: its ``seed`` is the one
    ``rulelang run --agents AGENTS --seed SEED`` takes to play that game again. An OSError says why not written."""
    check_writable(path)
    mods = _cell(" ".join(origin["mods"]))
    params = _cell(" ".join(f"{name}={value}" for name, value in origin["params"].items()))
    with open(path, "w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(CSV_COLUMNS)
        for batch, records in runs:
            agents = _cell(",".join(batch.agents))
            for r in records:
                failed = r.error is not None
                writer.writerow([r.index, batch.players, r.seed, "" if failed else r.turns, _cell(r.condition or ""),
                                 "" if failed else _cell(winner_label(r)),
                                 " ".join(player_label(s) for s in r.winners), _cell(r.team or ""),
                                 _cell(r.error.splitlines()[0] if failed else ""), agents, batch.seed,
                                 origin["rulelang"], origin["spec_sha256"], mods, params])


def _cell(text: str) -> str:
    """Spec text in a CSV cell, kept from being read as a spreadsheet formula."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
