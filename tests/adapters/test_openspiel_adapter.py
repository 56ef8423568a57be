"""The OpenSpiel adapter presents any spec as a pyspiel game that OpenSpiel's own tests and algorithms accept.

Skipped when the `openspiel` extra is not installed.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers.examples import examples

pyspiel = pytest.importorskip("pyspiel")

from rulelang.adapters.core import WAIT  # noqa: E402
from rulelang.adapters.openspiel import load_game  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
KUHN = ROOT / "examples" / "kuhn_poker"


@pytest.mark.parametrize("path, players", [
    ("examples/kuhn_poker", 2), ("examples/kuhn_poker", 3), ("examples/pig", 2),
    pytest.param("examples/pig", 3, marks=pytest.mark.slow), pytest.param("games/flapjacks", 2, marks=pytest.mark.slow),
    pytest.param("games/flapjacks", 3, marks=pytest.mark.slow), ("games/jacks_friends", 2), ("games/jacks_friends", 4),
    ("examples/hooks", 2), ("examples/goofspiel", 2), ("examples/leduc_poker", 2), ("examples/liars_dice", 2),
])
def test_openspiel_random_simulation_test_passes(path, players):
    game = load_game(ROOT / path, players=players)
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_game_type_says_what_the_spec_is():
    kuhn = load_game(KUHN)
    kind = kuhn.get_type()
    assert kind.short_name == "rulelang_kuhn_poker"
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert kuhn.num_players() == 2 and kuhn.num_distinct_actions() == 2
    assert kuhn.max_chance_outcomes() == 2 + 4          # chance actions follow the players': a draw of 4 at most
    sampled = load_game(KUHN, chance="sampled")
    assert sampled.get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert sampled.max_chance_outcomes() == 0 and not sampled.new_initial_state().is_chance_node()
    assert load_game(KUHN, zero_sum=True).get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    friends = load_game(ROOT / "games" / "jacks_friends", players=3)
    assert friends.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS


def test_utility_bounds_are_those_the_spec_declares():
    """They were ±number_limit (9.2e18) for every spec with `returns:`, which no algorithm can use."""
    assert (load_game(KUHN).min_utility(), load_game(KUHN).max_utility()) == (-2.0, 4.0)
    leduc = load_game(ROOT / "examples" / "leduc_poker")
    assert (leduc.min_utility(), leduc.max_utility()) == (-13.0, 13.0)
    pig = load_game(ROOT / "examples" / "pig")
    assert (pig.min_utility(), pig.max_utility()) == (0.0, 1.0)


def test_kuhn_actions_are_numbered_as_openspiel_numbers_them():
    state = load_game(KUHN).new_initial_state()
    while state.is_chance_node():                       # the shuffle: draws of 3, then 2 (Fisher-Yates)
        state.apply_action(state.chance_outcomes()[-1][0])
    assert state.history() == [4, 3]                    # chance outcome k is action 2 + k
    assert state.legal_actions() == [0, 1]
    assert [state.action_to_string(a) for a in (0, 1)] == ["pass", "bet"]


def test_pyspiel_load_game_by_name_makes_the_same_game():
    load_game(KUHN)
    again = pyspiel.load_game("rulelang_kuhn_poker(players=3)")
    assert again.num_players() == 3
    state = again.new_initial_state()
    assert state.chance_outcomes() == [(2 + k, 0.25) for k in range(4)]        # three players: four cards
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.legal_actions() == [0, 1]
    sampled = pyspiel.load_game("rulelang_kuhn_poker(players=3,chance=sampled)")
    assert sampled.get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert sampled.new_initial_state().legal_actions() == [0, 1]


def test_spec_params_are_game_parameters():
    pig = load_game(ROOT / "examples" / "pig", players=2, goal=5)
    assert pig.get_parameters()["goal"] == 5
    rng = random.Random(1)
    for _ in range(5):
        state = pig.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():                    # the first player, and the dice
                state.apply_action(rng.choice(state.legal_actions()))
            else:
                state.apply_action(1)                     # hold after every roll that is not a 1
        winner = state.returns().index(1.0)
        assert 5 <= state.inner.counter(winner, "banked") <= 10     # one roll past 4 banked at most
    assert pyspiel.load_game("rulelang_pig(goal=7)").get_parameters()["goal"] == 7


@pytest.mark.slow
def test_seeded_games_repeat_and_clones_share_their_chance():
    """Sampled chance: a game's seed fixes its stream of deals, and a clone shares its state's deal."""
    first = [_random_playout(load_game(KUHN, chance="sampled", seed=4), k) for k in range(10)]
    second = [_random_playout(load_game(KUHN, chance="sampled", seed=4), k) for k in range(10)]
    assert first == second
    assert len({playout[0] for playout in first}) > 1
    state = load_game(KUHN, chance="sampled", seed=9).new_initial_state()
    clone = state.clone()
    state.apply_action(1)
    clone.apply_action(1)
    assert state.information_state_string(1) == clone.information_state_string(1)
    assert clone.history() == [1]
    assert state.inner is not clone.inner


def _random_playout(game, seed: int) -> tuple:
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return tuple(state.history()), tuple(state.returns())


def test_information_state_hides_the_other_players_card():
    game = load_game(KUHN)
    low = game.spec.positioned_state(1)
    low.arrange({"hand:P1": ["queen"], "hand:P2": ["jack"]})
    high = game.spec.positioned_state(1)
    high.arrange({"hand:P1": ["queen"], "hand:P2": ["king"]})
    states = []
    for inner in (low, high):
        inner.resume()
        state = game.state_from(inner)
        state.apply_action(0)                                    # P1 passes
        states.append(state)
    assert states[0].information_state_string(0) == states[1].information_state_string(0)
    assert states[0].observation_string(0) == states[1].observation_string(0)
    assert states[0].information_state_string(1) != states[1].information_state_string(1)
    assert "king" in states[1].observation_string(1) and "king" not in states[1].observation_string(0)
    assert '"seed"' not in states[0].information_state_string(0)
    assert states[0].observation_tensor(0) == states[1].observation_tensor(0)
    assert states[0].observation_tensor(1) != states[1].observation_tensor(1)


def test_openspiel_learners_train_on_a_spec_through_rl_environment():
    """OpenSpiel's RL environment reads the observation tensor; its tabular Q-learners play legal actions.

    The environment's chance draws and the learners' exploration (numpy's global generator) are seeded, so
    the 200 games are the same on every run: unseeded, their total could come out 0 by chance, as it once did."""
    import numpy as np
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import tabular_qlearner
    game = load_game(KUHN, seed=3)
    env = rl_environment.Environment(game, observation_type=rl_environment.ObservationType.OBSERVATION,
                                     chance_event_sampler=rl_environment.ChanceEventSampler(seed=4))
    assert env.observation_spec()["info_state"] == (game.observation_tensor_size(),)
    learners = [tabular_qlearner.QLearner(player_id=p, num_actions=2) for p in range(2)]
    totals = [0.0, 0.0]
    kept = np.random.get_state()
    np.random.seed(5)
    try:
        for _ in range(200):
            step = env.reset()
            while not step.last():
                player = step.observations["current_player"]
                output = learners[player].step(step)
                assert output.action in step.observations["legal_actions"][player]
                step = env.step([output.action])
            for p, learner in enumerate(learners):
                learner.step(step)
                totals[p] += step.rewards[p]
    finally:
        np.random.set_state(kept)
    assert totals[0] == -totals[1] and totals[0] != 0


def test_simultaneous_nodes_offer_the_no_op_to_seats_that_sit_out():
    game = load_game(ROOT / "games" / "jacks_friends", players=3)
    wait = game.spec.actions.action(WAIT)
    rng = random.Random(2)
    seen_joint = seen_wait = False
    for _ in range(5):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_simultaneous_node():
                seen_joint = True
                legal = [state.legal_actions(p) for p in range(3)]
                seen_wait = seen_wait or [wait] in legal
                state.apply_actions([rng.choice(actions) for actions in legal])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    assert seen_joint and seen_wait


def test_mcts_plays_a_spec():
    mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")
    import numpy as np
    game = load_game(KUHN)
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=20,
                       evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, odds = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(outcomes, p=odds)))
                continue
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
        assert sum(state.returns()) == 0 and state.returns() != [0.0, 0.0]


def test_a_state_set_up_by_hand_must_be_resumed_and_of_this_spec():
    from rulelang import RulelangError
    game = load_game(KUHN)
    halted = game.spec.positioned_state(0)
    with pytest.raises(RulelangError, match="resume"):
        game.state_from(halted)
    other = load_game(KUHN, players=3)
    halted.resume()
    with pytest.raises(RulelangError, match="not a game of this spec"):
        other.state_from(halted)
    assert game.state_from(halted).current_player() == 0


_LOADED: dict = {}


def adapted(name: str):
    if name not in _LOADED:
        _LOADED[name] = load_game(ROOT / "examples" / name)
    return _LOADED[name]




@examples(40)
@given(name=st.sampled_from(["kuhn_poker", "leduc_poker", "goofspiel", "liars_dice"]),
       picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=60))
def test_a_clone_replays_the_same_game_and_the_chips_add_up_to_nothing(name, picks):
    """The examples are zero-sum, and a clone taken anywhere plays on exactly as its original does."""
    game = adapted(name)
    state = game.new_initial_state()
    clone, at = None, picks[0] % 2                # every example has at least two decisions
    moves = []
    for k, pick in enumerate(picks * 20):
        if state.is_terminal():
            break
        if k == at:
            clone = state.clone()
        if state.is_simultaneous_node():
            joint = [state.legal_actions(p)[pick % len(state.legal_actions(p))] for p in range(game.num_players())]
            moves.append(("joint", joint, k))
            state.apply_actions(joint)
        else:
            legal = state.legal_actions()
            moves.append(("one", legal[pick % len(legal)], k))
            state.apply_action(legal[pick % len(legal)])
    if not state.is_terminal() or clone is None:
        return
    assert sum(state.returns()) == 0
    for kind, move, k in moves:
        if k >= at:
            clone.apply_actions(move) if kind == "joint" else clone.apply_action(move)
    assert clone.is_terminal() and clone.returns() == state.returns()
    assert clone.information_state_string(0) == state.information_state_string(0)
