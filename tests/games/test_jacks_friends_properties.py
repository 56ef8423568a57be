"""Property tests of Jack's Friends: random seeds, player counts 2-6 and choices.

Every invariant is checked after EVERY decision, from the state's counters,
vars and events, with plain Python (never through the engine's own end
conditions):

- resources are conserved: for each of egg, meat and veggie, the Hen House,
  Kitchen, Garden, every player's home and the box add up to the setup table
  total of the rulebook (JF-2 for 6 players);
- game.catches equals the catches marked so far, counted from the events: a
  player whose ``caught`` var was set to true in a turn counts one (JF-8),
  cross-checked with the ``set`` events of the counter and the vars;
- no game lasts past turn 10 (JF-9);
- at the end, the result is the FIRST end condition of the rulebook's list
  that holds, and no earlier one holds (JF-10);
- the same seed and choices give the same game, and a copy or a JSON round
  trip taken mid-game goes on exactly like the original.
"""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

from rulelang.engine.state import State

from helpers.examples import examples
from helpers.games import shipped

ROOT = Path(__file__).resolve().parents[2]
GAME = shipped("games/jacks_friends")

# The rulebook's setup table, with JF-2's row for 6 players: written out here,
# not read from the spec, so the spec is checked against the rulebook.
TABLE = {  # players: (veggies, meat, eggs, houses, catches)
    2: (3, 2, 2, 3, 3),
    3: (5, 3, 3, 6, 6),
    4: (7, 4, 4, 8, 8),
    5: (9, 6, 6, 11, 11),
    6: (11, 7, 7, 13, 13),
}
RESOURCES = {"egg": "hen_house", "meat": "kitchen", "veggie": "garden"}
END_NAMES = [
    "the giant caught enough townsfolk",
    "the townsfolk built enough houses",
    "the townsfolk emptied two of the giant's locations",
    "the Jack of Beans was flipped",
]
HOLDERS = ["game", "hen_house", "kitchen", "garden", "village", "box"]

players_st = st.integers(min_value=2, max_value=6)
seed_st = st.integers(min_value=0, max_value=2**32 - 1)
FAST = examples(200, suppress_health_check=[HealthCheck.too_slow])


def supply(n: int) -> dict[str, int]:
    veggies, meat, eggs, _, _ = TABLE[n]
    return {"egg": eggs, "meat": meat, "veggie": veggies}


def end_conditions(state: State) -> list[bool]:
    """The rulebook's four game-ending conditions, in order, from the counters."""
    n = state.n
    houses, catches = TABLE[n][3], TABLE[n][4]
    emptied = sum(1 for counter, place in RESOURCES.items() if state.counter(place, counter) == 0)
    return [
        state.counter("game", "catches") >= catches,
        state.counter("village", "house") >= houses,
        emptied >= 2,
        state.counter("game", "turns_left") == 0,
    ]


