"""Saved states: what to_json writes is described by schemas/state.schema.json and reads back whole."""
from __future__ import annotations

import json
import os
import random
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

import rulelang
from rulelang.agents import RandomAgent, play_out
from rulelang.engine.state import State
from rulelang.logs.saves import SavedStateError, load_state, read_state_file

from helpers.examples import examples
from helpers.games import shipped

ROOT = Path(__file__).resolve().parents[2]
VALIDATOR = Draft202012Validator(json.loads((ROOT / "schemas" / "state.schema.json").read_text(encoding="utf-8")))


@pytest.mark.parametrize("name, players", [("jacks_friends", 5), pytest.param("flapjacks", 4, marks=pytest.mark.slow),
                                           pytest.param("flapjacks", 2, marks=pytest.mark.slow)])
def test_states_along_a_game_match_the_schema_and_read_back(name, players):
    game = shipped(f"games/{name}")
    state = game.new_state(players, seed=11)
    pick = random.Random(11)
    checked = 0
    while not state.over:
        saved = json.loads(json.dumps(state.to_json()))
        errors = sorted(VALIDATOR.iter_errors(saved), key=lambda e: list(e.path))
        assert not errors, errors[0].message
        assert State.from_json(game, saved).dumps() == state.dumps()
        checked += 1
        state.apply_index(pick.randrange(len(state.legal())))
    assert checked > 5
    assert not list(VALIDATOR.iter_errors(json.loads(json.dumps(state.to_json()))))


def test_the_schema_catches_a_damaged_state():
    game = shipped("games/jacks_friends")
    saved = json.loads(json.dumps(game.new_state(3, seed=1).to_json()))
    saved["pending"]["kind"] = "guess"
    del saved["rng"]
    assert len(list(VALIDATOR.iter_errors(saved))) == 2


# --- a saved state is untrusted: every kind of damage is refused, in plain words, at its place --------

JACKS = shipped("games/jacks_friends")
FLAP = shipped("games/flapjacks")


def saved(state: State) -> dict:
    """What a file would hold."""
    return json.loads(json.dumps(state.to_json()))


def refused(game, data, where: str, words: str) -> SavedStateError:
    """from_json refuses the data with an error at ``where`` that says ``words``."""
    with pytest.raises(SavedStateError) as caught:
        State.from_json(game, data)
    error = caught.value
    assert error.path.startswith(where), error.format()
    assert words in error.message, error.format()
    assert "Traceback" not in error.format()
    return error


def zid(game, n: int, label: str) -> int:
    return game.layout(n).zone_labels.index(label)


def finished(game, players: int, seed: int) -> State:
    return play_out(game.new_state(players, seed), RandomAgent(seed))


def test_a_card_in_two_zones_is_refused():
    data = saved(FLAP.new_state(3, 1))
    card = data["zones"][zid(FLAP, 3, "hand:P1")][0]
    data["zones"][zid(FLAP, 3, "hand:P2")].append(card)
    k = len(data["zones"][zid(FLAP, 3, "hand:P2")]) - 1
    refused(FLAP, data, f"zones.hand.P2[{k}]", "is also at zones.hand.P1[0]")


def test_a_missing_card_or_a_lying_loc_is_refused():
    data = saved(FLAP.new_state(3, 1))
    card = data["zones"][zid(FLAP, 3, "tree_deck")].pop()
    refused(FLAP, data, f"loc[{card}]", "is in no zone")
    data = saved(FLAP.new_state(3, 1))
    card = data["zones"][zid(FLAP, 3, "hand:P1")][0]
    data["loc"][card] = zid(FLAP, 3, "tree_deck")
    refused(FLAP, data, f"loc[{card}]", "loc says zone")
    data = saved(FLAP.new_state(3, 1))
    data["zones"][0].append(len(FLAP.card_type))
    refused(FLAP, data, "zones.tree_deck", f"no card {len(FLAP.card_type)}")


def test_negative_and_huge_counters_are_refused():
    data = saved(JACKS.new_state(3, 1))
    data["counters"][JACKS.player_holder + 1][JACKS.counters.index("egg")] = -1
    refused(JACKS, data, "counters.P2.egg", "does not fit")
    data = saved(JACKS.new_state(3, 1))
    data["counters"][0][0] = 1 << 70
    refused(JACKS, data, "counters.game.egg", "does not fit")
    data = saved(JACKS.new_state(3, 1))
    data["counters"][0].append(0)
    refused(JACKS, data, "counters.game", "values, but this game has")


