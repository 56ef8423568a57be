"""Every scenario file of the repository, one parametrized test case per scenario.

Scenario files live under ``games/*/scenarios/`` and ``examples/**/scenarios/``;
each scenario is run with ``rulelang.testing.scenario.run_scenario`` and fails with the
runner's own failure lines (expected vs actual) or error report.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulelang.errors import RulelangError
from rulelang.testing.scenario import load_scenarios, run_scenario

from helpers.examples import examples
from helpers.games import shipped

ROOT = Path(__file__).resolve().parents[2]
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
    from rulelang.testing.scenario import scenario_files as cli_files
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


def test_a_scenario_without_game_finds_only_the_game_it_sits_in(tmp_path):
    """GAME/scenarios/FILE.yaml finds GAME; a game.yaml further up (planted in /tmp, say) is never used."""
    shutil.copytree(ROOT / "games" / "jacks_friends", tmp_path / "game", ignore=shutil.ignore_patterns("scenarios"))
    text = ("scenario: two players start with two eggs in the hen house\n"
            "players: 2\n"
            "expect:\n"
            "  counters:\n"
            "    hen_house: {egg: 2}\n")
    near = tmp_path / "game" / "scenarios" / "eggs.yaml"
    near.parent.mkdir()
    near.write_text(text, encoding="utf-8")
    [scenario] = load_scenarios(near)
    assert run_scenario(scenario).passed
    far = tmp_path / "game" / "deep" / "er" / "eggs.yaml"
    far.parent.mkdir(parents=True)
    far.write_text(text, encoding="utf-8")
    [scenario] = load_scenarios(far)
    result = run_scenario(scenario)
    assert not result.passed and "no game for this scenario" in str(result.error)


# --- a scenario is checked against its game: located errors, not values that fail later -------------

JACKS_FRIENDS = ROOT / "games" / "jacks_friends"
FLAPJACKS = ROOT / "games" / "flapjacks"
LIARS_DICE = ROOT / "examples" / "liars_dice"
JF_GAME = shipped("games/jacks_friends")


def scenario_error(tmp_path: Path, game: Path, body: str, players: int = 3) -> tuple[str, int, int, str | None]:
    """Run a one-scenario file whose last line is ``body``; return (message, line, col, hint) of its error."""
    file = tmp_path / "bad.yaml"
    file.write_text(f"game: {game.as_posix()}\nscenario: a mistake\nplayers: {players}\n{body}\n", encoding="utf-8")
    [scenario] = load_scenarios(file)
    from rulelang.testing import scenario as runner
    game_of = runner.game_for(scenario)
    from rulelang.testing.scenario_check import Where, check_scenario
    with pytest.raises(RulelangError) as caught:
        check_scenario(game_of, scenario.data, Where(scenario.doc, scenario.path))
    error = caught.value
    result = run_scenario(scenario)                       # the runner reports the same located error
    assert not result.passed and result.error == error.format()
    assert error.span.file == str(file)
    return error.message, error.span.line, error.span.col, error.hint


@pytest.mark.parametrize("game, body, message, col", [
    (JACKS_FRIENDS, "setup: {step: Choose locations, active: P99}", "unknown player 'P99'", 41),
    (JACKS_FRIENDS, "setup: {active: P2}", "'active' takes effect only with 'step' (the step to start at)", 9),
    (JACKS_FRIENDS, "setup: {vars: {P1: {caught: 5}}}",
     "'caught' is a bool variable: expected true or false, got 5", 29),
    (JACKS_FRIENDS, "setup: {vars: {P1: {skips: true}}}",
     "'skips' is an int variable: expected a whole number, got true", 28),
    (JACKS_FRIENDS, "setup: {vars: {P1: {at: moon}}}",
     "'at' is a location variable: expected a location or null, got the text 'moon'", 25),
    (JACKS_FRIENDS, "setup: {vars: {P1: {nope: 1}}}", "unknown variable 'nope'", 21),
    (JACKS_FRIENDS, "setup: {vars: {P4: {skips: 1}}}", "unknown player 'P4'", 16),
    (JACKS_FRIENDS, "setup: {counters: {P1: {egg: -3}}}", "a counter cannot be negative (-3)", 30),
    (JACKS_FRIENDS, "setup: {counters: {P1: {egg: 9223372036854775808}}}",
     "9223372036854775808 is more than a counter can hold", 30),
    (JACKS_FRIENDS, "setup: {counters: {P1: {eggs: 3}}}", "unknown counter 'eggs'", 25),
    (JACKS_FRIENDS, "setup: {counters: {moon: {egg: 3}}}", "unknown holder 'moon'", 20),
    (JACKS_FRIENDS, "setup: {step: Nope}", "unknown step 'Nope'", 15),
    (JACKS_FRIENDS, "stop_before: {step: Nope}", "unknown step 'Nope'", 21),
    (JACKS_FRIENDS, "setup: {dice: [1]}", "this game has no dice to script", 9),
    (JACKS_FRIENDS, "choices: [{P9: hen_house}]", "unknown player 'P9'", 12),
    (JACKS_FRIENDS, "expect: {counters: {P1: {nope: 1}}}", "unknown counter 'nope'", 26),
    (JACKS_FRIENDS, "expect: {vars: {P1: {nope: 1}}}", "unknown variable 'nope'", 22),
    (JACKS_FRIENDS, "expect: {options: {P9: [x]}}", "unknown player 'P9'", 20),
    (JACKS_FRIENDS, "expect: {winners: [P7]}", "unknown winner 'P7'", 20),
    (FLAPJACKS, "setup: {zones: {hand: [titanium_axe]}}", "unknown zone 'hand'", 17),
    (FLAPJACKS, "setup: {zones: {jack_deck:P1: [titanium_axe]}}", "unknown zone 'jack_deck:P1'", 17),
    (FLAPJACKS, "setup: {zones: {hand:P4: [titanium_axe]}}", "unknown zone 'hand:P4'", 17),
    (FLAPJACKS, "setup: {zones: {hand:P1: [titanium_ax]}}", "unknown card 'titanium_ax'", 27),
    (FLAPJACKS, "setup: {zones: {hand:P1: [titanium_axe, titanium_axe], play:P2: [titanium_axe, titanium_axe]}}",
     "the game has only 3 'titanium_axe' cards", 80),
    (FLAPJACKS, "setup: {top: {jack_deck: [nope]}}", "unknown card 'nope'", 27),
    (FLAPJACKS, "expect: {counts: {tree:P9: 1}}", "unknown zone 'tree:P9'", 19),
], ids=lambda v: v if isinstance(v, str) and len(v) < 60 else None)
def test_scenario_mistakes_are_located_errors(tmp_path: Path, game: Path, body: str, message: str, col: int) -> None:
    assert scenario_error(tmp_path, game, body)[:3] == (message, 4, col)


@pytest.mark.parametrize("body, message", [
    ("setup: {vars: {P1: {bid: [1, 2, 3]}}}",
     "'bid' is a (int, int) variable: expected a list of 2 values, got a list of 3"),
    ("setup: {vars: {P1: {bid: 12}}}", "'bid' is a (int, int) variable: expected a list of 2 values, got 12"),
    ("setup: {vars: {P1: {bid: [1, true]}}}", "'bid[1]' is an int variable: expected a whole number, got true"),
])
def test_a_tuple_variable_in_a_scenario_is_a_list_of_its_elements(tmp_path: Path, body: str, message: str) -> None:
    assert scenario_error(tmp_path, LIARS_DICE, body, players=2)[:3] == (message, 4, 26)


def test_a_scripted_face_no_roll_reaches_must_still_fit_some_die(tmp_path: Path) -> None:
    """Faces left over after the run are checked against the largest die, at their place in the file."""
    file = tmp_path / "bad.yaml"
    file.write_text(f"game: {FLAPJACKS.as_posix()}\nscenario: a mistake\nplayers: 3\nsetup: {{dice: [1, 7]}}\n",
                    encoding="utf-8")
    [scenario] = load_scenarios(file)
    result = run_scenario(scenario)
    assert not result.passed
    assert result.error.startswith(f"{file}:4:19: error: no die of this game has a face 7")


@pytest.mark.parametrize("label, hint", [
    ("hand", "'hand' is a zone of each player: name one as 'hand:P1'"),
    ("jack_deck:P1", "'jack_deck' is a table zone: name it 'jack_deck', without an owner"),
    ("hand:P4", "this scenario has 3 players: P1 to P3"),
])
def test_a_zone_named_with_the_wrong_owner_says_how_to_name_it(tmp_path: Path, label: str, hint: str) -> None:
    assert scenario_error(tmp_path, FLAPJACKS, f"setup: {{zones: {{{label}: []}}}}")[3] == hint


def test_players_out_of_range_point_at_players_and_still_match_expect_error(tmp_path: Path) -> None:
    message, line, col, _ = scenario_error(tmp_path, JACKS_FRIENDS, "", players=9)
    assert (line, col) == (3, 10) and message.endswith("is for 2 to 6 players, not 9")


PLAYER_VAR_GAME = (
    ("vars:\n  bet: {type: int}\n", "vars:\n  bet: {type: int}\n  rival: {type: player}\n"),
    ("        me.bet = n\n", "        me.bet = n\n        me.coin += me.rival.coin - me.rival.coin\n"),
)


def player_var_game(tmp_path: Path) -> Path:
    """The tiny valid game with a player variable `rival` that a later rule reads."""
    dest = tmp_path / "game"
    shutil.copytree(ROOT / "tests" / "broken" / "_valid", dest)
    spec = dest / "game.yaml"
    text = spec.read_text(encoding="utf-8")
    for old, new in PLAYER_VAR_GAME:
        assert old in text
        text = text.replace(old, new, 1)
    spec.write_text(text, encoding="utf-8")
    return dest


@pytest.mark.parametrize("value, message", [
    ("P3", "'rival' is a player variable: expected a player of this scenario or null, got the text 'P3'"),
    ("Bob", "'rival' is a player variable: expected a player of this scenario or null, got the text 'Bob'"),
    ("2", "'rival' is a player variable: expected a player of this scenario or null, got 2"),
])
def test_a_player_variable_must_name_a_player_of_the_scenario(tmp_path: Path, value: str, message: str) -> None:
    game = player_var_game(tmp_path)
    body = f"setup: {{step: Bet, vars: {{P1: {{rival: {value}}}}}}}"
    assert scenario_error(tmp_path, game, body, players=2)[:3] == (message, 4, 39)


def test_a_player_variable_given_by_name_holds_that_player(tmp_path: Path) -> None:
    """`rival: P2` is the player P2 (not the text 'P2' that would fail in a later rule)."""
    game = player_var_game(tmp_path)
    file = tmp_path / "ok.yaml"
    file.write_text(f"game: {game.as_posix()}\nscenario: a rival\nplayers: 2\n"
                    "setup: {step: Bet, active: P1, vars: {P1: {rival: P2}}}\n"
                    "choices: [{P1: '1'}]\n"
                    "expect: {vars: {P1: {rival: P2, bet: 1}}}\n", encoding="utf-8")
    [scenario] = load_scenarios(file)
    result = run_scenario(scenario)
    assert result.passed, result.error or result.failures


SCALARS = st.one_of(st.integers(min_value=-(2**70), max_value=2**70), st.booleans(), st.none(),
                    st.text(max_size=6), st.floats(allow_nan=False))


@examples(200)
@given(value=SCALARS)
def test_a_set_up_counter_is_refused_unless_a_whole_number_a_counter_can_hold(value) -> None:
    from rulelang.errors import Span
    from rulelang.lang.types import INT64 as COUNTER_MAX
    from rulelang.testing.scenario_check import check_counter_value

    fits = isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= COUNTER_MAX
    span = Span("s.yaml", 4, 9)
    if fits:
        check_counter_value(value, span)
    else:
        with pytest.raises(RulelangError) as caught:
            check_counter_value(value, span)
        assert caught.value.span == span


@examples(200)
@given(value=st.one_of(SCALARS, st.sampled_from(["P1", "P2", "P3", "hen_house", "moon", "egg"])),
       name=st.sampled_from(["at", "caught", "skips"]))
def test_a_set_up_variable_is_accepted_exactly_when_it_has_the_declared_type(value, name: str) -> None:
    from rulelang.errors import Span
    from rulelang.testing.scenario_check import check_var_value

    game = JF_GAME
    kind = game.var_types[game.var_names.index(name)]
    fits = {"int": isinstance(value, int) and not isinstance(value, bool) and -(2**63) <= value < 2**63,
            "bool": isinstance(value, bool),
            "location": value is None or value in game.locations}[str(kind)]
    span = Span("s.yaml", 4, 9)
    if fits:
        check_var_value(game, kind, name, value, ["P1", "P2"], span)
    else:
        with pytest.raises(RulelangError) as caught:
            check_var_value(game, kind, name, value, ["P1", "P2"], span)
        assert caught.value.span == span and f" {kind} variable: expected " in caught.value.message
