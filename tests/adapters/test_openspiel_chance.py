"""Explicit chance in the OpenSpiel adapter: every draw a chance node, so OpenSpiel's exact algorithms run on a spec.

- CFR (open_spiel.python.algorithms.cfr) on examples/kuhn_poker converges as it does on OpenSpiel's own
  kuhn_poker: the same exploitability at every iteration measured, falling, toward the game value -1/18.
- A chance node lists its outcomes with their odds under action numbers of their own, after the players'.
- Given the outcomes a seed draws, explicit chance plays that seed's game, event for event.
- What a player knows at a chance node is what they knew at the last decision; clones taken at chance nodes
  play on alike, in a game with simultaneous nodes too.

Skipped without the `openspiel` extra.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")

from rulelang import RulelangError  # noqa: E402
from rulelang.adapters.openspiel import load_game  # noqa: E402

from helpers.chance_draws import draws_recorded  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
KUHN = ROOT / "examples" / "kuhn_poker"
PIG = ROOT / "examples" / "pig"


def cfr_exploitability(game, checkpoints: list[int]) -> tuple[list[float], object]:
    """Exploitability of CFR's average policy after each checkpoint's iterations, and the last average policy."""
    from open_spiel.python.algorithms import cfr, exploitability
    solver = cfr.CFRSolver(game)
    measured = []
    for iteration in range(1, checkpoints[-1] + 1):
        solver.evaluate_and_update_policy()
        if iteration in checkpoints:
            measured.append(exploitability.exploitability(game, solver.average_policy()))
    return measured, solver.average_policy()


@pytest.mark.slow
def test_cfr_on_the_kuhn_spec_converges_as_on_openspiels_kuhn_poker():
    from open_spiel.python.algorithms import expected_game_score
    checkpoints = [1, 10, 50]
    spec = load_game(KUHN, zero_sum=True)
    ours, policy = cfr_exploitability(spec, checkpoints)
    theirs, _ = cfr_exploitability(pyspiel.load_game("kuhn_poker"), checkpoints)
    assert ours == pytest.approx(theirs, abs=1e-9)              # the same game tree, information sets and odds
    assert ours[0] > 0.4 and ours[0] > ours[1] > ours[2] and ours[2] < 0.02
    value = expected_game_score.policy_value(spec.new_initial_state(), [policy, policy])
    assert value[0] == pytest.approx(-1 / 18, abs=0.003) and value[0] + value[1] == pytest.approx(0)


def test_a_die_is_a_chance_node_of_its_faces_numbered_after_the_players_actions():
    game = load_game(PIG)
    assert game.num_distinct_actions() == 2                     # roll-again, hold
    state = game.new_initial_state()
    assert state.current_player() == pyspiel.PlayerId.CHANCE
    assert state.chance_outcomes() == [(2, 0.5), (3, 0.5)]    # the random first player
    with pytest.raises(RulelangError, match="not a chance action"):
        state.apply_action(0)
    state.apply_action(2)                                       # P1 first
    assert state.chance_outcomes() == [(2 + k, 1 / 6) for k in range(6)]
    assert [state.action_to_string(pyspiel.PlayerId.CHANCE, a) for a in (2, 7)] == ["chance outcome 0",
                                                                                 "chance outcome 5"]
    state.apply_action(2 + 4)                                   # the face 5
    assert state.current_player() == 0 and state.legal_actions() == [0, 1]
    assert [e["faces"] for e in state.inner.events if e["type"] == "rolled"] == [[5]]
    with pytest.raises(RulelangError, match="not an action"):
        state.apply_action(3)
    assert state.history() == [2, 6]
    state.apply_action(0)                                       # roll again: a chance node, no decision between
    assert state.is_chance_node() and len(state.chance_outcomes()) == 6
    state.apply_action(2)                                       # a 1: P1's turn ends, and P2 rolls at once
    assert state.is_chance_node() and state.history() == [2, 6, 0, 2]


def test_what_a_player_knows_at_a_chance_node_is_what_they_knew_at_the_last_decision():
    game = load_game(PIG)
    root = game.new_initial_state()
    assert root.information_state_string(0) == root.observation_string(1) == "{}"   # nothing is set up yet
    assert list(root.observation_tensor(0)) == [0.0] * game.observation_tensor_size()
    deciding = root.child(2).child(6)                           # P1 first, rolls a 5
    rolling = deciding.child(0)                                 # and rolls again
    for p in range(2):
        assert rolling.information_state_string(p) == deciding.information_state_string(p)
        assert rolling.observation_string(p) == deciding.observation_string(p)
    assert rolling.inner is deciding.inner                       # the settled state, shared and never changed
    settled = rolling.child(2 + 3)                               # a 4: now everyone sees it
    assert settled.information_state_string(1) != deciding.information_state_string(1)
    assert "roll-again" in str(rolling) and str(rolling) != str(deciding.child(1))


def play_randomly(state, rng: random.Random, moves: list) -> None:
    """Random chance outcomes and random actions (joint at simultaneous nodes) to the end, recorded in ``moves``."""
    while not state.is_terminal():
        play_randomly_one(state, rng, moves)


def replay(state, moves: list) -> None:
    for move in moves:
        state.apply_actions(move) if isinstance(move, list) else state.apply_action(move)


@pytest.mark.parametrize("path, players, seed", [
    ("examples/goofspiel", 2, 0), ("examples/goofspiel", 2, 1),         # simultaneous nodes after the shuffle
    ("examples/pig", 3, 0), ("examples/pig", 3, 1),                     # dice all game long
    ("games/flapjacks", 2, 0),                                          # long shuffles, and reshuffles
])
def test_clones_taken_at_chance_nodes_play_on_alike(path, players, seed):
    game = load_game(ROOT / path, players=players)
    rng = random.Random(seed)
    state = game.new_initial_state()
    moves: list = []
    clones = []
    chance_nodes = joint_nodes = 0
    while not state.is_terminal():
        if state.is_chance_node():
            chance_nodes += 1
            if len(clones) < 3 and rng.random() < 0.2:
                clones.append((state.clone(), len(moves)))
            action = rng.choice(state.legal_actions())
            assert action >= game.num_distinct_actions()
            moves.append(action)
            state.apply_action(action)
        else:
            joint_nodes += state.is_simultaneous_node()
            play_step = []
            play_randomly_one(state, rng, play_step)
            moves.extend(play_step)
    assert chance_nodes > 0 and clones
    assert (joint_nodes > 0) == (game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS)
    for clone, at in clones:
        assert clone.is_chance_node() and clone.history() == state.history()[:len(clone.history())]
        replay(clone, moves[at:])
        assert clone.is_terminal() and clone.returns() == state.returns()
        assert clone.history() == state.history()
        assert all(clone.information_state_string(p) == state.information_state_string(p) for p in range(players))


def play_randomly_one(state, rng: random.Random, moves: list) -> None:
    """One random decision (joint at a simultaneous node), recorded in ``moves``."""
    if state.is_simultaneous_node():
        joint = [rng.choice(state.legal_actions(p)) for p in range(state.get_game().num_players())]
        moves.append(joint)
        state.apply_actions(joint)
    else:
        action = rng.choice(state.legal_actions())
        moves.append(action)
        state.apply_action(action)


def seeded_game(table, seed: int, rng: random.Random) -> tuple[list[int], list, list[dict]]:
    """A seeded game played with random actions through the adapter's table: (draws, moves, events)."""
    with draws_recorded() as drawn:
        state = table.new_state(seed)
        moves: list = []
        while not state.is_over:
            decision = state.decision()
            if decision.kind == "secret" or len(decision.players) > 1:
                moves.append([rng.choice(table.legal_actions(state, p)) for p in range(table.players)])
                table.apply_joint(state, moves[-1])
            else:
                moves.append(rng.choice(table.legal_actions(state, decision.players[0])))
                table.apply(state, decision.players[0], moves[-1])
    return drawn, moves, state.events


