"""Different seeds give independent games, consecutive seeds included (batches use them)."""
from __future__ import annotations

import hashlib
import math
import statistics

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rulelang
from rulelang.agents import RandomAgent, play_out
from rulelang.rng import batch_seed, start_state


def draws(seed: int, count: int) -> list[int]:
    """The first raw 64-bit outputs of a seed's stream, through the engine's own generator."""
    game = rulelang.load_game("examples/pig")
    state = game.new_state(players=2, seed=seed)
    state.rng = start_state(seed)
    return [state.randbelow(1 << 64) for _ in range(count)]


def test_neighbouring_seeds_share_no_stretch_of_their_streams() -> None:
    """Seed s+1 once replayed seed s's stream one draw later; no two of 300 neighbours share any number."""
    streams = [draws(seed, 200) for seed in range(300)]
    for earlier, later in zip(streams, streams[1:]):
        assert not set(earlier) & set(later)


@pytest.mark.parametrize("seed", [0, 1, -1, 2**64, 2**64 + 1, 10**40])
def test_every_seed_of_any_size_starts_in_range_and_apart(seed: int) -> None:
    start = start_state(seed)
    assert 0 <= start < 2**64
    assert start != start_state(seed + 1)


def game_sizes(game_path: str, players: int, seeds: range | list[int], fixed_agents: bool = False) -> list[int]:
    """How many events each game has: a figure that differs from game to game in both games.

    With ``fixed_agents`` every game is played by the same agents, so only the engine's stream differs.
    """
    game = rulelang.load_game(game_path)
    sizes = []
    for seed in seeds:
        state = game.new_state(players=players, seed=seed)
        agent_seed = 1 if fixed_agents else seed * players
        play_out(state, [RandomAgent(agent_seed + p) for p in range(players)])
        sizes.append(len(state.events))
    return sizes


#: Four standard errors of the correlation of 399 pairs of independent samples.
FOUR_ERRORS = 4 / math.sqrt(399)


def correlation(xs: list[int], ys: list[int]) -> float:
    return statistics.correlation([float(x) for x in xs], [float(y) for y in ys])


@pytest.mark.parametrize("game_path", ["games/flapjacks", "games/jacks_friends"])
def test_games_of_neighbouring_seeds_are_uncorrelated(game_path: str) -> None:
    sizes = game_sizes(game_path, 2, range(400))
    assert abs(correlation(sizes[:-1], sizes[1:])) < FOUR_ERRORS


def test_the_engine_streams_of_neighbouring_seeds_are_uncorrelated() -> None:
    """The same agents play every game, so only the engine's dice and shuffles differ between neighbours.

    (Jack's Friends draws nothing from the engine's stream, so only Flapjacks can show this.)
    """
    sizes = game_sizes("games/flapjacks", 2, range(400), fixed_agents=True)
    assert abs(correlation(sizes[:-1], sizes[1:])) < FOUR_ERRORS


def test_a_batch_of_consecutive_seeds_matches_far_apart_seeds() -> None:
    """The mean game size of seeds 0..n matches that of seeds spread over a wide range."""
    near = game_sizes("games/flapjacks", 2, range(300))
    far = game_sizes("games/flapjacks", 2, [seed * 1_000_003 + 10**9 for seed in range(300)])
    spread = math.sqrt(statistics.variance(near) / len(near) + statistics.variance(far) / len(far))
    assert abs(statistics.mean(near) - statistics.mean(far)) < 4 * spread


@given(st.integers(min_value=-(2**70), max_value=2**70), st.integers(min_value=0, max_value=2**40))
def test_the_start_of_a_stream_is_the_personalised_blake2b_of_the_seed_text(seed: int, index: int) -> None:
    """The streams (and every recorded game) depend on this exact hash: a faster form must give the same numbers."""
    def reference(*parts: int) -> int:
        text = ",".join(str(part) for part in parts).encode("ascii")
        return int.from_bytes(hashlib.blake2b(text, digest_size=8, person=b"rulelang-rng").digest(), "little")

    assert start_state(seed) == reference(seed)
    assert batch_seed(seed, index) == reference(seed, index) & (2**53 - 1)
