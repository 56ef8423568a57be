"""Agents that pick by count alone are asked in place: the same game as the pending-decision loop, byte for byte.

``play_out`` lets the rules ask such agents (``pick_index``) where a decision arises, so no decision is
ever stored (rulelang/engine/protocol.py ``_picks_now``). The speed-ups' harness (test_speedups.py, flag
``in_place``) plays every game both ways with one agent for the table; these tests play a seat its own
agent through the public decision API (``waiting``/``apply_index``) with the same picks, and check the
edges: mixed tables, agents without ``pick_index``, bad picks, and the state left behind.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rulelang
from rulelang.agents import FirstAgent, RandomAgent, play_out
from rulelang.errors import RuleError, RulelangError

from helpers.examples import examples

ROOT = Path(__file__).resolve().parents[2]
GAMES = {name: rulelang.load_game(ROOT / path) for name, path in
         [("jacks_friends", "games/jacks_friends"), ("pig", "examples/pig")]}


def pending_loop(game: rulelang.Game, players: int, seed: int, rngs: list[random.Random]) -> rulelang.State:
    """The game played through the stored decisions: the first chooser waiting picks from its own generator."""
    state = game.new_state(players, seed)
    while (waiting := state.waiting()) is not None:
        player, count = waiting
        state.apply_index(rngs[player].randrange(count), player)
    return state


@examples(25)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32), picks=st.lists(st.integers(0, 2**16), min_size=6,
                                                                             max_size=6))
def test_each_seat_its_own_agent_gives_the_pending_game(players: int, seed: int, picks: list[int]) -> None:
    game = GAMES["jacks_friends"]
    agents = [RandomAgent(picks[p]) for p in range(players)]
    in_place = play_out(game.new_state(players, seed), agents)
    stored = pending_loop(game, players, seed, [random.Random(picks[p]) for p in range(players)])
    assert in_place.events == stored.events


def test_a_table_with_one_agent_that_needs_the_options_plays_every_decision_through_the_protocol() -> None:
    seen: list[int] = []

    class Reader:
        """Reads its options (so it has no pick_index): every decision must be stored for it to read."""

        def choose(self, seat):
            seen.append(len(seat.options))
            return seat.options[0].id

    game = GAMES["jacks_friends"]
    mixed = play_out(game.new_state(3, 5), [Reader(), FirstAgent(), FirstAgent()])
    assert seen and all(count >= 1 for count in seen)
    first = play_out(game.new_state(3, 5), FirstAgent())
    assert mixed.events == first.events          # the reader always takes the first option, as FirstAgent does


def test_the_state_keeps_no_picker_after_play_out_even_when_the_rules_fail() -> None:
    game = GAMES["pig"]
    state = play_out(game.new_state(2, 3), RandomAgent(3))
    assert state.autopick is None and state.over

    class Wild:
        def choose(self, seat):
            return 0

        def pick_index(self, player: int, count: int) -> int:
            return count           # one past the last option

    state = game.new_state(2, 3)
    state.apply_index(0)           # the waiting decision is taken the usual way; the next is asked in place
    with pytest.raises(RulelangError, match="out of range"):
        play_out(state, Wild())
    assert state.autopick is None


def test_a_picker_is_asked_in_the_order_the_pending_loop_asks() -> None:
    asked: list[tuple[int, int]] = []

    class Recorder:
        def choose(self, seat):
            return 0

        def pick_index(self, player: int, count: int) -> int:
            asked.append((player, count))
            return 0

    game = GAMES["jacks_friends"]
    play_out(game.new_state(4, 2), Recorder())
    state = game.new_state(4, 2)
    order = []
    while (waiting := state.waiting()) is not None:
        order.append(waiting)
        state.apply_index(0, waiting[0])
    assert asked == order


def test_a_decision_with_no_option_is_an_error_in_place_too() -> None:
    state = GAMES["pig"].new_state(2, 1)
    with pytest.raises(RuleError, match="no legal option"):
        state.autopick = lambda player, count: 0
        state.ask("choose", "choose", [0], [[]], [[]])


def test_a_subclass_that_changes_how_it_chooses_is_asked_through_its_own_method() -> None:
    calls: list[int] = []

    class Counting(RandomAgent):
        def choose_index(self, seat, player, count):
            calls.append(count)
            return super().choose_index(seat, player, count)

    game = GAMES["jacks_friends"]
    counted = play_out(game.new_state(4, 8), Counting(8))
    assert len(calls) == len([e for e in counted.events if e["type"] == "chose"])
    assert counted.events == play_out(game.new_state(4, 8), RandomAgent(8)).events


def test_an_agent_whose_pick_index_is_set_on_the_instance_is_asked_in_place() -> None:
    """``pick_index`` may be an attribute of the agent itself (a function made per game), not of its class."""
    game = GAMES["jacks_friends"]

    class Scripted:
        def __init__(self, seed: int):
            rng = random.Random(seed)
            self.pick_index = lambda player, count: rng.randrange(count)

        def choose(self, seat):
            raise AssertionError("asked through the protocol: pick_index was not used")

    for seed in range(3):
        assert play_out(game.new_state(4, seed), Scripted(seed)).events == \
            play_out(game.new_state(4, seed), RandomAgent(seed)).events
