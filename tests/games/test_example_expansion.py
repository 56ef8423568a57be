"""The example expansion mods for Flapjacks (examples/mods/whetstone, examples/mods/lumberjack_fair).

Their own scenarios pin what each card does (tests/language/test_mods.py runs every example mod's scenarios); these
tests pin what the examples are meant to show a modder: the expansion is one file over the unchanged game,
its cards work through hooks rather than edits to the game's procedures, and the two mods load and play
together with the game's own scenarios still passing.
"""
from __future__ import annotations

import io
from pathlib import Path

import yaml

from rulelang import load_game
from rulelang.cli import main
from rulelang.testing.scenario_report import run_scenario_files

ROOT = Path(__file__).resolve().parents[2]
FJ = ROOT / "games" / "flapjacks"
WHETSTONE = ROOT / "examples" / "mods" / "whetstone"
FAIR = ROOT / "examples" / "mods" / "lumberjack_fair"


def test_the_fair_is_one_file_beside_its_scenarios() -> None:
    files = sorted(str(path.relative_to(FAIR)) for path in FAIR.rglob("*") if path.is_file())
    assert files == ["mod.yaml", "scenarios/lumberjack_fair.yaml"]
    assert "include" not in yaml.safe_load((FAIR / "mod.yaml").read_text(encoding="utf-8"))


def test_the_expansions_only_add_except_the_wrapped_score(capsys) -> None:
    assert main(["mods", str(FJ), "--mod", str(WHETSTONE), "--mod", str(FAIR)]) == 0
    out = capsys.readouterr().out
    changes = [line.split(": ", 1)[1] for line in out.splitlines() if line.startswith("  ")]
    assert changes and all(change.startswith("adds ") for change in changes if "score" not in change)
    assert "wraps function 'score'" in changes
    assert "ok: 2 mods load together" in out


def test_both_mods_load_together_with_every_card() -> None:
    game = load_game(FJ, [WHETSTONE, FAIR])
    ids = {card.id for card in game.cards}
    assert {"whetstone", "camp_cook", "foreman", "log_rolling", "blue_ribbon"} <= ids


def test_the_games_scenarios_and_both_mods_scenarios_pass_together() -> None:
    out = io.StringIO()
    code = run_scenario_files([str(FJ)], out=out, err=out, mods=[str(WHETSTONE), str(FAIR)])
    assert code == 0, out.getvalue()
    for own in ("whetstone.yaml", "lumberjack_fair.yaml", "reactions.yaml"):
        assert own in out.getvalue()
    assert " 0 failed" in out.getvalue()


def test_the_game_folder_is_untouched_by_the_expansion() -> None:
    game_yaml = (FJ / "game.yaml").read_text(encoding="utf-8")
    assert "whetstone" not in game_yaml and "ribbon" not in game_yaml
    assert "include: [trees.yaml, jacks.yaml]" in game_yaml