@pytest.mark.parametrize("path, players", [("examples/pig", 3), ("examples/goofspiel", 2), ("games/flapjacks", 2)])
def test_chance_actions_for_the_draws_of_a_seed_play_that_seeds_game(path, players):
    """Explicit chance changes who draws, nothing else: given a seeded game's draws, it is that game."""
    game = load_game(ROOT / path, players=players, seed=11)
    drawn, moves, events = seeded_game(game.spec, 11, random.Random(4))
    base = game.num_distinct_actions()
    draws, decisions = iter(drawn), iter(moves)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcome = next(draws)
            assert (base + outcome, 1 / len(state.chance_outcomes())) in state.chance_outcomes()
            state.apply_action(base + outcome)
        else:
            replay(state, [next(decisions)])
    assert next(draws, None) is None and next(decisions, None) is None and drawn
    assert state.inner.events == events


def test_sampled_chance_shows_no_chance_node_in_a_whole_game():
    game = load_game(ROOT / "games" / "jacks_friends", players=3, chance="sampled", seed=2)
    state = game.new_initial_state()
    while not state.is_terminal():
        assert not state.is_chance_node()
        play_randomly_one(state, random.Random(len(state.history())), [])


def test_zero_sum_is_checked_and_a_chance_mode_must_be_known():
    pig = load_game(PIG, zero_sum=True, goal=5)                 # a winner gets 1, the others 0: not zero-sum
    state = pig.new_initial_state()
    play_randomly(state, random.Random(3), [])
    with pytest.raises(RulelangError, match="add up to 1.0, not 0"):
        state.returns()
    with pytest.raises(RulelangError, match="chance='explicit'"):
        load_game(PIG, chance="exact")
