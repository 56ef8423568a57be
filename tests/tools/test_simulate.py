"""`rulelang simulate`: batches of games, their statistics, and the command's outputs."""
from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rulelang
from rulelang.agents import FirstAgent, RandomAgent
from rulelang.cli import main
from rulelang.engine.rng import batch_seed
from rulelang.lab.report import print_table
from rulelang.lab.simulate import Batch, GameRecord, play_game, run_batch, seat_agents
from rulelang.lab.stats import summarize, wilson

from helpers.tiny_games import game_with_state

ROOT = Path(__file__).resolve().parents[2]
JF = str(ROOT / "games" / "jacks_friends")
FLAPJACKS = str(ROOT / "games" / "flapjacks")
REQUIRED = {"games", "players", "seed", "winners", "win_rate", "turns", "end_conditions", "errors"}


def simulate(capsys, *args: str) -> tuple[int, str, str]:
    """Run the command in this process: (exit code, stdout, stderr)."""
    code = main(["simulate", *args])
    out, err = capsys.readouterr()
    return code, out, err


def last_json(out: str) -> dict:
    return json.loads(out.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def jacks_friends():
    return rulelang.load_game(JF)


# --- statistics --------------------------------------------------------------------

@pytest.mark.parametrize("wins, trials, low, high", [
    (5, 10, 0.2366, 0.7634),       # the textbook example: symmetric about 1/2
    (0, 10, 0.0, 0.2775),          # never 0-0 wide, unlike the normal interval
    (10, 10, 0.7225, 1.0),
    (81, 263, 0.2553, 0.3662),
    (1, 1, 0.2065, 1.0),
])
def test_wilson_interval_known_values(wins, trials, low, high):
    got = wilson(wins, trials)
    assert got == pytest.approx((low, high), abs=1e-4)


def test_wilson_without_trials_is_the_whole_range():
    assert wilson(0, 0) == (0.0, 1.0)


@given(st.integers(1, 5000), st.data())
def test_wilson_holds_the_rate_and_narrows_with_more_games(trials, data):
    wins = data.draw(st.integers(0, trials))
    low, high = wilson(wins, trials)
    assert 0.0 <= low <= wins / trials <= high <= 1.0
    low4, high4 = wilson(4 * wins, 4 * trials)
    assert high4 - low4 < high - low


def record(index: int, winners: tuple[int, ...], turns: int, condition: str, team: str | None = None,
           first: int = 0, plays: dict | None = None) -> GameRecord:
    return GameRecord(index, 100 + index, turns, winners, team, condition, first, plays or {})


def test_summary_counts_a_hand_made_batch_exactly():
    records = [
        record(0, (0,), 5, "a", first=0, plays={"ace": {0: 2, 1: 1}}),
        record(1, (1, 2), 7, "b", team="blue", first=1, plays={"ace": {2: 1}}),
        record(2, (1, 2), 7, "b", team="blue", first=2),
        GameRecord(3, 103, error="spec.yaml:1:1: error: boom\nmore"),
    ]
    batch = Batch("x", 3, 4, 9, ("random", "first", "first"))
    summary = summarize(batch, records, "Test", ["red", "blue", "blue"], {"red": [0], "blue": [1, 2]})
    assert summary["completed"] == 3
    assert summary["winners"] == {"P1": 1, "blue": 2}
    assert summary["win_rate"]["P2"]["wins"] == 2 and summary["win_rate"]["P2"]["of"] == 3
    assert summary["win_rate"]["blue"]["wins"] == 2 and summary["win_rate"]["red"]["wins"] == 0
    # "first" plays both seats of team blue: one result per game, 2 of 3 (not 4 seat-wins of 6)
    assert summary["agent_win_rate"]["first"] == pytest.approx(
        {"wins": 2, "of": 3, "rate": 2 / 3, "low": wilson(2, 3)[0], "high": wilson(2, 3)[1]}, abs=1e-6)
    assert summary["role_win_rate"]["red"]["wins"] == 1 and summary["role_win_rate"]["blue"]["wins"] == 2
    assert summary["first_player"]["fair"] is None and not summary["symmetric"]   # red alone against blue two
    assert summary["turns"]["mean"] == pytest.approx(19 / 3) and summary["turns"]["min"] == 5
    assert summary["turns"]["histogram"] == [[5, 1], [7, 2]]
    assert summary["end_conditions"] == {"a": 1, "b": 2}
    ace = summary["cards"]["ace"]
    assert ace["played"] == 4 and ace["games"] == 2
    assert (ace["win_rate"]["wins"], ace["win_rate"]["of"]) == (2, 3)    # P1 won game 0, P3 game 1; P2 lost game 0
    assert (ace["others"]["wins"], ace["others"]["of"]) == (1, 3)       # P3 lost game 0; P1 lost, P2 won game 1
    assert summary["errors"]["count"] == 1 and summary["errors"]["seeds"] == [103]
    assert summary["errors"]["games"][0]["message"] == "spec.yaml:1:1: error: boom"


@st.composite
def batches(draw):
    """A batch of made-up game records: any winners, lengths, endings, plays and failures."""
    players = draw(st.integers(2, 5))
    seats = st.integers(0, players - 1)
    records = []
    for index in range(draw(st.integers(0, 30))):
        if draw(st.booleans()) and draw(st.booleans()):
            records.append(GameRecord(index, index, error="f:1:1: error: x"))
            continue
        winners = tuple(sorted(draw(st.sets(seats, max_size=players))))
        plays = draw(st.dictionaries(st.sampled_from(["a", "b"]), st.dictionaries(seats, st.integers(1, 3), min_size=1),
                                     max_size=2))
        records.append(GameRecord(index, index, draw(st.integers(1, 40)), winners, None,
                                  draw(st.sampled_from(["x", "y"])), draw(seats), plays))
    return Batch("x", players, len(records), 0, ("random",) * players), records


@pytest.mark.slow
@given(batches())
def test_summary_counts_add_up_for_any_batch(made):
    batch, records = made
    summary = summarize(batch, records, "Test", ["r"] * batch.players, {})
    done = [r for r in records if r.error is None]
    assert summary["completed"] + summary["errors"]["count"] == batch.games
    assert sum(summary["winners"].values()) == len(done)
    assert sum(summary["end_conditions"].values()) == len(done)
    assert sum(count for _, count in summary["turns"]["histogram"]) == len(done)
    assert sum(rate["wins"] for rate in summary["win_rate"].values()) == sum(len(r.winners) for r in done)
    assert summary["agent_win_rate"]["random"]["wins"] == sum(len(r.winners) for r in done)
    for card, info in summary["cards"].items():
        assert info["played"] == sum(sum(r.plays.get(card, {}).values()) for r in done)
        assert info["games"] <= info["win_rate"]["of"] <= info["games"] * batch.players


def test_a_batch_where_every_game_failed_still_prints_a_summary():
    records = [GameRecord(i, i, error="f.yaml:2:3: error: boom") for i in range(3)]
    summary = summarize(Batch("x", 2, 3, 0, ("random", "random")), records, "Test", ["r", "r"], {})
    assert summary["completed"] == 0 and summary["win_rate"]["P1"]["rate"] is None
    assert summary["turns"]["mean"] is None and summary["errors"]["seeds"] == [0, 1, 2]
    for terminal in (False, True):
        text = io.StringIO()
        print_table(summary, text, terminal)
        assert "3 games failed" in text.getvalue() and "How games ended" not in text.getvalue()


def test_counts_of_a_played_batch_add_up_to_the_games(jacks_friends):
    batch = Batch(JF, 4, 120, 3, seat_agents("random", 4))
    layout = jacks_friends.layout(4)
    summary = summarize(batch, run_batch(jacks_friends, batch), jacks_friends.name, layout.roles,
                        layout.team_players)
    games = summary["games"]
    assert summary["completed"] == games and summary["errors"]["count"] == 0
    assert sum(summary["winners"].values()) == games
    assert sum(summary["end_conditions"].values()) == games
    assert sum(count for _, count in summary["turns"]["histogram"]) == games
    assert summary["win_rate"]["giant"]["wins"] + summary["win_rate"]["townsfolk"]["wins"] == games
    assert summary["win_rate"]["P1"] == summary["win_rate"]["giant"]           # the giant sits at P1


# --- seeds and workers ---------------------------------------------------------------

def test_batch_seeds_differ_by_index_and_by_batch_and_fit_json():
    seeds = {batch_seed(s, i) for s in range(5) for i in range(400)}
    assert len(seeds) == 2000
    assert all(0 <= seed < 2**53 for seed in seeds)


def test_a_game_of_a_batch_depends_only_on_its_index(jacks_friends):
    batch = Batch(JF, 4, 30, 11, seat_agents("random", 4))
    whole = run_batch(jacks_friends, batch)
    alone = play_game(jacks_friends, batch, 17)
    assert whole[17] == alone
    assert whole[17].seed == batch_seed(11, 17)
    assert len({(r.turns, r.winners, r.condition) for r in whole}) > 3      # the games do differ


@pytest.mark.subprocess
def test_one_and_two_workers_print_the_same_json(capsys):
    args = [FLAPJACKS, "--players", "3", "--games", "24", "--seed", "5", "--json"]
    code1, out1, _ = simulate(capsys, *args, "--workers", "1")
    code2, out2, _ = simulate(capsys, *args, "--workers", "2")
    assert code1 == code2 == 0
    assert out1 == out2
    assert last_json(out1)["cards"]                                       # Flapjacks plays cards


def test_another_seed_gives_another_batch(capsys):
    first = last_json(simulate(capsys, JF, "--players", "4", "--games", "40", "--seed", "1", "--json")[1])
    second = last_json(simulate(capsys, JF, "--players", "4", "--games", "40", "--seed", "2", "--json")[1])
    assert first["turns"]["histogram"] != second["turns"]["histogram"]


# --- the command ---------------------------------------------------------------------

def test_json_has_the_documented_fields(capsys):
    code, out, err = simulate(capsys, JF, "--players", "4", "--games", "50", "--seed", "7", "--json")
    assert code == 0 and err == ""                                     # no progress bar off a terminal
    summary = last_json(out)
    assert REQUIRED <= set(summary)
    assert (summary["games"], summary["players"], summary["seed"]) == (50, 4, 7)
    assert set(summary["winners"]) <= {"giant", "townsfolk"}          # a team's win is counted by its name
    assert {"P1", "P2", "P3", "P4", "giant", "townsfolk"} == set(summary["win_rate"])
    for rate in summary["win_rate"].values():
        assert rate["low"] <= rate["rate"] <= rate["high"]
    assert summary["turns"]["min"] <= summary["turns"]["mean"] <= summary["turns"]["max"]
    assert summary["errors"] == {"count": 0, "seeds": [], "games": []}
    assert "\x1b" not in out and "Win rate by seat" in out


def test_a_game_that_fails_is_counted_with_its_seed(capsys, tmp_path):
    folder = tmp_path / "pig"
    folder.mkdir()
    text = (ROOT / "examples" / "pig" / "game.yaml").read_text(encoding="utf-8")
    broken = text.replace("        me rolls 1 d6 as r\n", "        me rolls 1 d6 as r\n"
                          "        if turn = 1 and r.total = 6:\n"
                          "          me.pot = first(q in players where q.banked > 1000).banked\n")
    assert broken != text
    (folder / "game.yaml").write_text(broken.replace(">= 100", ">= 20"), encoding="utf-8")
    code, out, err = simulate(capsys, str(folder), "--players", "2", "--games", "60", "--json")
    assert code == 1
    summary = last_json(out)
    errors = summary["errors"]
    assert 0 < errors["count"] < 60                               # a sixth of the games roll a 6 first
    assert summary["completed"] + errors["count"] == 60
    assert errors["seeds"] == [batch_seed(0, g["index"]) for g in errors["games"]]
    game = rulelang.load_game(folder)
    again = play_game(game, Batch(str(folder), 2, 60, 0, ("random", "random")), errors["games"][0]["index"])
    assert again.error is not None and again.seed == errors["seeds"][0]
    assert "game.yaml:" in err and "error: a value used here is none" in err and "Traceback" not in err


@pytest.mark.parametrize("args, words", [
    (["--games", "0"], "--games must be at least 1"),
    (["--games", "-1"], "--games must be at least 1"),
    (["--workers", "0"], "--workers must be at least 1"),
    (["--agents", "randon"], "unknown agent 'randon' (did you mean 'random'?)"),
    (["--agents", "random,first"], "2 agents for 4 players"),
    (["--players", "9"], "2 to 6 players"),
])
def test_usage_errors_exit_2_with_one_line(capsys, args, words):
    code, out, err = simulate(capsys, JF, "--players", "4", *args) if "--players" not in args \
        else simulate(capsys, JF, *args)
    assert code == 2
    assert err.strip().splitlines() == [err.strip()] and words in err
    assert out == ""


def test_a_fifo_is_refused_rather_than_waited_on(capsys, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    code, out, err = simulate(capsys, JF, "--players", "4", "--games", "5", "--csv", str(fifo))
    assert code == 2 and "not a plain file" in err and out == ""


def test_csv_has_a_row_per_game(capsys, tmp_path):
    path = tmp_path / "games.csv"
    code, out, _ = simulate(capsys, JF, "--players", "3", "--games", "12", "--seed", "4", "--csv", str(path),
                            "--json")
    assert code == 0
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    assert [int(row["game"]) for row in rows] == list(range(12))
    assert [int(row["seed"]) for row in rows] == [batch_seed(4, i) for i in range(12)]
    assert sum(row["winner"] == "giant" for row in rows) == last_json(out)["winners"].get("giant", 0)


def test_plot_without_matplotlib_is_a_one_line_usage_error(capsys, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)          # import matplotlib now fails
    code, out, err = simulate(capsys, JF, "--players", "4", "--games", "5", "--plot", str(tmp_path / "p.png"))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "matplotlib" in err and "rulelang[plot]" in err


def test_plot_draws_a_png(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    image = tmp_path / "rates.png"
    code, _, _ = simulate(capsys, JF, "--players", "4", "--games", "30", "--plot", str(image))
    assert code == 0
    assert image.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_agents_take_their_seats(capsys):
    code, out, _ = simulate(capsys, JF, "--players", "4", "--games", "30", "--agents", "first,random,random,random",
                            "--json")
    summary = last_json(out)
    assert summary["agents"] == ["first", "random", "random", "random"]
    # the giant's seat alone, and the three townsfolk seats as one team: 30 games each
    assert summary["agent_win_rate"]["first"]["of"] == 30 and summary["agent_win_rate"]["random"]["of"] == 30
    assert "Win rate by agent" in out


def test_the_first_agent_always_takes_the_first_option(jacks_friends):
    state = jacks_friends.new_state(4, 3)
    agent, other = FirstAgent(1), RandomAgent(2)
    while not state.is_over:
        player = state.decision().player
        assert agent.choose(state, player) == state.legal(player)[0]
        state.apply(other.choose(state, player), player)


def test_the_table_is_plain_text_off_a_terminal_and_boxed_on_one(jacks_friends):
    batch = Batch(JF, 4, 10, 0, seat_agents("random", 4))
    layout = jacks_friends.layout(4)
    summary = summarize(batch, run_batch(jacks_friends, batch), jacks_friends.name, layout.roles,
                        layout.team_players)
    plain, boxed = io.StringIO(), io.StringIO()
    print_table(summary, plain, terminal=False)
    print_table(summary, boxed, terminal=True)
    for text in (plain.getvalue(), boxed.getvalue()):
        assert "Win rate by team" in text and "How games ended" in text and "95% interval" in text
    assert "┃" not in plain.getvalue() and "┃" in boxed.getvalue()


@pytest.mark.subprocess
def test_the_command_runs_as_a_program_with_workers():
    done = subprocess.run([sys.executable, "-m", "rulelang.cli", "simulate", "games/jacks_friends", "--players", "4",
                           "--games", "40", "--workers", "2", "--json"], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert last_json(done.stdout)["games"] == 40


# --- a game that cannot go on: the batch's loop is the agents' play_out -----------------------------------

def _record_of_changed_game(monkeypatch: pytest.MonkeyPatch, change) -> GameRecord:
    """Game 0 of a batch of the small valid game, whose new states are changed by ``change`` (to fake a fault)."""
    game = game_with_state(monkeypatch, change)
    return play_game(game, Batch(game.path, 2, 1, 5, ("random",) * 2), 0)


def test_a_batch_game_whose_player_has_no_option_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def empty(state):
        state.pending["options"] = [[] for _ in state.pending["options"]]
    record = _record_of_changed_game(monkeypatch, empty)
    assert ": error: P" in record.error and "must choose but has no legal option" in record.error
    assert f"game 0 of the batch with seed 5 (game seed {batch_seed(5, 0)}, turn " in record.error


def test_a_stuck_batch_game_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def stuck(state):
        state.pending = None
    record = _record_of_changed_game(monkeypatch, stuck)
    assert "error: the game is stuck: it is not over and waits for no decision" in record.error
    assert record.winners == () and record.turns == 0


def test_a_batch_game_that_never_ends_is_an_error_with_a_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("rulelang.lab.simulate.MAX_DECISIONS", 2)
    record = _record_of_changed_game(monkeypatch, lambda state: None)
    assert "error: the game did not end after 2 decisions" in record.error
    assert "check that an end condition can hold, and that 'check end' runs" in record.error
