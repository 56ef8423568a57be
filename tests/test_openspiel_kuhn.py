"""examples/kuhn_poker plays as OpenSpiel's own `kuhn_poker` (C++), step by step.

For many seeded random action sequences, both games are dealt the same cards:
OpenSpiel's chance outcomes are chosen by the test, and the spec's hands are
laid out the same way after its setup (``State.arrange``, the scenario
fixture, on a state stopped before turn 1), then the spec is wrapped by the
adapter (``RulelangGame.state_from``). At every step the player to move and
the legal actions must agree, and at the end the returns. Skipped without the
`openspiel` extra.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")

from rulelang.adapters.openspiel import load_game    # noqa: E402

KUHN = Path(__file__).resolve().parent.parent / "examples" / "kuhn_poker"
#: OpenSpiel's card numbers are ranks from 0: the spec's cards in that order.
CARDS = ["jack", "queen", "king", "ace"]
_GAMES: dict = {}


def spec_game(players: int):
    """The adapted spec, compiled once per player count."""
    if players not in _GAMES:
        _GAMES[players] = load_game(KUHN, players=players)
    return _GAMES[players]


def deal_both(players: int, rng: random.Random, seed: int):
    """OpenSpiel's state after its chance deal, and the spec's state dealt the same cards."""
    theirs = pyspiel.load_game("kuhn_poker", {"players": players}).new_initial_state()
    dealt = []
    while theirs.is_chance_node():
        card = rng.choice([outcome for outcome, _ in theirs.chance_outcomes()])
        dealt.append(card)
        theirs.apply_action(card)
    game = spec_game(players)
    inner = game.spec.positioned_state(seed)
    inner.arrange({f"hand:P{p + 1}": [CARDS[card]] for p, card in enumerate(dealt)})
    inner.resume()
    return theirs, game.state_from(inner)


def play_in_step(players: int, seed: int) -> list:
    """Play one random action sequence in both games; the actions taken."""
    rng = random.Random(seed)
    theirs, ours = deal_both(players, rng, seed)
    taken = []
    while not theirs.is_terminal():
        assert not ours.is_terminal(), taken
        assert ours.current_player() == theirs.current_player(), taken
        assert ours.legal_actions() == theirs.legal_actions(), taken
        action = rng.choice(theirs.legal_actions())
        taken.append(action)
        theirs.apply_action(action)
        ours.apply_action(action)
    assert ours.is_terminal(), taken
    assert ours.returns() == theirs.returns(), taken
    return taken


@pytest.mark.parametrize("players", [2, 3])
def test_same_player_actions_and_returns_at_every_step(players):
    lines = {tuple(play_in_step(players, seed)) for seed in range(300)}
    assert len(lines) == (5 if players == 2 else 13)             # every betting line was played


def test_every_deal_and_betting_line_of_two_players():
    """Exhaustive for two players: 6 deals times the 5 betting lines."""
    lines = [(0, 0), (0, 1, 0), (0, 1, 1), (1, 0), (1, 1)]
    game = load_game(KUHN)
    for first in range(3):
        for second in set(range(3)) - {first}:
            for line in lines:
                theirs = pyspiel.load_game("kuhn_poker").new_initial_state()
                theirs.apply_action(first)
                theirs.apply_action(second)
                inner = game.spec.positioned_state(0)
                inner.arrange({"hand:P1": [CARDS[first]], "hand:P2": [CARDS[second]]})
                inner.resume()
                ours = game.state_from(inner)
                for action in line:
                    assert ours.current_player() == theirs.current_player()
                    ours.apply_action(action)
                    theirs.apply_action(action)
                assert ours.is_terminal() and theirs.is_terminal()
                assert ours.returns() == theirs.returns(), (first, second, line)


def test_returns_under_random_play_agree_within_sampling_error():
    """The spec deals by its own shuffle: its mean return for P1 matches OpenSpiel's (P1's is 1/8 in theory)."""
    games = 3000
    ours = load_game(KUHN, seed=1)
    theirs = pyspiel.load_game("kuhn_poker")
    rng = random.Random(5)
    mean_ours = sum(_random_return(ours, rng) for _ in range(games)) / games
    mean_theirs = sum(_random_return(theirs, rng) for _ in range(games)) / games
    # P1's return under uniform random play has a standard deviation below 1.5: 4 sigma of the difference
    assert abs(mean_ours - mean_theirs) < 4 * 1.5 * (2 / games) ** 0.5


def _random_return(game, rng: random.Random) -> float:
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choice([o for o, _ in outcomes]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state.returns()[0]
