"""Tiny games written into a temporary folder: the hooks base game and the two-phase game."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

import rulelang
from rulelang.engine.state import State

from . import VALID

BASE = """\
game: Hooked
players: {min: 2, max: 3}
counters:
  coin: {label: coin}
vars:
  flag: {type: bool}
dice:
  d: {faces: 6, outcomes: {high: [5, 6]}}
zones:
  deck: {owner: table, visibility: hidden}
  hand: {owner: player, visibility: owner}
cards:
  - {id: gem, name: Gem, count: 6, zone: deck}
"""


def make(tmp_path: Path, body: str, steps: str = "roll 2 d as r\nme.coin = r.total",
         base: str | None = None) -> rulelang.Game:
    """A game: ``base`` (BASE if None), then ``body`` (top-level YAML), and one step 'act' running ``steps``,
    then 'rest'."""
    effect = textwrap.indent(steps.strip("\n"), "        ")
    text = (BASE if base is None else base) + textwrap.dedent(body) + f"""
turn:
  order: seat
  limit: 4
  steps:
    - name: act
      effect: |
{effect}
    - name: rest
      effect: me chooses n from 0 to 1
"""
    folder = tmp_path / "game"
    folder.mkdir(exist_ok=True)
    (folder / "game.yaml").write_text(text, encoding="utf-8")
    return rulelang.load_game(folder)


def play_turn_one(game: rulelang.Game, dice: list[int], players: int = 2) -> State:
    """The game up to its first real decision, with ``dice`` rolled first."""
    st = game.new_state(players, seed=1, before_first_turn=True)
    st.dice_script = list(dice)
    st.resume()
    return st


TWO_PHASES = """\
game: Gather then Spend
players: {min: 2, max: 3}
counters:
  coin: {}
phases:
  - name: gather
    order: seat
    first: random
    until: turn >= 4
    steps:
      - name: earn
        effect: me.coin += 1
  - name: spend
    order: seat
    first: first
    steps:
      - name: pay
        effect: |
          me chooses n from 0 to me.coin
          move n coin from me to pot
          check end
locations:
  pot: {}
end:
  - name: the pot is full
    when: pot.coin >= 3
    winner: first(p in players where p.coin = min(q.coin for q in players))
"""


def game_with_state(monkeypatch: pytest.MonkeyPatch, change) -> rulelang.Game:
    """The valid game, whose new states are changed by ``change`` (to fake engine faults)."""
    game = rulelang.load_game(VALID)
    real = game.new_state

    def new_state(players: int, seed: int = 0, **options):
        state = real(players, seed)     # made to stop at its first decision (whatever the options), faked there
        change(state)
        return state
    monkeypatch.setattr(game, "new_state", new_state)
    return game
