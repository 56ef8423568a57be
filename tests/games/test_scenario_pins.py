"""Scenarios pin what a designer could change by one: the size of a die and the range of player counts.

- a scripted face the die cannot show is a located error at that face in the
  scenario file, naming the die it landed on (so `expect_error` can pin a die's
  size from above, and a scripted 6 pins it from below);
- `expect: {refused: players}` passes only when the game refuses that count.
"""
from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from rulelang.testing.scenario import load_scenarios, run_scenario

from helpers.examples import examples

ROOT = Path(__file__).resolve().parents[2]
FLAPJACKS = (ROOT / "games" / "flapjacks").as_posix()
JACKS_FRIENDS = (ROOT / "games" / "jacks_friends").as_posix()


def _chopping(dice: list[int], play: str = "[chopping_axe]", expect_error: str | None = None) -> str:
    """A Flapjacks scenario that starts at P1's chopping step with ``play`` in front of P1."""
    return (f"game: {FLAPJACKS}\n"
            "scenario: a scripted chopping step\n"
            "players: 2\n"
            "setup:\n"
            "  step: chopping roll\n"
            "  turn: 5\n"
            "  active: P1\n"
            "  zones:\n"
            f"    play:P1: {play}\n"
            "    tree:P1: [mighty_oak]\n"
            f"  dice: {dice}\n"
            "stop_before: {step: check for a winner}\n"
            + (f"expect_error: \"{expect_error}\"\n" if expect_error else ""))


def _run(folder: Path, text: str):
    file = folder / "scenario.yaml"
    file.write_text(text, encoding="utf-8")
    [scenario] = load_scenarios(file)
    return run_scenario(scenario)


# --- scripted dice -----------------------------------------------------------------------------


def test_a_scripted_seven_on_a_six_sided_die_is_located_at_the_seven(tmp_path):
    result = _run(tmp_path, _chopping([6, 6, 7]))
    assert not result.passed
    lines = result.error.splitlines()
    assert lines[0] == (f"{tmp_path / 'scenario.yaml'}:11:16: error: scripted die 3 shows 7, "
                        "but it is rolled on die 'chop', which has 6 faces")
    assert lines[1:3] == ["  dice: [6, 6, 7]", "               ^"]
    assert lines[3] == "hint: a scripted face of 'chop' is a number from 1 to 6"


def test_the_misfit_names_the_die_the_face_landed_on(tmp_path):
    """Three faces go to the axe's chopping roll, the fourth to the Apprentice's own die."""
    result = _run(tmp_path, _chopping([6, 6, 6, 9], play="[chopping_axe, apprentice]"))
    assert "scripted die 4 shows 9, but it is rolled on die 'apprentice', which has 6 faces" in result.error


def test_faces_the_die_has_run_the_scenario(tmp_path):
    result = _run(tmp_path, _chopping([6, 5, 4, 1], play="[chopping_axe, apprentice]"))
    assert result.passed, result.error or result.failures


def test_expect_error_pins_the_die_size_from_above(tmp_path):
    result = _run(tmp_path, _chopping([7, 1, 1], expect_error="rolled on die 'chop', which has 6 faces"))
    assert result.passed, result.error or result.failures


@examples(20)
@given(face=st.integers(1, 40), position=st.integers(0, 2))
def test_a_scripted_face_is_refused_exactly_when_the_die_lacks_it(face, position):
    dice = [4, 4, 4]
    dice[position] = face
    with tempfile.TemporaryDirectory() as temp:
        result = _run(Path(temp), _chopping(dice))
    if face <= 6:
        assert result.error is None, result.error
    else:
        assert f"scripted die {position + 1} shows {face}, but it is rolled on die 'chop'" in (result.error or "")


# --- refused player counts ---------------------------------------------------------------------


def _refusal(game: str, players: int, extra: str = "") -> str:
    return (f"game: {game}\nscenario: a player count\nplayers: {players}\n{extra}"
            "expect: {refused: players}\n")


def test_a_refused_count_passes_and_an_accepted_one_fails(tmp_path):
    for players, refused in ((1, True), (2, False), (8, False), (9, True)):
        result = _run(tmp_path, _refusal(FLAPJACKS, players))
        assert result.error is None
        if refused:
            assert result.passed, f"{players}: {result.failures}"
        else:
            assert result.failures == [f"refused: expected the game to refuse {players} players, but it set up "
                                       "a game (it is for 2 to 8 players)"]


def test_jacks_friends_refuses_outside_two_to_six(tmp_path):
    outcomes = {n: _run(tmp_path, _refusal(JACKS_FRIENDS, n)).passed for n in range(1, 9)}
    assert outcomes == {1: True, 2: False, 3: False, 4: False, 5: False, 6: False, 7: True, 8: True}


def test_a_refusal_scenario_names_its_count_and_nothing_else(tmp_path):
    missing = _run(tmp_path, f"game: {FLAPJACKS}\nscenario: no count\nexpect: {{refused: players}}\n")
    assert "names the player count with 'players:'" in missing.error
    with_choices = _run(tmp_path, _refusal(FLAPJACKS, 9, "choices: [P1: pass]\n"))
    assert "'choices' means nothing in a scenario expecting 'refused: players'" in with_choices.error
    assert with_choices.error.startswith(f"{tmp_path / 'scenario.yaml'}:4:1: error:")
