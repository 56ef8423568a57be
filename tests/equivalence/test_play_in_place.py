"""Agents that pick by count alone are asked in place: the same game as the pending-decision loop, byte for byte.

``play_out`` lets the rules ask such agents (``pick_index``) where a decision arises, so no decision is
ever stored (rulelang/engine/protocol.py ``_picks_now``). The speed-ups' harness (test_speedups.py, flag
``in_place``) plays every game both ways with one agent for the table; these tests play a seat its own
agent through the public decision API (``waiting``/``apply_index``) with the same picks, and check the
edges: mixed tables, agents without ``pick_index``, bad picks, and the state left behind.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rulelang
from rulelang.agents import FirstAgent, RandomAgent, play_out
from rulelang.errors import RuleError, RulelangError

from helpers.both_ways import BOTH_WAYS_GAMES, ThroughProtocol, every_decision_policy, load, policy_both_ways
from helpers.examples import examples
from helpers.games import shipped

ROOT = Path(__file__).resolve().parents[2]
GAMES = {name: shipped(path) for name, path in
         [("jacks_friends", "games/jacks_friends"), ("flapjacks", "games/flapjacks"), ("pig", "examples/pig"),
          ("kuhn", "examples/kuhn_poker"), ("goofspiel", "examples/goofspiel")]}


def pending_loop(game: rulelang.Game, players: int, seed: int, pickers: list) -> rulelang.State:
    """The game played through the stored decisions: the first chooser waiting picks with its own picker
    (``pick_index``, or ``randrange`` of a generator)."""
    state = game.new_state(players, seed)
    while (waiting := state.waiting()) is not None:
        player, count = waiting
        picker = pickers[player]
        pick = picker.pick_index(player, count) if isinstance(picker, RandomAgent) else picker.randrange(count)
        state.apply_index(pick, player)
    return state


@examples(25)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32), picks=st.lists(st.integers(0, 2**16), min_size=6,
                                                                             max_size=6))
def test_each_seat_its_own_agent_gives_the_pending_game(players: int, seed: int, picks: list[int]) -> None:
    game = GAMES["jacks_friends"]
    agents = [RandomAgent(picks[p]) for p in range(players)]
    in_place = play_out(game.new_state(players, seed), agents)
    stored = pending_loop(game, players, seed, [RandomAgent(picks[p]) for p in range(players)])
    assert in_place.events == stored.events


def test_a_table_with_one_agent_that_needs_the_options_plays_every_decision_through_the_protocol() -> None:
    seen: list[int] = []

    class Reader:
        """Reads its options (so it has no pick_index): every decision must be stored for it to read."""

        def choose(self, seat):
            seen.append(len(seat.options))
            return seat.options[0].id

    game = GAMES["jacks_friends"]
    mixed = play_out(game.new_state(3, 5), [Reader(), FirstAgent(), FirstAgent()])
    assert seen and all(count >= 1 for count in seen)
    first = play_out(game.new_state(3, 5), FirstAgent())
    assert mixed.events == first.events          # the reader always takes the first option, as FirstAgent does


def test_the_state_keeps_no_picker_after_play_out_even_when_the_rules_fail() -> None:
    game = GAMES["pig"]
    state = play_out(game.new_state(2, 3), RandomAgent(3))
    assert state.autopick is None and state.over

    class Wild:
        def choose(self, seat):
            return 0

        def pick_index(self, player: int, count: int) -> int:
            return count           # one past the last option

    state = game.new_state(2, 3)
    state.apply_index(0)           # the waiting decision is taken the usual way; the next is asked in place
    with pytest.raises(RulelangError, match="out of range"):
        play_out(state, Wild())
    assert state.autopick is None


def test_a_picker_is_asked_in_the_order_the_pending_loop_asks() -> None:
    asked: list[tuple[int, int]] = []

    class Recorder:
        def choose(self, seat):
            return 0

        def pick_index(self, player: int, count: int) -> int:
            asked.append((player, count))
            return 0

    game = GAMES["jacks_friends"]
    play_out(game.new_state(4, 2), Recorder())
    state = game.new_state(4, 2)
    order = []
    while (waiting := state.waiting()) is not None:
        order.append(waiting)
        state.apply_index(0, waiting[0])
    assert asked == order


def test_a_decision_with_no_option_is_an_error_in_place_too() -> None:
    state = GAMES["pig"].new_state(2, 1)
    with pytest.raises(RuleError, match="no legal option"):
        state.autopick = lambda player, count: 0
        state.ask("choose", "choose", [0], [[]], [[]])


def test_a_subclass_that_changes_how_it_chooses_is_asked_through_its_own_method() -> None:
    calls: list[int] = []

    class Counting(RandomAgent):
        def choose_index(self, seat, player, count):
            calls.append(count)
            return super().choose_index(seat, player, count)

    game = GAMES["jacks_friends"]
    counted = play_out(game.new_state(4, 8), Counting(8))
    assert len(calls) == len([e for e in counted.events if e["type"] == "chose"])
    assert counted.events == play_out(game.new_state(4, 8), RandomAgent(8)).events


def test_an_agent_whose_pick_index_is_set_on_the_instance_is_asked_in_place() -> None:
    """``pick_index`` may be an attribute of the agent itself (a function made per game), not of its class."""
    game = GAMES["jacks_friends"]

    class Scripted:
        def __init__(self, seed: int):
            rng = random.Random(seed)
            self.pick_index = lambda player, count: rng.randrange(count)

        def choose(self, seat):
            raise AssertionError("asked through the protocol: pick_index was not used")

    for seed in range(3):
        shared = random.Random(seed)
        assert play_out(game.new_state(4, seed), Scripted(seed)).events == \
            pending_loop(game, 4, seed, [shared] * 4).events


# --- policies read in place (the flag: an agent's ``reader``) ----------------------------------------------------

POLICIES = ROOT / "games" / "jacks_friends" / "policies"
DESIGNER = [f"policy:{POLICIES / 'giant.yaml'}"] + [str(POLICIES / "townsfolk.yaml")] * 7


@examples(30)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32))
def test_the_designer_policies_read_in_place_play_the_games_the_protocol_plays(players: int, seed: int) -> None:
    policy_both_ways(GAMES["jacks_friends"], players, seed, DESIGNER[:players])


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(BOTH_WAYS_GAMES))
def test_a_policy_naming_every_decision_read_in_place_plays_the_protocol_game(name: str, tmp_path: Path) -> None:
    """Every decision of every golden game and example named, each with a preference the fallback would not
    give: a way of asking in place that lost the decision's name (or its options) would play another game."""
    folder, mods = BOTH_WAYS_GAMES[name]
    game = load(folder, mods)
    policy = every_decision_policy(game, tmp_path)
    for players in range(game.min_players, min(game.max_players, 5) + 1):
        for seed in range(3):
            policy_both_ways(game, players, seed, [policy] * (players - 1) + ["random"])


