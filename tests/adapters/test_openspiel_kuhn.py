"""examples/kuhn_poker plays as OpenSpiel's own `kuhn_poker` (C++), step by step.

Both games are dealt through their own chance nodes. The spec's deal is its
shuffle, one chance node per draw; the test walks the spec's whole chance tree
once, which must give every deal OpenSpiel gives, with OpenSpiel's
probability, and reach each by exactly one chance path. For many seeded random
action sequences the test draws a deal from OpenSpiel's chance nodes and
takes the spec's chance path to the same deal; then at every step the player
to move and the legal actions must agree, and at the end the returns. Skipped
without the `openspiel` extra.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")

from rulelang.adapters.openspiel import load_game  # noqa: E402

from helpers.openspiel_play import play_turns_in_step, random_return  # noqa: E402

KUHN = Path(__file__).resolve().parents[2] / "examples" / "kuhn_poker"
#: OpenSpiel's card numbers are ranks from 0: the spec's cards in that order.
CARDS = ["jack", "queen", "king", "ace"]
_GAMES: dict = {}


def spec_game(players: int):
    """The adapted spec, compiled once per player count."""
    if players not in _GAMES:
        _GAMES[players] = load_game(KUHN, players=players)
    return _GAMES[players]


def chance_leaves(state, path=(), odds=1.0):
    """Every end of the chance nodes from ``state``: (the state after them, their actions, their probability)."""
    if not state.is_chance_node():
        yield state, path, odds
        return
    for action, p in state.chance_outcomes():
        yield from chance_leaves(state.child(action), path + (action,), odds * p)


def dealt(state, players: int) -> tuple[int, ...]:
    """The cards in the players' hands, as OpenSpiel numbers them (ranks from 0), read from the spec's state."""
    return tuple(CARDS.index(state.inner.zone("hand", p)[0]) for p in range(players))


_DEALS: dict = {}


def spec_deals(players: int) -> dict[tuple[int, ...], tuple[tuple[int, ...], float]]:
    """Each deal of the spec's chance tree: the chance actions that deal it and its probability (summed)."""
    if players not in _DEALS:
        deals: dict = {}
        for leaf, path, odds in chance_leaves(spec_game(players).new_initial_state()):
            deal = dealt(leaf, players)
            if deal in deals:                                   # a second path to a deal: no path is kept
                deals[deal] = (None, deals[deal][1] + odds)
            else:
                deals[deal] = (path, odds)
        _DEALS[players] = deals
    return _DEALS[players]


def openspiel_deals(players: int) -> dict[tuple[int, ...], float]:
    theirs = pyspiel.load_game("kuhn_poker", {"players": players}).new_initial_state()
    deals: dict = {}
    for _leaf, path, odds in chance_leaves(theirs):
        deals[path] = deals.get(path, 0.0) + odds
    return deals


@pytest.mark.parametrize("players", [2, 3])
def test_the_spec_deals_every_deal_of_openspiel_with_its_probability_by_one_chance_path(players):
    ours, theirs = spec_deals(players), openspiel_deals(players)
    assert len(theirs) == (6 if players == 2 else 24)
    assert ours.keys() == theirs.keys()
    for deal, (path, odds) in ours.items():
        assert path is not None, f"two chance paths deal {deal}"
        assert odds == pytest.approx(theirs[deal]) == pytest.approx(1 / len(theirs))
        assert all(action >= 2 for action in path)          # chance actions never share the players' numbers


def deal_both(players: int, rng: random.Random):
    """OpenSpiel's state after its chance deal, and the spec's state after the chance path to the same deal."""
    theirs = pyspiel.load_game("kuhn_poker", {"players": players}).new_initial_state()
    cards = []
    while theirs.is_chance_node():
        card = rng.choice([outcome for outcome, _ in theirs.chance_outcomes()])
        cards.append(card)
        theirs.apply_action(card)
    ours = spec_game(players).new_initial_state()
    for action in spec_deals(players)[tuple(cards)][0]:
        ours.apply_action(action)
    assert dealt(ours, players) == tuple(cards)
    return theirs, ours


def play_in_step(players: int, seed: int) -> list:
    """Play one random action sequence in both games; the actions taken."""
    rng = random.Random(seed)
    theirs, ours = deal_both(players, rng)
    taken: list[int] = []
    play_turns_in_step(theirs, ours, rng, taken)
    return taken


@pytest.mark.parametrize("players", [2, 3])
def test_same_player_actions_and_returns_at_every_step(players):
    lines = {tuple(play_in_step(players, seed)) for seed in range(300)}
    assert len(lines) == (5 if players == 2 else 13)             # every betting line was played


def test_every_deal_and_betting_line_of_two_players():
    """Exhaustive for two players: each of the 6 chance paths of the spec's deal times the 5 betting lines."""
    lines = [(0, 0), (0, 1, 0), (0, 1, 1), (1, 0), (1, 1)]
    leaves = list(chance_leaves(spec_game(2).new_initial_state()))
    assert len(leaves) == 6
    for dealt_state, _path, _odds in leaves:
        first, second = dealt(dealt_state, 2)
        for line in lines:
            theirs = pyspiel.load_game("kuhn_poker").new_initial_state()
            theirs.apply_action(first)
            theirs.apply_action(second)
            ours = dealt_state.clone()
            for action in line:
                assert ours.current_player() == theirs.current_player()
                ours.apply_action(action)
                theirs.apply_action(action)
            assert ours.is_terminal() and theirs.is_terminal()
            assert ours.returns() == theirs.returns(), (first, second, line)


@pytest.mark.parametrize("chance", ["explicit", "sampled"])
def test_returns_under_random_play_agree_within_sampling_error(chance):
    """The spec deals by its own shuffle (its chance nodes, or its seeded draws): its mean return for P1 matches
    OpenSpiel's (P1's is 1/8 in theory)."""
    games = 3000
    ours = load_game(KUHN, chance=chance, seed=1)
    theirs = pyspiel.load_game("kuhn_poker")
    rng = random.Random(5)
    mean_ours = sum(random_return(ours, rng) for _ in range(games)) / games
    mean_theirs = sum(random_return(theirs, rng) for _ in range(games)) / games
    # P1's return under uniform random play has a standard deviation below 1.5: 4 sigma of the difference
    assert abs(mean_ours - mean_theirs) < 4 * 1.5 * (2 / games) ** 0.5
