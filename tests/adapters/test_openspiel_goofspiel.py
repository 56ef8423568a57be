"""examples/goofspiel plays as OpenSpiel's own `goofspiel` (C++, default parameters), step by step.

The prize order is drawn by the test: OpenSpiel takes it as its chance
outcomes, one a turn, and the spec's shuffled prize pile is put in the same
order after its setup (``fixtures.put_on_top``, the scenario fixture). At every
simultaneous node both games must offer each player the same bids, and at the
end give the same returns. Skipped without the `openspiel` extra.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulelang.engine import fixtures

pyspiel = pytest.importorskip("pyspiel")

from rulelang.adapters.openspiel import load_game  # noqa: E402

from helpers.openspiel_play import random_return  # noqa: E402

GOOFSPIEL = Path(__file__).resolve().parents[2] / "examples" / "goofspiel"
#: OpenSpiel's bid and prize numbers are the card values less one.
VALUES = ["ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king"]


@pytest.fixture(scope="module")
def game():
    return load_game(GOOFSPIEL)


def play_in_step(game, seed: int) -> tuple[float, ...]:
    rng = random.Random(seed)
    order = rng.sample(range(13), 13)
    theirs = pyspiel.load_game("goofspiel").new_initial_state()
    inner = game.spec.positioned_state(seed)
    fixtures.put_on_top(inner, "prizes", [VALUES[v] for v in reversed(order)])      # the last on top: order[0] first
    inner.resume()
    ours = game.state_from(inner)
    prizes = iter(order)
    turns = 0
    while not theirs.is_terminal():
        if theirs.is_chance_node():
            theirs.apply_action(next(prizes))
            continue
        assert not ours.is_terminal(), turns
        assert ours.current_player() == theirs.current_player() == pyspiel.PlayerId.SIMULTANEOUS
        legal = [theirs.legal_actions(p) for p in range(2)]
        assert [ours.legal_actions(p) for p in range(2)] == legal, turns
        assert ours.inner.zone("prize") == [VALUES[order[turns]]]
        joint = [rng.choice(actions) for actions in legal]
        theirs.apply_actions(joint)
        ours.apply_actions(joint)
        turns += 1
    assert turns == 12                                  # the thirteenth plays itself in both
    assert ours.is_terminal()
    assert ours.returns() == theirs.returns()
    return tuple(theirs.returns())


@pytest.mark.slow
def test_same_bids_and_returns_at_every_step(game):
    outcomes = {play_in_step(game, seed) for seed in range(150)}
    assert outcomes == {(1.0, -1.0), (-1.0, 1.0), (0.0, 0.0)}


def test_random_simulation_test_passes(game):
    pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("chance", ["explicit", "sampled"])
def test_win_rates_under_random_play_agree_within_sampling_error(chance):
    """The spec's own shuffle (chance nodes, or seeded draws) against OpenSpiel's chance: P1's mean return (win 1,
    loss -1) agrees."""
    games = 800
    rng = random.Random(6)
    game = load_game(GOOFSPIEL, chance=chance)
    ours = sum(random_return(game, rng) for _ in range(games)) / games
    theirs = sum(random_return(pyspiel.load_game("goofspiel"), rng) for _ in range(games)) / games
    assert abs(ours - theirs) < 4 * (2 / games) ** 0.5          # each return's deviation is at most 1




def test_asking_single_options_asks_the_last_turn_too():
    """OpenSpiel plays the last turn itself; asked for every decision, the adapter presents it as a node."""
    asked = load_game(GOOFSPIEL, ask_single_options=True)
    state = asked.new_initial_state()
    nodes = draws = 0
    while not state.is_terminal():
        if state.is_chance_node():                  # the shuffle of the prizes: twelve draws, of 13 down to 2
            assert len(state.chance_outcomes()) == 13 - draws
            state.apply_action(state.chance_outcomes()[0][0])
            draws += 1
            continue
        legal = [state.legal_actions(p) for p in range(2)]
        nodes += 1
        state.apply_actions([actions[0] for actions in legal])
    assert nodes == 13 and [len(actions) for actions in legal] == [1, 1] and draws == 12
