"""`eliminate P`: out of the turn order and the live-player lists, the result kept."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rulelang
from rulelang.agents import RandomAgent, play_out

from helpers.examples import examples

DUEL = """\
game: Last one standing
players: {min: 2, max: 5}
counters:
  lives: {label: lives}
setup: |
  for each p in players:
    p.lives = 2
turn:
  order: seat
  steps:
    - name: hit
      effect: |
        me chooses t in others
        t.lives -= 1
        if t.lives = 0:
          eliminate t
        check end
end:
  - name: last standing
    when: count(players) = 1
    winner: first(players)
"""


@pytest.fixture(scope="module")
def duel(tmp_path_factory) -> rulelang.Game:
    folder = tmp_path_factory.mktemp("duel")
    (folder / "game.yaml").write_text(DUEL)
    return rulelang.load_game(folder)


def play_by_choosing(state, pick):
    """Answer every decision with pick(options), recording (turn, active, options) as we go."""
    seen = []
    while not state.over:
        options = state.legal()
        seen.append((state.turn, state.active, list(options)))
        state.apply(pick(options))
    return seen


def test_an_eliminated_player_has_no_turn_and_is_no_option(duel):
    state = duel.new_state(3, 0)
    # P1 hits P3 twice: P3 is out; then only P1 and P2 remain and take turns in order.
    seen = play_by_choosing(state, lambda options: "P3" if "P3" in options else options[0])
    eliminated = [e for e in state.events if e["type"] == "eliminated"]
    assert [e["player"] for e in eliminated][0] == "P3"
    after = [s for s in seen if s[0] > eliminated[0]["turn"]]
    assert all(active != 2 for _, active, _ in after)
    assert all("P3" not in options for _, _, options in after)
    turns = [e["turn"] for e in state.events if e["type"] == "turn"]
    assert turns == list(range(1, len(turns) + 1))     # a passed-over seat is no turn


def test_turn_order_passes_over_the_eliminated_seat(duel):
    state = duel.new_state(4, 0)
    for _ in range(5):                 # hit P2 whenever one can (else the last option): P3 puts P2 out on turn 3
        state.apply("P2" if "P2" in state.legal() else state.legal()[-1])
    players = [e["player"] for e in state.events if e["type"] == "turn"]
    out = [(e["player"], e["turn"]) for e in state.events if e["type"] == "eliminated"]
    assert out == [("P2", 3)]
    assert players == ["P1", "P2", "P3", "P4", "P1", "P3"]   # P1's left neighbour is now P3


@examples(30)
@given(players=st.integers(2, 5), seed=st.integers(0, 10_000))
def test_the_last_player_standing_wins_and_each_is_eliminated_once(duel, players, seed):
    state = play_out(duel.new_state(players, seed), RandomAgent(seed))
    out = [e["player"] for e in state.events if e["type"] == "eliminated"]
    assert len(out) == len(set(out)) == players - 1
    assert state.winner_names() == sorted(set(f"P{p + 1}" for p in range(players)) - set(out))
    gone: set[str] = set()
    for event in state.events:        # nobody eliminated takes a turn or is hit afterwards
        if event["type"] == "eliminated":
            gone.add(event["player"])
        elif event["type"] == "turn":
            assert event["player"] not in gone
        elif event["type"] == "chose":
            assert event["option"] not in gone


def test_a_saved_game_keeps_who_is_out(duel):
    state = duel.new_state(5, 0)
    while not any(e["type"] == "eliminated" for e in state.events):
        state.apply("P3")
    saved = state.to_json()
    assert saved["out"] == [False, False, True, False, False]
    again = rulelang.State.from_json(duel, saved)
    assert again.out == saved["out"] and again.dumps() == state.dumps()
    assert again.legal() == state.legal() == ["P5", "P1", "P2"]
    bad = dict(saved, out=[False, True])
    with pytest.raises(rulelang.RulelangError, match="out"):
        rulelang.State.from_json(duel, bad)


def test_eliminate_needs_a_player(tmp_path: Path):
    (tmp_path / "game.yaml").write_text(DUEL.replace("eliminate t", "eliminate 3"))
    with pytest.raises(rulelang.RulelangError, match="eliminate"):
        rulelang.load_game(tmp_path)
