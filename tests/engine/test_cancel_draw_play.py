"""`before draw` / `before play` triggers and `cancel draw` / `cancel play` (docs/language.md "Hooks").

A cancelled draw moves no card; a cancelled play leaves the chosen card where it was, nobody answers it,
nothing resolves, and the step goes on after the `play` statement. Triggers that cancel nothing leave the
game exactly as it is without them, played in place or through frames.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import rulelang
from rulelang.errors import ErrorList, RulelangError
from rulelang.logs.eventlog import event_problem
from rulelang.testing.smoke import play_random

from helpers.both_ways import both_ways

HERE = Path(__file__).resolve().parents[1] / "cancel_draw_play"
GAME = HERE / "game.yaml"
ROOT = HERE.parents[1]
FULL_HANDS = HERE / "full_hands"


def game_of(text: str, tmp_path: Path) -> rulelang.Game:
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    return rulelang.load_game(path)


def errors_of(tmp_path: Path, text: str) -> list[RulelangError]:
    with pytest.raises(RulelangError) as caught:
        game_of(text, tmp_path)
    error = caught.value
    return list(error.errors) if isinstance(error, ErrorList) else [error]


def cancelled(state: rulelang.State, action: str) -> list[dict]:
    return [e for e in state.events if e["type"] == "cancelled" and e["action"] == action]


def test_a_cancelled_draw_leaves_the_hand_and_the_deck_as_they_were() -> None:
    st = rulelang.load_game(GAME).new_state(2, seed=1, before_first_turn=True)
    assert st.counter(0, "ward") == 1
    hand, deck = st.zone("hand", 0), st.zone("deck")
    st.halt_before("play", 1)
    st.resume()
    assert (st.zone("hand", 0), st.zone("deck")) == (hand, deck)
    assert st.counter(0, "ward") == 0           # the trigger's effect went on after `cancel draw`
    assert cancelled(st, "draw") == [{"type": "cancelled", "turn": 1, "action": "draw", "player": "P1",
                                      "cards": 1, "from": "deck"}]


def test_without_a_ward_the_same_draw_happens() -> None:
    st = rulelang.load_game(GAME).new_state(2, seed=1, before_first_turn=True)
    st.set_counter(0, "ward", 0)
    hand, deck = st.zone("hand", 0), st.zone("deck")
    st.halt_before("play", 1)
    st.resume()
    assert st.zone("hand", 0) == hand + [deck[-1]] and st.zone("deck") == deck[:-1]
    assert cancelled(st, "draw") == []


def p1_to_play_coin_or_curse() -> rulelang.State:
    """Turn 1's play step, P1 holding a coin and a curse, waiting for P1's choice (stopping before turn 2)."""
    st = rulelang.load_game(GAME).new_state(2, seed=1, before_first_turn=True)
    st.halt_before("play", 1)
    st.go_to_step("play", 1, 0)
    st.arrange({"hand:P1": ["coin", "curse"]})
    st.halt_before("draw", 2)
    st.resume()
    return st


def test_a_cancelled_play_leaves_the_card_in_the_hand_and_the_step_goes_on() -> None:
    st = p1_to_play_coin_or_curse()
    st.apply("curse", 0)
    assert st.turn == 2 and st.waiting() is None    # no second choice: the play is over
    assert st.zone("hand", 0) == ["coin", "curse"] and st.zone("pile") == []
    assert (st.counter(0, "points"), st.counter(0, "refused")) == (0, 1)
    turn_one = [e["type"] for e in st.events if e.get("turn") == 1]
    assert turn_one == ["turn", "step", "chose", "cancelled", "set", "step"]   # no `played`, then `score`
    assert cancelled(st, "play")[0] == {"type": "cancelled", "turn": 1, "action": "play", "player": "P1",
                                        "card": "curse", "id": cancelled(st, "play")[0]["id"]}


def test_a_play_not_cancelled_is_declared_and_resolves() -> None:
    st = p1_to_play_coin_or_curse()
    st.apply("coin", 0)
    assert st.zone("hand", 0) == ["curse"] and st.zone("pile") == ["coin"]
    assert st.counter(0, "points") == 1 and cancelled(st, "play") == []


NEVER = {"    if: me.ward > 0\n": "    if: me.ward > 99\n", "    if: card is curse\n": "    if: card is curse and false\n"}


def without_triggers(text: str) -> str:
    return text[:text.index("triggers:")] + text[text.index("end:"):]


@pytest.mark.parametrize("players", [2, 3])
def test_triggers_that_cancel_nothing_change_nothing(tmp_path: Path, players: int) -> None:
    text = GAME.read_text(encoding="utf-8")
    never = text
    for old, new in NEVER.items():
        assert old in never
        never = never.replace(old, new)
    hooked = game_of(never, tmp_path)
    plain = game_of(without_triggers(text), tmp_path / ".." / tmp_path.name)
    for seed in range(6):
        a, b = play_random(hooked, players, seed), play_random(plain, players, seed)
        assert a.problem is None and b.problem is None
        assert a.state.events == b.state.events, seed


@pytest.mark.parametrize("players", [2, 3])
def test_cancels_play_the_same_in_place_and_through_frames(players: int) -> None:
    game = rulelang.load_game(GAME)
    seen = set()
    for seed in range(8):
        st = both_ways(game, players, seed)
        seen |= {e["action"] for e in st.events if e["type"] == "cancelled"}
    assert seen == {"draw", "play"}


@pytest.mark.parametrize("where, old, new", [
    ("a step", "      effect: draw 1 from deck to me.hand\n", "      effect: cancel draw\n"),
    ("a before play trigger", "      cancel play\n", "      cancel draw\n"),
    ("a procedure's effect", "setup: |\n", "procedures:\n  p:\n    effect: |\n      cancel draw\nsetup: |\n"),
])
def test_cancel_draw_is_said_only_in_a_before_draw_trigger(tmp_path: Path, where: str, old: str, new: str) -> None:
    text = GAME.read_text(encoding="utf-8")
    assert old in text
    broken = text.replace(old, new, 1)
    errors = errors_of(tmp_path, broken)
    assert [e.message for e in errors] == ["'cancel draw' is said only in the effect of a 'before draw' trigger"]
    lines = [i for i, row in enumerate(broken.splitlines(), 1) if row.strip().endswith("cancel draw")]
    assert errors[0].span.line in lines and errors[0].hint


@pytest.mark.parametrize("old, new", [
    ("      cancel draw\n", "      cancel play\n"),
    ("      effect: play from me.hand\n", "      effect: cancel play\n"),
])
def test_cancel_play_is_said_only_in_a_before_play_trigger(tmp_path: Path, old: str, new: str) -> None:
    text = GAME.read_text(encoding="utf-8")
    errors = errors_of(tmp_path, text.replace(old, new, 1))
    assert [e.message for e in errors] == ["'cancel play' is said only in the effect of a 'before play' trigger"]
    assert "before play" in errors[0].hint


def test_a_trigger_waiting_for_a_decision_is_saved_and_cancels_after_loading(tmp_path: Path) -> None:
    """The trigger is told where the choice is kept by place on the stack (plain data), so a saved game
    whose `before play` trigger waits for a decision still cancels the right play once loaded."""
    text = GAME.read_text(encoding="utf-8").replace(
        "      cancel play\n      me.refused += 1\n",
        "      me chooses one as refuse:\n        \"refuse\":\n          cancel play\n"
        "          me.refused += 1\n        \"allow\":\n          pass\n")
    game = game_of(text, tmp_path)
    st = game.new_state(2, seed=1, before_first_turn=True)
    st.halt_before("play", 1)
    st.go_to_step("play", 1, 0)
    st.arrange({"hand:P1": ["coin", "curse"]})
    st.halt_before("draw", 2)
    st.resume()
    st.apply("curse", 0)
    assert st.waiting() == (0, 2)               # the trigger asks
    loaded = rulelang.State.from_json(game, json.loads(st.dumps()))
    loaded.apply("refuse", 0)
    assert loaded.zone("hand", 0) == ["coin", "curse"] and loaded.counter(0, "refused") == 1
    assert [e["action"] for e in loaded.events if e["type"] == "cancelled" and e["turn"] == 1] == ["play"]


def test_a_mod_over_flapjacks_cancels_draws_and_plays() -> None:
    """Full Hands (tests/cancel_draw_play/full_hands): no Jack card drawn into a hand of five, no Forest Fire."""
    game = rulelang.load_game(ROOT / "games" / "flapjacks", mods=[FULL_HANDS])
    seen = set()
    for seed in range(4):
        outcome = play_random(game, 3, seed)
        assert outcome.problem is None
        events = outcome.state.events
        assert not [e for e in events if e["type"] == "played" and e["card"] == "forest_fire"]
        for e in cancelled(outcome.state, "draw"):
            assert e["from"] == "jack_deck"
        seen |= {e["action"] for e in events if e["type"] == "cancelled"}
    assert seen == {"draw", "play"}


def test_a_log_with_cancels_is_valid_and_replays(tmp_path: Path, capsys) -> None:
    from rulelang.cli import main
    log = tmp_path / "game.jsonl"
    assert main(["run", str(HERE), "--players", "2", "--seed", "3", "--quiet", "--log", str(log)]) == 0
    events = [json.loads(line) for line in log.read_text().splitlines()]
    cancels = [e for e in events if e.get("type") == "cancelled"]
    assert {e["action"] for e in cancels} == {"draw", "play"}
    assert [event_problem(e) for e in cancels] == [None] * len(cancels)
    capsys.readouterr()
    assert main(["replay", str(HERE), str(log)]) == 0, capsys.readouterr().err
