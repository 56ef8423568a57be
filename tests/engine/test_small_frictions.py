"""Small frictions of issue 32: a variable named as a counter, a variable's label in narration."""
from __future__ import annotations

import io
from pathlib import Path

from rulelang import load_game
from rulelang.logs.narrate import narrate
from rulelang.testing.scenario_report import run_scenario_files

ROOT = Path(__file__).resolve().parents[2]
FJ = ROOT / "games" / "flapjacks"
STACKING = ROOT / "tests" / "mods_compose"


def test_a_variable_given_as_a_counter_is_called_a_variable(tmp_path: Path) -> None:
    scenario = tmp_path / "vars.yaml"
    scenario.write_text(f"game: {FJ}\nscenarios:\n  - scenario: a variable under counters\n    players: 2\n"
                        "    setup:\n      counters:\n        P1: {lost_turns: 1}\n", encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    assert run_scenario_files([str(scenario)], out, err, games=[str(FJ)]) != 0
    shown = out.getvalue() + err.getvalue()
    assert "'lost_turns' is a variable, not a counter" in shown and "vars:" in shown
    assert "unknown counter" not in shown


def test_a_labelled_variable_is_narrated_by_its_label(tmp_path: Path) -> None:
    text = (STACKING / "game.yaml").read_text()
    text = text.replace("procedures:", "vars:\n  lend_to: {type: player, label: lends to}\n  plain: {type: int}\n\n"
                                       "procedures:", 1)
    (tmp_path / "game.yaml").write_text(text, encoding="utf-8")
    game = load_game(tmp_path)
    assert narrate(game, {"type": "set", "turn": 1, "player": "P4", "var": "lend_to", "value": "P3"}) \
        == "  P4 lends to: P3"
    assert narrate(game, {"type": "set", "turn": 1, "player": "P4", "var": "plain", "value": 2}) == "  P4's plain: 2"


def test_a_game_that_ends_in_a_step_runs_no_after_step_or_end_turn_trigger_and_create_fires_enter(
        tmp_path: Path) -> None:
    """Both documented in docs/language.md, Triggers."""
    text = (STACKING / "game.yaml").read_text().replace(">= 200", ">= 1")
    text = text.replace("        collect(me, 1)\n", "        create 1 token in made\n        collect(me, 1)\n")
    text += ("\nzones:\n  supply: {owner: table, visibility: public}\n  made: {owner: table, visibility: public}\n"
             "\ncards:\n  - {id: token, name: Token, count: 2, zone: supply, token: true}\n"
             "\ntriggers:\n"
             "  - {name: after the step, on: after step collect a point, effect: me.marks += 1}\n"
             "  - {name: at the end of the turn, on: end turn, effect: me.marks += 10}\n"
             "  - {name: a token enters, on: enter made, effect: game.marks += 100}\n"
             "  - {name: a token leaves its supply, on: leave supply, effect: game.marks += 1000}\n")
    (tmp_path / "game.yaml").write_text(text, encoding="utf-8")
    from rulelang.testing.smoke import play_random
    state = play_random(load_game(tmp_path), 2, 0).state
    assert state.over and state.turn == 1
    assert state.counter("game", "marks") == 1100
    assert state.counter(0, "marks") == 0