def test_a_counter_past_the_games_number_limit_is_refused(tmp_path):
    """A game may keep its numbers far below 64 bits; a saved counter must respect that too."""
    folder = tmp_path / "jf"
    shutil.copytree(ROOT / "games" / "jacks_friends", folder, ignore=shutil.ignore_patterns("scenarios"))
    main = folder / "game.yaml"
    main.write_text(main.read_text(encoding="utf-8").replace("\nsetup: |", "\nnumber_limit: 1000\nsetup: |", 1),
                    encoding="utf-8")
    game = rulelang.load_game(folder)
    data = saved(game.new_state(3, 1))
    data["counters"][game.player_holder + 1][game.counters.index("egg")] = 1001
    refused(game, data, "counters.P2.egg", "past the game's number_limit of 1,000")


def test_a_forged_option_is_refused_before_apply_could_take_it():
    state = FLAP.new_state(3, 1)
    deck_card = state.zones[zid(FLAP, 3, "tree_deck")][-1]
    player = state.pending["players"][0]
    data = saved(state)
    data["pending"]["options"][0].append(["take-it-all", "play anything"])
    data["pending"]["values"][0].append(["play", deck_card, player, player])
    refused(FLAP, data, "pending.options", "the rules ask")
    data = saved(state)                   # the same ids, but a value the rules never offered
    data["pending"]["values"][0][0] = ["play", deck_card, player, player]
    refused(FLAP, data, "pending.values", "the rules ask")
    data = saved(state)                   # a decision for another seat
    data["pending"]["players"] = [(player + 1) % 3]
    refused(FLAP, data, "pending.players", "the rules ask")


def test_a_removed_decision_or_a_moved_place_in_the_rules_is_refused():
    data = saved(JACKS.new_state(4, 2))
    data["pending"] = None
    refused(JACKS, data, "pending", "waits for a decision")
    data = saved(JACKS.new_state(4, 2))
    data["stack"][-1][1] += 1
    refused(JACKS, data, "pending", "the rules ask no decision")
    data = saved(JACKS.new_state(4, 2))
    data["stack"][-1][0] = len(JACKS.procs) + 5
    refused(JACKS, data, "stack[1][0]", "no procedure")
    data = saved(JACKS.new_state(4, 2))
    data["stack"][-1][1] = 10_000
    refused(JACKS, data, "stack[1][1]", "instructions")
    data = saved(JACKS.new_state(4, 2))
    data["stack"] = data["stack"][1:]
    refused(JACKS, data, "stack[0][0]", "the turn loop is the first frame")
    data = saved(JACKS.new_state(4, 2))
    data["stack"][-1][2]["deep"] = [[[[[[[[1]]]]]]]]
    refused(JACKS, data, "stack[1][2].deep", "never keep this much")


def test_a_half_taken_secret_choice_is_checked_choice_by_choice():
    state = JACKS.new_state(4, 1)
    state.apply("village", 0)
    data = saved(state)
    assert State.from_json(JACKS, data).dumps() == state.dumps()
    data["pending"]["chosen"][1] = 9
    refused(JACKS, data, "pending.chosen[1]", "options, not option 9")
    data = saved(state)
    data["pending"]["chosen"] = [0, 0, 0, 0]
    refused(JACKS, data, "pending.chosen", "someone still to choose")


def test_scripted_dice_and_halts_are_not_saved_and_not_accepted():
    state = FLAP.new_state(3, 1)
    state.dice_script = [1, 1, 1]
    state.halt = [5, next(iter(FLAP.step_pcs))]
    data = saved(state)
    assert "dice_script" not in data and "halt" not in data
    assert State.from_json(FLAP, data).dice_script == []
    data["dice_script"] = [6] * 100
    refused(FLAP, data, "(the state)", "'dice_script' was unexpected")
    del data["dice_script"]
    data["halt"] = [1, "x"]
    refused(FLAP, data, "(the state)", "'halt' was unexpected")


