"""Card kinds as values: a choice among kinds, a local holding one, `c is k` and `k = gem`."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rulelang

from helpers.examples import examples

GUESS = """\
game: Guess the kind
players: {min: 2, max: 3}
counters:
  coin: {label: coin}
tags: [shiny, dull]
zones:
  deck: {owner: table, visibility: hidden}
  hand: {owner: player, visibility: public}
cards:
  - {id: gem, name: Gem, count: 4, zone: deck, tags: [shiny]}
  - {id: rock, name: Rock, count: 4, zone: deck, tags: [dull]}
  - {id: glass, name: Glass, count: 4, zone: deck, tags: [shiny]}
setup: |
  shuffle deck
turn:
  order: seat
  steps:
    - name: guess
      effect: |
        me chooses k in [gem, rock, shiny] where k != rock or turn > 2
        draw 1 from deck to me.hand
        for each c in me.hand where c is k:
          me.coin += 1
        if k = shiny:
          me.coin += 10
        check end
end:
  - name: deck is empty
    when: count(deck) = 0
    winner: first(p in players where p.coin = max(q.coin for q in players))
"""


@pytest.fixture(scope="module")
def guess(tmp_path_factory) -> rulelang.Game:
    folder = tmp_path_factory.mktemp("guess")
    (folder / "game.yaml").write_text(GUESS)
    return rulelang.load_game(folder)


def test_a_choice_among_kinds_offers_their_names_and_filters(guess):
    state = guess.new_state(2, 0)
    assert state.legal() == ["gem", "shiny"]             # rock only after turn 2
    state.apply("shiny")
    state.apply("gem")
    assert state.legal() == ["gem", "rock", "shiny"]


@examples(25)
@given(seed=st.integers(0, 10_000), picks=st.lists(st.sampled_from(["gem", "rock", "shiny"]), min_size=12,
                                                      max_size=12))
def test_c_is_k_counts_the_cards_of_the_chosen_kind(guess, seed, picks):
    state = guess.new_state(2, seed)
    hands = {0: [], 1: []}
    expected = [0, 0]
    for pick in picks:
        if state.over:
            break
        if pick not in state.legal():
            pick = state.legal()[0]
        me = state.active
        state.apply(pick)
        drawn = [e for e in state.events if e["type"] == "moved"][-1]["card"]
        hands[me].append(drawn)
        tags = {"gem": {"shiny"}, "glass": {"shiny"}, "rock": {"dull"}}
        expected[me] += sum(1 for c in hands[me] if c == pick or pick in tags[c]) + (10 if pick == "shiny" else 0)
        assert [state.counter(p, "coin") for p in range(2)] == expected


def test_a_kind_is_a_value_in_the_event_log_and_saves(guess):
    state = guess.new_state(2, 3)
    state.apply("gem")
    chose = [e for e in state.events if e["type"] == "chose"][-1]
    assert chose["option"] == "gem"
    again = rulelang.State.from_json(guess, state.to_json())
    assert again.dumps() == state.dumps()


@pytest.mark.parametrize("text, message", [
    ("me chooses k in [gem, 3]", "a list holds one kind of thing"),
    ("me chooses k in [gem, rock]\n        if k = 3:\n          pass", "cannot compare a card kind with a number"),
    ("me chooses k in [gem, rock]\n        me.coin += k", "card kind"),
    ("me chooses k in range(0, 3)\n        for each c in me.hand where c is k:\n          pass", "unknown card kind 'k'"),
])
def test_kinds_are_typed(tmp_path: Path, text: str, message: str):
    (tmp_path / "game.yaml").write_text(GUESS.replace(
        "me chooses k in [gem, rock, shiny] where k != rock or turn > 2", text))
    with pytest.raises(rulelang.RulelangError, match=message):
        rulelang.load_game(tmp_path)
