"""Chance points (rulelang/engine/chance.py): every random draw as an explicit node with its outcomes and odds.

- A game driven through explicit chance, given the very outcomes the seeded generator would
  draw, is that seed's game, event for event: chance points change nothing but who picks.
- Every draw of a die is a chance point of its faces, each equally likely.
- Any outcomes give a legal game (hypothesis), and a bad outcome is refused.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulelang.engine.chance import ChanceNeeded, begin
from rulelang.errors import RulelangError

from helpers.chance_draws import draws_recorded
from helpers.examples import examples
from helpers.games import shipped

ROOT = Path(__file__).resolve().parents[2]
GAMES = {name: shipped(path) for name, path in
         [("pig", "examples/pig"), ("jacks_friends", "games/jacks_friends"), ("flapjacks", "games/flapjacks")]}


def draws_of_seeded_game(game, players: int, seed: int, picks: random.Random) -> tuple[list, list[int], list[dict]]:
    """Play a seeded game with random picks; return (picks made, outcomes drawn, events)."""
    with draws_recorded() as drawn:
        state = game.new_state(players, seed)
        made = []
        while not state.over:
            player, count = state.waiting()
            index = picks.randrange(count)
            made.append((player, index))
            state.apply_index(index, player)
    return made, drawn, state.events


@pytest.mark.parametrize("name, players", [("pig", 2), ("jacks_friends", 4), ("flapjacks", 3)])
def test_explicit_chance_given_the_seeds_outcomes_plays_the_seeds_game(name: str, players: int) -> None:
    game = GAMES[name]
    made, drawn, events = draws_of_seeded_game(game, players, seed=5, picks=random.Random(9))
    outcomes = iter(drawn)
    picks = iter(made)
    position = begin(game, players, seed=5)
    points = 0
    while position.is_chance or not position.state.over:
        if position.is_chance:
            points += 1
            position = position.draw(next(outcomes))
        else:
            player, index = next(picks)
            position = position.choose(index, player)
    assert points == len(drawn) and next(outcomes, None) is None
    assert position.state.events == events


def test_a_die_roll_is_a_chance_point_of_its_faces_each_equally_likely() -> None:
    game = GAMES["pig"]
    position = begin(game, 2, seed=1)
    assert position.is_chance and position.chance.outcomes == 2          # the random first player
    position = position.draw(1)
    assert position.is_chance and position.chance.outcomes == 6          # P2's first roll of a d6
    assert position.chance.probabilities == [(k, 1 / 6) for k in range(6)]
    kept = position.draw(4).state                                         # the face 5: roll again or hold
    assert kept.waiting() == (1, 2)
    assert [e["faces"] for e in kept.events if e["type"] == "rolled"] == [[5]]
    after_a_pig = position.draw(0)                                        # the face 1: P2's turn ends at once,
    assert after_a_pig.is_chance and after_a_pig.chance.outcomes == 6    # and P1 rolls: no decision between
    settled = after_a_pig.draw(2).state
    assert settled.waiting() == (0, 2)
    assert [(e["player"], e["faces"]) for e in settled.events if e["type"] == "rolled"] == [("P2", [1]), ("P1", [3])]


@examples(25)
@given(seed=st.integers(0, 2**32), data=st.data())
def test_any_outcomes_give_a_game_that_ends(seed: int, data) -> None:
    game = GAMES["jacks_friends"]
    position = begin(game, 3, seed=seed)
    for _ in range(2000):
        if position.is_chance:
            position = position.draw(data.draw(st.integers(0, position.chance.outcomes - 1)))
        elif position.state.over:
            break
        else:
            _, count = position.state.waiting()
            position = position.choose(data.draw(st.integers(0, count - 1)))
    assert not position.is_chance and position.state.over


def test_an_outcome_outside_the_draw_is_refused() -> None:
    position = begin(GAMES["pig"], 2)
    with pytest.raises(RulelangError, match="not one of the 2 outcomes"):
        position.draw(2)
    with pytest.raises(RulelangError, match="a chance point is open"):
        position.choose(0)
    settled = position.draw(0).draw(4)          # P1 first, rolls a 5: a decision, no chance point open
    assert not settled.is_chance
    with pytest.raises(RulelangError, match="no chance point"):
        settled.draw(0)


def test_a_script_that_runs_out_stops_at_a_chance_point_and_the_seeded_game_is_untouched() -> None:
    game = GAMES["pig"]
    with pytest.raises(ChanceNeeded) as needed:
        game.new_state(2, seed=3, chance=[1])                 # first player given, the first roll not
    assert needed.value.outcomes == 6
    assert game.new_state(2, seed=3).chance is None          # a seeded game draws from its generator
