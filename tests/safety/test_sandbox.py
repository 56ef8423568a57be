"""Hostile specs and runaway rules: refused or stopped quickly, with located errors.

- Rule texts reach nothing but the spec's own names: Python names, attributes,
  calls and imports are located "unknown ..." or syntax errors; no eval ever runs, and
  compile and exec run only in the code generator, on the Python it built from checked trees.
- YAML that would build Python objects, alias bombs, absurd nesting and huge
  texts are refused quickly.
- Rules that trigger each other forever, procedures that call themselves and
  games that never end stop with an error naming the rule and the budget.
- `rulelang validate` finds such games with random play and names the seed;
  `rulelang run --log` keeps the log written up to an error.

Every game here is the tiny valid game of tests/broken/_valid with a change.
"Quickly" is asserted only as "well before a hang" (HANG_SECONDS of CPU time),
so a busy machine does not make the tests flaky; bench/hostile.py measures
how fast each refusal really is.
"""
from __future__ import annotations

import builtins
import json
import re
import shutil
import time
from pathlib import Path

import pytest

import rulelang
from rulelang.cli import main
from rulelang.errors import RuleError, RulelangError, SpecError
from rulelang.testing import smoke as sim

from helpers.tiny_games import game_with_state

ROOT = Path(__file__).resolve().parents[2]
VALID = ROOT / "tests" / "broken" / "_valid"
#: A refusal that takes longer than this is a hang; the real figures (milliseconds) are in bench/hostile.py.
HANG_SECONDS = 20


def derive(tmp_path: Path, *changes: tuple[str, str, str], name: str = "game") -> Path:
    """A copy of the tiny valid game with each (file, old, new) replacement made once."""
    dest = tmp_path / name
    shutil.copytree(VALID, dest)
    for file, old, new in changes:
        path = dest / file
        text = path.read_text(encoding="utf-8")
        assert old in text, old
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return dest


def spec_error(path: Path) -> RulelangError:
    with pytest.raises(RulelangError) as caught:
        rulelang.load_game(path)
    return caught.value


