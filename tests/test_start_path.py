"""A new game is built from templates made once per player count (Layout.fresh_lists): every game gets its own lists."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulelang

ROOT = Path(__file__).resolve().parent.parent
GAMES = ["games/flapjacks", "games/jacks_friends", "examples/kuhn_poker", "examples/pig"]


def _lists(state) -> list[list]:
    """Every mutable list a state's start fills from the template, nested rows included."""
    return [state.counters, *state.counters, state.vars, *state.vars, state.zones, *state.zones, state.loc,
            state.out]


@pytest.mark.parametrize("path", GAMES)
def test_two_games_share_no_list_of_their_start(path: str) -> None:
    game = rulelang.load_game(ROOT / path)
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
    game = rulelang.load_game(ROOT / path)
    n = game.max_players
    counters, variables, zones, loc, out = game.layout(n).fresh_lists()
    assert counters == [[0] * len(game.counters)] * (game.player_holder + n + len(game.card_type))
    assert variables == [list(game.var_initial)] * n
    assert out == [False] * n
    for card, ctype in enumerate(game.card_type):
        zid = game.zone_id(game.zones[ctype.zone], 0, n)
        assert loc[card] == zid and card in zones[zid]
    assert sum(len(z) for z in zones) == len(game.card_type)