def test_a_reader_is_told_only_names_the_game_asks_and_no_decision_waits() -> None:
    """The names reaching a reader are the game's own, and a table of readers leaves nothing pending on the way."""
    game = GAMES["flapjacks"]
    seen: set[str] = set()

    class Reader:
        def choose(self, seat):
            raise AssertionError("asked through the protocol: the reader was not used")

        def reader(self, game):
            def read(player, count, name, offered):
                seen.add(name)
                assert len(offered) == count and all(isinstance(o[0], str) for o in offered)
                return count - 1
            return read

    for seed in range(4):
        state = play_out(game.new_state(3, seed, before_first_turn=True), Reader())
        assert state.over and state.pending is None
    assert seen and seen <= set(game.decisions)


def test_a_policy_simulation_gives_the_records_the_protocol_gives(monkeypatch: pytest.MonkeyPatch) -> None:
    """`rulelang simulate`'s batch with policies: the same records (winners, choices, cards, counters) read in place
    as through the protocol, over 40 games at 4 players."""
    from rulelang.lab import simulate

    batch = simulate.Batch(str(ROOT / "games" / "jacks_friends"), 4, 40, 7, tuple(DESIGNER[:4]))
    in_place = simulate.run_batch(GAMES["jacks_friends"], batch)
    seated = simulate.seated_agents
    monkeypatch.setattr(simulate, "seated_agents", lambda names, seed: [ThroughProtocol(a) for a in seated(names, seed)])
    framed = simulate.run_batch(GAMES["jacks_friends"], batch)
    assert [r.error for r in in_place] == [None] * 40
    assert in_place == framed


