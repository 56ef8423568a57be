"""Phases: parts of a game in order, each with its own turn structure and an `until` that moves on."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulelang
from rulelang.agents import RandomAgent, play_out
from rulelang.errors import RuleError

from helpers.tiny_games import TWO_PHASES


def load(tmp_path: Path, text: str = TWO_PHASES):
    (tmp_path / "game.yaml").write_text(text, encoding="utf-8")
    return rulelang.load_game(tmp_path)


def test_a_phase_ends_when_its_until_holds_and_the_next_begins(tmp_path):
    game = load(tmp_path)
    state = game.new_state(2, seed=3)
    phases = [(e["turn"], e["phase"]) for e in state.events if e["type"] == "phase"]
    assert phases == [(0, "gather"), (4, "spend")]
    assert state.phase == 1 and state.turn == 5
    assert [state.counter(p, "coin") for p in range(2)] == [2, 2]
    assert state.active == 0, "the spend phase starts with the first seat (first: first)"
    assert state.view(None)["phase"] == "spend"


def test_turns_keep_counting_across_phases_and_the_game_ends(tmp_path):
    game = load(tmp_path)
    state = play_out(game.new_state(3, seed=1), RandomAgent(1))
    assert state.over and state.result == "the pot is full"
    turns = [e for e in state.events if e["type"] == "turn"]
    assert [e["turn"] for e in turns] == list(range(1, state.turn + 1))


def test_going_to_a_step_of_a_later_phase_enters_that_phase(tmp_path):
    game = load(tmp_path)
    state = game.new_state(2, seed=0, before_first_turn=True)
    state.set_counter(1, "coin", 2)
    state.go_to_step("pay", turn=9, active=1)
    assert state.phase == 1
    assert state.decision().player == 1


def test_the_last_phase_ending_without_a_winner_is_a_located_error(tmp_path):
    text = TWO_PHASES.replace("    first: first\n", "    first: first\n    until: turn >= 6\n")
    game = load(tmp_path, text)
    state = game.new_state(2, seed=0)
    with pytest.raises(RuleError) as caught:
        while not state.over:
            state.apply_index(0)            # pay nothing: the pot never fills
    assert "phase 'spend' ended, but no end condition holds" in caught.value.message
    assert caught.value.span is not None and caught.value.span.line == text.splitlines().index("    until: turn >= 6") + 1


def test_step_names_are_unique_across_phases(tmp_path):
    text = TWO_PHASES.replace("name: pay", "name: earn")
    with pytest.raises(rulelang.SpecError) as caught:
        load(tmp_path, text)
    assert caught.value.message == "two steps are named 'earn'"
