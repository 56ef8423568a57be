"""Saved states: what to_json writes is described by schemas/state.schema.json and reads back whole."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

import rulelang
from rulelang.engine import State

ROOT = Path(__file__).resolve().parent.parent
VALIDATOR = Draft202012Validator(json.loads((ROOT / "schemas" / "state.schema.json").read_text(encoding="utf-8")))


@pytest.mark.parametrize("name, players", [("jacks_friends", 5), ("flapjacks", 4), ("flapjacks", 2)])
def test_states_along_a_game_match_the_schema_and_read_back(name, players):
    game = rulelang.load_game(ROOT / "games" / name)
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
    game = rulelang.load_game(ROOT / "games" / "jacks_friends")
    saved = json.loads(json.dumps(game.new_state(3, seed=1).to_json()))
    saved["pending"]["kind"] = "guess"
    del saved["rng"]
    assert len(list(VALIDATOR.iter_errors(saved))) == 2
