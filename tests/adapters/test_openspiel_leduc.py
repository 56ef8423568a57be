"""examples/leduc_poker plays as OpenSpiel's own `leduc_poker` (C++, default parameters), step by step.

The test draws the deal (two private cards, then the board card) and gives it
to OpenSpiel as chance outcomes; the spec's hands are laid out the same way
after its setup (``State.arrange``) and the board card put on top of its deck
(``fixtures.put_on_top``). OpenSpiel's card ``c`` is rank ``c // 2`` (Jack,
Queen, King) of suit ``c % 2``; suits never decide a hand. At every step the
player to move and the legal actions must agree, and at the end the returns.
Skipped without the `openspiel` extra.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulelang.engine import fixtures

pyspiel = pytest.importorskip("pyspiel")

from rulelang.adapters.openspiel import load_game  # noqa: E402

from helpers.openspiel_play import play_turns_in_step, random_return  # noqa: E402

LEDUC = Path(__file__).resolve().parents[2] / "examples" / "leduc_poker"
RANKS = ["jack", "queen", "king"]


@pytest.fixture(scope="module")
def game():
    return load_game(LEDUC)


def play_in_step(game, seed: int) -> tuple:
    rng = random.Random(seed)
    deal = rng.sample(range(6), 3)                       # P1's card, P2's card, the board card
    theirs = pyspiel.load_game("leduc_poker").new_initial_state()
    inner = game.spec.positioned_state(seed)
    inner.arrange({"hand:P1": [RANKS[deal[0] // 2]], "hand:P2": [RANKS[deal[1] // 2]]})
    fixtures.put_on_top(inner, "deck", [RANKS[deal[2] // 2]])
    inner.resume()
    ours = game.state_from(inner)
    line: list[int] = []
    play_turns_in_step(theirs, ours, rng, line, chance=iter(deal))
    return tuple(line), tuple(theirs.returns())


def test_same_player_actions_and_returns_at_every_step(game):
    played = [play_in_step(game, seed) for seed in range(400)]
    lines = {line for line, _ in played}
    returns = {r for _, r in played}
    assert len(lines) > 40                              # many betting lines, both rounds
    assert (0.0, 0.0) in returns and any(abs(r[0]) >= 9 for r in returns)   # split pots and capped raises


def test_random_simulation_test_passes(game):
    pyspiel.random_sim_test(game, num_sims=10, serialize=False, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("chance", ["explicit", "sampled"])
def test_returns_under_random_play_agree_within_sampling_error(chance):
    """The spec deals by its own shuffle (chance nodes, or seeded draws); its mean return for P1 under random play
    matches OpenSpiel's."""
    games = 2000
    rng = random.Random(8)
    game = load_game(LEDUC, chance=chance)
    ours = sum(random_return(game, rng) for _ in range(games)) / games
    theirs = sum(random_return(pyspiel.load_game("leduc_poker"), rng) for _ in range(games)) / games
    # P1's return lies within -13..13 (standard deviation well under 7): 4 sigma of the difference
    assert abs(ours - theirs) < 4 * 7 * (2 / games) ** 0.5