def line_of(path: Path, text: str) -> int:
    """The 1-based line of ``path`` where ``text`` first appears."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if text in line:
            return number
    raise AssertionError(f"{text!r} not in {path}")


def cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(args)
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


# --- rule texts reach only the spec's own names ---------------------------------------------------

BET = "        me.bet = n\n"
PYTHON_TEXTS = [
    ("x = __import__", "unknown name '__import__'"),
    ("x = __builtins__", "unknown name '__builtins__'"),
    ("x = me.__class__", "a player has no '__class__'"),
    ("x = me.__class__.__bases__", "a player has no '__class__'"),
    ("x = game.__dict__", "the game has no counter '__dict__'"),
    ("x = pot.__init__", "a location has no '__init__'"),
    ("me.bet = eval(\"1 + 1\")", "unknown function 'eval'"),
    ("x = open(\"/etc/passwd\")", "unknown function 'open'"),
    ("x = getattr(me, \"__class__\")", "unknown function 'getattr'"),
    ("exec(\"print(1)\")", "unknown procedure 'exec'"),
    ("x = __import__(\"os\")", "unknown function '__import__'"),
    ("x = __import__('os')", "unexpected character \"'\""),
    ("import os", "no statement 'import'"),
    ("from os import system", "no statement 'from'"),
    ("os.system(\"echo hacked\")", "unexpected '('"),
    ("x = lambda: 1", "unexpected ':'"),
    ("x = (1).__class__", "a number has no '__class__'"),
    ("x = [me][0]", "only players, locations, cards and the game hold counters, not a list of players"),
    ("x = \"{0.__class__}\".format", "a label has no 'format'"),
]


@pytest.mark.parametrize("text, message", PYTHON_TEXTS)
def test_python_is_out_of_reach(tmp_path: Path, text: str, message: str) -> None:
    game = derive(tmp_path, ("game.yaml", BET, f"        {text}\n"))
    error = spec_error(game)
    assert error.kind == "error" and not isinstance(error, RuleError)
    assert error.message.startswith(message), error.format()
    assert error.span is not None and error.span.file == str(game / "game.yaml")
    assert error.span.line == line_of(game / "game.yaml", text)
    assert "Traceback" not in error.format()


def test_only_the_code_generator_compiles_and_only_its_own_source(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """No eval ever; compile and exec only in rulelang/compiler/codegen.py, on the source it built.

    Rule texts become checked trees; the one module that generates Python from them compiles its
    own output (spec text only as repr literals: tests/equivalence/test_codegen.py fuzzes that) and nothing else.
    """
    import sys

    from rulelang.compiler import codegen

    rulelang.load_game(VALID)          # warm the caches (grammar, schema) before watching
    calls: list[tuple[str, str]] = []
    real = {name: getattr(builtins, name) for name in ("eval", "exec", "compile")}

    def watched(name):
        def call(*args, **kwargs):
            caller = sys._getframe(1).f_code
            calls.append((name, caller.co_filename, caller.co_name))
            if name == "compile":
                assert args[1].startswith(codegen.FILENAME) and args[2] == "exec"
            if name == "exec":
                assert args[0].co_filename.startswith(codegen.FILENAME)
            return real[name](*args, **kwargs)
        return call

    for name in real:
        monkeypatch.setattr(builtins, name, watched(name))
    for path in (VALID, ROOT / "games" / "jacks_friends"):
        game = rulelang.load_game(path)
        state = game.new_state(game.min_players, seed=3)
        rulelang.agents.play_out(state, rulelang.agents.RandomAgent(3))
    with pytest.raises(SpecError):
        rulelang.load_game(derive(tmp_path, ("game.yaml", BET, "        x = __import__\n")))
    assert calls, "the games compile their rules to Python"
    assert {name for name, _, _ in calls} == {"compile", "exec"}
    assert {(file, function) for _, file, function in calls} == {(codegen.__file__, "build")}


# --- hostile YAML ----------------------------------------------------------------------------------

@pytest.mark.parametrize("tag", ["!!python/object/apply:os.mkdir", "!!python/object/new:os.mkdir",
                                 "!!python/name:os.mkdir", "!!python/module:os"])
def test_python_tags_are_refused_and_never_run(tmp_path: Path, tag: str) -> None:
    canary = tmp_path / "pwned"
    game = derive(tmp_path, ("game.yaml", "game: Gem Hunt", f'game: {tag} ["{canary}"]'))
    error = spec_error(game)
    assert error.message.startswith(f"YAML tag '{tag}' is not allowed")
    assert (error.span.line, error.span.col) == (3, 7)
    assert not canary.exists()


def test_alias_bomb_is_refused_quickly(tmp_path: Path) -> None:
    bomb = "laughs:\n  a: &a [ha, ha, ha, ha, ha, ha, ha, ha, ha, ha]\n" + "".join(
        f"  {c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
        for p, c in zip("abcdefghijklmnopqrs", "bcdefghijklmnopqrst"))
    game = derive(tmp_path, ("game.yaml", "zones:", bomb + "zones:"))
    started = time.process_time()
    error = spec_error(game)
    assert time.process_time() - started < HANG_SECONDS
    assert "once aliases are expanded" in error.message


@pytest.mark.parametrize("depth", [150, 100_000])
def test_deep_nesting_is_refused_quickly(tmp_path: Path, depth: int) -> None:
    game = derive(tmp_path, ("game.yaml", "zones:", "deep: " + "[" * depth + "]" * depth + "\nzones:"))
    started = time.process_time()
    error = spec_error(game)
    assert time.process_time() - started < HANG_SECONDS
    assert error.message == "nesting is too deep: more than 100 levels of lists and mappings"
    shown = error.format().splitlines()
    assert len(shown[1]) <= 130 and shown[1].endswith("..."), "a long line is shown as a window"
    assert shown[2].rstrip().endswith("^")


@pytest.mark.parametrize("text, message", [
    ("not " * 5000 + "true", "rule text is nested too deeply"),
    ("[" * 5000 + "]" * 5000 + " = players", "rule text is nested too deeply"),
    ("1" + " + 1" * 3000 + " > 0", "rule text is nested too deeply"),
    ("(" * 5000 + "pot.coin" + ")" * 5000 + " >= 8", "the winner"),   # brackets alone nest nothing
], ids=["not", "lists", "sum", "brackets"])
def test_deep_rule_texts_are_refused_without_recursion_errors(tmp_path: Path, text: str, message: str) -> None:
    game = derive(tmp_path, ("game.yaml", "winner: richest()", f'winner: "{text}"'))
    started = time.process_time()
    error = spec_error(game)
    assert time.process_time() - started < HANG_SECONDS
    assert error.message.startswith(message)
    assert error.span.line == line_of(game / "game.yaml", "winner:")


def test_huge_rule_text_is_refused_quickly(tmp_path: Path) -> None:
    effect = "\n".join("        me.coin += 1" for _ in range(5000))
    game = derive(tmp_path, ("game.yaml", BET, BET + effect + "\n"))
    started = time.process_time()
    error = spec_error(game)
    assert time.process_time() - started < HANG_SECONDS
    assert re.fullmatch(r"rule text is too long \([\d,]+ characters; the limit is 50,000\)", error.message)
    assert error.span.line == line_of(game / "game.yaml", "me chooses n from 0 to me.coin")
    assert error.hint == "split it into procedures"


@pytest.mark.slow
def test_long_rule_text_under_the_limit_loads_and_plays(tmp_path: Path) -> None:
    effect = "\n".join("        me.coin += 1" for _ in range(3000))
    game = derive(tmp_path, ("game.yaml", BET, BET + effect + "\n"))
    started = time.process_time()
    loaded = rulelang.load_game(game)
    state = loaded.new_state(2, seed=1)
    rulelang.agents.play_out(state, rulelang.agents.RandomAgent(1))
    assert time.process_time() - started < HANG_SECONDS
    assert state.over


# --- runaway rules ----------------------------------------------------------------------------------

BOUNCE = (
    ("game.yaml", "  hand: {owner: player, visibility: owner}\n",
     "  hand: {owner: player, visibility: owner}\n  left: {owner: table, visibility: public}\n"
     "  right: {owner: table, visibility: public}\n\ntriggers:\n  - name: to the right\n    on: enter left\n"
     "    effect: move card to right\n  - name: to the left\n    on: enter right\n    effect: move card to left\n"),
    ("game.yaml", "    p.coin = 3\n", "    p.coin = 3\n  draw 1 from deck to left\n"),
)


def runaway(game_path: Path) -> tuple[RuleError, float]:
    game = rulelang.load_game(game_path)
    started = time.process_time()
    with pytest.raises(RuleError) as caught:
        state = game.new_state(2, seed=1)
        rulelang.agents.play_out(state, rulelang.agents.RandomAgent(1))
    return caught.value, time.process_time() - started


def test_triggers_moving_a_card_back_and_forth_stop_instead_of_hanging(tmp_path: Path) -> None:
    game = derive(tmp_path, *BOUNCE)
    error, took = runaway(game)
    assert took < HANG_SECONDS
    assert error.message.startswith("the rules ran 100,000 steps without a decision")
    assert error.span.file == str(game / "game.yaml")
    assert error.span.line in (line_of(game / "game.yaml", "move card to right"),
                               line_of(game / "game.yaml", "move card to left"))
    assert "step_budget" in error.hint and "seed 1" in error.hint


def test_the_step_budget_is_the_games_own(tmp_path: Path) -> None:
    game = derive(tmp_path, *BOUNCE, ("game.yaml", "\nturn:", "\nstep_budget: 5000\n\nturn:"))
    error, took = runaway(game)
    assert took < HANG_SECONDS
    assert error.message.startswith("the rules ran 5,000 steps without a decision")


def test_a_procedure_that_calls_itself_stops_instead_of_hanging(tmp_path: Path) -> None:
    game = derive(tmp_path, ("game.yaml", "    effect: move n coin from p to pot",
                             "    effect: |\n      move n coin from p to pot\n      pay(p, n)"),
                  ("game.yaml", "    p.coin = 3\n", "    p.coin = 3\n  pay(first(players), 0)\n"))
    error, took = runaway(game)
    assert took < HANG_SECONDS
    assert error.message.startswith("the rules ran 100,000 steps")
    assert error.span.line in (line_of(game / "game.yaml", "move n coin from p to pot"),
                               line_of(game / "game.yaml", "pay(p, n)"))


def test_a_function_that_calls_itself_is_a_located_error(tmp_path: Path) -> None:
    game = derive(tmp_path, ("game.yaml", "    value: first(p in players where p.coin = max(q.coin for q in players))",
                             "    value: richest()"))
    error = spec_error(game)
    assert error.message == "function 'richest' calls itself"
    assert error.span is not None and error.span.line == line_of(game / "game.yaml", "value: richest()")


def test_a_game_that_never_ends_stops_at_the_turn_limit(tmp_path: Path) -> None:
    game = derive(tmp_path, ("game.yaml", "when: pot.coin >= 8", "when: pot.coin >= 800"))
    error, took = runaway(game)
    assert took < HANG_SECONDS
    assert error.message == "the game did not end within 60 turns"
    assert "seed 1" in error.hint


# --- the smoke test of `rulelang validate` --------------------------------------------------------------

DIVIDE_ON_TURN_3 = ("game.yaml", BET, "        me.bet = 6 // (3 - turn)\n")


def test_validate_finds_a_rule_error_with_its_seed(tmp_path: Path, capsys, monkeypatch) -> None:
    game = derive(tmp_path, DIVIDE_ON_TURN_3)
    monkeypatch.chdir(tmp_path)
    code, out, err = cli(["validate", "--games", "3", "game"], capsys)
    line = line_of(game / "game.yaml", "6 // (3 - turn)")
    assert code == 1 and out == ""
    assert err == (
        f"game/game.yaml:{line}:18: error: division by zero\n"
        "        me.bet = 6 // (3 - turn)\n"
        "                 ^^^^^^^^^^^^^^^\n"
        "hint: seed 0, turn 3\n"
        "note: found by a random game with 2 players, seed 0, turn 3; "
        "replay it with: rulelang run game/game.yaml --players 2 --seed 0\n")


def test_validate_finds_a_game_that_never_ends(tmp_path: Path, capsys, monkeypatch) -> None:
    derive(tmp_path, ("game.yaml", "when: pot.coin >= 8", "when: pot.coin >= 800"))
    monkeypatch.chdir(tmp_path)
    code, out, err = cli(["validate", "--games", "2", "--seed", "5", "game"], capsys)
    assert code == 1
    line = line_of(tmp_path / "game" / "game.yaml", "limit: 60")
    assert err.startswith(f"game/game.yaml:{line}:10: error: the game did not end within 60 turns\n")
    assert "seed 5" in err and "rulelang run game/game.yaml --players 2 --seed 5" in err


def test_validate_finds_a_decision_nobody_can_take(tmp_path: Path, capsys, monkeypatch) -> None:
    game = derive(tmp_path, ("game.yaml", "me chooses n from 0 to me.coin",
                             "first(p in players where p.coin > 100) chooses n from 0 to me.coin"))
    monkeypatch.chdir(tmp_path)
    code, out, err = cli(["validate", "--games", "2", "game"], capsys)
    assert code == 1
    line = line_of(game / "game.yaml", "chooses n from 0")
    assert err.startswith(f"game/game.yaml:{line}:9: error: a decision waits for a player who is none\n")
    assert "seed 0" in err


def test_smoke_test_reports_a_player_without_options(monkeypatch: pytest.MonkeyPatch) -> None:
    def empty(state):
        state.pending["options"] = [[] for _ in state.pending["options"]]
    outcome = sim.play_random(game_with_state(monkeypatch, empty), 2, 4)
    assert outcome.problem == "2 players, seed 4: P1 must choose but has no legal option"
    assert outcome.error.span is not None and outcome.error.span.line == line_of(
        VALID / "game.yaml", "me chooses n from 0 to me.coin")
    assert "--players 2 --seed 4" in outcome.error.notes[-1]


def test_smoke_test_reports_a_stuck_game(monkeypatch: pytest.MonkeyPatch) -> None:
    def stuck(state):
        state.pending = None
    outcome = sim.play_random(game_with_state(monkeypatch, stuck), 3, 2)
    assert outcome.problem == "3 players, seed 2: the game is stuck: it is not over and waits for no decision"
    assert "replay it with: rulelang run" in outcome.error.format()


def test_smoke_test_passes_a_good_game(capsys) -> None:
    code, out, err = cli(["validate", "--games", "5", str(VALID)], capsys)
    assert (code, err) == (0, "")
    assert "5 random games per player count" in out


# --- errors while playing: located, with seed and turn, the log kept -----------------------------------

def test_run_error_names_line_seed_and_turn_and_keeps_the_log(tmp_path: Path, capsys) -> None:
    game = derive(tmp_path, DIVIDE_ON_TURN_3)
    log = tmp_path / "game.jsonl"
    code, out, err = cli(["run", str(game), "--players", "2", "--seed", "1", "--log", str(log), "--quiet"], capsys)
    line = line_of(game / "game.yaml", "6 // (3 - turn)")
    assert code == 1
    lines = err.splitlines()
    assert lines[0] == f"{game}/game.yaml:{line}:18: error: division by zero"
    assert lines[3] == "hint: seed 1, turn 3"
    events = [json.loads(text) for text in log.read_text(encoding="utf-8").splitlines()]
    assert lines[4] == f"note: the event log up to the error ({len(events)} events) is in {log}"
    assert events[0]["type"] == "started" and events[0]["seed"] == 1
    assert max(e["turn"] for e in events if e["type"] == "turn") == 3
    assert events[-1]["turn"] == 3


def test_run_keeps_the_log_of_a_game_that_fails_in_setup(tmp_path: Path, capsys) -> None:
    game = derive(tmp_path, *BOUNCE, ("game.yaml", "\nturn:", "\nstep_budget: 1000\n\nturn:"))
    log = tmp_path / "setup.jsonl"
    code, out, err = cli(["run", str(game), "--players", "3", "--log", str(log), "--quiet"], capsys)
    assert code == 1
    assert "error: the rules ran 1,000 steps without a decision" in err
    events = log.read_text(encoding="utf-8").splitlines()
    assert json.loads(events[0])["type"] == "started"
    moved = [e for e in events if json.loads(e)["type"] == "moved"]
    assert len(moved) > 1000 // 2 - 50     # each bounce is two steps of work (its statement, the card moved)
    assert f"({len(events)} events) is in {log}" in err


def test_run_of_a_broken_spec_is_a_located_error(tmp_path: Path, capsys) -> None:
    game = derive(tmp_path, ("game.yaml", "draw 1 from deck", "draw 1 from dekc"))
    code, out, err = cli(["run", str(game), "--players", "2"], capsys)
    assert code == 1 and out == ""
    assert err.startswith(f"{game}/game.yaml:{line_of(game / 'game.yaml', 'dekc')}:27: error: unknown name 'dekc'")
