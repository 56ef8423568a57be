"""Private dice: a die's `visibility` keeps the faces of its rolls from the players who may not see them.

The full log (the referee's record) keeps every face, so replays and saves are as for any roll; each
player's account of the log (`events_for`, `Account`, `rulelang run --as`) shows the faces of a roll
they may not see as "?". examples/liars_dice rolls its dice this way.
"""
from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rulelang
from rulelang.agents.determinize import determinize
from rulelang.cli import main as cli_main
from rulelang.engine.state import State
from rulelang.engine.views import HIDDEN_FACE, Account, events_for
from rulelang.logs.replay import replay
from rulelang.logs.saves import load_state

from helpers.examples import examples
from helpers.tiny_games import make, play_turn_one

ROOT = Path(__file__).resolve().parents[2]
LIARS_DICE = ROOT / "examples" / "liars_dice"

CUPS = """\
game: Cups
players: {min: 2, max: 3}
counters:
  coin: {label: coin}
vars:
  flag: {type: bool}
  kept: {type: int, visibility: owner}
dice:
  cup: {faces: 6, visibility: owner}
  sealed: {faces: 6, visibility: hidden}
  open: {faces: 6}
zones:
  deck: {owner: table, visibility: hidden}
cards:
  - {id: gem, name: Gem, count: 6, zone: deck}
"""


def cups(tmp_path: Path, steps: str, body: str = "") -> rulelang.Game:
    return make(tmp_path, body, steps, base=CUPS)


def rolls(events: list[dict]) -> list[dict]:
    return [e for e in events if e["type"] in ("rolled", "roll_changed")]


def hidden(faces: list) -> bool:
    return bool(faces) and all(f == HIDDEN_FACE for f in faces)


# --- who sees the faces ------------------------------------------------------------------------

def test_an_owner_die_shows_its_faces_to_the_roller_and_question_marks_to_the_others(tmp_path):
    game = cups(tmp_path, "roll 2 cup as r\nme.kept = r.total")
    state = play_turn_one(game, [3, 5])
    truth = rolls(state.events)
    assert truth == [{"type": "rolled", "turn": 1, "die": "cup", "faces": [3, 5], "player": "P1"}]
    assert rolls(events_for(game, state.events, 0)) == truth
    for viewer in (1, None):                     # the other player, and an onlooker
        told = rolls(events_for(game, state.events, viewer))
        assert told == [{**truth[0], "faces": ["?", "?"]}]
    assert not any(e.get("var") == "kept" for e in events_for(game, state.events, 1))


def test_a_hidden_die_is_seen_by_nobody_not_even_its_roller(tmp_path):
    game = cups(tmp_path, "roll 2 sealed as r\nme.kept = r.total")
    state = play_turn_one(game, [6, 6])
    for viewer in (0, 1, None):
        assert [e["faces"] for e in rolls(events_for(game, state.events, viewer))] == [["?", "?"]]
    assert rolls(state.events)[0]["faces"] == [6, 6]


def test_a_public_die_is_told_to_everyone_exactly_as_the_log_has_it(tmp_path):
    game = cups(tmp_path, "roll 2 open as r\nme.kept = r.total")
    state = play_turn_one(game, [2, 4])
    for viewer in (0, 1, None):
        assert rolls(events_for(game, state.events, viewer)) == rolls(state.events)


def test_a_roll_for_another_player_is_seen_by_the_roller_and_by_them_only(tmp_path):
    game = cups(tmp_path, "me rolls 1 cup for next(me) as r")
    state = play_turn_one(game, [4], players=3)
    assert rolls(state.events)[0]["player"] == "P1" and rolls(state.events)[0]["for"] == "P2"
    seen = {viewer: rolls(events_for(game, state.events, viewer))[0]["faces"] for viewer in (0, 1, 2, None)}
    assert seen == {0: [4], 1: [4], 2: ["?"], None: ["?"]}


TRIGGER = """
triggers:
  - name: ones become sixes
    on: after roll cup
    effect: |
      while 1 in rolled:
        change 1 to 6 in rolled
"""


def test_a_change_of_a_private_roll_is_hidden_as_the_roll_is(tmp_path):
    game = cups(tmp_path, "roll 3 cup as r\nreroll 2 in r\nme.kept = r.total", TRIGGER)
    state = play_turn_one(game, [1, 2, 5, 3])
    truth = rolls(state.events)
    assert [e["type"] for e in truth] == ["rolled", "roll_changed", "roll_changed"]
    assert truth[-1]["faces"] == [6, 3, 5]
    assert rolls(events_for(game, state.events, 0)) == truth
    told = rolls(events_for(game, state.events, 1))
    assert [e["faces"] for e in told] == [["?"] * 3] * 3
    assert [{k: v for k, v in e.items() if k != "faces"} for e in told] == \
           [{k: v for k, v in e.items() if k != "faces"} for e in truth]


def test_a_change_follows_the_last_roll_of_its_die(tmp_path):
    """A public roll between two private ones does not open the private die's later changes."""
    game = cups(tmp_path, "roll 1 open as a\nroll 2 cup as r\nreroll r\nroll 1 open as b")
    state = play_turn_one(game, [1, 2, 3, 4, 5, 6])
    told = [e["faces"] for e in rolls(events_for(game, state.events, 1))]
    assert told == [[1], ["?", "?"], ["?", "?"], [6]]


# --- the full log, replays and the running account ----------------------------------------------

