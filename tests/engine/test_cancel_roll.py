"""`cancel roll` in a `before roll` trigger: no dice, no `after roll`, no card's duration ends (docs/language.md)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulelang import load_game
from rulelang.errors import ErrorList, RulelangError
from rulelang.testing.smoke import play_random

GAME = Path(__file__).resolve().parents[1] / "cancel_roll" / "game.yaml"


def played(text: str | None = None, tmp_path: Path | None = None):
    path = GAME
    if text is not None:
        path = tmp_path / "game.yaml"
        path.write_text(text, encoding="utf-8")
    outcome = play_random(load_game(path), 2, 0)
    assert outcome.problem is None
    return outcome.state


def errors_of(tmp_path: Path, text: str) -> list[RulelangError]:
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RulelangError) as caught:
        load_game(path)
    error = caught.value
    return list(error.errors) if isinstance(error, ErrorList) else [error]


def test_a_cancelled_roll_rolls_no_dice_and_ends_no_duration() -> None:
    state = played()
    first_turn = [e for e in state.events if e.get("turn") == 1]
    assert not [e for e in first_turn if e["type"] == "rolled"]
    assert {"type": "roll_changed", "turn": 1, "die": "d6", "how": "cancelled", "faces": []} in first_turn
    # the charm lasts until its owner's next roll: the cancelled one is not a roll, the one of turn 3 is
    used_up = [e for e in state.events if e["type"] == "moved" and e.get("card") == "charm"
               and e.get("to", "").startswith("spent")]
    assert [e["turn"] for e in used_up] == [3]
    assert [e["turn"] for e in state.events if e["type"] == "rolled" and e["player"] == "P1"][:1] == [3]


def test_without_the_cancel_the_roll_of_no_dice_still_counts(tmp_path: Path) -> None:
    text = GAME.read_text().replace("      cancel roll\n", "      dice = 0\n")
    state = played(text, tmp_path)
    rolled = [e for e in state.events if e["type"] == "rolled" and e["player"] == "P1"]
    assert rolled[0]["turn"] == 1 and rolled[0]["faces"] == []
    used_up = [e["turn"] for e in state.events if e["type"] == "moved" and e.get("card") == "charm"
               and e.get("to", "").startswith("spent")]
    assert used_up == [1]


@pytest.mark.parametrize("where, old, new", [
    ("a step", "        me rolls 2 d6 as r\n", "        cancel roll\n        me rolls 2 d6 as r\n"),
    ("an after roll trigger", "    on: before roll d6\n", "    on: after roll d6\n"),
])
def test_cancel_roll_is_said_only_in_a_before_roll_trigger(tmp_path: Path, where: str, old: str, new: str) -> None:
    text = GAME.read_text()
    assert old in text
    errors = errors_of(tmp_path, text.replace(old, new))
    assert [e.message for e in errors] == ["'cancel roll' is said only in the effect of a 'before roll' trigger"]
    line = next(i for i, row in enumerate(text.replace(old, new).splitlines(), 1) if row.strip() == "cancel roll")
    assert errors[0].span.line == line


def test_a_log_with_a_cancelled_roll_replays(tmp_path: Path, capsys) -> None:
    from rulelang.cli import main
    log = tmp_path / "game.jsonl"
    assert main(["run", str(GAME.parent), "--players", "2", "--seed", "3", "--quiet", "--log", str(log)]) == 0
    assert '"how": "cancelled"' in log.read_text() or '"how":"cancelled"' in log.read_text()
    from rulelang.logs.eventlog import event_problem
    events = [json.loads(line) for line in log.read_text().splitlines()]
    assert [event_problem(e) for e in events if e.get("how") == "cancelled"] == [None]
    capsys.readouterr()
    assert main(["replay", str(GAME.parent), str(log)]) == 0, capsys.readouterr().err
