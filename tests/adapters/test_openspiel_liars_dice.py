"""examples/liars_dice plays as OpenSpiel's own `liars_dice` (C++), step by step.

Both games roll one die at a time at a chance node of six outcomes, the first seat's dice first;
a face f is outcome f - 1 in both (the spec's chance actions come after its players' actions,
so they are OpenSpiel's plus a fixed offset). The bids are tuples of the spec, and its one
decision offers them in OpenSpiel's order, so the players' action numbers are the same. For
many seeded random action sequences the player to move, the legal actions and the returns agree
at every step; random play gives the same mean return. Skipped without the `openspiel` extra.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")

from rulelang.adapters.openspiel import load_game  # noqa: E402

from helpers.openspiel_play import play_turns_in_step, random_return  # noqa: E402

LIARS_DICE = Path(__file__).resolve().parents[2] / "examples" / "liars_dice"
_GAMES: dict = {}


def spec_game(dice: int = 1):
    """The adapted spec, compiled once per number of dice."""
    if dice not in _GAMES:
        _GAMES[dice] = load_game(LIARS_DICE, dice_per_player=dice)
    return _GAMES[dice]


def their_game(dice: int = 1):
    return pyspiel.load_game("liars_dice", {"numdice": dice})


def chance_offset(ours) -> int:
    """What the spec adds to OpenSpiel's chance action (a face minus one): its number of player actions."""
    return ours.num_distinct_actions()


def test_the_actions_are_openspiels_bids_then_the_call():
    ours, theirs = spec_game(), their_game()
    assert ours.num_distinct_actions() == theirs.num_distinct_actions() == 13
    state = ours.new_initial_state()
    assert [a for a, _ in state.chance_outcomes()] == [13 + k for k in range(6)]
    assert [p for _, p in state.chance_outcomes()] == pytest.approx([1 / 6] * 6)
    state.apply_action(13 + 4)
    state.apply_action(13 + 1)
    theirs_state = theirs.new_initial_state()
    theirs_state.apply_action(4)
    theirs_state.apply_action(1)
    for action in range(12):          # 1-1 ... 1-6, 2-1 ... 2-6, as OpenSpiel writes them
        assert state.action_to_string(0, action).endswith(theirs_state.action_to_string(0, action))
    assert state.legal_actions() == list(range(12))          # no call before the first bid


def play_in_step(seed: int, dice: int = 1) -> list[int]:
    """One random action sequence in both games: the players' actions taken."""
    rng = random.Random(seed)
    ours, theirs = spec_game(dice).new_initial_state(), their_game(dice).new_initial_state()
    offset = chance_offset(spec_game(dice))
    taken: list[int] = []
    while theirs.is_chance_node():
        assert ours.is_chance_node()
        face = rng.choice([a for a, _ in theirs.chance_outcomes()])
        assert [a - offset for a, _ in ours.chance_outcomes()] == [a for a, _ in theirs.chance_outcomes()]
        theirs.apply_action(face)
        ours.apply_action(face + offset)
    play_turns_in_step(theirs, ours, rng, taken)
    return taken


def test_same_player_actions_and_returns_at_every_step():
    lines = [play_in_step(seed) for seed in range(300)]
    assert max(len(line) for line in lines) >= 4
    assert any(line[-1] == 12 and line[-2] == 11 for line in lines)       # a call with no bid left above it


def test_with_two_dice_each_the_bids_grow_with_the_param():
    """numdice=2: quantities 1 to 4, 24 bids and the call (action 24); both games still agree step by step."""
    assert spec_game(2).num_distinct_actions() == their_game(2).num_distinct_actions() == 25
    for seed in range(40):
        play_in_step(seed, dice=2)


