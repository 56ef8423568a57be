"""A new game is built from templates made once per player count (Layout.fresh_lists): every game gets its own lists."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as hst

import rulelang

from helpers.examples import examples

ROOT = Path(__file__).resolve().parents[2]
GAMES = ["games/flapjacks", "games/jacks_friends", "examples/kuhn_poker", "examples/pig"]
_LOADED: dict = {}


def _loaded(path: str):
    """Each game compiled once for the module."""
    if path not in _LOADED:
        _LOADED[path] = rulelang.load_game(ROOT / path)
    return _LOADED[path]


def _lists(state) -> list[list]:
    """Every mutable list a state's start fills from the template, nested rows included."""
    return [state.counters, *state.counters, state.vars, *state.vars, state.zones, *state.zones, state.loc,
            state.out]


@pytest.mark.parametrize("path", GAMES)
def test_two_games_share_no_list_of_their_start(path: str) -> None:
    game = _loaded(path)
    players = game.min_players
    first, second = (game.new_state(players, seed=3, before_first_turn=True) for _ in range(2))
    theirs = {id(x) for x in _lists(second)}
    assert not any(id(x) in theirs for x in _lists(first))
    layout = game.layout(players)
    assert layout.fresh_lists() == layout.fresh_lists()
    assert layout.fresh_lists()[0] is not layout.fresh_lists()[0]


@pytest.mark.parametrize("path", GAMES)
def test_a_new_game_starts_from_its_declarations(path: str) -> None:
    """Counters at 0, variables at their initial values, every card in its start zone, nobody out."""
    game = _loaded(path)
    n = game.max_players
    counters, variables, zones, loc, out = game.layout(n).fresh_lists()
    assert counters == [[0] * len(game.counters)] * (game.player_holder + n + len(game.card_type))
    assert variables == [list(game.var_initial)] * n
    assert out == [False] * n
    for card, ctype in enumerate(game.card_type):
        zid = game.zone_id(game.zones[ctype.zone], 0, n)
        assert loc[card] == zid and card in zones[zid]
    assert sum(len(z) for z in zones) == len(game.card_type)


def _containers(value, found: list) -> list:
    """Every list and dict inside a plain value (itself included)."""
    if isinstance(value, (list, dict)):
        found.append(value)
        for item in (value.values() if isinstance(value, dict) else value):
            _containers(item, found)
    return found


def _mutable_parts(state) -> list:
    saved = [state.counters, state.vars, state.zones, state.loc, state.revealed, state.out, state.pending,
             state.answer, state.winners, [frame.locals for frame in state.stack]]
    return [part for part in _containers(saved, []) if part is not saved]


@given(seed=hst.integers(0, 10_000), moves=hst.integers(0, 30), path=hst.sampled_from(GAMES))
@examples(30)
def test_a_copy_shares_no_list_or_dict_with_its_original(seed: int, moves: int, path: str) -> None:
    """Decisions, frame locals and every table of a copy are its own (its log too; the records in it are shared,
    never changed)."""
    game = _loaded(path)
    state = game.new_state(game.min_players, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        waiting = state.waiting()
        if waiting is None:
            break
        state.apply_index(rng.randrange(waiting[1]), waiting[0])
    copy = state.copy()
    assert copy.dumps() == state.dumps()
    assert copy.events is not state.events
    their_parts = _mutable_parts(copy)          # kept alive while compared: a freed list's id can come back
    theirs = {id(part) for part in their_parts}
    assert not [part for part in _mutable_parts(state) if id(part) in theirs]


def test_a_copy_of_locals_marshal_cannot_hold_falls_back_to_copying_list_by_list() -> None:
    state = _loaded("examples/kuhn_poker").new_state(2, 1)
    marker = object()
    state.stack[-1].locals["x"] = [marker]
    copy = state.copy()
    held = copy.stack[-1].locals["x"]
    assert held == [marker] and held is not state.stack[-1].locals["x"]
    assert copy.pending == state.pending and copy.pending is not state.pending