def test_a_state_stopped_before_a_step_reads_back_and_goes_on_alike():
    state = FLAP.new_state(3, 4, before_first_turn=True)
    assert state.pending is None and not state.over
    restored = State.from_json(FLAP, saved(state))
    state.resume()
    restored.resume()
    assert restored.dumps() == state.dumps()


@pytest.mark.parametrize("game, players", [(JACKS, 3), (FLAP, 2), (FLAP, 5)], ids=["jacks", "flap2", "flap5"])
def test_finished_games_read_back_and_forged_results_are_refused(game, players):
    for seed in range(3):
        state = finished(game, players, seed)
        assert State.from_json(game, saved(state)).dumps() == state.dumps()
        data = saved(state)
        data["winners"] = [players + 4]
        refused(game, data, "winners[0]", f"P{players + 5} is not a seat")
        data = saved(state)
        other = [p for p in range(players) if [p] != state.winners][0]
        data["winners"] = [other]
        data["events"][-1]["winners"] = [f"P{other + 1}"]
        refused(game, data, "winners", "is won by")
        data = saved(state)
        names = [c.name for c in game.end if c.name != state.result]
        data["result"] = data["events"][-1]["condition"] = names[0]
        refused(game, data, "result", "the end condition that holds is")
        data = saved(state)
        data["over"] = False
        refused(game, data, "over", "not over has no winners")


def test_another_games_state_or_player_count_is_refused():
    data = saved(FLAP.new_state(3, 1))
    refused(JACKS, data, "game", "is a saved game of")
    data = saved(JACKS.new_state(3, 1))
    data["n"] = 40
    refused(JACKS, data, "n", "players, not 40")
    data = saved(JACKS.new_state(3, 1))
    data["n"] = 4
    refused(JACKS, data, "counters", "entries, but this game has")


def test_variables_hold_values_of_their_type():
    data = saved(JACKS.new_state(3, 1))
    data["vars"][0][JACKS.var_names.index("caught")] = 5
    refused(JACKS, data, "vars.P1.caught", "true or false")
    data = saved(JACKS.new_state(3, 1))
    data["vars"][2][JACKS.var_names.index("at")] = 99
    refused(JACKS, data, "vars.P3.at", "a location of this game")
    data = saved(JACKS.new_state(3, 1))
    data["vars"][1][JACKS.var_names.index("skips")] = True
    refused(JACKS, data, "vars.P2.skips", "a whole number")
    data = saved(JACKS.new_state(3, 1))
    data["active"] = 3
    refused(JACKS, data, "active", "P4 is not a seat")


@pytest.mark.parametrize("key", sorted(saved(JACKS.new_state(3, 1))))
def test_a_missing_key_is_a_plain_error_not_a_key_error(key):
    data = saved(JACKS.new_state(3, 1))
    del data[key]
    refused(JACKS, data, "(the state)", f"'{key}' is a required property")


@pytest.mark.parametrize("junk", [None, [], "state", 7, {"game": "x"}])
def test_junk_is_a_plain_error(junk):
    with pytest.raises(SavedStateError):
        State.from_json(JACKS, junk)


def test_events_must_be_this_games():
    data = saved(JACKS.new_state(3, 1))
    data["events"][0]["seed"] = 99
    refused(JACKS, data, "events[0].seed", "but the state's seed is 1")
    data = saved(JACKS.new_state(3, 1))
    data["events"][1] = {"type": "exploded", "turn": 1}
    refused(JACKS, data, "events[1]", "is not one of")


def test_replay_proves_a_state_the_invariants_cannot():
    state = FLAP.new_state(3, 2)
    for _ in range(4):
        state.apply_index(0)
    data = saved(state)
    assert load_state(FLAP, data, replay=True).dumps() == state.dumps()
    data["rng"] = (data["rng"] + 1) % (1 << 64)       # rigs every later roll, yet breaks no invariant
    assert State.from_json(FLAP, data).rng == data["rng"]
    with pytest.raises(SavedStateError) as caught:
        load_state(FLAP, data, replay=True)
    assert "another position" in caught.value.message


