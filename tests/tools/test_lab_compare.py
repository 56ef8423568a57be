"""`simulate --compare`: two runs' win rates with an interval on each difference (issue 33)."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from rulelang.cli import main
from rulelang.lab.compare import CompareError, compare, read_summary

ROOT = Path(__file__).resolve().parents[2]
JF = str(ROOT / "games" / "jacks_friends")


def test_the_difference_has_newcombes_interval():
    this = {"win_rate": {"P1": {"wins": 56, "of": 70}}, "role_win_rate": {}, "agent_win_rate": {}}
    other = {"win_rate": {"P1": {"wins": 48, "of": 80}}}
    found = compare(this, other)["win_rate.P1"]
    assert found["difference"] == pytest.approx(0.2)
    assert (found["low"], found["high"]) == pytest.approx((0.0524, 0.3339), abs=1e-4)   # Newcombe 1998, method 10


def test_rates_that_are_not_counts_or_missing_are_left_out():
    this = {"win_rate": {"P1": {"wins": 5, "of": 10}, "P2": {"wins": 5, "of": 10}, "P3": {"wins": 1, "of": 2}}}
    other = {"win_rate": {"P1": {"wins": 11, "of": 10}, "P2": {"wins": "5", "of": 10}}}
    assert compare(this, other) == {}


def test_a_run_compared_with_a_saved_one(capsys, tmp_path):
    saved = tmp_path / "a.json"
    assert main(["simulate", JF, "--players", "4", "--games", "20", "--json"]) == 0
    saved.write_text(capsys.readouterr()[0], encoding="utf-8")
    assert main(["simulate", JF, "--players", "4", "--games", "20", "--seed", "3", "--compare", str(saved),
                 "--json"]) == 0
    out = capsys.readouterr()[0]
    first = json.loads(saved.read_text().strip().splitlines()[-1])
    second = json.loads(out.strip().splitlines()[-1])
    giant = second["compare"]["rates"]["win_rate.giant"]
    assert giant["other"] == {"wins": first["win_rate"]["giant"]["wins"], "of": 20}
    assert giant["this"] == {"wins": second["win_rate"]["giant"]["wins"], "of": 20}
    assert "Compared with" in out


@pytest.mark.parametrize("content", ["", "not json", "[1, 2]", '{"win_rate": 3}', "[" * 100000])
def test_a_file_that_is_no_summary_is_refused_in_one_line(tmp_path, content):
    path = tmp_path / "x.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(CompareError, match="does not end with a summary"):
        read_summary(str(path))


def test_a_fifo_is_refused_before_any_game(capsys, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    code = main(["simulate", JF, "--players", "4", "--games", "5", "--compare", str(fifo)])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err.count("\n") == 1 and "--compare" in err
