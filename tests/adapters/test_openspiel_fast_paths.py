"""The OpenSpiel adapter's fast paths give the answers of the slow ones.

- Explicit chance shares a table's setup positions between games: the setup's chance tree depends only on the
  spec, the player count and the seed the log records, so every game of a table walks one shared tree instead
  of replaying its setup once per draw. Sharing changes nothing a game shows, and no game changes what another
  reads.
- It remembers, likewise, the positions the first moves after the setup lead to (a small game's whole tree):
  games that meet a position again share it, and play as games that replay their own moves.
- Who moves, the legal actions and the option an action names are read from the waiting decision's saved form;
  they agree with ``State.decision()``.
- ``is_chance_node``, ``is_simultaneous_node`` and ``legal_actions`` are answered in Python; they agree with
  pyspiel's C++ at every node.

Skipped without the `openspiel` extra.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")

from rulelang.adapters import chance_nodes  # noqa: E402
from rulelang.adapters.openspiel import load_game  # noqa: E402

from helpers.openspiel_play import random_move  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
KUHN = ROOT / "examples" / "kuhn_poker"


def play(game, rng: random.Random) -> tuple[list[int], list[float], str]:
    """A random game: its actions, its returns and P1's information state at the end."""
    state = game.new_initial_state()
    while not state.is_terminal():
        random_move(state, rng, game.num_players())
    return state.history(), state.returns(), state.information_state_string(0)


@pytest.mark.slow
@pytest.mark.parametrize("path, players", [("examples/kuhn_poker", 3), ("examples/pig", 2), ("examples/goofspiel", 2)])
def test_games_sharing_setup_positions_play_as_games_that_do_not(path, players, monkeypatch):
    shared = load_game(ROOT / path, players=players)
    shared_games = [play(shared, random.Random(seed)) for seed in range(40)]
    monkeypatch.setattr(chance_nodes, "SETUP_POSITIONS", 0)
    alone = load_game(ROOT / path, players=players)          # each game loaded has a table of its own
    assert [play(alone, random.Random(seed)) for seed in range(40)] == shared_games
    assert not alone.spec.setup_positions and shared.spec.setup_positions


def test_the_setup_state_two_games_share_is_not_changed_by_either():
    game = load_game(KUHN)
    first, second = game.new_initial_state(), game.new_initial_state()
    for state in (first, second):
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
    assert first.inner is second.inner
    before = first.inner.dumps()
    first.apply_action(1)
    second.apply_action(0)
    assert second.inner is not first.inner
    assert game.new_initial_state().child(game.num_distinct_actions()).child(
        game.num_distinct_actions()).inner.dumps() == before


@pytest.mark.parametrize("bound, kept, players", [("SETUP_POSITIONS", "setup_positions", 3),
                                                   ("TREE_MOVES", "positions_after", 2)])
def test_the_shared_positions_stop_at_their_bound(monkeypatch, bound, kept, players):
    """The setup positions, and the moves after them, that explicit chance shares between games."""
    monkeypatch.setattr(chance_nodes, bound, 3)
    game = load_game(ROOT / "examples" / "pig", players=players)
    for seed in range(10):
        play(game, random.Random(seed))
    assert len(getattr(game.spec, kept)) == 3


@pytest.mark.parametrize("path, players", [("examples/kuhn_poker", 3), ("examples/goofspiel", 2),
                                           ("games/jacks_friends", 3)])
def test_the_adapters_reads_of_the_waiting_decision_agree_with_decision(path, players):
    """current_player, legal actions and the taken option, read from the saved decision, are decision()'s."""
    game = load_game(ROOT / path, players=players, chance="sampled")
    table = game.spec
    for seed in range(15):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            inner = state.inner
            decision = inner.decision()
            assert inner.choosers() == decision.players
            simultaneous = len(decision.players) > 1 or decision.simultaneous
            assert table.is_simultaneous_node(inner) == simultaneous
            expected = pyspiel.PlayerId.SIMULTANEOUS if simultaneous else decision.players[0]
            assert state.current_player() == expected
            for p in range(players):
                ids = {o.id for o in decision.options.get(p, ())}
                wanted = (sorted(table.actions.action(i) for i in ids) if ids
                          else [table.actions.wait] if simultaneous else [])
                assert state.legal_actions(p) == wanted
            if simultaneous:
                state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(players)])
            else:
                action = rng.choice(state.legal_actions())
                index = table.option_index(inner, decision.players[0], action)
                assert decision.options[decision.players[0]][index].id == table.actions.option(action)
                state.apply_action(action)
        assert state.current_player() == pyspiel.PlayerId.TERMINAL


def _answers(state, players: int, read) -> list:
    """What ``read(state, player)`` gives, or the error it raises, for every seat and pseudo-player."""
    found = []
    for player in [None, *range(-5, players)]:
        try:
            found.append(read(state, player))
        except pyspiel.SpielError as error:
            found.append(("error", str(error)))
    return found


