"""`returns:` per player at the end, and asking decisions that have a single option."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rulelang
from rulelang.agents import RandomAgent, play_out
from rulelang.cli import main as cli_main

from helpers.examples import examples

ROOT = Path(__file__).resolve().parents[2]

CHIPS = """\
game: Chips
players: {{min: 2, max: 4}}
{extra}
counters:
  chips: {{label: chips}}
setup: |
  for each p in players:
    p.chips = 3
turn:
  order: seat
  steps:
    - name: pass chips
      effect: |
        me chooses n in range(1, 3 if turn <= 2 and me.chips >= 2 else 2)
        me.chips -= n
        next(me).chips += n
        check end
end:
  - name: someone is out
    when: any(p in players where p.chips = 0) or turn >= 12
    winner: first(p in players where p.chips = max(q.chips for q in players))
"""


def chips(tmp_path: Path, extra: str = "returns: p.chips - 3") -> Path:
    (tmp_path / "game.yaml").write_text(CHIPS.format(extra=extra))
    return tmp_path


@pytest.fixture(scope="module")
def zero_sum(tmp_path_factory) -> rulelang.Game:
    return rulelang.load_game(chips(tmp_path_factory.mktemp("chips")))


@examples(30)
@given(players=st.integers(2, 4), seed=st.integers(0, 100_000))
def test_returns_are_told_at_the_end_and_add_up_as_the_rules_say(zero_sum, players, seed):
    state = play_out(zero_sum.new_state(players, seed), RandomAgent(seed))
    returns = state.returns()
    assert returns == [state.counter(p, "chips") - 3 for p in range(players)]
    assert sum(returns) == 0                       # chips only change hands
    assert state.events[-1]["type"] == "ended" and state.events[-1]["returns"] == returns


def test_run_json_shows_returns_only_when_declared(tmp_path, capsys):
    assert cli_main(["run", str(chips(tmp_path)), "--players", "2", "--quiet", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out.splitlines()[-1])["returns"]) == 2
    assert cli_main(["run", str(ROOT / "examples" / "pig"), "--players", "2", "--quiet", "--json"]) == 0
    assert "returns" not in json.loads(capsys.readouterr().out.splitlines()[-1])
    state = play_out(rulelang.load_game(ROOT / "examples" / "pig").new_state(2, 3), RandomAgent(3))
    assert state.returns() is None and "returns" not in state.events[-1]


def single_option_asked(state: rulelang.State) -> bool:
    """Play to the end with the first option; whether any decision offered exactly one."""
    asked = False
    while not state.over:
        asked = asked or len(state.legal()) == 1
        state.apply(state.legal()[0])
    return asked


def test_a_single_option_is_taken_at_once_by_default(tmp_path):
    game = rulelang.load_game(chips(tmp_path))
    assert not single_option_asked(game.new_state(2, 0))


def test_a_game_can_ask_every_decision(tmp_path):
    game = rulelang.load_game(chips(tmp_path, "ask_single_options: true"))
    state = game.new_state(2, 0)
    assert single_option_asked(state)
    assert state.events[-1]["type"] == "ended"


def test_a_state_can_ask_every_decision_and_its_copies_do_too(tmp_path):
    game = rulelang.load_game(chips(tmp_path))
    state = game.new_state(2, 0, ask_single_options=True)
    assert single_option_asked(state.copy())
    assert not single_option_asked(rulelang.load_game(chips(tmp_path, "ask_single_options: true"))
                                   .new_state(2, 0, ask_single_options=False))


def test_asking_single_options_adds_decisions_but_plays_the_same_game(tmp_path):
    quiet = rulelang.load_game(chips(tmp_path)).new_state(3, 5)
    asking = rulelang.load_game(chips(tmp_path)).new_state(3, 5, ask_single_options=True)
    single_option_asked(quiet)
    single_option_asked(asking)
    chose = [e for e in asking.events if e["type"] == "chose"]
    assert len(chose) > len([e for e in quiet.events if e["type"] == "chose"])
    assert [e for e in asking.events if e["type"] != "chose"] == [e for e in quiet.events if e["type"] != "chose"]


@examples(20)
@given(players=st.integers(2, 4), seed=st.integers(0, 100_000))
def test_returns_see_the_winners_the_end_condition_decided(tmp_path_factory, players, seed):
    folder = chips(tmp_path_factory.mktemp("winners"),
                   "returns: (count(players) - 1 if p in winners else -1) if count(winners) = 1 else 0")
    state = play_out(rulelang.load_game(folder).new_state(players, seed), RandomAgent(seed))
    winner, = state.winners
    assert state.returns() == [players - 1 if p == winner else -1 for p in range(players)]
    assert sum(state.returns()) == 0


def test_winners_is_a_word_of_the_language(tmp_path):
    (tmp_path / "game.yaml").write_text(CHIPS.format(extra="locations: {winners: {label: podium}}"))
    with pytest.raises(rulelang.SpecError) as caught:
        rulelang.load_game(tmp_path)
    assert "reserved word" in caught.value.message
