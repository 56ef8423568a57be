"""Every scenario file of the repository, one parametrized test case per scenario.

Scenario files live under ``games/*/scenarios/`` and ``examples/**/scenarios/``;
each scenario is run with ``rulelang.scenario.run_scenario`` and fails with the
runner's own failure lines (expected vs actual) or error report.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from rulelang.errors import RulelangError
from rulelang.scenario import load_scenarios, run_scenario

ROOT = Path(__file__).resolve().parent.parent
PATTERNS = ("games/*/scenarios/**/*.yaml", "examples/**/scenarios/**/*.yaml")


def scenario_files() -> list[Path]:
    found: set[Path] = set()
    for pattern in PATTERNS:
        found.update(p for p in ROOT.glob(pattern) if p.is_file())
    return sorted(found)


def _stems(files: list[Path]) -> dict[Path, str]:
    """The file stem names a case; two files with one stem are told apart by their folder."""
    stems = {}
    for file in files:
        clash = sum(1 for other in files if other.stem == file.stem) > 1
        stems[file] = file.relative_to(ROOT).with_suffix("").as_posix() if clash else file.stem
    return stems


def _cases() -> list:
    cases = []
    files = scenario_files()
    stems = _stems(files)
    for file in files:
        stem = stems[file]
        try:
            scenarios = load_scenarios(file)
        except RulelangError as error:       # a broken file is one failing case, not a collection error
            cases.append(pytest.param(file, None, error.format(), id=f"{stem}::<load>"))
            continue
        for scenario in scenarios:
            cases.append(pytest.param(file, scenario, None, id=f"{stem}::{scenario.name}"))
    return cases


CASES = _cases()


def test_scenario_files_are_found():
    files = scenario_files()
    assert files, f"no scenario files under {ROOT}/games/*/scenarios or examples/**/scenarios"
    assert any(f.parent.parent.name == "jacks_friends" for f in files)
    # the glob finds the same files the CLI finds for a game's scenario folder
    from rulelang.scenario import scenario_files as cli_files
    for game_dir in sorted(ROOT.glob("games/*/scenarios")):
        assert set(p.resolve() for p in cli_files([str(game_dir)])) <= set(files)


def test_scenario_names_are_unique_within_a_file():
    names = [(str(case.values[0]), case.values[1].name) for case in CASES if case.values[1] is not None]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    assert not duplicates, f"two scenarios of one file share a name: {duplicates}"


@pytest.mark.parametrize("file, scenario, load_error", CASES)
def test_scenario(file: Path, scenario, load_error: str | None):
    if load_error is not None:
        pytest.fail(f"{file}: cannot load the scenario file\n{load_error}", pytrace=False)
    result = run_scenario(scenario)
    if not result.passed:
        lines = [f"{file}: {scenario.name}"] + [f"  {line}" for line in result.failures]
        if result.error:
            lines.append(result.error)
        pytest.fail("\n".join(lines), pytrace=False)


def test_a_failing_scenario_reports_expected_and_actual(tmp_path):
    """The runner really fails: a wrong expectation gives an 'expected ..., got ...' line."""
    file = tmp_path / "wrong.yaml"
    file.write_text(
        f"game: {(ROOT / 'games' / 'jacks_friends').as_posix()}\n"
        "scenario: the hen house starts with three eggs at two players (it has two)\n"
        "players: 2\n"
        "expect:\n"
        "  counters:\n"
        "    hen_house: {egg: 3}\n", encoding="utf-8")
    [scenario] = load_scenarios(file)
    result = run_scenario(scenario)
    assert not result.passed
    assert result.failures == ["hen_house.egg: expected 3, got 2"]


def test_a_list_file_may_name_its_game_once_at_the_top(tmp_path):
    """scenario.schema.json allows `game:` beside `scenarios:` ("the game folder, relative to this file")."""
    file = tmp_path / "listed.yaml"
    file.write_text(
        f"game: {(ROOT / 'games' / 'jacks_friends').as_posix()}\n"
        "scenarios:\n"
        "  - scenario: two players start with two eggs in the hen house\n"
        "    players: 2\n"
        "    expect:\n"
        "      counters:\n"
        "        hen_house: {egg: 2}\n", encoding="utf-8")
    [scenario] = load_scenarios(file)
    result = run_scenario(scenario)
    assert result.passed, result.error or result.failures
