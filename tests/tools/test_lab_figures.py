"""The lab's figures tell the truth: intervals count games where seats win together, fair shares only where
seats are symmetric, card rates beside a baseline, sweeps of numbers the games read (issue 33)."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rulelang
from rulelang.cli import main
from rulelang.lab.report import sections
from rulelang.lab.simulate import Batch, GameRecord
from rulelang.lab.stats import game_summary, newcombe, summarize, win_units

ROOT = Path(__file__).resolve().parents[2]
JF = str(ROOT / "games" / "jacks_friends")
GIANT_AND_TOWN = ["giant", "townsfolk", "townsfolk", "townsfolk"]
TEAMS = {"giant": [0], "townsfolk": [1, 2, 3]}


def team_batch(townsfolk_wins: int, games: int, agents: tuple[str, ...]) -> tuple[Batch, list[GameRecord]]:
    """Jack's Friends-shaped games: the giant at P1, the townsfolk team at P2-P4, the first games won by it."""
    records = [GameRecord(i, i, 9, (1, 2, 3) if i < townsfolk_wins else (0,),
                          "townsfolk" if i < townsfolk_wins else "giant", "end", 0) for i in range(games)]
    return Batch("x", 4, games, 0, agents), records


def test_three_seats_of_one_team_are_one_result_per_game():
    # the figure: 504 seat-wins of 600 are 168 team wins of 200 games, 78.3-88.4 %
    batch, records = team_batch(168, 200, ("random", "mcts", "mcts", "mcts"))
    mcts = summarize(batch, records, "T", GIANT_AND_TOWN, TEAMS)["agent_win_rate"]["mcts"]
    assert (mcts["wins"], mcts["of"]) == (168, 200)
    assert (round(mcts["low"], 3), round(mcts["high"], 3)) == (0.783, 0.884)


def test_seats_in_no_team_still_count_one_each():
    records = [GameRecord(i, i, 5, (i % 3,), None, "end", 0) for i in range(6)]
    rate = summarize(Batch("x", 3, 6, 0, ("random",) * 3), records, "T", ["p"] * 3, {})["agent_win_rate"]["random"]
    assert (rate["wins"], rate["of"]) == (6, 18)


def test_win_units_are_the_teams_and_the_lone_seats():
    assert win_units(5, {"a": [3, 1], "b": [2]}) == [(1, 3), (2,), (0,), (4,)]


def test_one_policy_for_both_roles_is_split_by_role():
    batch, records = team_batch(3, 4, ("p.yaml",) * 4)
    rates = summarize(batch, records, "T", GIANT_AND_TOWN, TEAMS)["agent_win_rate"]
    assert set(rates) == {"p.yaml as giant", "p.yaml as townsfolk"}
    assert (rates["p.yaml as giant"]["wins"], rates["p.yaml as giant"]["of"]) == (1, 4)
    assert (rates["p.yaml as townsfolk"]["wins"], rates["p.yaml as townsfolk"]["of"]) == (3, 4)


def test_an_asymmetric_game_has_no_fair_share_but_a_win_rate_per_role():
    batch, records = team_batch(3, 4, ("random",) * 4)
    summary = summarize(batch, records, "T", GIANT_AND_TOWN, TEAMS)
    assert summary["symmetric"] is False
    assert summary["first_player"]["fair"] is None and summary["first_player"]["by_role"] == {}
    assert summary["role_win_rate"]["giant"]["wins"] == 1 and summary["role_win_rate"]["townsfolk"]["wins"] == 3
    assert not any(part.title.startswith("First-player") for part in sections(summary))


def test_first_player_by_role_compares_a_role_with_itself():
    # two hunters (each wins alone) and a prey; the first mover is a hunter in games 0-2, the prey in game 3
    records = [GameRecord(0, 0, 5, (0,), None, "e", 0), GameRecord(1, 1, 5, (1,), None, "e", 0),
               GameRecord(2, 2, 5, (2,), None, "e", 1), GameRecord(3, 3, 5, (0,), None, "e", 2)]
    summary = summarize(Batch("x", 3, 4, 0, ("random",) * 3), records, "T", ["hunter", "hunter", "prey"], {})
    hunter = summary["first_player"]["by_role"]["hunter"]
    assert (hunter["wins"], hunter["of"]) == (1, 3)           # P1 moved first in 0 and 1 and won 0; P2 in 2, lost
    assert hunter["fair"] == pytest.approx(2 / 6)              # hunters won 2 seats of 2 x 3
    assert "prey" not in summary["first_player"]["by_role"]   # a role of one seat


