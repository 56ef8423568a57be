"""The PettingZoo adapter: an AEC environment with action masks for any spec. Skipped without the extra."""
from __future__ import annotations

import random
import warnings
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test  # noqa: E402

from rulelang.adapters.pettingzoo import env  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("path, players", [
    ("games/flapjacks", 2), ("games/flapjacks", 4), ("games/jacks_friends", 2), ("games/jacks_friends", 5),
    ("examples/kuhn_poker", 2), ("examples/pig", 3), ("examples/hooks", 2), ("examples/goofspiel", 2),
    ("examples/leduc_poker", 2), ("examples/liars_dice", 2),
])
def test_pettingzoo_api_test_passes(path, players):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")                    # advice about dict observations and agent names
        api_test(env(ROOT / path, players=players), num_cycles=300)


def play_random(environment, seed: int) -> tuple[list, dict]:
    """Random legal actions to the end; the (agent, action) pairs and the final rewards."""
    rng = random.Random(seed)
    environment.reset(seed=seed)
    taken, final = [], {}
    for agent in environment.agent_iter(max_iter=10_000):
        observation, reward, termination, truncation, _ = environment.last()
        if termination or truncation:
            final[agent] = reward + 0.0
            environment.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"]).tolist()
        assert legal == environment.spec_table.legal_actions(environment.game_state, int(agent[1:]) - 1)
        action = rng.choice(legal)
        taken.append((agent, action))
        environment.step(action)
    return taken, final


def test_kuhn_rewards_are_the_returns_and_a_seed_repeats_a_game():
    kuhn = env(ROOT / "examples" / "kuhn_poker")
    for seed in range(30):
        taken, final = play_random(kuhn, seed)
        assert sum(final.values()) == 0 and set(final) == {"P1", "P2"}
        assert abs(final["P1"]) in (1.0, 2.0)
        assert play_random(kuhn, seed) == (taken, final)


def test_a_secret_choice_stays_hidden_from_the_next_chooser():
    friends = env(ROOT / "games" / "jacks_friends", players=3)
    friends.reset(seed=1)
    assert friends.agent_selection == "P1"
    before = friends.observe("P2")["observation"].copy()
    mask = friends.observe("P1")["action_mask"]
    friends.step(int(np.flatnonzero(mask)[-1]))
    assert friends.agent_selection == "P2"                 # the others choose before anything is shown
    assert (friends.observe("P2")["observation"] == before).all()


def test_observations_do_not_show_the_other_players_card():
    kuhn = env(ROOT / "examples" / "kuhn_poker")
    encoder = kuhn.encoder
    seen = set()
    for seed in range(20):
        kuhn.reset(seed=seed)
        state = kuhn.game_state
        mine = encoder.encode(state.view(0))
        hand_p2 = encoder.zones.index("hand:P2")
        start = encoder.size - (len(encoder.zones) - hand_p2) * (1 + len(encoder.cards))
        assert mine[start] == 1.0 and not any(mine[start + 1:start + 1 + len(encoder.cards)])
        seen.add(state.zone("hand", 1)[0])
    assert len(seen) == 3


def test_render_shows_the_acting_players_view():
    kuhn = env(ROOT / "examples" / "kuhn_poker", render_mode="ansi")
    kuhn.reset(seed=3)
    text = kuhn.render()
    assert '"you": "P1"' in text and kuhn.game_state.zone("hand", 0)[0] in text
