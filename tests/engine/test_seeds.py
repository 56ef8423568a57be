"""Different seeds give independent games, consecutive seeds included (batches use them)."""
from __future__ import annotations

import hashlib
import math
import statistics

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import rulelang
from rulelang.agents import RandomAgent, play_out
from rulelang.engine.rng import batch_seed, outputs, start_state

from helpers.examples import examples


def draws(seed: int, count: int) -> list[int]:
    """The first raw 64-bit outputs of a seed's stream, through the engine's own generator."""
    game = rulelang.load_game("examples/pig")
    state = game.new_state(players=2, seed=seed)
    state.rng = start_state(seed)
    return [state.randbelow(1 << 64) for _ in range(count)]


@pytest.mark.slow
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


@pytest.mark.slow
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


def splitmix64(state: int, bounds: list[int]) -> tuple[list[int], int]:
    """SplitMix64 one draw at a time, as the engine drew before it worked outputs out in batches:
    each ``(output * n) >> 64``, and the state after them."""
    mask, out = (1 << 64) - 1, []
    for n in bounds:
        state = x = (state + 0x9E3779B97F4A7C15) & mask
        x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & mask
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & mask
        out.append(((x ^ (x >> 31)) * n) >> 64)
    return out, state


@pytest.mark.slow
@examples(60)
@given(start=st.integers(min_value=0, max_value=2**64 - 1),
       bounds=st.lists(st.integers(min_value=1, max_value=2**64), min_size=1, max_size=420),
       cut=st.integers(min_value=0, max_value=420))
@example(start=5, bounds=[6] * 400, cut=200)           # singles, a whole batch, and a cut inside the second
def test_the_batched_stream_is_splitmix64_draw_for_draw(start: int, bounds: list[int], cut: int) -> None:
    """Single draws, then batches (rng.outputs, State.randbelow): the same numbers as one draw at a time, and
    ``rng`` is the exact state at every moment, so a copy or a save taken in the middle of a batch goes on
    with the very same stream."""
    state = rulelang.load_game("examples/pig").new_state(players=2, seed=0)
    state.rng = start
    cut = min(cut, len(bounds))
    expected, middle = splitmix64(start, bounds[:cut])
    assert [state.randbelow(n) for n in bounds[:cut]] == expected
    assert state.rng == middle
    rest, end = splitmix64(middle, bounds[cut:])
    copied, saved = state.copy(), rulelang.State.from_json(state.game, state.to_json())
    for twin in (state, copied, saved):
        assert [twin.randbelow(n) for n in bounds[cut:]] == rest
        assert twin.rng == end


@examples(40)
@given(start=st.integers(min_value=0, max_value=2**64 - 1), before=st.integers(min_value=0, max_value=300),
       bounds=st.lists(st.integers(min_value=1, max_value=2**64), max_size=300))
def test_many_draws_at_once_are_the_draws_one_by_one(start: int, before: int, bounds: list[int]) -> None:
    """``draws_below`` (a shuffle's draws) gives what ``randbelow`` gives for each bound in turn, from any
    point of the stream (among the single draws or inside a batch), and leaves the stream where they would."""
    one_by_one, at_once = (rulelang.load_game("examples/pig").new_state(players=2, seed=0) for _ in range(2))
    for state in (one_by_one, at_once):
        state.rng = start
        for _ in range(before):
            state.randbelow(6)
    assert at_once.draws_below(bounds) == [one_by_one.randbelow(n) for n in bounds]
    assert at_once.rng == one_by_one.rng
    assert at_once.randbelow(1000) == one_by_one.randbelow(1000)


@pytest.mark.parametrize("count", [1, 3, 128, 300])
def test_outputs_packed_in_lanes_are_the_outputs_one_at_a_time(count: int) -> None:
    for start in (0, 1, 2**64 - 1, 0x9E3779B97F4A7C15 * 7 % 2**64):
        raw, _ = splitmix64(start, [2**64] * count)
        assert outputs(start, count) == raw[::-1]
