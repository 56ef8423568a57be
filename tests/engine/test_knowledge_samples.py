"""Samples for search agents know what their player was shown and nothing of what they may not see.

The game (tests/whispers) reveals P1's opening hand to P2, asks secret bids, and keeps one variable
its owner alone sees (`mine`) and one nobody sees (`sealed`, declared `initial: 7`).
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rulelang
from rulelang.agents import GreedyAgent, MctsAgent, RandomAgent, Seat, Table
from rulelang.agents.determinize import determinize, seen_zones
from rulelang.engine.state import State
from rulelang.engine.views import var_shown

from helpers.examples import examples
from helpers.positions import random_position, reachable

WHISPERS = Path(__file__).parents[1] / "whispers"


@pytest.fixture(scope="module")
def whispers() -> rulelang.Game:
    return rulelang.load_game(WHISPERS)


def at_decision(game: rulelang.Game, seed: int, turn: int, kind: str, players: int = 3) -> State:
    """Play at random from ``seed`` to the first decision of ``kind`` on ``turn``."""
    state = game.new_state(players, seed)
    rng = random.Random(seed)
    while not state.over:
        decision = state.decision()
        if state.turn == turn and decision.kind == kind:
            return state
        chooser = decision.players[0]
        state.apply_index(rng.randrange(len(decision.options[chooser])), chooser)
    raise AssertionError("the game ended first")


def shown_to(state: State, player: int) -> list[int]:
    return [card for card, seat in state.revealed if seat == player]


def place(state: State, card: int) -> tuple[int, int]:
    zid = state.loc[card]
    return zid, state.zones[zid].index(card)


def var_index(game: rulelang.Game, name: str) -> int:
    return game.var_names.index(name)


# --- cards revealed ------------------------------------------------------------------------

def test_a_card_revealed_to_the_player_is_never_moved_by_a_sample(whispers):
    state = at_decision(whispers, 2, 2, "choose")            # P2 stashes; P1's hand was shown to P2 on turn 1
    known = shown_to(state, 1)
    assert known and all(not seen_zones(state, 1)[state.loc[c]] for c in known)   # in P1's hand, hidden to P2
    for k in range(20):
        sample = determinize(state, 1, random.Random(k))
        assert [place(sample, c) for c in known] == [place(state, c) for c in known]
        assert sample.view(1) == state.view(1)               # the view names them, beside P1's count


def test_a_card_revealed_to_another_player_is_dealt_again(whispers):
    """P3 was not shown P1's hand: in P3's samples those cards go back into the pool."""
    state = at_decision(whispers, 2, 3, "secret")
    known = shown_to(state, 1)
    assert known and not shown_to(state, 2)
    moved = {c for k in range(20) for c in known if place(determinize(state, 2, random.Random(k)), c) != place(state, c)}
    assert moved == set(known)
    assert all(determinize(state, 2, random.Random(k)).revealed == [] for k in range(3))


def test_a_sample_keeps_only_its_players_reveals(whispers):
    state = at_decision(whispers, 2, 2, "choose")
    state.revealed.append([state.zones[state.lay.zone_labels.index("hand:P3")][0], 0])    # shown to P1 as well
    sample = determinize(state, 1, random.Random(0))
    assert sample.revealed == [pair for pair in state.revealed if pair[1] == 1] != state.revealed


def test_games_differing_only_in_what_another_was_shown_give_the_same_samples(whispers):
    state = at_decision(whispers, 2, 3, "secret")
    other = state.copy()
    hand3 = state.zones[state.lay.zone_labels.index("hand:P3")]
    other.revealed.extend([[card, 0] for card in hand3])          # P3's hand shown to P1 too, unknown to P2
    assert other.view(0) != state.view(0) and other.view(1) == state.view(1)
    for k in range(5):
        assert determinize(state, 1, random.Random(k)).dumps() == determinize(other, 1, random.Random(k)).dumps()


# --- variables the player may not see -----------------------------------------------------------

def differing_in_unseen_variables(state: State) -> State:
    """A copy in which P1's `mine`, everyone's `sealed` (P2's own included) are changed: P2 sees none of it."""
    other = state.copy()
    game = state.game
    other.vars[0][var_index(game, "mine")] += 5
    for row in other.vars:
        row[var_index(game, "sealed")] += 3
    return other


def test_games_differing_only_in_variables_the_player_may_not_see_give_the_same_samples(whispers):
    state = at_decision(whispers, 4, 2, "choose")
    other = differing_in_unseen_variables(state)
    assert other.dumps() != state.dumps() and other.view(1) == state.view(1)
    assert other.view(0) != state.view(0)                          # P1 sees their own `mine`
    seat_a, seat_b = Seat(state, 1), Seat(other, 1)
    for k in range(5):
        assert seat_a.sample(random.Random(k)).dumps() == seat_b.sample(random.Random(k)).dumps()
    for make in (lambda: MctsAgent(5, iterations=30), lambda: GreedyAgent(5)):
        assert make().choose(seat_a) == make().choose(seat_b)


def test_a_sample_that_kept_the_true_variables_would_tell_them_apart(whispers):
    """The test above can fail: the copies of the two true games differ."""
    state = at_decision(whispers, 4, 2, "choose")
    assert state.copy().dumps() != differing_in_unseen_variables(state).copy().dumps()


def test_unseen_variables_hold_their_declared_initial_value_and_seen_ones_the_truth(whispers):
    state = at_decision(whispers, 4, 4, "secret")
    game = whispers
    assert state.var(2, "sealed") != 7 and state.var(0, "mine") != 0
    sample = determinize(state, 2, random.Random(1))
    for owner in range(3):
        for vi, shown in enumerate(var_shown(game, owner, 2)):
            expected = state.vars[owner][vi] if shown else game.var_initial[vi]
            assert sample.vars[owner][vi] == expected, (owner, game.var_names[vi])
    assert sample.var(2, "mine") == state.var(2, "mine")           # P3's own `mine` is theirs to see
    assert sample.var(2, "sealed") == 7                            # even their own `sealed` is not


@examples(25)
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 40), players=st.integers(2, 3), draw=st.integers(0, 2**32))
def test_a_sample_agrees_with_the_view_keeps_what_was_shown_and_hides_the_rest(whispers, seed, moves, players, draw):
    """Sampled where an agent samples, for the player who must choose."""
    state = random_position(whispers, players, seed, moves)
    if state is None:
        return
    observer = state.decision().players[0]
    truth = state.dumps()
    sample = determinize(state, observer, random.Random(draw))
    assert state.dumps() == truth
    assert without_waiting(sample.view(observer)) == without_waiting(state.view(observer))
    assert all(place(sample, c) == place(state, c) for c in shown_to(state, observer))
    assert sample.revealed == [pair for pair in state.revealed if pair[1] == observer]
    for owner in range(players):
        for vi, shown in enumerate(var_shown(whispers, owner, observer)):
            assert sample.vars[owner][vi] == (state.vars[owner][vi] if shown else whispers.var_initial[vi])


def without_waiting(view: dict) -> dict:
    """A view without who the decision waits for: a sample asks a secret decision of everyone again."""
    return {k: v for k, v in view.items() if k != "waiting_for"}


# --- the seat -------------------------------------------------------------------------------------

def test_no_attribute_path_leads_from_a_seat_to_the_true_variables_or_reveals(whispers):
    state = at_decision(whispers, 2, 2, "choose")
    assert state.revealed
    seat = Table(state, RandomAgent(0)).seats[1]
    seat.sample(random.Random(0))                                  # a sample taken leaves nothing behind either
    everything = reachable(seat)
    assert any(obj is seat.game for obj in everything)
    secrets = [state, state.vars, *state.vars, state.revealed, *state.revealed]
    assert not [obj for obj in everything if any(obj is secret for secret in secrets)]
