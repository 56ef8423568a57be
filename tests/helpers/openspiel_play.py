"""Shared moves of the OpenSpiel conformance tests: two games played in step, a random move, a random playout's return."""
from __future__ import annotations

import random
from collections.abc import Iterator


def play_turns_in_step(theirs, ours, rng: random.Random, taken: list[int],
                       chance: Iterator[int] | None = None) -> None:
    """Turn by turn until OpenSpiel's game ends: the same player to move and the same legal actions at every
    step, both given the same random action (appended to ``taken``), and at the end the same returns.

    OpenSpiel's chance nodes on the way take their outcomes from ``chance`` (the spec's were set up already).
    """
    while not theirs.is_terminal():
        if theirs.is_chance_node():
            assert chance is not None, f"a chance node no outcome was given for, after {taken}"
            theirs.apply_action(next(chance))
            continue
        assert not ours.is_terminal() and not ours.is_chance_node(), taken
        assert ours.current_player() == theirs.current_player(), taken
        assert ours.legal_actions() == theirs.legal_actions(), taken
        action = rng.choice(theirs.legal_actions())
        taken.append(action)
        theirs.apply_action(action)
        ours.apply_action(action)
    assert ours.is_terminal(), taken
    assert ours.returns() == theirs.returns(), taken


def random_move(state, rng: random.Random, players: int) -> None:
    """One uniformly random move: a chance outcome, every player's legal action at a simultaneous node,
    or the player to move's."""
    if state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    elif state.is_simultaneous_node():
        state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(players)])
    else:
        state.apply_action(rng.choice(state.legal_actions()))


def random_return(game, rng: random.Random) -> float:
    """P1's return after a uniformly random playout (``random_move`` until the end)."""
    state = game.new_initial_state()
    while not state.is_terminal():
        random_move(state, rng, game.num_players())
    return state.returns()[0]
