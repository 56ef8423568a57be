"""Browne's game-quality measures from the scores as each turn began (issue 33)."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rulelang
from rulelang.lab.simulate import Batch, GameRecord, play_game
from rulelang.lab.stats import decided_at, deficit, lead_changes, leaders, quality

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
    one = GameRecord(0, 0, 5, (0,), None, "e", 0, choices=[(0, "a", "k")] * 7, scores=TRAIL[-1],
                     score_turns=TRAIL[:-1])
    two = GameRecord(1, 1, 3, (1,), None, "e", 0, choices=[(0, "a", "k")] * 3, scores=(1, 4),
                     score_turns=[(0, 0), (1, 2)])
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
            assert measured.score_turns == []
