"""`+` joins two lists of one kind (a zone counts as its cards), in order; anything else is a located error."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulelang.compiler import compile_game
from rulelang.errors import ErrorList, RulelangError
from rulelang.spec.loader import load_document
from rulelang.testing.smoke import play_random

GAME = """\
game: Joined
players: {min: 3, max: 3}
counters:
  seen: {label: seen}
  cards_seen: {label: cards seen}
zones:
  deck: {owner: table, visibility: public}
  hand: {owner: player, visibility: public}
cards:
  - {id: token, name: Token, count: 5, zone: deck}
setup: |
  for each p in players:
      draw 1 from deck to p.hand
turn:
  order: seat
  first: first
  limit: 10
  steps:
    - name: look
      effect: |
        xs = others + [me] + others
        me.seen = count(xs)
        if first([me] + others) = me and first(others + [me]) != me:
            me.seen += 100
        me.cards_seen = count(me.hand + deck + me.hand)
        end turn
end:
  - name: once round
    when: turn > 3
    winner: players
"""


def written(tmp_path: Path, text: str) -> Path:
    (tmp_path / "game.yaml").write_text(text, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("python", [True, False], ids=["generated", "closures"])
def test_lists_and_zones_are_joined_in_order(tmp_path: Path, python: bool) -> None:
    game = compile_game(load_document(written(tmp_path, GAME)), python=python)
    state = play_random(game, 3, 0).state
    assert [state.counter(p, "seen") for p in range(3)] == [105] * 3
    assert [state.counter(p, "cards_seen") for p in range(3)] == [4] * 3


@pytest.mark.parametrize("line, message", [
    ("xs = others + [1]", "'+' joins two lists of one kind, not a list of players and a list of ints"),
    ("xs = others + me", "'+' joins two lists of one kind, not a list of players and a player"),
    ("me.seen = 1 + others", "the right side of '+' must be a number, not a list of players"),
    ("xs = others - [me]", "the left side of '-' must be a number, not a list of players"),
])
def test_what_is_not_two_lists_of_one_kind_is_a_located_error(tmp_path: Path, line: str, message: str) -> None:
    text = GAME.replace("        xs = others + [me] + others\n", f"        {line}\n")
    with pytest.raises(RulelangError) as caught:
        compile_game(load_document(written(tmp_path, text)))
    errors = caught.value.errors if isinstance(caught.value, ErrorList) else [caught.value]
    assert errors[0].message == message and errors[0].span.line == 21


def test_joining_in_a_loop_is_charged_as_work(tmp_path: Path) -> None:
    text = GAME.replace("        xs = others + [me] + others\n",
                        "        xs = others\n        while true:\n            xs = xs + xs\n")
    outcome = play_random(compile_game(load_document(written(tmp_path, text))), 3, 0)
    assert outcome.error is not None and "steps without a decision" in outcome.error.message
