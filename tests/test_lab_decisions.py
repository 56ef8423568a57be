"""What a batch says about the players' choices and how the counters ended (issue 33)."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulelang
from rulelang.lab.report import sections
from rulelang.lab.simulate import Batch, GameRecord, play_game
from rulelang.lab.stats import summarize

ROOT = Path(__file__).resolve().parent.parent
JF = str(ROOT / "games" / "jacks_friends")


def made(index: int, winners: tuple[int, ...], choices: dict, finals: dict, seat_finals: dict) -> GameRecord:
    return GameRecord(index, index, 5, winners, None, "e", 0, {}, None, choices, finals, seat_finals)


def test_options_are_counted_per_decision_kind_and_role():
    records = [made(0, (0,), {(0, "choose", "egg"): 2, (1, "branch", "hungry"): 1}, {}, {}),
               made(1, (1,), {(0, "choose", "meat"): 1, (2, "branch", "eat"): 3}, {}, {})]
    summary = summarize(Batch("x", 3, 2, 0, ("random",) * 3), records, "T", ["giant", "town", "town"], {})
    assert summary["decisions"]["giant choose"] == {
        "egg": {"times": 2, "share": pytest.approx(2 / 3), "per_game": 1.0},
        "meat": {"times": 1, "share": pytest.approx(1 / 3), "per_game": 0.5}}
    assert list(summary["decisions"]["town branch"]) == ["eat", "hungry"]        # most taken first
    assert summary["decisions"]["town branch"]["eat"]["share"] == 0.75
    one_role = summarize(Batch("x", 3, 2, 0, ("random",) * 3), records, "T", ["p"] * 3, {})
    assert set(one_role["decisions"]) == {"choose", "branch"}


def test_final_counters_and_margins_of_victory():
    # game 0: P1 won with 7 points against 4 and 5 (margin 2); game 1: P2 and P3 won 6, 6 against 9 (margin -3)
    records = [made(0, (0,), {}, {"village.house": 8}, {"score": (7, 4, 5)}),
               made(1, (1, 2), {}, {}, {"score": (9, 6, 6)})]
    summary = summarize(Batch("x", 3, 2, 0, ("random",) * 3), records, "T", ["p"] * 3, {})
    assert summary["final_counters"]["village.house"]["histogram"] == [[0, 1], [8, 1]]    # absent: 0
    score = summary["player_counters"]["score"]
    assert score["margin"]["histogram"] == [[-3, 1], [2, 1]] and score["margin"]["mean"] == -0.5
    assert score["all"]["mean"] == pytest.approx(37 / 6) and (score["all"]["min"], score["all"]["max"]) == (4, 9)
    titles = [part.title for part in sections(summary)]
    assert "Counters at the end" in titles and "Player counters at the end" in titles


def test_a_game_without_history_keeps_what_the_choices_and_counters_need():
    game = rulelang.load_game(JF)
    record = play_game(game, Batch(JF, 4, 1, 0, ("random",) * 4), 0)
    state = game.new_state(4, record.seed)          # the same game with its whole history, played again
    from rulelang.agents import make_agent, play_out
    from rulelang.rng import batch_seed
    play_out(state, [make_agent("random", batch_seed(record.seed, s)) for s in range(4)], 100_000)
    chosen = [e for e in state.events if e["type"] == "chose"]
    assert sum(record.choices.values()) == len(chosen)
    assert record.finals.get("village.house", 0) == state.counter("village", "house")
    assert record.finals.get("game.catches", 0) == state.counter("game", "catches")
