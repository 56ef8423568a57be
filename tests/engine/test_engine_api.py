"""The engine API, exercised on Jack's Friends: decisions, secret choices, views,
illegal moves, copies, JSON round trips, events, and the `rulelang run` command."""
from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulelang import RulelangError
from rulelang.agents import RandomAgent, play_out
from rulelang.engine.protocol import Decision, Option
from rulelang.engine.state import State

from helpers.commands import command
from helpers.examples import examples
from helpers.games import shipped

ROOT = Path(__file__).resolve().parents[2]
GAME_DIR = ROOT / "games" / "jacks_friends"
GAME = shipped("games/jacks_friends")
LOG_SCHEMA = ROOT / "schemas" / "event-log.schema.json"

LOCATIONS = [("hen_house", "Hen House"), ("kitchen", "Kitchen"), ("garden", "Garden"), ("village", "Village")]
EAT = [("eat-one-meat", "eat one meat"), ("eat-two-vegetables", "eat two vegetables"),
       ("go-hungry-and-skip-the-next-turn", "go hungry and skip the next turn")]


def dumps(state: State) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def pairs(decision: Decision, player: int) -> list[tuple[str, str]]:
    return [(o.id, o.label) for o in decision.options[player]]


def reveal(state: State, picks: dict[int, str]) -> None:
    """Answer the secret location choice: {player index: location id}."""
    for player, where in picks.items():
        state.apply(where, player)


def at_eating(meat: int = 1, veggie: int = 2) -> State:
    """3 players; P2 (index 1) is caught in the Garden holding food: the eating decision waits."""
    state = GAME.new_state(3, 0)
    state.set_counter(1, "meat", meat)
    state.set_counter(1, "veggie", veggie)
    reveal(state, {0: "garden", 1: "garden", 2: "village"})
    return state


def at_stealing() -> State:
    """3 players; P2 is caught in the Village with an egg and a vegetable: the giant picks what to steal."""
    state = GAME.new_state(3, 0)
    state.set_counter(1, "egg", 1)
    state.set_counter(1, "veggie", 1)
    reveal(state, {0: "village", 1: "village", 2: "kitchen"})
    return state


def at_eggs(eggs: int = 2) -> State:
    """3 players; P2 builds in the Village with eggs at home: how many to spend."""
    state = GAME.new_state(3, 0)
    state.set_counter(1, "egg", eggs)
    reveal(state, {0: "kitchen", 1: "village", 2: "garden"})
    return state


def random_game(players: int, seed: int) -> State:
    state = GAME.new_state(players, seed)
    play_out(state, RandomAgent(seed))
    return state


# --- decisions ----------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_location_choice_lists_every_player_and_all_four_cards(players):
    state = GAME.new_state(players, 3)
    decision = state.decision()
    assert decision.kind == "secret" and decision.simultaneous
    assert decision.players == tuple(range(players))
    assert decision.player == 0
    for p in range(players):
        assert pairs(decision, p) == LOCATIONS
        assert state.legal(p) == [i for i, _ in LOCATIONS]
    assert all(isinstance(o, Option) for o in decision.options[0])


def test_option_ids_and_labels_are_stable():
    state = GAME.new_state(4, 0)
    first = state.decision()
    assert state.decision() == first                       # asking again changes nothing
    assert GAME.new_state(4, 99).decision() == first        # nor does the seed
    state.apply("village", 2)
    after = state.decision()
    assert after.players == (0, 1, 3)
    assert all(after.options[p] == first.options[p] for p in after.players)
    # a later turn offers the same ids and labels
    reveal(state, {0: "kitchen", 1: "hen_house", 3: "garden"})
    assert state.turn == 2
    assert all(pairs(state.decision(), p) == LOCATIONS for p in range(4))


def test_eating_lists_exactly_the_meals_the_home_allows():
    assert pairs(at_eating(1, 2).decision(), 1) == EAT
    assert pairs(at_eating(1, 1).decision(), 1) == [EAT[0], EAT[2]]
    assert pairs(at_eating(0, 5).decision(), 1) == [EAT[1], EAT[2]]
    hungry = at_eating(0, 1)          # no meal possible: no decision, straight to the next turn
    assert hungry.decision().kind == "secret" and hungry.turn == 2
    assert hungry.var(1, "skips") == 1


