"""A game without its history (``Game.new_state(history=False)``): the same game, a log of what a replay needs.

Simulations that read no step, change or move of a game leave their records out of the log. The speed-ups'
harness (test_speedups.py, flag ``no_history``) holds that nothing else differs: the same dice, choices,
cards and end; a log that is the whole one with those records taken out; and enough in it to play the
whole game again. These tests pin the rest: a copy, saving, logs that are not one, the lab, agents.
"""
from __future__ import annotations

from pathlib import Path

import pytest

import rulelang
from rulelang.agents import RandomAgent, play_new
from rulelang.errors import RulelangError
from rulelang.logs.replay import play_again

from helpers.games import shipped
from helpers.speedups import KEPT_WITHOUT_HISTORY

ROOT = Path(__file__).resolve().parents[2]
GAMES = {name: shipped(f"games/{name}") for name in ("flapjacks", "jacks_friends")}


def test_a_copy_keeps_going_without_history() -> None:
    game = GAMES["flapjacks"]
    state = game.new_state(3, 5, history=False)
    copy = state.copy()
    assert not copy.history
    agent = RandomAgent(5)
    from rulelang.agents import play_out
    play_out(state, agent)
    play_out(copy, RandomAgent(5))
    assert copy.events == state.events and all(e["type"] in KEPT_WITHOUT_HISTORY for e in copy.events)


def test_a_game_without_history_cannot_be_saved() -> None:
    state = GAMES["jacks_friends"].new_state(4, 1, history=False)
    with pytest.raises(RulelangError, match="cannot be saved"):
        state.dumps()
    with pytest.raises(RulelangError, match="cannot be saved"):
        state.to_json()


def test_playing_again_refuses_a_log_that_is_not_one() -> None:
    game = GAMES["jacks_friends"]
    with pytest.raises(RulelangError, match="'started'"):
        play_again(game, [])
    events = play_new(game, 4, 3, RandomAgent(3), history=False).events
    choice = next(event for event in events if event["type"] == "chose")
    with pytest.raises(RulelangError, match="no player"):
        play_again(game, [events[0], {**choice, "player": "P9"}])
    with pytest.raises(RulelangError, match="not an event"):
        play_again(game, [events[0], {"type": "chose", "player": "P2"}])


def test_the_labs_random_games_keep_no_history_and_count_what_games_with_it_count(monkeypatch) -> None:
    """`rulelang simulate` with random agents plays games without history; its records are the same as with."""
    from rulelang.lab import simulate

    batch = simulate.Batch(str(ROOT / "games" / "flapjacks"), 4, 40, 7, ("random",) * 4)
    histories: list[bool] = []
    new_state = rulelang.engine.game.Game.new_state

    def spy(self, *args, **kwargs):
        state = new_state(self, *args, **kwargs)
        histories.append(state.history)
        return state
    monkeypatch.setattr(rulelang.engine.game.Game, "new_state", spy)
    short = simulate.run_batch(GAMES["flapjacks"], batch)
    assert histories == [False] * 40
    monkeypatch.setattr(simulate, "all_blind", lambda agents: False)
    whole = simulate.run_batch(GAMES["flapjacks"], batch)
    assert histories[40:] == [True] * 40
    assert short == whole and all(record.plays for record in short)


def test_an_agent_that_samples_a_game_without_history_is_told_it_cannot() -> None:
    """A sample reads what was played this turn from the history: without it, it would be wrong, so it fails."""
    from rulelang.agents import GreedyAgent

    game = GAMES["flapjacks"]
    with pytest.raises(RulelangError, match="whole history"):
        play_new(game, 3, 2, [GreedyAgent(1), RandomAgent(2), RandomAgent(3)], history=False)
    assert play_new(game, 3, 2, [GreedyAgent(1), RandomAgent(2), RandomAgent(3)]).over