def test_a_symmetric_game_keeps_its_fair_share():
    records = [GameRecord(0, 0, 5, (0,), None, "e", 0), GameRecord(1, 1, 5, (1, 2), None, "e", 1)]
    first = summarize(Batch("x", 3, 2, 0, ("random",) * 3), records, "T", ["p"] * 3, {})["first_player"]
    assert first["symmetric"] and (first["wins"], first["of"]) == (2, 2) and first["fair"] == pytest.approx(3 / 6)


def test_the_plot_draws_no_fair_share_line_for_giant_against_townsfolk(monkeypatch, tmp_path):
    pytest.importorskip("matplotlib")
    from matplotlib.axes import Axes

    from rulelang.lab.plot import draw
    lines: list = []
    monkeypatch.setattr(Axes, "axvline", lambda self, x=0, **kw: lines.append(x))
    batch, records = team_batch(3, 4, ("random",) * 4)
    draw(summarize(batch, records, "T", GIANT_AND_TOWN, TEAMS), str(tmp_path / "a.png"))
    assert lines == []
    records = [GameRecord(0, 0, 5, (0,), None, "e", 0), GameRecord(1, 1, 5, (1,), None, "e", 1)]
    draw(summarize(Batch("x", 2, 2, 0, ("random",) * 2), records, "T", ["p"] * 2, {}), str(tmp_path / "b.png"))
    assert lines == [0.5]


def test_newcombe_matches_his_worked_example():
    # Newcombe (1998), Statistics in Medicine 17:873, method 10: 56/70 - 48/80 = 0.2, 0.0524 to 0.3339
    assert newcombe(56, 70, 48, 80) == pytest.approx((0.0524, 0.3339), abs=1e-4)


@given(st.integers(1, 300), st.integers(1, 300), st.data())
def test_newcombe_holds_the_difference_inside_minus_one_to_one(n1, n2, data):
    w1, w2 = data.draw(st.integers(0, n1)), data.draw(st.integers(0, n2))
    low, high = newcombe(w1, n1, w2, n2)
    assert -1.0 - 1e-9 <= low <= w1 / n1 - w2 / n2 <= high <= 1.0 + 1e-9


def test_a_card_is_compared_with_the_other_seats_of_its_games_by_its_name():
    # "saw" played by P1 in games 0 and 1 (P1 won 0), never in game 2; 3 seats, one winner a game
    records = [GameRecord(0, 0, 5, (0,), None, "e", 0, {"saw": {0: 1}}),
               GameRecord(1, 1, 5, (2,), None, "e", 0, {"saw": {0: 2}}),
               GameRecord(2, 2, 5, (1,), None, "e", 0)]
    card = summarize(Batch("x", 3, 3, 0, ("random",) * 3), records, "T", ["p"] * 3, {},
                     {"saw": "Long Saw"})["cards"]["saw"]
    assert card["name"] == "Long Saw" and (card["played"], card["games"]) == (3, 2)
    assert (card["win_rate"]["wins"], card["win_rate"]["of"]) == (1, 2)
    assert (card["others"]["wins"], card["others"]["of"]) == (1, 4)   # P2, P3 of games 0 and 1: P3 won game 1
    low, high = newcombe(1, 2, 1, 4)
    assert card["difference"] == pytest.approx({"value": 0.25, "low": low, "high": high}, abs=1e-6)
    row = next(part for part in sections(summarize(Batch("x", 3, 3, 0, ("random",) * 3), records, "T", ["p"] * 3,
                                                   {}, {"saw": "Long Saw"})) if part.title == "Cards played").rows[0]
    assert row[0] == "Long Saw" and row[3:5] == ["50.0%", "25.0%"]


def test_jacks_friends_summary_has_roles_and_no_fair_share():
    game = rulelang.load_game(JF)
    batch = Batch(JF, 4, 0, 0, ("random",) * 4)
    summary = game_summary(game, batch, [])
    assert set(summary["role_win_rate"]) == {"giant", "townsfolk"}
    assert summary["first_player"]["fair"] is None


def test_a_sweep_of_a_row_the_player_count_never_reads_is_refused(capsys):
    code = main(["sweep", JF, "--players", "4", "--vary", "tables.setup.3.houses=7,8", "--games", "2"])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert "row '3' is not read with --players 4" in err and err.count("\n") == 1