def test_every_listed_option_is_legal_and_nothing_else_is():
    state = at_eating(1, 2)
    decision = state.decision()
    assert decision.kind == "branch" and decision.players == (1,) and not decision.simultaneous
    for option in decision.options[1]:
        trial = state.copy()
        trial.apply(option.id, 1)
        assert trial.decision() != decision
    for index in range(len(decision.options[1])):
        trial = state.copy()
        trial.apply_index(index, 1)
        chose = next(e for e in trial.events[len(state.events):] if e["type"] == "chose")
        assert (chose["player"], chose["option"]) == ("P2", decision.options[1][index].id)


def test_the_giants_steal_and_the_egg_count_are_decisions_with_plain_ids():
    steal = at_stealing().decision()
    assert steal.players == (0,) and steal.kind == "choose"
    assert [o.id for o in steal.options[0]] == ["egg", "veggie"]
    eggs = at_eggs(2).decision()
    assert eggs.players == (1,) and eggs.kind == "number"
    assert pairs(eggs, 1) == [("0", "0"), ("1", "1"), ("2", "2")]


# --- secret choices and views -----------------------------------------------------

def test_a_secret_pick_is_invisible_to_the_others_until_the_reveal():
    views = []
    for where in ("garden", "kitchen", "village"):
        state = GAME.new_state(4, 0)
        state.apply(where, 0)
        assert state.decision().players == (1, 2, 3)
        assert state.var(0, "at") is None                 # nothing is stored before the reveal
        views.append([json.dumps(state.view(p), sort_keys=True) for p in (1, 2, 3, None)])
        assert "options" not in state.view(0)            # the giant has chosen: nothing to choose
        assert state.view(0)["waiting_for"] == ["P2", "P3", "P4"]
    assert views[0] == views[1] == views[2]


def test_view_shows_every_public_thing():
    state = at_eating(1, 2)
    view = state.view(None)
    assert view["turn"] == 1 and view["over"] is False and view["winners"] == []
    assert view["you"] is None and "options" not in view
    assert view["waiting_for"] == ["P2"]
    assert set(view["counters"]) == {"game", *GAME.locations}
    for holder in ["game", *GAME.locations]:
        for counter in GAME.counters:
            assert view["counters"][holder].get(counter, 0) == state.counter(holder, counter)
    assert [p["name"] for p in view["players"]] == ["P1", "P2", "P3"]
    assert [p["role"] for p in view["players"]] == ["giant", "townsfolk", "townsfolk"]
    for p, shown in enumerate(view["players"]):
        for counter in GAME.counters:
            assert shown["counters"].get(counter, 0) == state.counter(p, counter)
        assert set(shown["vars"]) == {"at", "caught", "skips"}
        assert shown["vars"]["caught"] == state.var(p, "caught")
        assert shown["vars"]["skips"] == state.var(p, "skips")
    assert view["players"][1]["counters"] == {"meat": 1, "veggie": 2}     # caught: gathered nothing
    assert view["counters"]["garden"]["veggie"] == 5
    # the chooser sees their options; the others see who is waiting
    assert state.view(1)["options"] == [[i, label] for i, label in EAT]
    assert "options" not in state.view(0) and "options" not in state.view(2)
    json.dumps(view)


def test_view_names_the_revealed_locations():
    """Revealed location cards are public: a view names them as the events do."""
    state = at_eating(1, 2)
    shown = [p["vars"]["at"] for p in state.view(None)["players"]]
    assert shown == ["garden", "garden", "village"]


def test_view_zones_show_cards_or_counts_by_visibility():
    """Jack's Friends has no card zones: the view's zones are empty, every player's view alike."""
    state = GAME.new_state(5, 0)
    assert GAME.zones == [] and state.zones == []
    for p in [None, *range(5)]:
        view = state.view(p)
        assert view["zones"] == {}
        for label, content in view["zones"].items():        # the rule, for games with zones
            decl, owner = state.lay.zones[state.lay.zone_labels.index(label)]
            if decl.visibility == "hidden" or (decl.visibility == "owner" and owner != p):
                assert isinstance(content, int)


