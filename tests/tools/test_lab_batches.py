"""simulate over several player counts, its provenance, Ctrl-C, and a CSV seed `run --agents` replays (issue 33)."""
from __future__ import annotations

import argparse
import csv
import json
from pathlib import Path

import pytest

import rulelang
from rulelang.cli import main
from rulelang.lab import simulate as simulate_module
from rulelang.lab.command import player_counts

ROOT = Path(__file__).resolve().parents[2]
JF = str(ROOT / "games" / "jacks_friends")
FLAPJACKS = str(ROOT / "games" / "flapjacks")


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("text, counts", [("4", (4,)), ("2..6", (2, 3, 4, 5, 6)), ("2,4", (2, 4)),
                                          ("3,2..3", (3, 2))])
def test_player_counts_are_one_a_range_or_a_list(text, counts):
    assert player_counts(text) == counts


@pytest.mark.parametrize("text", ["", "x", "6..2", "2..", "1.5"])
def test_a_bad_player_count_is_refused(text):
    with pytest.raises(argparse.ArgumentTypeError):
        player_counts(text)


def test_all_player_counts_in_one_command_and_one_table(capsys):
    code, out, _ = run_cli(capsys, "simulate", JF, "--players", "2..4", "--games", "6", "--json")
    assert code == 0
    table = out.split("By player count", 1)[1]
    assert [line.split()[0] for line in table.strip().splitlines()[1:4]] == ["2", "3", "4"]
    whole = json.loads(out.strip().splitlines()[-1])
    assert whole["players"] == [2, 3, 4] and set(whole["by_players"]) == {"2", "3", "4"}
    single = main(["simulate", JF, "--players", "3", "--games", "6", "--json"])
    one = json.loads(capsys.readouterr()[0].strip().splitlines()[-1])
    assert single == 0 and one["win_rate"] == whole["by_players"]["3"]["win_rate"]   # the same batch


def test_provenance_in_json_and_csv(capsys, tmp_path):
    path = tmp_path / "g.csv"
    code, out, _ = run_cli(capsys, "simulate", JF, "--players", "3", "--games", "4", "--seed", "7",
                           "--csv", str(path), "--json")
    assert code == 0
    origin = json.loads(out.strip().splitlines()[-1])["provenance"]
    assert origin["rulelang"] == rulelang.__version__ and len(origin["spec_sha256"]) == 64
    assert (origin["seed"], origin["players"], origin["agents"], origin["mods"]) == (7, 3, ["random"] * 3, [])
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    assert len(rows) == 4 and {row["spec_sha256"] for row in rows} == {origin["spec_sha256"]}
    assert {row["agents"] for row in rows} == {"random,random,random"} and rows[0]["batch_seed"] == "7"


@pytest.mark.parametrize("path, players, agents", [(JF, "4", "first,random,random,random"), (FLAPJACKS, "3", "random")])
def test_a_csv_seed_replays_its_game_with_run_agents(capsys, tmp_path, path, players, agents):
    table = tmp_path / "g.csv"
    code, _, _ = run_cli(capsys, "simulate", path, "--players", players, "--games", "3", "--seed", "5",
                         "--agents", agents, "--csv", str(table))
    assert code == 0
    for row in csv.DictReader(table.open(encoding="utf-8")):
        code, out, _ = run_cli(capsys, "run", path, "--players", players, "--agents", row["agents"],
                               "--seed", row["seed"], "--quiet", "--json")
        replayed = json.loads(out.strip().splitlines()[-1])
        assert code == 0
        assert (replayed["turns"], " ".join(replayed["winning_players"])) == (int(row["turns"]),
                                                                             row["winning_players"])


def test_run_refuses_agents_for_the_wrong_number_of_seats(capsys):
    code, out, err = run_cli(capsys, "run", JF, "--players", "3", "--agents", "random,first", "--quiet")
    assert code == 2 and "2 agents for 3 players" in err


def test_ctrl_c_keeps_the_games_played(capsys, tmp_path, monkeypatch):
    real = simulate_module.play_game

    def stop_at_the_fourth(game, batch, index):
        if index == 3:
            raise KeyboardInterrupt
        return real(game, batch, index)
    monkeypatch.setattr(simulate_module, "play_game", stop_at_the_fourth)
    path = tmp_path / "g.csv"
    code, out, err = run_cli(capsys, "simulate", JF, "--players", "4", "--games", "10", "--csv", str(path), "--json")
    assert code == 130 and "interrupted after 3 games" in err
    summary = json.loads(out.strip().splitlines()[-1])
    assert summary["interrupted"] is True and summary["completed"] == 3
    assert [row["game"] for row in csv.DictReader(path.open(encoding="utf-8"))] == ["0", "1", "2"]


@pytest.mark.parametrize("command", ["simulate", "sweep"])
def test_the_workers_help_says_more_may_give_nothing_on_a_busy_machine(command, capsys):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "busy or 2-core machine more may give no gain at all and cost more CPU in all" in text