@pytest.mark.parametrize("path, players, chance", [("examples/kuhn_poker", 3, "explicit"),
                                                   ("examples/goofspiel", 2, "explicit"),
                                                   ("examples/pig", 2, "sampled"),
                                                   ("examples/leduc_poker", 2, "explicit")])
def test_the_python_answers_to_node_questions_are_pyspiels_own(path, players, chance):
    """is_chance_node, is_simultaneous_node and legal_actions, answered in Python, agree with pyspiel's C++ at
    every node (pseudo-players included: the error for them is pyspiel's)."""
    game = load_game(ROOT / path, players=players, chance=chance)

    def ours(state, player):
        return state.legal_actions() if player is None else state.legal_actions(player)

    def theirs(state, player):
        base = pyspiel.State.legal_actions
        return base(state) if player is None else base(state, player)

    for seed in range(8):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while True:
            assert state.is_chance_node() == pyspiel.State.is_chance_node(state)
            assert state.is_simultaneous_node() == pyspiel.State.is_simultaneous_node(state)
            assert _answers(state, players, ours) == _answers(state, players, theirs)
            if state.is_terminal():
                break
            random_move(state, rng, players)


@pytest.mark.slow
@pytest.mark.parametrize("path, players", [("examples/kuhn_poker", 2), ("examples/kuhn_poker", 3), ("examples/pig", 2),
                                           ("examples/goofspiel", 2), ("examples/leduc_poker", 2)])
def test_games_sharing_the_tree_of_moves_play_as_games_that_do_not(path, players, monkeypatch):
    """The positions moves lead to, remembered by the table for every game of it, are the positions a game
    replaying its own moves reaches: the same actions, returns and information states, for every player."""
    def games(game) -> list:
        found = []
        for seed in range(40):
            rng = random.Random(seed)
            state = game.new_initial_state()
            seen = []
            while not state.is_terminal():
                seen.append([(state.information_state_string(p), state.observation_string(p), state.legal_actions(p))
                             for p in range(players)])
                random_move(state, rng, players)
            found.append((state.history(), state.returns(), seen))
        return found
    shared = load_game(ROOT / path, players=players)
    shared_games = games(shared)
    monkeypatch.setattr(chance_nodes, "TREE_MOVES", 0)
    alone = load_game(ROOT / path, players=players)
    assert games(alone) == shared_games
    assert not alone.spec.positions_after and shared.spec.positions_after


def test_a_position_two_games_reach_by_the_same_moves_is_shared_and_left_as_it_was():
    game = load_game(KUHN)
    deal = [game.num_distinct_actions() + k for k in (2, 0)]     # the king to P1, then the jack to P2
    first, second = game.new_initial_state(), game.new_initial_state()
    for state in (first, second):
        for action in deal + [1]:                                    # P1 bets
            state.apply_action(action)
    assert first.inner is second.inner
    before = first.inner.dumps()
    first.apply_action(1)                                            # P2 calls in one game, folds in the other
    second.apply_action(0)
    assert first.is_terminal() and second.is_terminal()
    assert first.returns() == [2.0, -2.0] and second.returns() == [1.0, -1.0]
    again = game.new_initial_state()
    for action in deal + [1]:
        again.apply_action(action)
    assert again.inner.dumps() == before


@pytest.mark.parametrize("path, players", [("examples/kuhn_poker", 3), ("examples/goofspiel", 2),
                                           ("examples/leduc_poker", 2)])
def test_openspiel_random_simulation_test_passes_with_sampled_chance(path, players):
    game = load_game(ROOT / path, players=players, chance="sampled")
    pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)


@pytest.mark.parametrize("path, chance", [("examples/kuhn_poker", "sampled"), ("examples/kuhn_poker", "explicit"),
                                          ("examples/goofspiel", "sampled"), ("examples/goofspiel", "explicit")])
def test_a_clone_keeps_its_own_mover_and_legal_actions_when_the_original_moves_on(path, chance):
    """Who moves and the legal actions are worked out once per action and shared with clones: a clone taken at a
    decision answers for its own position after the original has moved on, and moves on as the original did."""
    game = load_game(ROOT / path, chance=chance)
    players = game.num_players()
    rng = random.Random(3)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        before = (state.current_player(), [state.legal_actions(p) for p in range(players)])
        twin = state.clone()
        if state.is_simultaneous_node():
            joint = [rng.choice(state.legal_actions(p)) for p in range(players)]
            state.apply_actions(joint)
            assert (twin.current_player(), [twin.legal_actions(p) for p in range(players)]) == before
            twin.apply_actions(joint)
        else:
            action = rng.choice(state.legal_actions())
            state.apply_action(action)
            assert (twin.current_player(), [twin.legal_actions(p) for p in range(players)]) == before
            twin.apply_action(action)
        assert twin.history() == state.history() and str(twin) == str(state)
    assert state.returns() == twin.returns()
