"""Action numbers of the adapters (rulelang.adapters.core): stable, from the spec alone, and reversible.

Needs no extra: the numbering is plain Python shared by the OpenSpiel and PettingZoo adapters.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rulelang
from rulelang import RulelangError
from rulelang.adapters.core import WAIT, ActionMap, SpecTable

from helpers.examples import examples

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def friends() -> ActionMap:
    return ActionMap(rulelang.load_game(ROOT / "games" / "jacks_friends"), numbers=10)


def test_catalogue_ids_come_first_in_spec_order_then_numbers_then_the_no_op(friends):
    assert friends.ids[:3] == ["eat-one-meat", "eat-two-vegetables", "go-hungry-and-skip-the-next-turn"]
    assert friends.action("hen_house") == friends.ids.index("hen_house")
    assert friends.action("0") == friends.number_base and friends.action("9") == friends.number_base + 9
    assert friends.action(WAIT) == friends.size - 1 == friends.number_base + 10


def test_every_action_number_names_one_option_and_back(friends):
    for action in range(friends.size):
        assert friends.action(friends.option(action)) == action


def test_an_option_outside_the_numbering_is_an_error_that_names_it(friends):
    with pytest.raises(RulelangError, match="'10' has no action number"):
        friends.action("10")
    with pytest.raises(RulelangError, match="'-1' has no action number"):
        friends.action("-1")
    for odd in ("²", "--5", "+-5"):           # str.isdigit and a stripped sign let these reach int()
        with pytest.raises(RulelangError, match=f"'{odd}' has no action number".replace("+", r"\+")):
            friends.action(odd)
    with pytest.raises(RulelangError, match="not an action"):
        friends.option(friends.size)


def test_a_game_without_open_or_secret_decisions_has_only_its_options():
    pig = ActionMap(rulelang.load_game(ROOT / "examples" / "pig"))
    assert (pig.size, pig.ids) == (2, ["roll-again", "hold"])
    with pytest.raises(RulelangError):
        pig.action(WAIT)
    goofspiel = ActionMap(rulelang.load_game(ROOT / "examples" / "goofspiel"))
    assert goofspiel.ids[:13] == ["ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                                  "jack", "queen", "king"]
    assert goofspiel.size == 14                                     # the thirteen bids and the no-op


_TABLES: dict[int, SpecTable] = {}


def friends_table(players: int) -> SpecTable:
    if players not in _TABLES:
        _TABLES[players] = SpecTable(ROOT / "games" / "jacks_friends", players, numbers=101)
    return _TABLES[players]


@examples(25)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6), picks=st.lists(st.integers(0, 10**6), max_size=200))
def test_every_legal_option_of_a_game_in_play_has_its_number(seed, players, picks):
    """Whatever the game offers, at any point of any game, maps to numbers that take exactly that option."""
    table = friends_table(players)
    state = table.new_state(seed)
    for pick in picks:
        decision = state.decision()
        if decision is None:
            break
        for player in decision.players:
            legal = table.legal_actions(state, player)
            assert legal == sorted(set(legal))
            assert {table.actions.option(a) for a in legal} == {o.id for o in decision.options[player]}
            action = legal[pick % len(legal)]
            before = len(state.events)
            table.apply(state, player, action)
            assert table.actions.action(state.events[before]["option"]) == action