# --- illegal moves -----------------------------------------------------------------

def test_an_illegal_option_raises_with_the_options_in_the_hint():
    state = GAME.new_state(3, 0)
    before = dumps(state)
    with pytest.raises(RulelangError) as caught:
        state.apply("the_moon", 1)
    assert "the_moon" in caught.value.message and "P2" in caught.value.message
    assert caught.value.hint == "options: hen_house, kitchen, garden, village"
    assert dumps(state) == before                          # nothing changed

    eating = at_eating(1, 1)
    with pytest.raises(RulelangError) as caught:
        eating.apply("eat-two-vegetables", 1)
    assert caught.value.hint == "options: eat-one-meat, go-hungry-and-skip-the-next-turn"


def test_choosing_out_of_turn_or_out_of_range_or_after_the_end_raises():
    state = at_eating(1, 2)
    with pytest.raises(RulelangError):
        state.apply("eat-one-meat", 0)                      # P1 is not choosing
    with pytest.raises(RulelangError):
        state.apply_index(3, 1)
    secret = GAME.new_state(3, 0)
    secret.apply("garden", 0)
    with pytest.raises(RulelangError):
        secret.apply("kitchen", 0)                          # already chose this turn
    over = random_game(3, 5)
    assert over.is_over and over.decision() is None and over.legal() == []
    with pytest.raises(RulelangError):
        over.apply("village", 0)


# --- copies and JSON ------------------------------------------------------------------

def test_copy_is_independent_of_the_original():
    state = GAME.new_state(4, 2)
    state.apply("garden", 0)
    before = dumps(state)
    copy = state.copy()
    reveal(copy, {1: "garden", 2: "hen_house", 3: "village"})
    copy.set_counter("village", "house", 5)
    copy.set_var(1, "skips", 3)
    assert dumps(state) == before
    assert state.decision().players == (1, 2, 3)
    assert len(state.events) < len(copy.events)
    # and the other way round
    snapshot = dumps(copy)
    reveal(state, {1: "kitchen", 2: "kitchen", 3: "kitchen"})
    assert dumps(copy) == snapshot


