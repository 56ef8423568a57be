"""Every speed-up, turned off by its flag, leaves the same game: one harness, flag x game x players x seeds.

The flags are rulelang/engine/speedups.py's (``SPEEDUPS``): a load's (``Speedups``: generated Python, the
kept end check, steps played in place, card forms, kept starts, batched draws) and a run's (answered in
place, no history). Each game is played with every speed-up on and again with one off, answered in place
and through stored decisions, and must be the same byte for byte: decisions offered, the `--log` text, the
saved game, the generator (helpers/speedups.py). The fast tier plays the games of games/ and the examples
with scenarios at a few seeds; the slow tier adds the modded games, every player count and more seeds;
Hypothesis draws seeds of any size.
"""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulelang.engine.speedups import ALL_ON, SPEEDUPS, SWITCHES, Speedups

from helpers.examples import examples
from helpers.speedups import ALL_GAMES, FLAGS, GAMES, engaged, loaded, same_game

#: (flag, game) pairs where the speed-up has nothing to skip: the harness checks nothing there, so they are
#: named, and a speed-up that stops applying to a game (or starts to) fails below.
IDLE = {("card_forms", name) for name in ("jacks_friends", "pig", "kuhn_poker", "leduc_poker", "goofspiel",
                                          "liars_dice", "jacks_friends+seven_at_the_table")}    # no `play from`
#: How many seeds each tier plays, from 0; the games whose setups draw few numbers (their starts are kept) play
#: many more with kept starts off, as settled starts are met only after a few games.
FAST_SEEDS, SLOW_SEEDS, SMALL_SETUP_SEEDS = 2, 6, 150
SMALL_SETUPS = {"kuhn_poker", "leduc_poker", "liars_dice"}


def player_counts(name: str, most: int) -> range:
    game = loaded(name)
    return range(game.min_players, min(game.max_players, most) + 1)


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("flag", FLAGS)
def test_a_game_with_a_speed_up_off_is_the_same_game(flag: str, name: str) -> None:
    assert engaged(flag, name) is ((flag, name) not in IDLE)
    for players in player_counts(name, 3):
        for seed in range(FAST_SEEDS):
            same_game(flag, name, players, seed)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(ALL_GAMES))
@pytest.mark.parametrize("flag", FLAGS)
def test_a_game_with_a_speed_up_off_is_the_same_game_at_every_player_count_and_many_seeds(flag: str,
                                                                                          name: str) -> None:
    assert engaged(flag, name) is ((flag, name) not in IDLE)
    seeds = SMALL_SETUP_SEEDS if flag == "kept_starts" and name in SMALL_SETUPS else SLOW_SEEDS
    for players in player_counts(name, 8):
        for seed in range(seeds):
            same_game(flag, name, players, seed)


@pytest.mark.parametrize("flag", FLAGS)
@examples(24)
@given(data=st.data(), name=st.sampled_from(sorted(GAMES)), seed=st.integers(min_value=-(2 ** 70), max_value=2 ** 70))
def test_any_seed_plays_the_same_game_with_a_speed_up_off(data: st.DataObject, flag: str, name: str,
                                                          seed: int) -> None:
    players = data.draw(st.sampled_from(player_counts(name, 5)), label="players")
    same_game(flag, name, players, seed)


def test_every_speed_up_of_the_registry_has_a_flag_the_harness_turns_off() -> None:
    """A speed-up added to the registry without a way to turn it off, or left out of the harness, fails here
    (a place for "fixed policies answered in place" is kept in both)."""
    assert [s.flag for s in SPEEDUPS] == list(FLAGS)
    assert all(s.off and s.skips for s in SPEEDUPS)
    assert Speedups() == ALL_ON and all(getattr(ALL_ON, name) for name in SWITCHES)
    for name in SWITCHES:
        assert not getattr(ALL_ON.without(name), name)
        assert all(getattr(ALL_ON.without(name), other) for other in SWITCHES if other != name)


def test_a_flag_that_is_not_one_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="no speed-up is switched by 'history'.*generated"):
        ALL_ON.without("history")
