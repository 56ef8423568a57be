"""Errors while playing name the spec line, in the spec's words, with the seed and turn."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import rulelang
from rulelang.errors import RuleError
from rulelang.testing.smoke import play_random

VALID = Path(__file__).resolve().parents[1] / "broken" / "_valid"
DRAW = "      effect: draw 1 from deck to me.hand"


def game_with_draw_step(tmp_path: Path, effect: str):
    folder = tmp_path / "game"
    shutil.copytree(VALID, folder)
    spec = folder / "game.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace(DRAW, f"      effect: {effect}"), encoding="utf-8")
    return rulelang.load_game(folder), spec


def line_of(spec: Path, text: str) -> int:
    return next(i for i, line in enumerate(spec.read_text(encoding="utf-8").splitlines(), 1) if text in line)


def test_reading_from_a_player_who_is_none(tmp_path):
    game, spec = game_with_draw_step(tmp_path, "me.bet = first(q in players where q.coin > 100).coin")
    with pytest.raises(RuleError) as caught:
        game.new_state(2, seed=4)
    error = caught.value
    assert error.message == "a value used here is none: no such player, card or place"
    assert error.span.line == line_of(spec, "q.coin > 100")
    assert "seed 4, turn 1" in error.hint


def test_a_decision_for_nobody_points_at_the_choice(tmp_path):
    game, spec = game_with_draw_step(tmp_path, "first(q in players where q.coin > 100) chooses n from 0 to 2")
    outcome = play_random(game, 2, seed=0)
    assert outcome.error.message == "a decision waits for a player who is none"
    assert outcome.error.span.line == line_of(spec, "chooses n from 0 to 2")
