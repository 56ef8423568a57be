"""An `answer: when` that reads `me` (the reactor) or `this` (the answering card) is tried on each reactor's hand.

It was once tried beforehand with the card's player as `me` and no `this` at all: such a condition
crashed ("a rule failed while playing: 'this'") or was judged for the wrong player.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import rulelang
from rulelang.agents import RandomAgent, play_out

HOOKS = Path(__file__).resolve().parents[2] / "examples" / "hooks"


def hooks_with_parry_when(tmp_path: Path, when: str) -> rulelang.Game:
    folder = tmp_path / "duel"
    shutil.copytree(HOOKS, folder)
    game = folder / "game.yaml"
    text = game.read_text(encoding="utf-8")
    assert "      when: card is challenge\n" in text
    game.write_text(text.replace("      when: card is challenge\n", f"      when: {when}\n", 1), encoding="utf-8")
    return rulelang.load_game(folder)


def answers_in(game: rulelang.Game, seeds: int = 30) -> list[dict]:
    found = []
    for seed in range(seeds):
        state = game.new_state(2, seed)
        play_out(state, RandomAgent(seed))
        found += [e for e in state.events if e["type"] == "answered"]
    return found


def test_a_condition_reading_this_and_me_is_judged_per_reactor(tmp_path: Path) -> None:
    game = hooks_with_parry_when(tmp_path, "card is challenge and this is parry and me != player")
    answered = answers_in(game)
    assert answered, "a Parry answers some Challenge"
    plain = answers_in(rulelang.load_game(HOOKS))
    assert [e["player"] for e in answered] == [e["player"] for e in plain]   # the same answers as the plain rule


@pytest.mark.parametrize("when", ["card is challenge and me = player", "card is challenge and this is challenge"])
def test_a_condition_no_reactor_meets_lets_nobody_answer(tmp_path: Path, when: str) -> None:
    assert answers_in(hooks_with_parry_when(tmp_path, when)) == []


#: A round (no active player) whose step calls a procedure reading `me`, then the usual seat turns.
PHASES = """phases:
  - name: ante
    order: round
    limit: 1
    until: turn >= 1
    steps:
      - name: Ante
        effect: pay(dealer, 0)
  - name: play
    order: seat
    limit: 60
    steps:
      - name: Draw
        effect: draw 1 from deck to me.hand

"""


@pytest.mark.parametrize("effect", ["me.coin += 1", "p.bet = one(me)"])
def test_me_in_a_procedure_called_from_a_phase_played_in_rounds_is_a_clear_error(tmp_path: Path, effect: str) -> None:
    """The checker lets procedures read `me` when some phase is played by seat; a round has no `me`. Passed to
    a function that never reads it, `me` still fails at the call (a function written where it is called
    reads its arguments as its call would: compiler/source_expr.py, ``inlined``)."""
    folder = tmp_path / "rounds"
    shutil.copytree(Path(__file__).resolve().parents[1] / "broken" / "_valid", folder)
    game = folder / "game.yaml"
    text = game.read_text(encoding="utf-8")
    text = text.replace("    effect: move n coin from p to pot\n", f"    effect: {effect}\n", 1)
    text = text.replace("functions:\n", "functions:\n  one:\n    params: {x: player}\n    value: \"1\"\n", 1)
    start, end = text.index("turn:\n"), text.index("end:\n")
    text = text[:start] + PHASES + text[end:]
    game.write_text(text, encoding="utf-8")
    with pytest.raises(rulelang.RuleError) as caught:
        rulelang.load_game(folder).new_state(2, seed=1)
    assert caught.value.message.startswith("'me' has no value here")
    assert effect in text.splitlines()[caught.value.span.line - 1]
