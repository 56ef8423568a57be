"""A game without its history (``Game.new_state(history=False)``): the same game, a log of what a replay needs.

Simulations that read no step, change or move of a game leave their records out of the log. These tests
hold that nothing else differs: the same dice, choices, cards and end; a log that is the whole one with
those records taken out; and enough in it to play the whole game again.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rulelang
from rulelang.agents import RandomAgent, play_new
from rulelang.engine.records import cards_played, first_seat
from rulelang.errors import RulelangError
from rulelang.logs.replay import play_again

from helpers.examples import examples

ROOT = Path(__file__).resolve().parents[2]
GAMES = {name: rulelang.load_game(path) for name, path in [
    ("flapjacks", ROOT / "games" / "flapjacks"), ("jacks_friends", ROOT / "games" / "jacks_friends"),
    ("kuhn_poker", ROOT / "examples" / "kuhn_poker"), ("goofspiel", ROOT / "examples" / "goofspiel"),
    ("pig", ROOT / "examples" / "pig")]}
#: The events a game without history still logs: the start, every decision, every card played or answered,
#: and the rare events of its course.
KEPT = {"started", "chose", "played", "answered", "phase", "shuffled", "refilled", "revealed", "eliminated", "ended"}
#: What a game is, apart from its log.
PARTS = ("counters", "vars", "zones", "loc", "turn", "winners", "result", "out", "revealed", "rng")


def both(name: str, players: int, seed: int):
    game = GAMES[name]
    whole = play_new(game, players, seed, RandomAgent(seed))
    short = play_new(game, players, seed, RandomAgent(seed), history=False)
    return whole, short


def players_of(name: str) -> st.SearchStrategy[int]:
    game = GAMES[name]
    return st.integers(game.min_players, min(game.max_players, 5))


@examples(60)
@given(data=st.data(), name=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 2**32))
def test_a_game_without_history_is_the_same_game_with_fewer_records(data, name: str, seed: int) -> None:
    players = data.draw(players_of(name))
    whole, short = both(name, players, seed)
    assert whole.over and short.over
    for part in PARTS:
        assert getattr(short, part) == getattr(whole, part), part
    assert short.events == [e for e in whole.events if e["type"] in KEPT]
    assert len(short.events) < len(whole.events)
    assert list(cards_played(short)) == list(cards_played(whole)) and first_seat(short) == first_seat(whole)


@examples(30)
@given(data=st.data(), name=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 2**32))
def test_the_log_of_a_game_without_history_plays_the_whole_game_again(data, name: str, seed: int) -> None:
    players = data.draw(players_of(name))
    whole, short = both(name, players, seed)
    again = play_again(GAMES[name], short.events)
    assert again.history and again.over
    assert again.events == whole.events
    assert again.dumps() == whole.dumps()


def test_a_copy_keeps_going_without_history() -> None:
    game = GAMES["flapjacks"]
    state = game.new_state(3, 5, history=False)
    copy = state.copy()
    assert not copy.history
    agent = RandomAgent(5)
    from rulelang.agents import play_out
    play_out(state, agent)
    play_out(copy, RandomAgent(5))
    assert copy.events == state.events and all(e["type"] in KEPT for e in copy.events)


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
