"""A sweep of two keys as a grid, and its CSV (issue 33)."""
from __future__ import annotations

import csv
import json
from pathlib import Path

from rulelang.cli import main
from rulelang.lab.sweep import Measure, SweepResult, Target, Vary
from rulelang.lab.sweep_report import every_combination_section, every_combination_verdict, grid_section, under_every

ROOT = Path(__file__).resolve().parents[2]
JF = str(ROOT / "games" / "jacks_friends")


def result(a: float, b: float, value: float, meets: bool) -> SweepResult:
    return SweepResult((a, b), {}, Measure(value, value - 0.1, value + 0.1, True), meets, meets)


def test_two_keys_make_rows_and_columns():
    varies = [Vary("a", (1.0, 2.0), "a=1,2"), Vary("b", (5.0, 6.0, 7.0), "b=5..7")]
    results = [result(a, b, a / 10 + b / 100, a == 2 and b == 6) for a in (1.0, 2.0) for b in (5.0, 6.0, 7.0)]
    grid = grid_section(varies, results, "win_rate.x", Target("win_rate.x", 0.2, 0.3))
    assert grid.columns[1:] == ["5", "6", "7"]
    assert [row[0] for row in grid.rows] == ["1", "2"]
    assert grid.rows[1][2] == "26.0% (16.0%-36.0%) *" and grid.rows[0][1] == "15.0% (5.0%-25.0%)"


def test_a_sweep_writes_one_csv_row_per_setting_and_shows_the_grid(capsys, tmp_path):
    path = tmp_path / "s.csv"
    code = main(["sweep", JF, "--players", "4", "--vary", "tables.setup.4.houses=6,8", "--vary",
                 "tables.setup.4.catches=7,9", "--games", "4", "--csv", str(path)])
    out, _ = capsys.readouterr()
    assert code == 0 and "Grid: win_rate.giant" in out
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    assert [(r["tables.setup.4.houses"], r["tables.setup.4.catches"]) for r in rows] == [
        ("6", "7"), ("6", "9"), ("8", "7"), ("8", "9")]
    assert all(r["completed"] == "4" and len(r["spec_sha256"]) == 64 for r in rows)


def test_ctrl_c_keeps_every_finished_setting(capsys, tmp_path, monkeypatch):
    from rulelang.lab import sweep as sweep_module
    real = sweep_module.play_game
    calls = [0]

    def stop_in_the_third_setting(game, batch, index):
        calls[0] += 1
        if calls[0] == 2 * 4 + 2:                 # 4 games a setting: two settings done, the third begun
            raise KeyboardInterrupt
        return real(game, batch, index)
    monkeypatch.setattr(sweep_module, "play_game", stop_in_the_third_setting)
    path = tmp_path / "s.csv"
    code = main(["sweep", JF, "--players", "4", "--vary", "tables.setup.4.houses=6,8", "--vary",
                 "tables.setup.4.catches=7,9", "--games", "4", "--csv", str(path)])
    out, err = capsys.readouterr()
    assert code == 130 and "the 2 of 4 settings that finished" in err
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    assert [(r["tables.setup.4.houses"], r["tables.setup.4.catches"]) for r in rows] == [("6", "7"), ("6", "9")]
    grid = out.split("Grid:", 1)[1].splitlines()
    assert grid[3].split()[1:] == ["-", "-"]         # the row of houses=8: not played


# --- a target under several player counts and agent sets ---------------------------------------------------------

def test_a_setting_meets_the_target_only_under_every_combination():
    varies = [Vary("a", (1.0, 2.0), "a=1,2")]
    target = Target("win_rate.x", 0.2, 0.3)

    def one(value: float, meets: bool) -> SweepResult:
        return SweepResult((value,), {}, Measure(0.25, 0.15, 0.35, True), meets, meets)

    runs = [(2, "random", [one(1.0, True), one(2.0, True)]),
            (4, "random", [one(1.0, False), one(2.0, True)]),
            (4, "greedy", [one(1.0, False), one(2.0, True)])]
    assert under_every(runs) == [((1.0,), False, ["4 players, agents random", "4 players, agents greedy"]),
                                 ((2.0,), True, [])]
    section = every_combination_section(varies, runs, target)
    assert [row[-1] for row in section.rows] == ["no", "yes"]
    assert section.rows[0][1].endswith(" ok") and not section.rows[0][2].endswith(" ok")
    assert every_combination_verdict(varies, runs) == "meets the target under all 3 combinations: a=2"
    failing = [(p, a, [results[0]]) for p, a, results in runs]
    assert every_combination_verdict(varies, failing).splitlines() == [
        "no setting meets the target under all 3 combinations:",
        "  a=1 fails at 4 players, agents random; 4 players, agents greedy"]


def test_a_sweep_at_two_player_counts_checks_the_target_at_each(capsys):
    pig = str(ROOT / "examples" / "pig")
    code = main(["sweep", pig, "--players", "2,3", "--vary", "params.goal.default=10,20", "--games", "30",
                 "--target", "win_rate.P1 in [0.2,0.8]", "--json"])
    out = capsys.readouterr().out
    assert code == 0
    whole = json.loads(out.strip().splitlines()[-1])
    combos = whole["combinations"]
    assert [(c["players"], c["agents"]) for c in combos] == [(2, "random"), (3, "random")]
    for k, setting in enumerate(whole["every"]):       # meets under every one = meets under each
        assert setting["meets"] == all(c["sweep"]["settings"][k]["meets"] for c in combos)
        assert setting["fails"] == [f"{c['players']} players, agents random" for c in combos
                                    if not c["sweep"]["settings"][k]["meets"]]
    assert "under every combination" in out


def test_several_combinations_refuse_a_plot_or_a_csv(capsys, tmp_path):
    code = main(["sweep", JF, "--players", "3,4", "--vary", "tables.setup.4.houses=7,8", "--games", "2",
                 "--csv", str(tmp_path / "s.csv")])
    assert code == 2 and "one --players" in capsys.readouterr().err
