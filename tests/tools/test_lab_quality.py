"""Browne's game-quality measures from the scores as each turn began (issue 33)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rulelang
from rulelang.cli import main
from rulelang.lab.simulate import Batch, GameRecord, play_game
from rulelang.lab.skill import baseline_rate, better_rate, seat_batches, skill_summary
from rulelang.lab.stats import Rate, branching, decided_at, deficit, lead_changes, leaders, newcombe, quality

ROOT = Path(__file__).resolve().parents[2]
FLAPJACKS = str(ROOT / "games" / "flapjacks")
JF = str(ROOT / "games" / "jacks_friends")

# P1 leads, then P2, then tied, then P1 for good: P1 wins
TRAIL = [(0, 0), (3, 1), (3, 5), (6, 6), (9, 6), (12, 8)]


def test_leaders_and_lead_changes_by_hand():
    assert leaders((3, 5, 5)) == {1, 2}
    # {0,1} -> {0} -> {1} -> {0,1} -> {0} -> {0}: four changes
    assert lead_changes(TRAIL) == 4


def test_decisiveness_is_where_the_winner_leads_for_good():
    assert decided_at(TRAIL, (0,)) == pytest.approx(3 / 5)      # a leader (tied) from point 3 of 0..5 on
    assert decided_at([(1, 0), (2, 0), (3, 0)], (0,)) == 0.0      # led from the start
    assert decided_at([(0, 1), (0, 2), (3, 2)], (0,)) == 1.0      # only at the end


def test_drama_is_the_winners_worst_deficit():
    assert deficit(TRAIL, (0,)) == 2                               # 3 against 5
    assert deficit([(1, 0), (2, 0)], (0,)) == 0


def test_quality_of_hand_made_games():
    one = GameRecord(0, 0, 5, (0,), None, "e", 0, choices=((0, "a", "k"),) * 7, scores=TRAIL[-1],
                     score_turns=TRAIL[:-1])
    two = GameRecord(1, 1, 3, (1,), None, "e", 0, choices=((0, "a", "k"),) * 3, scores=(1, 4),
                     score_turns=((0, 0), (1, 2)))
    q = quality([one, two])
    assert q["duration"]["mean"] == 4.0 and q["decisions"]["mean"] == 5.0
    assert q["lead_changes"]["histogram"] == [[1, 1], [4, 1]]       # two: {0,1} -> {1} -> {1}
    assert q["lead_changes_per_turn"] == pytest.approx((4 / 5 + 1 / 2) / 2)
    assert q["decisiveness"] == pytest.approx((3 / 5 + 0) / 2)      # two: P2 a leader (tied at 0-0) throughout
    assert q["drama"]["histogram"] == [[0, 1], [2, 1]] and q["comebacks"] == 0.5


@given(st.lists(st.tuples(st.integers(0, 30), st.integers(0, 30), st.integers(0, 30)), min_size=2, max_size=20),
       st.sampled_from([(0,), (1,), (2,), (0, 2)]))
def test_the_measures_stay_in_their_ranges(trail, winners):
    assert 0 <= lead_changes(trail) <= len(trail) - 1
    assert 0.0 <= decided_at(trail, winners) <= 1.0
    assert deficit(trail, winners) >= 0


@pytest.mark.parametrize("path, players", [(FLAPJACKS, 3), (JF, 4)])
def test_measuring_quality_does_not_change_the_games(path, players):
    game = rulelang.load_game(path)
    for index in range(3):
        plain = play_game(game, Batch(path, players, 3, 2, ("random",) * players), index)
        measured = play_game(game, Batch(path, players, 3, 2, ("random",) * players, quality=True), index)
        assert (plain.turns, plain.winners, plain.choices, plain.counters) == \
            (measured.turns, measured.winners, measured.choices, measured.counters)
        if game.score is not None:
            assert len(measured.score_turns) == measured.turns and measured.score_turns[0] == (0,) * players
        else:
            assert measured.score_turns == ()


# --- the branching factor ---------------------------------------------------------------------------------------

def test_the_branching_factor_by_hand():
    one = GameRecord(0, 0, branching=[("a.x", 2), ("a.x", 4), ("b.y", 3)])
    two = GameRecord(1, 1, branching=[("a.x", 3)])
    factor = branching([one, two])
    assert factor["all"]["mean"] == 3.0 and factor["all"]["histogram"] == [[2, 1], [3, 2], [4, 1]]   # 12 / 4
    assert factor["by_decision"]["a.x"]["mean"] == 3.0 and factor["by_decision"]["a.x"]["histogram"] == \
        [[2, 1], [3, 1], [4, 1]]
    assert factor["by_decision"]["b.y"] == {"mean": 3.0, "sd": 0.0, "median": 3, "min": 3, "max": 3,
                                            "histogram": [[3, 1]]}


POLICIES = Path(JF) / "policies"


@pytest.mark.parametrize("agents", [("random",) * 4,
                                    (str(POLICIES / "giant.yaml"),) + (str(POLICIES / "townsfolk.yaml"),) * 3,
                                    ("first", "random", "random", "random")])
def test_jacks_friends_asks_each_location_among_four_and_every_choice_is_asked(agents):
    """Every player picks one of the four locations each turn (the rules offer all four), and Jack's Friends
    takes no choice without asking: as many decisions asked as choices taken, by any agents."""
    game = rulelang.load_game(JF)
    for index in range(4):
        record = play_game(game, Batch(JF, 4, 4, 5, agents, quality=True), index)
        plain = play_game(game, Batch(JF, 4, 4, 5, agents), index)
        assert record.error is None and record.choices == plain.choices
        assert len(record.branching) == len(record.choices)
        at = [count for name, count in record.branching if name == "choose_locations.at"]
        assert at and set(at) == {4}
        assert {name for name, _ in record.branching} <= set(game.decisions)


def test_a_decision_asked_through_the_protocol_is_counted_too():
    """greedy is asked through its seat (not in place): its decisions are counted as the others' are."""
    game = rulelang.load_game(JF)
    record = play_game(game, Batch(JF, 2, 1, 3, ("greedy", "random"), quality=True), 0)
    assert record.error is None and len(record.branching) == len(record.choices)
    assert set(count for name, count in record.branching if name == "choose_locations.at") == {4}