class Checker:
    """Checks every invariant after each decision, reading new events as they come."""

    def __init__(self, state: State):
        self.n = state.n
        self.seen = 0
        self.turn_of_last_event = 0
        self.caught = {}          # turn -> players whose caught var was set to true that turn
        self.marked = {}          # turn -> catches marked (game.catches set events) that turn
        self.skipped = {}         # turn -> players who sat out that turn
        self.steps = {}           # turn -> steps started that turn
        self.catches = 0
        self.check(state)

    def read_events(self, state: State) -> None:
        for event in state.events[self.seen:]:
            turn = event.get("turn", 0)
            assert turn >= self.turn_of_last_event, f"events go back in time: {event}"
            self.turn_of_last_event = turn
            kind = event["type"]
            if kind == "set" and event.get("var") == "caught" and event["value"] is True:
                player = event["player"]
                assert player not in self.caught.setdefault(turn, []), f"{player} caught twice in turn {turn}"
                assert player != "P1", "the giant was caught"
                self.caught[turn].append(player)
            elif kind == "set" and event.get("holder") == "game" and event.get("counter") == "catches":
                # one catch at a time: each caught townsfolk adds exactly one (JF-8)
                assert event["value"] == self.catches + 1, f"catches jumped: {event}"
                self.catches = event["value"]
                self.marked[turn] = self.marked.get(turn, 0) + 1
            elif kind == "skipped":
                self.skipped.setdefault(turn, []).append(event["player"])
            elif kind == "step":
                self.steps.setdefault(turn, []).append(event["step"])
        self.seen = len(state.events)

    def check(self, state: State) -> None:
        self.read_events(state)
        n, turn = self.n, state.turn
        names = [f"P{p + 1}" for p in range(n)]

        # counters never negative; resources conserved; the giant never holds anything
        for holder in HOLDERS + list(range(n)):
            for counter in GAME.counters:
                assert state.counter(holder, counter) >= 0, (holder, counter)
        for counter, total in supply(n).items():
            held = (sum(state.counter(place, counter) for place in RESOURCES.values())
                    + sum(state.counter(p, counter) for p in range(n)) + state.counter("box", counter))
            assert held == total, f"{counter}: {held} in play, the setup table gives {total} (turn {turn})"
        assert all(state.counter(0, c) == 0 for c in RESOURCES), "the giant gathered something"

        # catches: one per caught townsfolk, counted from the events and the vars
        assert state.counter("game", "catches") == self.catches
        done = sum(len(self.caught.get(t, [])) for t in range(1, turn))
        assert all(self.marked.get(t, 0) == len(self.caught.get(t, [])) for t in range(1, turn)), \
            "a finished turn marked a different number of catches than players caught"
        now_caught, now_marked = self.caught.get(turn, []), self.marked.get(turn, 0)
        assert now_marked <= len(now_caught)
        if "6. Check for a winner" in self.steps.get(turn, []) or state.over:
            assert now_marked == len(now_caught)
        assert state.counter("game", "catches") == done + now_marked
        caught_now = sorted(names[p] for p in range(n) if state.var(p, "caught"))
        assert caught_now == sorted(now_caught), "the caught vars disagree with this turn's set events"
        assert not set(now_caught) & set(self.skipped.get(turn, [])), "a skipping townsfolk was caught"

        # ten turns at most; the counter shows the turns left
        assert 1 <= turn <= 10, f"turn {turn}"
        conditions = end_conditions(state)
        if state.over:
            first = conditions.index(True)       # ValueError: over although nothing holds
            # the result is the first condition that holds: no earlier one holds
            assert state.result == END_NAMES[first], (state.result, conditions)
            expected = [0] if first in (0, 3) else list(range(1, n))
            assert state.winners == expected
            if first == 3:
                assert turn == 10
            else:
                assert state.counter("game", "turns_left") == 11 - turn, "a game won at step 6 was flipped"
            assert state.decision() is None
        else:
            assert state.counter("game", "turns_left") == 11 - turn
            decision = state.decision()
            assert decision is not None and decision.players
            if decision.kind == "secret":          # start of a turn: nothing has ended the game
                assert not any(conditions), conditions
                # a townsfolk sitting out (skips > 0 until the skip is taken) is not asked (JF-7)
                assert set(decision.players) <= {p for p in range(n) if state.var(p, "skips") == 0}


def play(state: State, pick, after=None) -> list[tuple[int, str]]:
    """Play to the end: ``pick(count)`` gives an option index; returns the choices made."""
    choices = []
    while not state.over:
        decision = state.decision()
        assert decision is not None, "the game waits for nothing"
        player = decision.players[pick(len(decision.players))] if decision.simultaneous else decision.player
        options = decision.options[player]
        assert options, f"{player} must choose but has no option"
        option = options[pick(len(options))].id
        state.apply(option, player)
        choices.append((player, option))
        if after is not None:
            after(state)
    return choices


def replay(state: State, choices) -> None:
    for player, option in choices:
        state.apply(option, player)


def _finished(players: int, seed: int) -> State:
    state = GAME.new_state(players, seed)
    play(state, random.Random(seed).randrange)
    return state


def test_the_checker_rejects_broken_states():
    """The invariants can fail: each tampering below must be caught."""
    def rejects(tamper, state=None) -> None:
        state = state or GAME.new_state(4, 0)
        checker = Checker(state)
        tamper(state)
        with pytest.raises((AssertionError, ValueError)):
            checker.check(state)

    rejects(lambda s: s.set_counter("box", "egg", 1))                   # an egg from nowhere
    rejects(lambda s: s.set_counter("kitchen", "meat", 3))              # a meat lost
    rejects(lambda s: s.set_counter("game", "catches", 1))              # a catch without a caught player
    rejects(lambda s: s.set_var(2, "caught", True))                     # a caught player without an event
    rejects(lambda s: s.set_counter("game", "turns_left", 9))           # the counter out of step with the turn
    rejects(lambda s: setattr(s, "turn", 11))
    finished = [_finished(3, seed) for seed in range(40)]
    by_catches = next(s for s in finished if s.result == END_NAMES[0])
    rejects(lambda s: setattr(s, "result", END_NAMES[1]), by_catches)   # a later condition named
    by_jack = next(s for s in finished if s.result == END_NAMES[3])
    rejects(lambda s: setattr(s, "winners", [1, 2]), by_jack)


