"""Warnings: the published games, the examples and their mods declare nothing they do not use.

The warnings themselves are pinned one a kind in tests/broken/warn_* (run with --strict); here the games
everyone reads are held to them, and the reachability of `check end` is looked at more closely.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from rulelang import load_game
from rulelang.cli import main

from helpers.valid_game import derive

ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted(str(p.parent.relative_to(ROOT)) for p in [*ROOT.glob("games/*/game.yaml"),
                                                         *ROOT.glob("examples/*/game.yaml")])
MODS = {"examples/mods/seven_at_the_table": "games/jacks_friends"}


def test_the_games_are_found() -> None:
    assert "games/flapjacks" in GAMES and "examples/pig" in GAMES


@pytest.mark.parametrize("game", GAMES)
def test_a_published_game_has_no_warning(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    assert [w.format() for w in load_game(game).warnings] == []


@pytest.mark.parametrize("mod", sorted(str(p.relative_to(ROOT)) for p in ROOT.glob("examples/mods/*") if p.is_dir()))
def test_an_example_mod_adds_no_warning(mod: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    game = load_game(MODS.get(mod, "games/flapjacks"), [mod])
    assert [w.format() for w in game.warnings] == []


def test_strict_validate_passes_a_game_without_warnings(capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    assert main(["validate", "--strict", "--games", "0", "games/flapjacks", "games/jacks_friends"]) == 0
    assert capsys.readouterr().err == ""


CHECK_END = "        check end\n"


@pytest.mark.parametrize(("procs", "step"), [
    ("  finish:\n    effect: check end\n", "        finish()\n"),                    # called from a step
    ("  finish:\n    effect: check end\n  wrap:\n    effect: finish()\n", "        wrap()\n"),  # through another
])
def test_check_end_in_a_procedure_a_step_calls_counts(tmp_path: Path, procs: str, step: str) -> None:
    spec = derive(tmp_path, (CHECK_END, step), ("procedures:\n", "procedures:\n" + procs))
    assert load_game(spec.parent).warnings == []


def test_check_end_only_in_procedures_that_call_each_other_is_never_reached(tmp_path: Path) -> None:
    """Two procedures calling each other, neither called by a rule: their `check end` never runs."""
    procs = "  ping:\n    effect: |\n      check end\n      pong()\n  pong:\n    effect: ping()\n"
    spec = derive(tmp_path, (CHECK_END, ""), ("procedures:\n", "procedures:\n" + procs))
    said = [w.message for w in load_game(spec.parent).warnings]
    assert "no rule runs 'check end', so these end conditions are never asked" in said


def test_the_check_end_warning_comes_before_the_turn_limit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The random games of validate still hit the turn limit; the warning at the end conditions is said first."""
    spec = derive(tmp_path, (CHECK_END, ""))
    capsys.readouterr()
    assert main(["validate", "--games", "1", str(spec.parent)]) == 1
    err = capsys.readouterr().err
    assert err.index("warning: no rule runs 'check end'") < err.index("error: the game did not end within 60 turns")


SCENARIO = "scenarios:\n  - scenario: the game starts\n    players: 2\n    expect:\n      active: P1\n"


def test_strict_test_fails_on_the_warnings_of_the_games_its_scenarios_ran(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    spec = derive(tmp_path, ("  hand: {owner: player, visibility: owner}\n",
                             "  hand: {owner: player, visibility: owner}\n  vault: {owner: table, visibility: hidden}\n"))
    (spec.parent / "scenarios").mkdir()
    (spec.parent / "scenarios" / "start.yaml").write_text(SCENARIO, encoding="utf-8")
    capsys.readouterr()
    assert main(["test", str(spec.parent)]) == 0
    assert capsys.readouterr().err == ""
    assert main(["test", "--strict", str(spec.parent)]) == 1
    err = capsys.readouterr().err
    assert "warning: zone 'vault' is never used: no rule names it" in err
    assert err.endswith("rulelang: error: 1 warning, and --strict makes warnings errors\n")


def test_strict_test_passes_a_game_without_warnings(capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The game of an earlier run (the one above, with a warning) is not this run's: only the games used count."""
    monkeypatch.chdir(ROOT)
    assert main(["test", "--strict", "examples/pig"]) == 0
    assert capsys.readouterr().err == ""