# --- skill against luck -----------------------------------------------------------------------------------------

def won(index: int, *winners: int) -> GameRecord:
    return GameRecord(index, index, 1, winners)


def test_the_turning_seat_batches_share_the_games_out():
    batch = Batch(JF, 2, 5, 9, ("random", "random"), quality=True)
    seats = seat_batches(batch, "greedy")
    assert [(seat, b.games, b.agents, b.seed, b.quality) for seat, b in seats] == \
        [(0, 3, ("greedy", "random"), 9, False), (1, 2, ("random", "greedy"), 9, False)]


def test_skill_against_luck_by_hand():
    # the run: game i compared at seat i mod 2: games 0 and 2 at P1 (won, won), 1 and 3 at P2 (lost, won): 3 of 4
    base = baseline_rate([won(0, 0), won(1, 0), won(2, 0), won(3, 1)], 2)
    assert (base.wins, base.trials) == (3, 4)
    # the better agent: at P1 won both, at P2 won one of two, and a failed game is left out: 3 of 4
    failed = GameRecord(2, 2, error="boom")
    better = better_rate([(0, [won(0, 0), won(1, 0)]), (1, [won(0, 1), won(1, 0), failed])])
    assert (better.wins, better.trials) == (3, 4)
    summary = skill_summary("greedy", Rate(1, 4), better)      # 3/4 - 1/4 = +0.5
    assert summary["difference"]["value"] == 0.5
    low, high = newcombe(3, 4, 1, 4)
    assert summary["difference"]["low"] == pytest.approx(low, abs=1e-6) and low < 0.5 < high
    assert summary["better"]["of"] == 4 and summary["baseline"]["wins"] == 1


def test_simulate_skill_plays_the_better_agent_at_every_seat(capsys):
    pig = str(ROOT / "examples" / "pig")
    assert main(["simulate", pig, "--players", "3", "--games", "10", "--skill", "first", "--json"]) == 0
    out = capsys.readouterr().out
    summary = json.loads(out.strip().splitlines()[-1])
    skill = summary["skill"]
    assert skill["agent"] == "first" and skill["better"]["of"] == 10 and skill["baseline"]["of"] == 10
    assert "Skill against luck" in out


def test_simulate_skill_refuses_an_unknown_agent(capsys):
    assert main(["simulate", JF, "--players", "4", "--games", "2", "--skill", "gready"]) == 2
    assert "--skill" in capsys.readouterr().err