def test_end_conditions_are_the_rulebooks_in_order():
    assert [c.name for c in GAME.end] == END_NAMES


@examples(500, suppress_health_check=[HealthCheck.too_slow])
@given(players=players_st, seed=seed_st, agent=seed_st)
def test_invariants_hold_after_every_decision(players, seed, agent):
    state = GAME.new_state(players, seed)
    checker = Checker(state)
    rng = random.Random(agent)
    play(state, rng.randrange, after=checker.check)
    assert state.over and state.turn <= 10


@pytest.mark.slow
@examples(200, suppress_health_check=[HealthCheck.too_slow])
@given(players=players_st, seed=seed_st, data=st.data())
def test_invariants_hold_for_drawn_choices(players, seed, data):
    state = GAME.new_state(players, seed)
    checker = Checker(state)
    play(state, lambda count: data.draw(st.integers(0, count - 1)), after=checker.check)
    assert state.over


@FAST
@given(players=players_st, seed=seed_st, where=st.sampled_from(["kitchen", "garden", "hen_house", "village"]))
def test_townsfolk_who_always_meet_the_giant_lose_on_catches_on_turn_five(players, seed, where):
    """Caught every other turn (hungry, then out): three rounds of catches end it on turn 5."""
    state = GAME.new_state(players, seed)
    checker = Checker(state)
    while not state.over:
        decision = state.decision()
        assert decision.kind == "secret", "nobody has food, so nobody is asked anything else"
        expected = [0] if state.turn % 2 == 0 else list(range(players))
        assert list(decision.players) == expected
        for player in decision.players:
            state.apply(where, player)
            checker.check(state)
    assert state.result == END_NAMES[0]
    assert state.turn == 5
    assert state.counter("game", "catches") == 3 * (players - 1)
    assert state.winners == [0]


@pytest.mark.slow
@FAST
@given(players=players_st, seed=seed_st, agent=seed_st)
def test_same_seed_and_choices_give_the_same_game(players, seed, agent):
    first = GAME.new_state(players, seed)
    trace = []
    choices = play(first, random.Random(agent).randrange,
                   after=lambda s: trace.append((json.dumps(s.to_json(), sort_keys=True), len(s.events))))
    second = GAME.new_state(players, seed)
    assert json.dumps(second.to_json(), sort_keys=True) == json.dumps(GAME.new_state(players, seed).to_json(),
                                                                      sort_keys=True)
    for (player, option), (dump, events) in zip(choices, trace):     # identical after every decision
        second.apply(option, player)
        assert json.dumps(second.to_json(), sort_keys=True) == dump
        assert len(second.events) == events
    assert second.over
    assert json.dumps(second.to_json(), sort_keys=True) == json.dumps(first.to_json(), sort_keys=True)
    assert second.events == first.events
    assert (second.winners, second.result, second.turn) == (first.winners, first.result, first.turn)


@pytest.mark.slow
@FAST
@given(players=players_st, seed=seed_st, agent=seed_st, cut=st.floats(0, 1, exclude_max=True))
def test_copy_and_json_round_trip_mid_game_go_on_identically(players, seed, agent, cut):
    original = GAME.new_state(players, seed)
    choices = play(GAME.new_state(players, seed), random.Random(agent).randrange)
    k = int(cut * len(choices))
    replay(original, choices[:k])
    assert not original.over
    snapshot = json.dumps(original.to_json(), sort_keys=True)
    copied = original.copy()
    restored = State.from_json(GAME, json.loads(json.dumps(original.to_json())))
    assert json.dumps(copied.to_json(), sort_keys=True) == snapshot
    assert json.dumps(restored.to_json(), sort_keys=True) == snapshot
    assert restored.decision() == original.decision() == copied.decision()

    checker = Checker(restored)
    for player, option in choices[k:]:
        for state in (original, copied, restored):
            state.apply(option, player)
        checker.check(restored)
    final = json.dumps(original.to_json(), sort_keys=True)
    assert original.over and copied.over and restored.over
    assert json.dumps(copied.to_json(), sort_keys=True) == final
    assert json.dumps(restored.to_json(), sort_keys=True) == final
    assert copied.events == original.events == restored.events


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_two_hundred_random_games_per_player_count_end_by_turn_ten(players):
    """A broad sweep: every game ends within ten turns, and random play reaches all four endings."""
    results = set()
    for seed in range(200):
        state = GAME.new_state(players, seed)
        play(state, random.Random(seed).randrange)
        assert state.over and 1 <= state.turn <= 10
        assert state.turn == 10 or state.result != END_NAMES[3]
        assert state.result == END_NAMES[end_conditions(state).index(True)]
        results.add(state.result)
    assert results == set(END_NAMES)
