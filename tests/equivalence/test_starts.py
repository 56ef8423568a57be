"""Settled starts (rulelang/engine/starts.py): a kept start is the game its setup would have played, byte for byte.

The speed-ups' harness (test_speedups.py, flag ``kept_starts``) plays every game from a load that keeps
its starts and from one that never does (``Speedups(kept_starts=False)``), with and without history, from
seeds of any size: the same decisions, log, saved game and generator. These tests pin how starts are kept:
one per outcome of the setup's draws, never for a deck's shuffle, never shared, never for a start that is
watched, stopped or given its chance, and a tree given up when it is mostly missed.
"""
from __future__ import annotations

from pathlib import Path

import pytest

import rulelang
from rulelang.engine import starts
from rulelang.engine.speedups import ALL_ON

ROOT = Path(__file__).resolve().parents[2]


def _load(path: str, keep: bool) -> rulelang.Game:
    return rulelang.load_game(ROOT / path, speedups=ALL_ON if keep else ALL_ON.without("kept_starts"))


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