def test_a_policy_batch_keeps_no_history_and_a_subclass_that_chooses_its_own_way_is_asked_through_its_seat() -> None:
    from rulelang.agents.play import all_blind
    from rulelang.agents.policy import PolicyAgent

    giant = PolicyAgent(1, str(POLICIES / "giant.yaml"))
    assert all_blind([giant, RandomAgent(2)])            # a policy reads no history: a batch keeps none

    asked: list[str] = []

    class Peeking(PolicyAgent):
        def choose(self, where, player=None):
            asked.append(where.decision().name)
            return super().choose(where, player)

    peeking = Peeking(1, str(POLICIES / "giant.yaml"))
    assert not all_blind([peeking])
    game = GAMES["jacks_friends"]
    town = [PolicyAgent(10 + s, str(POLICIES / "townsfolk.yaml")) for s in range(3)]
    seen = play_out(game.new_state(4, 3, before_first_turn=True), [peeking, *town])
    assert asked and set(asked) <= set(game.decisions)
    plain = play_out(game.new_state(4, 3, before_first_turn=True),
                     [PolicyAgent(1, str(POLICIES / "giant.yaml")), *[PolicyAgent(10 + s, str(POLICIES / "townsfolk.yaml"))
                                                                    for s in range(3)]])
    assert seen.events == plain.events


def test_a_decision_already_waiting_is_read_by_its_name_too(tmp_path: Path) -> None:
    """A game made with ``new_state`` waits at its first decision when the play-out begins (``run`` plays so): the
    policy reads that one from the stored decision (``read_waiting``), the rest in place; the protocol's game.
    The policy names every decision (the first one too) with a preference its fallback would not give."""
    from rulelang.lab.simulate import seated_agents

    game = GAMES["jacks_friends"]
    names = (every_decision_policy(game, tmp_path),) * 4
    for seed in range(5):
        waiting = game.new_state(4, seed)
        assert waiting.pending is not None
        in_place = play_out(waiting, seated_agents(names, seed))
        framed = play_out(game.new_state(4, seed), [ThroughProtocol(a) for a in seated_agents(names, seed)])
        assert in_place.events == framed.events


class Broken:
    """An agent whose reader fails: its failure must be told as this agent's, not as a rule's."""

    def choose(self, seat):
        return 0

    def reader(self, game):
        def read(player, count, name, offered):
            raise KeyError(name)
        return read


def test_a_reader_that_fails_is_told_as_its_agents_failure() -> None:
    from rulelang.agents.play import AgentError

    with pytest.raises(AgentError, match=r"the agent of P\d \(Broken\) failed: KeyError"):
        play_out(GAMES["jacks_friends"].new_state(3, 1, before_first_turn=True), Broken())


def test_a_reader_failing_at_a_mixed_table_is_told_as_that_seats_agent() -> None:
    """Seats read in different ways (a random agent by count, one that reads): the failure names its seat."""
    from rulelang.agents.play import AgentError

    agents = [RandomAgent(1), Broken(), RandomAgent(2)]
    with pytest.raises(AgentError, match=r"the agent of P2 \(Broken\) failed: KeyError"):
        play_out(GAMES["jacks_friends"].new_state(3, 1, before_first_turn=True), agents)