def test_a_state_file_names_the_file_and_the_place(tmp_path):
    state = FLAP.new_state(3, 1)
    good = tmp_path / "good.json"
    good.write_text(json.dumps(state.to_json()), encoding="utf-8")
    assert read_state_file(FLAP, str(good), replay=True).dumps() == state.dumps()
    data = saved(state)
    data["counters"][FLAP.player_holder][0] = -3
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SavedStateError) as caught:
        read_state_file(FLAP, str(bad))
    assert caught.value.format().startswith(f"{bad}: error: saved state: counters.P1.chops: -3")
    for name, content in [("notjson.json", b'{"game": '), ("binary.json", b"\x00\xff\xfe junk"),
                          ("twice.json", b'{"n": 1, "n": 2}'), ("nan.json", b'{"n": NaN}'),
                          ("deep.json", b"[" * 100_000)]:
        path = tmp_path / name
        path.write_bytes(content)
        with pytest.raises(SavedStateError) as caught:
            read_state_file(FLAP, str(path))
        assert caught.value.format().startswith(f"{path}: error:"), caught.value.format()


def test_a_state_file_that_is_a_fifo_or_a_folder_is_refused_at_once(tmp_path):
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    for path, said in ((fifo, "is not a regular file: it is a FIFO"), (tmp_path, "is a folder, not a file")):
        with pytest.raises(SavedStateError) as caught:
            read_state_file(FLAP, str(path))
        assert said in caught.value.message


def test_to_json_is_a_snapshot():
    state = FLAP.new_state(3, 5)
    snapshot = state.to_json()
    frozen = json.dumps(snapshot, sort_keys=True)
    play_out(state, RandomAgent(5))
    assert json.dumps(snapshot, sort_keys=True) == frozen           # play went on; the snapshot did not
    before = state.dumps()
    taken = state.to_json()
    taken["zones"][0].clear()
    taken["counters"][0][0] = 99
    taken["events"][0]["seed"] = -1
    assert state.dumps() == before                                    # and changing it changes no game
    waiting = FLAP.new_state(3, 5)                  # a finished game runs nothing: a waiting one has frames
    before = waiting.dumps()
    taken = waiting.to_json()
    taken["stack"][0][2]["x"] = 1
    taken["stack"][-1][2]["x"] = 1
    assert waiting.dumps() == before


def _paths(value, prefix=()):
    """Every place in a saved state (the event log sampled at its ends, to keep the search fast)."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "events" and not prefix:
                yield ("events",)
                for i in {0, 1, len(item) - 1}:
                    yield from _paths(item[i], ("events", i))
                continue
            yield from _paths(item, prefix + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _paths(item, prefix + (i,))


JSON_LEAF = st.one_of(st.none(), st.booleans(), st.integers(-3, 300), st.integers(), st.text(max_size=5),
                      st.sampled_from(["P1", "P9", "village", "pass", "play"]))
JSON_VALUE = st.recursive(JSON_LEAF, lambda inner: st.lists(inner, max_size=3) |
                          st.dictionaries(st.text(max_size=4), inner, max_size=3), max_leaves=6)


@pytest.mark.slow
@examples(150, suppress_health_check=[HealthCheck.too_slow])
@given(which=st.sampled_from([(JACKS, 4), (FLAP, 3)]), seed=st.integers(0, 50), moves=st.integers(0, 12),
       pick=st.integers(0, 10**6), action=st.sampled_from(["replace", "delete", "append"]), value=JSON_VALUE)
def test_damaged_states_are_refused_or_play_on_without_crashing(which, seed, moves, pick, action, value):
    """Any damage: a SavedStateError, or a state that plays on as a game (no internal error)."""
    game, players = which
    state = game.new_state(players, seed)
    agent = RandomAgent(seed)
    for _ in range(moves):
        if state.over:
            break
        player = state.decision().players[0]
        state.apply(agent.choose(state, player), player)
    data = saved(state)
    paths = [p for p in _paths(data) if p]
    path = paths[pick % len(paths)]
    parent = data
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    if action == "delete":
        del parent[last]
    elif action == "append" and isinstance(parent[last], list):
        parent[last].append(value)
    else:
        parent[last] = value
    try:
        restored = State.from_json(game, data)
    except SavedStateError as error:
        assert error.format().startswith("error: saved state: ")
        return
    try:
        play_out(restored, RandomAgent(seed + 1))
    except rulelang.RulelangError:
        pass                                   # a changed (but possible) position may break a rule: told plainly