def test_a_sweep_of_the_row_it_reads_plays(capsys):
    code = main(["sweep", JF, "--players", "4", "--vary", "tables.setup.4.houses=7,8", "--games", "2"])
    out, _ = capsys.readouterr()
    assert code == 0 and "2 settings played" in out


def test_a_game_played_in_rounds_has_no_first_mover_even_with_symmetric_seats():
    # the same records as a symmetric game that keeps its fair share, but every seat acts in every turn at once
    records = [GameRecord(0, 0, 5, (0,), None, "e", 0), GameRecord(1, 1, 5, (1, 2), None, "e", 1)]
    summary = summarize(Batch("x", 3, 2, 0, ("random",) * 3), records, "T", ["p"] * 3, {}, rounds=True)
    first = summary["first_player"]
    assert first["rounds"] and first["of"] == 0 and first["fair"] is None and not first["symmetric"]
    shown = next(part for part in sections(summary) if part.title == "First-player advantage")
    assert shown.rows == [["none", "every turn is played by all seats at once (turn order: round): "
                                   "no one moves first"]]


@pytest.mark.parametrize("folder, players, rounds", [("examples/goofspiel", 2, True), ("games/jacks_friends", 3, True),
                                                     ("examples/pig", 2, False), ("games/flapjacks", 3, False)])
def test_simulate_tells_a_first_mover_only_where_turns_go_seat_by_seat(folder: str, players: int, rounds: bool,
                                                                      capsys):
    assert main(["simulate", str(ROOT / folder), "--players", str(players), "--games", "6", "--json"]) == 0
    summary = __import__("json").loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert bool(summary["first_player"].get("rounds")) is rounds
    assert (summary["first_player"]["of"] == 0) is rounds


@given(st.lists(st.integers(-50, 5000), min_size=1, max_size=80))
def test_a_distribution_has_the_figures_of_the_statistics_module(values):
    # worked out from the histogram for speed, it must give statistics' own mean, sample sd and median
    import statistics

    from rulelang.lab.stats import distribution
    figures = distribution(values)
    assert figures["mean"] == round(statistics.fmean(values), 6)
    assert figures["sd"] == (round(statistics.stdev(values), 6) if len(values) > 1 else 0.0)
    assert figures["median"] == statistics.median(values)
    assert type(figures["median"]) is type(statistics.median(values))
    assert (figures["min"], figures["max"]) == (min(values), max(values))
    assert sum(times for _, times in figures["histogram"]) == len(values)


def test_a_distribution_by_hand():
    from rulelang.lab.stats import distribution
    figures = distribution([3, 1, 4, 1])       # mean 9/4; squares 0.5625+1.5625+3.0625+1.5625 = 6.75, /3 = 2.25, sd 1.5; median (1+3)/2
    assert (figures["mean"], figures["sd"], figures["median"]) == (2.25, 1.5, 2.0)
    assert figures["histogram"] == [[1, 2], [3, 1], [4, 1]]


@pytest.mark.parametrize("collecting", [True, False])
def test_a_summary_leaves_the_garbage_collector_as_it_found_it(collecting):
    """The summary pauses the collector while it reads the records (stats.without_collection), and gives it
    back as it was: on if it was on, off if the caller had turned it off, and on again when the summary fails."""
    import gc

    batch, records = team_batch(3, 5, ("random",) * 4)
    seen = []
    was_on = gc.isenabled()
    try:
        gc.enable() if collecting else gc.disable()
        summarize(batch, records, "T", GIANT_AND_TOWN, TEAMS)
        seen.append(gc.isenabled())
        with pytest.raises(AttributeError):
            summarize(batch, [None], "T", GIANT_AND_TOWN, TEAMS)     # not a record: the summary fails
        seen.append(gc.isenabled())
    finally:
        gc.enable() if was_on else gc.disable()
    assert seen == [collecting, collecting]


def test_the_summary_runs_with_the_collector_paused(monkeypatch):
    import gc

    from rulelang.lab import stats

    during = []
    real = stats.distribution
    monkeypatch.setattr(stats, "distribution", lambda values: during.append(gc.isenabled()) or real(values))
    batch, records = team_batch(3, 5, ("random",) * 4)
    summarize(batch, records, "T", GIANT_AND_TOWN, TEAMS)
    assert during and not any(during)
