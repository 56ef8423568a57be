"""`rulelang explain PATH NAME`: spec lines, words, rulings, readers and writers, scenarios; unknown names."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulelang.cli import main

ROOT = Path(__file__).resolve().parents[2]
FLAPJACKS = str(ROOT / "games" / "flapjacks")


def _explain(capsys, name: str) -> str:
    assert main(["explain", FLAPJACKS, name]) == 0
    return capsys.readouterr().out


def _section(text: str, heading: str) -> list[str]:
    lines = text.splitlines()
    start = lines.index(heading) + 1
    end = next((i for i in range(start, len(lines)) if not lines[i].startswith("  ")), len(lines))
    return lines[start:end]


def test_a_card_by_its_name(capsys):
    out = _explain(capsys, "Tree Hugger")
    assert out.startswith("card 'tree_hugger': Tree Hugger\n")
    assert _section(out, "Written at:")[0].startswith("  " + str(Path(FLAPJACKS) / "jacks.yaml") + ":")
    assert "    - Add 1 to the target player's lost turns." in _section(out, "In words:")
    assert _section(out, "Rulings it follows:")[0].startswith("  FS-3: Lost turns add up")
    assert any("Tree Hugger makes a rival lose a turn" in line for line in _section(out, "Scenarios that name it:"))
    assert "--coverage" in _section(out, "Coverage:")[0]


def test_a_variable_says_which_rules_change_and_read_it(capsys):
    out = _explain(capsys, "lost_turns")
    changed = _section(out, "Changed by:")
    assert any(line.startswith("  card Tree Hugger (") for line in changed)
    assert any(line.startswith("  step Lose a turn (") for line in changed)
    assert any(line.startswith("  step Lose a turn (") for line in _section(out, "Read by:"))


def test_a_procedure_says_who_calls_it(capsys):
    out = _explain(capsys, "add_chops")
    assert all(line.startswith("  procedure \u201cchopping step\u201d (") for line in _section(out, "Called by:"))
    assert "Changed by:" not in out


def test_a_step_by_its_name(capsys):
    out = _explain(capsys, "chopping roll")
    assert out.startswith("step 'chopping roll': Chopping roll\n")
    assert "  - Do \u201cchopping step\u201d for you." in out


def test_a_ruling_lists_where_it_applies(capsys):
    out = _explain(capsys, "FS-3")
    assert out.startswith("ruling 'FS-3': Lost turns add up; a skipped turn has no draw, no play and no roll.\n")
    applied = _section(out, "Applied in:")
    assert any(line.startswith("  card Tree Hugger (") for line in applied)


def test_an_unknown_name_is_a_usage_error_with_candidates(capsys):
    assert main(["explain", FLAPJACKS, "titanium_ax"]) == 2
    assert capsys.readouterr().err == ("rulelang: error: the game has nothing named 'titanium_ax'; "
                                       "did you mean 'titanium_axe'?\n")


def test_an_unknown_name_with_no_close_one_says_what_names_are(capsys):
    assert main(["explain", FLAPJACKS, "graveyard"]) == 2
    assert "a card, step, procedure" in capsys.readouterr().err


def test_a_missing_game_is_a_usage_error(capsys, tmp_path):
    assert main(["explain", str(tmp_path / "nothing"), "x"]) == 2
    assert "no such file or folder" in capsys.readouterr().err


def _small_game(tmp_path: Path) -> str:
    assert main(["new", "game", str(tmp_path / "g")]) == 0
    return str(tmp_path / "g")


def test_a_scenario_file_of_one_scenario_is_found(tmp_path, capsys):
    game = _small_game(tmp_path)
    capsys.readouterr()
    assert main(["explain", game, "20 points"]) == 0
    found = _section(capsys.readouterr().out, "Scenarios that name it:")
    assert found == [f"  Reaching 20 points wins at once ({Path(game) / 'scenarios' / 'first.yaml'}:3)"]


@pytest.mark.slow      # the equivalence search plays 50,000 games against the one mutant no scenario catches
def test_coverage_of_one_entry_names_what_no_scenario_pins(tmp_path, capsys):
    game = _small_game(tmp_path)
    capsys.readouterr()
    assert main(["explain", game, "20 points", "--coverage"]) == 0
    lines = _section(capsys.readouterr().out, "Coverage:")
    assert lines[0].endswith(" mutants") and "survived" in lines[0]
    spec = Path(game) / "game.yaml"
    when = 1 + next(i for i, line in enumerate(spec.read_text().splitlines()) if line.strip().startswith("when:"))
    assert f"  not pinned: {spec}:{when} 20 -> 21" in lines


def test_without_coverage_it_says_how_to_ask(capsys):
    out = _explain(capsys, "tree_hugger")
    assert _section(out, "Coverage:")[0] == (f"  rulelang explain {FLAPJACKS} tree_hugger --coverage judges this "
                                             "entry's mutants against the scenarios (it takes a while);")


def test_a_name_of_two_things_explains_one_and_names_the_other(capsys):
    out = _explain(capsys, "apprentice")        # the Apprentice card's id, and the apprentice die's name
    first = out.splitlines()[0]
    assert first in ("die 'apprentice': The apprentice die", "card 'apprentice': Apprentice")
    other = "card 'apprentice'" if first.startswith("die") else "die 'apprentice'"
    kind = other.split()[0]
    assert out.splitlines()[-1] == f"Also named so: {other} (ask for {kind}:apprentice)"
    assert _explain(capsys, f"{kind}:apprentice").splitlines()[0].startswith(f"{kind} 'apprentice'")