@given(seed=st.integers(0, 10_000), players=st.integers(2, 6), moves=st.integers(0, 60))
@examples(40)
def test_waiting_names_the_first_chooser_and_their_option_count(seed, players, moves):
    """``waiting()``, what play loops read, agrees with ``decision()`` at every point of a game."""
    state = GAME.new_state(players, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        decision = state.decision()
        if decision is None:
            break
        assert state.waiting() == (decision.player, len(decision.options[decision.player]))
        state.apply_index(rng.randrange(len(decision.options[decision.player])), decision.player)
    if state.over:
        assert state.waiting() is None and state.decision() is None


def test_the_stack_saves_as_lists_of_procedure_pc_and_locals():
    """Frames are objects while playing and ``[proc, pc, locals]`` in a saved game, as they always were."""
    state = at_eating()
    saved = state.to_json()
    assert len(saved["stack"]) == len(state.stack) >= 2
    for frame, plain in zip(state.stack, saved["stack"]):
        assert plain == [frame.proc, frame.pc, frame.locals] and type(plain) is list
        assert plain[2] is not frame.locals                     # a snapshot, not the live locals
    assert json.loads(state.dumps())["stack"] == saved["stack"]
    copy = state.copy()
    copy.stack[-1].pc += 1
    copy.stack[-1].locals["x"] = 1
    assert state.to_json()["stack"] == saved["stack"]           # a copy's frames are its own


@pytest.mark.parametrize("make", [at_eating, at_stealing, at_eggs], ids=["eating", "stealing", "eggs"])
def test_json_round_trip_waiting_for_a_decision(make):
    state = make()
    data = json.loads(json.dumps(state.to_json()))
    restored = State.from_json(GAME, data)
    assert restored.decision() == state.decision()
    assert dumps(restored) == dumps(state)
    assert restored.view(None) == state.view(None)
    rng = random.Random(7)
    while not state.over:
        decision = state.decision()
        player = decision.players[0]
        option = decision.options[player][rng.randrange(len(decision.options[player]))].id
        state.apply(option, player)
        restored.apply(option, player)
    assert dumps(restored) == dumps(state)
    assert restored.events == state.events


def test_json_round_trip_halfway_through_a_secret_choice():
    state = GAME.new_state(4, 1)
    state.apply("village", 0)
    state.apply("village", 2)
    restored = State.from_json(GAME, json.loads(json.dumps(state.to_json())))
    assert restored.decision().players == (1, 3)
    restored.apply("village", 1)
    restored.apply("garden", 3)
    revealed = [e for e in restored.events if e["type"] == "revealed"]
    assert revealed == [{"type": "revealed", "turn": 1,
                         "choices": {"P1": "village", "P2": "village", "P3": "village", "P4": "garden"}}]
    caught = [e["player"] for e in restored.events if e.get("var") == "caught" and e["value"] is True]
    assert caught == ["P2", "P3"]
    assert restored.turn == 2 and restored.counter("game", "catches") == 2


def test_events_are_json_serialisable():
    for players in range(2, 7):
        state = random_game(players, players)
        text = json.dumps(state.events)
        assert json.loads(text) == state.events
        assert all(isinstance(e["type"], str) for e in state.events)
        assert state.events[0]["type"] == "started" and state.events[-1]["type"] == "ended"


# --- the command --------------------------------------------------------------------

def rulelang_cli(*args: str) -> subprocess.CompletedProcess:
    """The command in this process (test_cli.py starts `run` as a program, to a closed pipe, a full disk...)."""
    return command(*args)


def test_run_json_prints_a_summary_as_the_last_line():
    done = rulelang_cli("run", "games/jacks_friends", "--players", "4", "--seed", "1", "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert summary["seed"] == 1 and summary["players"] == 4
    assert isinstance(summary["winners"], list) and summary["winners"]
    assert 1 <= summary["turns"] <= 10
    same = random_game(4, 1)                      # the command plays the random agent of seed 1
    assert summary["turns"] == same.turn
    assert summary["result"] == same.result
    team = same.winning_team()
    assert summary["winners"] == ([team] if team else same.winner_names())


def test_run_log_writes_the_events_as_json_lines(tmp_path):
    log = tmp_path / "game.jsonl"
    done = rulelang_cli("run", "games/jacks_friends", "--players", "4", "--seed", "1", "--quiet",
                        "--log", str(log), "--json")
    assert done.returncode == 0, done.stderr
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert events == random_game(4, 1).events
    assert json.loads(done.stdout.strip().splitlines()[-1])["events"] == len(events)


def test_run_log_lines_are_valid_against_the_event_log_schema(tmp_path):
    if not LOG_SCHEMA.exists():
        pytest.skip("schemas/event-log.schema.json does not exist yet")
    from jsonschema import Draft202012Validator

    validator = Draft202012Validator(json.loads(LOG_SCHEMA.read_text(encoding="utf-8")))
    log = tmp_path / "game.jsonl"
    done = rulelang_cli("run", "games/jacks_friends", "--players", "4", "--seed", "1", "--quiet", "--log", str(log))
    assert done.returncode == 0, done.stderr
    for number, line in enumerate(log.read_text(encoding="utf-8").splitlines(), 1):
        errors = [e.message for e in validator.iter_errors(json.loads(line))]
        assert not errors, f"line {number}: {errors}"


@pytest.mark.parametrize("args, words", [
    (["run", "games/jacks_friends", "--seed", "1"], "--players"),
    (["run", "games/jacks_friends", "--players", "7"], "2 to 6 players"),
    (["run", "games/jacks_friends", "--players", "1", "--json"], "2 to 6 players"),
])
def test_usage_errors_exit_2_with_one_line(args, words):
    done = rulelang_cli(*args)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert words in lines[0]
    assert "Traceback" not in done.stderr
    assert done.stdout == ""