def liars_dice_game(seed: int, dice: int = 1) -> State:
    game = rulelang.load_game(LIARS_DICE, params={"dice_per_player": dice})
    state = game.new_state(2, seed)
    rng = random.Random(seed)
    while not state.over:
        decision = state.decision()
        chooser = decision.players[0]
        state.apply_index(rng.randrange(len(decision.options[chooser])), chooser)
    return state


@examples(25)
@given(seed=st.integers(0, 10_000), dice=st.integers(1, 3))
def test_liars_dice_each_player_reads_only_their_own_dice_and_the_log_keeps_all(seed, dice):
    state = liars_dice_game(seed, dice)
    game = state.game
    truth = [e for e in state.events if e["type"] == "rolled"]
    assert len(truth) == 2 and all(isinstance(f, int) for e in truth for f in e["faces"])
    for player in (0, 1):
        told = [e for e in events_for(game, state.events, player) if e["type"] == "rolled"]
        for real, seen in zip(truth, told):
            mine = real["player"] == f"P{player + 1}"
            assert seen == (real if mine else {**real, "faces": [HIDDEN_FACE] * dice})
        account = Account(game, player)                   # told as the game goes: the same account
        running = [e for k in range(len(state.events) + 1) for e in account.catch_up(state.events[:k])]
        assert running == events_for(game, state.events, player)
    assert replay(game, state.events).dumps() == state.dumps()


def test_a_save_keeps_the_faces_and_loads_checked_by_replay():
    """Saves hold the full log: a saved game in progress replays to itself and plays on as the original."""
    state = rulelang.load_game(LIARS_DICE).new_state(2, seed=11)
    again = load_state(state.game, state.to_json(), replay=True)
    faces = [e["faces"] for e in again.events if e["type"] == "rolled"]
    assert faces == [e["faces"] for e in state.events if e["type"] == "rolled"]
    assert all(f in range(1, 7) for roll in faces for f in roll)
    for s in (state, again):
        s.apply_index(3, 0)                       # bid 1-4
    assert again.dumps() == state.dumps()


# --- rulelang run --as ------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(6))
def test_run_as_p1_prints_p1s_faces_and_question_marks_for_p2s(seed, tmp_path, capsys):
    log = tmp_path / "log.jsonl"
    args = ["run", str(LIARS_DICE), "--players", "2", "--seed", str(seed), "--param", "dice_per_player=2"]
    assert cli_main(args + ["--as", "P1", "--log", str(log)]) == 0
    as_p1 = capsys.readouterr().out
    assert re.search(r"^  P1 rolls 2 d6: [1-6] [1-6]$", as_p1, re.M)
    assert re.search(r"^  P2 rolls 2 d6: \? \?$", as_p1, re.M)
    assert not re.search(r"P2\.(ones|twos|threes|fours|fives|sixes)", as_p1)
    logged = [json.loads(line) for line in log.read_text().splitlines()]
    p2 = next(e for e in logged if e["type"] == "rolled" and e["player"] == "P2")
    assert all(f in range(1, 7) for f in p2["faces"])                    # the log stays whole
    assert cli_main(args) == 0
    assert f"  P2 rolls 2 d6: {' '.join(map(str, p2['faces']))}" in capsys.readouterr().out


# --- determinization ------------------------------------------------------------------------

def at_first_bid(dice_faces: list[int]) -> State:
    """Liar's dice at P1's first decision, with the dice scripted (P1's first)."""
    game = rulelang.load_game(LIARS_DICE)
    return game.new_state(2, seed=3, chance=[face - 1 for face in dice_faces])


def test_a_sample_for_a_player_does_not_depend_on_the_others_private_dice():
    for mine in range(1, 7):
        samples = {determinize(at_first_bid([mine, theirs]), 0, random.Random(5)).dumps() for theirs in range(1, 7)}
        assert len(samples) == 1
    assert determinize(at_first_bid([1, 4]), 0, random.Random(5)).view(0) == at_first_bid([1, 4]).view(0)
    assert at_first_bid([1, 4]).view(0) != at_first_bid([2, 4]).view(0)


# --- terminal play ------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(4))
def test_at_the_terminal_a_human_sees_their_own_dice_and_question_marks_for_the_bots(seed):
    """P1 is human (always the lowest bid offered, then the call), P2 a random bot."""
    from rulelang.cli.play import Table

    shown = io.StringIO()
    table = Table(rulelang.load_game(LIARS_DICE), ["human", "random"], seed, io.StringIO("1\n" * 40), shown)
    table.play()
    out = shown.getvalue()
    p1, p2 = (next(e["faces"][0] for e in table.state.events if e["type"] == "rolled" and e["player"] == p)
              for p in ("P1", "P2"))
    assert f"  P1 rolls 1 d6: {p1}" in out
    assert "  P2 rolls 1 d6: ?" in out and f"  P2 rolls 1 d6: {p2}" not in out
    assert not re.search(r"P2's (ones|twos|threes|fours|fives|sixes)", out)
    assert re.search(r"^  P1's (ones|twos|threes|fours|fives|sixes): 1$", out, re.M)    # their own count, told


def test_a_view_shows_the_players_own_dice_and_not_the_others():
    for mine in range(1, 7):
        views = [at_first_bid([mine, theirs]).view(0) for theirs in range(1, 7)]
        assert all(view == views[0] for view in views)
    assert len({json.dumps(at_first_bid([mine, 3]).view(0), sort_keys=True) for mine in range(1, 7)}) == 6
