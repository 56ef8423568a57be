"""A sweep of two keys as a grid, and its CSV (issue 33)."""
from __future__ import annotations

import csv
from pathlib import Path

from rulelang.cli import main
from rulelang.lab.sweep import Measure, SweepResult, Target, Vary
from rulelang.lab.sweep_report import grid_section

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
    assert code == 130 and "the 2 settings of 4 that finished" in err
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    assert [(r["tables.setup.4.houses"], r["tables.setup.4.catches"]) for r in rows] == [("6", "7"), ("6", "9")]
    grid = out.split("Grid:", 1)[1].splitlines()
    assert grid[3].split()[1:] == ["-", "-"]         # the row of houses=8: not played
