"""Settled starts (rulelang/engine/starts.py): a kept start is the game its setup would have played, byte for byte.

Every game here is played twice from the same seed, once from a fresh load whose starts are never kept
(``Game.starts = None``) and once from a load that keeps them, and the two must agree at the start and
after every random choice to the end: fields, log, and the generator's state.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rulelang
from rulelang.engine import starts

from helpers.examples import examples

ROOT = Path(__file__).resolve().parents[2]
#: Games whose setups draw little (their starts are kept) and games whose setups draw a whole deck (never).
SMALL = ["examples/kuhn_poker", "examples/leduc_poker", "examples/liars_dice"]
LARGE = ["games/flapjacks", "examples/goofspiel"]


def _load(path: str, keep: bool) -> rulelang.Game:
    game = rulelang.load_game(ROOT / path)
    if not keep:
        game.starts = None
    return game


def _snapshot(state: rulelang.State) -> tuple:
    """Everything a game is, with or without its history (a game without it cannot be dumped)."""
    if state.history:
        return state.dumps(), state.rng
    return (state.counters, state.vars, state.zones, state.loc, state.out, state.pending, state.turn,
            state.active, state.over, state.winners, state.rng, [s.saved() for s in state.stack], state.events)


def _same_games(kept: rulelang.Game, plain: rulelang.Game, players: int, seed: int, history: bool = True) -> None:
    one = kept.new_state(players, seed, history=history)
    other = plain.new_state(players, seed, history=history)
    choices = random.Random(seed)
    while True:
        assert _snapshot(one) == _snapshot(other), f"seed {seed}, turn {other.turn}"
        waiting = other.waiting()
        if waiting is None:
            return
        player, count = waiting
        pick = choices.randrange(count)
        one.apply_index(pick, player)
        other.apply_index(pick, player)


@pytest.mark.parametrize("path, seeds", [(path, 150) for path in SMALL] +
                         [pytest.param(path, 8, marks=pytest.mark.slow) for path in LARGE] +
                         [pytest.param("games/jacks_friends", 40, marks=pytest.mark.slow)])
def test_a_kept_start_plays_the_game_its_setup_would_have(path: str, seeds: int) -> None:
    kept, plain = _load(path, keep=True), _load(path, keep=False)
    for players in range(kept.min_players, min(kept.max_players, 4) + 1):
        for seed in range(seeds):
            _same_games(kept, plain, players, seed)


@pytest.mark.parametrize("path", SMALL)
def test_a_kept_start_without_history_is_the_same_game_too(path: str) -> None:
    kept, plain = _load(path, keep=True), _load(path, keep=False)
    for seed in range(300):
        _same_games(kept, plain, kept.min_players, seed, history=False)


#: One pair of loads for every example hypothesis draws: a load costs more than a game.
_KEPT = {path: _load(path, keep=True) for path in SMALL}
_PLAIN = {path: _load(path, keep=False) for path in SMALL}


@examples(60)
@given(seed=st.integers(min_value=-(2 ** 70), max_value=2 ** 70), path=st.sampled_from(SMALL))
def test_any_seed_meets_the_start_its_own_draws_lead_to(seed: int, path: str) -> None:
    kept, plain = _KEPT[path], _PLAIN[path]
    for _ in range(2):              # the second start of the seed unpacks what the first one kept
        _same_games(kept, plain, kept.min_players, seed)


def test_a_small_setup_keeps_one_start_per_outcome_of_its_draws() -> None:
    game = _load("examples/kuhn_poker", keep=True)
    for seed in range(500):
        game.new_state(2, seed)
    memo = game.starts[(2, False, True)]
    assert memo.kept == 6           # the three cards' six orders
    assert memo.hits == 494 and memo.misses == 6


def test_a_setup_that_shuffles_a_deck_is_played_every_time() -> None:
    game = _load("games/flapjacks", keep=True)
    game.new_state(3, 1)
    game.new_state(3, 2)
    assert game.starts == {(3, False, True): None}


def test_games_unpacked_from_one_start_share_nothing_they_change() -> None:
    game = _load("examples/kuhn_poker", keep=True)
    first = game.new_state(2, 7)
    first.apply_index(1)            # bets: changes its counters, variables, stack and log
    again = game.new_state(2, 7)    # the same start, unpacked after the first game moved on
    fresh = _load("examples/kuhn_poker", keep=False).new_state(2, 7)
    assert again.dumps() == fresh.dumps()
    for name in ("counters", "vars", "zones", "stack", "pending", "log"):
        assert getattr(again, name) is not getattr(first, name)


def test_starts_watched_stopped_or_given_their_chance_are_never_kept() -> None:
    game = _load("examples/kuhn_poker", keep=True)
    game.new_state(2, 1, observer=lambda state, step: None)
    game.new_state(2, 1, before_first_turn=True)
    game.new_state(2, 1, chance=[0, 0])
    assert game.starts == {}


def test_a_tree_that_is_full_and_mostly_missed_is_given_up(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(starts, "MAX_STARTS", 3)
    game = _load("examples/kuhn_poker", keep=True)
    plain = _load("examples/kuhn_poker", keep=False)
    for seed in range(40):
        assert game.new_state(2, seed).dumps() == plain.new_state(2, seed).dumps()
    assert game.starts[(2, False, True)] is None