def test_every_roll_and_first_bid_then_a_call():
    """Exhaustive over the dice and P1's first bid, P2 calling: the wild six and the count decide alike."""
    offset = chance_offset(spec_game())
    for mine in range(6):
        for yours in range(6):
            for bid in range(12):
                ours, theirs = spec_game().new_initial_state(), their_game().new_initial_state()
                for face in (mine, yours):
                    ours.apply_action(face + offset)
                    theirs.apply_action(face)
                for action in (bid, 12):
                    ours.apply_action(action)
                    theirs.apply_action(action)
                assert ours.returns() == theirs.returns(), (mine + 1, yours + 1, bid)


@pytest.mark.parametrize("chance", ["explicit", "sampled"])
def test_returns_under_random_play_agree_within_sampling_error(chance):
    games = 2000
    ours = load_game(LIARS_DICE, chance=chance, seed=1)
    theirs = their_game()
    rng = random.Random(5)
    mean_ours = sum(random_return(ours, rng) for _ in range(games)) / games
    mean_theirs = sum(random_return(theirs, rng) for _ in range(games)) / games
    # P1's return is +1 or -1, so its standard deviation is at most 1: 4 sigma of the difference
    assert abs(mean_ours - mean_theirs) < 4 * (2 / games) ** 0.5



# --- information states: a player's own dice, never the other's ---------------------------------

def dealt(game, faces: list[int], actions: list[int], offset: int = 0):
    """A state of ``game`` with these faces rolled (the first seat's dice first) and then these actions."""
    state = game.new_initial_state()
    for face in faces:
        state.apply_action(face - 1 + offset)
    for action in actions:
        state.apply_action(action)
    return state


def random_line(rng: random.Random, dice: int) -> list[int]:
    """A random sequence of players' actions to the end (the legal actions do not depend on the dice)."""
    state, line = dealt(their_game(dice), [1] * 2 * dice, []), []
    while not state.is_terminal():
        line.append(rng.choice(state.legal_actions()))
        state.apply_action(line[-1])
    return line


def information_sets(game, deals: list[list[int]], actions: list[int], player: int, offset: int = 0) -> list[int]:
    """For each deal, the index of the first deal that ``player`` cannot tell from it after ``actions``."""
    strings = [dealt(game, faces, actions, offset).information_state_string(player) for faces in deals]
    return [strings.index(s) for s in strings]


def same_as_first(keys: list) -> list[int]:
    """For each key, the index of the first equal key: the partition the keys make."""
    return [keys.index(key) for key in keys]


@pytest.mark.slow
@pytest.mark.parametrize("dice", [1, 2])
def test_a_player_tells_deals_apart_by_their_own_dice_only_as_openspiel_does(dice):
    """Over random deals and action lines, at every decision, two deals give a player the same information
    state exactly when they give them the same dice: in the spec and in OpenSpiel's own game.

    OpenSpiel sorts a player's dice; the spec's account of the log keeps them in the order they were
    rolled (the player saw that order), so with two dice each its information sets are finer by that
    order alone. At the end the spec also tells who won (the rules set public variables), which can
    split deals further; the player's own dice still tell them apart.
    """
    rng = random.Random(dice)
    ours, theirs = spec_game(dice), their_game(dice)
    offset = chance_offset(ours)
    for _ in range(25):
        deals = [[rng.randint(1, 6) for _ in range(2 * dice)] for _ in range(12)]
        deals += [deals[0][:dice] + [rng.randint(1, 6) for _ in range(dice)],       # P2's dice alone differ
                  [rng.randint(1, 6) for _ in range(dice)] + deals[0][dice:]]       # P1's dice alone differ
        line = random_line(rng, dice)
        for steps in range(len(line) + 1):
            for player in (0, 1):
                own = [tuple(faces[player * dice:(player + 1) * dice]) for faces in deals]
                spec_sets = information_sets(ours, deals, line[:steps], player, offset)
                if steps < len(line):
                    assert spec_sets == same_as_first(own), (deals, line, steps)
                    assert information_sets(theirs, deals, line[:steps], player) == \
                           same_as_first([tuple(sorted(mine)) for mine in own])
                else:
                    assert all(own[spec_sets[k]] == own[k] for k in range(len(deals)))
