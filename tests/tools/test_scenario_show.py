"""`rulelang test --show` and `--events`: a scenario's play-by-play and its raw events under its outcome line.

Pinned on one scenario of Jack's Friends (step 1, the catch), whose events are fixed by its scripted choices:
the play-by-play is the narration `rulelang run` would print, the events the JSON lines `run --log` writes.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulelang.cli import main

from helpers.valid_game import derive

ROOT = Path(__file__).resolve().parents[2]
CATCH = ROOT / "games" / "jacks_friends" / "scenarios" / "step1_catch.yaml"
HEADER = "PASS  {file}: Townsfolk who chose the giant's card are caught; the others are not\n"

SHOWN = """\
      Jack's Friends: 4 players, seed 0 (P1 giant, P2 townsfolk, P3 townsfolk, P4 townsfolk); P1 starts
        hen_house.egg = 4
        kitchen.meat = 4
        garden.veggie = 7
        game.turns_left = 10

      == Turn 1 ==
       - Choose locations
        revealed: P1 kitchen, P2 kitchen, P3 hen_house, P4 kitchen
        P1.at = kitchen
        P2.at = kitchen
        P3.at = hen_house
        P4.at = kitchen
       - 1. Catch
        P2.caught = yes
        P4.caught = yes
       - 2. Gather
        1 egg: hen_house -> P3
       - 3. Build
       - 4. Catches at the giant's locations
        game.catches = 1
        P2.skips = 1
        game.catches = 2
        P4.skips = 1
       - 5. Catches in the Village
"""


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    capsys.readouterr()
    code = main(args)
    out, err = capsys.readouterr()
    assert err == ""
    return code, out


def test_show_prints_the_scenarios_play_by_play_under_its_line(capsys):
    code, out = run_cli(["test", str(CATCH), "--show"], capsys)
    assert code == 0
    assert out == HEADER.format(file=CATCH) + SHOWN + "1 passed, 0 failed\n"


def test_events_prints_the_scenarios_events_as_log_lines(capsys):
    code, out = run_cli(["test", str(CATCH), "--events"], capsys)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] + "\n" == HEADER.format(file=CATCH) and lines[-1] == "1 passed, 0 failed"
    events = [json.loads(line) for line in lines[1:-1]]
    assert all(line.startswith("      {") for line in lines[1:-1])
    assert events[0] == {"type": "started", "game": "Jack's Friends", "players": 4, "seed": 0, "first": "P1",
                         "roles": ["giant", "townsfolk", "townsfolk", "townsfolk"]}
    assert [e["option"] for e in events if e["type"] == "chose"] == ["kitchen", "kitchen", "hen_house", "kitchen"]
    assert events[-1] == {"type": "step", "step": "5. Catches in the Village", "turn": 1}
    assert len(events) == 28


def test_show_and_events_together_tell_the_words_then_the_events(capsys):
    code, out = run_cli(["test", str(CATCH), "--show", "--events"], capsys)
    assert code == 0
    body = out.split("\n", 1)[1]
    assert body.startswith(SHOWN)
    assert body[len(SHOWN):].startswith('      {"first":"P1"')


def test_without_show_a_scenario_is_one_line(capsys):
    code, out = run_cli(["test", str(CATCH)], capsys)
    assert code == 0
    assert out == HEADER.format(file=CATCH) + "1 passed, 0 failed\n"


def test_a_failing_scenario_shows_what_it_played_after_its_failures(tmp_path, capsys):
    failing = tmp_path / "scenarios" / "wrong.yaml"
    failing.parent.mkdir()
    text = CATCH.read_text(encoding="utf-8").replace("game: {catches: 2}", "game: {catches: 3}")
    failing.write_text(f"game: {ROOT / 'games' / 'jacks_friends'}\n" + text, encoding="utf-8")
    code, out = run_cli(["test", str(failing), "--game", str(ROOT / "games" / "jacks_friends"), "--show"], capsys)
    assert code == 1
    lines = out.splitlines()
    assert lines[0].startswith("FAIL  ") and "expected 3, got 2" in lines[1]
    assert "\n".join(lines[2:-1]) + "\n" == SHOWN


def test_show_goes_without_coverage(capsys):
    assert main(["test", str(CATCH), "--coverage", "--show"]) == 2
    assert "--show and --events go without --coverage" in capsys.readouterr().err


def test_what_a_spec_names_is_escaped_in_the_play_by_play_and_the_events(tmp_path, capsys):
    """A step named with an escape sequence and a line break reaches the terminal as visible escapes."""
    spec = derive(tmp_path, ("    - name: Draw\n", '    - name: "Dr\\x1b[2Jaw\\nX"\n'))
    scenario = spec.parent / "scenarios" / "one.yaml"
    scenario.parent.mkdir()
    scenario.write_text("scenario: one draw\nplayers: 2\nexpect: {over: false}\n", encoding="utf-8")
    code, out = run_cli(["test", str(spec.parent), "--show", "--events"], capsys)
    assert code == 0, out
    assert "\x1b" not in out and "\\x1b[2J" in out
    assert "Dr\\x1b[2Jaw\\nX" in out and "Dr\\u001b[2Jaw\\nX" in out     # the words, then the JSON line
