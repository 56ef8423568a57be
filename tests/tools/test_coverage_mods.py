"""Rule coverage of mods: `rulelang test GAME --coverage --mod M` mutates the mod's own files only.

The runs here lay small mods (Whetstone, Sharp Blades) over Flapjacks and use
one small scenario file of the game as PATH, so each run judges a few dozen
mutants against a few scenarios.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import pytest

from rulelang.cli import main
from rulelang.pipeline import read_spec
from rulelang.testing.coverage import CAUGHT, EQUIVALENT, SURVIVED, in_files, mod_files, run_coverage
from rulelang.testing.mutate import mutants

ROOT = Path(__file__).resolve().parents[2]
GAME = "games/flapjacks"
FEW = "games/flapjacks/scenarios/targets.yaml"      # six scenarios of the game: PATH for short runs
WHETSTONE = "examples/mods/whetstone"
SHARP = "examples/mods/sharp_blades"


@pytest.fixture(autouse=True)
def _at_the_root(monkeypatch):
    """Spans name files as the path was given: relative to the repository here."""
    monkeypatch.chdir(ROOT)


def source_line(file: str, line: int) -> str:
    """The text of a 1-based line of a file ('' past its end)."""
    lines = Path(file).read_text(encoding="utf-8").splitlines()
    return lines[line - 1] if 1 <= line <= len(lines) else ""


def _real(file: str) -> str:
    return os.path.realpath(file)


def _copy_mod(tmp_path: Path, mod: str, keep: int | None = None) -> Path:
    """A copy of a mod folder whose scenarios name the game by its absolute path; only the first ``keep``
    of them (None: all; 0: no scenarios folder at all)."""
    folder = tmp_path / Path(mod).name
    shutil.copytree(mod, folder)
    scenarios = folder / "scenarios"
    if keep == 0:
        shutil.rmtree(scenarios)
        return folder
    for file in scenarios.glob("*.yaml"):
        text = file.read_text(encoding="utf-8").replace("../../../../games/flapjacks", str(ROOT / GAME))
        if keep is not None:
            text = "\n  - scenario:".join(text.split("\n  - scenario:")[:keep + 1]) + "\n"
        file.write_text(text, encoding="utf-8")
    return folder


def _digest(*folders: str | Path) -> str:
    digest = hashlib.sha256()
    for folder in folders:
        for path in sorted(Path(folder).rglob("*")):
            if path.is_file():
                digest.update(str(path).encode() + path.read_bytes())
    return digest.hexdigest()


# --- which mutants ----------------------------------------------------------------------------

def test_only_the_mods_own_files_are_mutated_and_every_mutant_points_at_a_line_of_a_mod():
    mods = [WHETSTONE, SHARP]
    doc = read_spec(GAME, mods=mods)
    files = mod_files(mods)
    assert files == {_real(f"{WHETSTONE}/mod.yaml"), _real(f"{SHARP}/mod.yaml")}
    found = mutants(doc, in_files(files))
    assert [m.index for m in found] == list(range(len(found)))
    assert {_real(m.file) for m in found} == files                        # both mods, nothing of the game
    for m in found:
        assert source_line(m.file, m.line), m                            # a real line of the mod
    kinds = {m.kind for m in found}
    assert {"number", "zone", "tag", "duration", "condition", "statement", "comparison", "arithmetic",
            "target", "boolean", "order"} <= kinds
    # The same changes as the whole game's mutants located in the mods (a swap is located at the mod's item).
    whole = mutants(doc)
    in_mods = {(m.where, m.variant) for m in whole if _real(m.file) in files}
    assert in_mods <= {(m.where, m.variant) for m in found}
    swap = next(m for m in found if m.change.startswith("swapped triggers"))
    assert swap.location == f"{WHETSTONE}/mod.yaml:26" and swap.group == "trigger 'a whetstone turns a break into a chop'"
    assert len(found) < len(whole) // 10


@pytest.mark.parametrize("mod", sorted(p.name for p in (ROOT / "examples" / "mods").iterdir() if p.is_dir()))
def test_every_example_mod_gets_exactly_the_mutants_located_in_its_files(mod):
    folder = f"examples/mods/{mod}"
    game = "games/jacks_friends" if "Jack's Friends" in Path(folder, "mod.yaml").read_text() else GAME
    doc = read_spec(game, mods=[folder])
    files = mod_files([folder])
    found = mutants(doc, in_files(files))
    whole = {(m.where, m.variant): m for m in mutants(doc)}
    assert found and all(_real(m.file) in files and source_line(m.file, m.line) for m in found)
    for m in found:                                   # each is a mutant of the whole game, where it is the mod's
        same = whole[(m.where, m.variant)]
        assert (same.kind, same.change) == (m.kind, m.change)
        assert same.location == m.location or same.change.startswith("swapped")
    assert {k for k, m in whole.items() if _real(m.file) in files} <= {(m.where, m.variant) for m in found}


def test_a_mod_given_as_its_file_is_mutated_the_same():
    as_file = mutants(read_spec(GAME, mods=[f"{SHARP}/mod.yaml"]), in_files(mod_files([f"{SHARP}/mod.yaml"])))
    as_folder = mutants(read_spec(GAME, mods=[SHARP]), in_files(mod_files([SHARP])))
    assert [(m.location, m.change) for m in as_file] == [(m.location, m.change) for m in as_folder]
    assert ("examples/mods/sharp_blades/mod.yaml:13", "`+` -> `-`") in {(m.location, m.change) for m in as_file}


# --- running them -------------------------------------------------------------------------------

@pytest.mark.slow
def test_a_weak_set_of_the_mods_scenarios_leaves_a_survivor_that_names_the_mod_file_and_line(tmp_path):
    weak = _copy_mod(tmp_path, WHETSTONE, keep=1)            # only "a Whetstone turns a rolled 1 into a chop"
    before = _digest(weak, GAME)
    report = run_coverage(FEW, mods=[str(weak)])
    survivors = {(m.location, m.change) for m, _ in report.of(SURVIVED)}
    assert (f"{weak}/mod.yaml:17", "count 3 -> 4") in survivors           # nothing counts the Whetstones
    assert all(_real(m.file) == _real(f"{weak}/mod.yaml") for m in report.mutants)
    assert report.mod_scenarios == 1 and report.scenarios == 7 and report.rate < 100
    text = report.format()
    assert f"{FEW} + {weak}: {len(report.mutants)} mutants of the mods' own files" in text
    assert f"  card whetstone\n    {weak}/mod.yaml:17: count 3 -> 4" in text
    assert _digest(weak, GAME) == before                                  # mutants live in memory only


@pytest.mark.slow
def test_the_mods_own_scenario_that_counts_its_cards_catches_a_changed_count():
    report = run_coverage(FEW, mods=[WHETSTONE])
    status = {(m.line, m.change): v.status for m, v in zip(report.mutants, report.verdicts)}
    assert status[(17, "count 3 -> 4")] == CAUGHT and status[(17, "count 3 -> 2")] == CAUGHT
    assert report.mod_scenarios == 6
    assert status[(29, "1 -> 2")] == SURVIVED            # `1 in rolled` -> `2 in rolled`: no scenario rolls a 2
    assert status[(19, "removed tag plus")] == EQUIVALENT


@pytest.mark.slow
def test_the_command_exits_1_below_the_minimum_and_reports_json(tmp_path, capsys):
    weak = str(_copy_mod(tmp_path, WHETSTONE, keep=1))
    assert main(["test", FEW, "--coverage", "--mod", weak, "--json", "--min-coverage", "100"]) == 1
    out, err = capsys.readouterr()
    [report] = json.loads(out)
    assert report["mods"] == [weak] and report["path"] == FEW and report["mod_scenarios"] == 1
    assert report["mutants"] == report["caught"] + report["survived"] + report["equivalent"] \
        + report["invalid"] > 0
    assert report["coverage"] < 100 and report["left_out"] == []
    assert {s["file"] for s in report["survivors"]} == {f"{weak}/mod.yaml"}
    assert {"line", "change", "kind", "group", "status"} <= set(report["survivors"][0])
    assert f"rulelang: {FEW} + {weak}: coverage" in err and "below 100%" in err
    # a sample's coverage depends on which mutants it draws; 0% passes, so this checks the sample's report
    assert main(["test", FEW, "--coverage", "--mod", weak, "--min-coverage", "0", "--sample", "6"]) == 0
    assert "mutants of the mods' own files (a sample)" in capsys.readouterr().out


@pytest.mark.slow
def test_a_mod_with_nothing_to_mutate_reports_zero_mutants_and_nothing_to_measure(tmp_path, capsys):
    folder = tmp_path / "no_fire"
    folder.mkdir()
    (folder / "mod.yaml").write_text("mod: No Fire\ngame: Flapjacks & Sasquatches\ntext: No forest fires.\n"
                                     "remove:\n  cards: [forest_fire]\n", encoding="utf-8")
    assert main(["test", FEW, "--coverage", "--mod", str(folder), "--min-coverage", "100"]) == 0
    out = capsys.readouterr().out
    assert f"{FEW} + {folder}: 0 mutants of the mods' own files" in out
    assert "coverage: nothing to measure: the mods' files hold no value or rule text a mutant could change" in out
    assert main(["test", FEW, "--coverage", "--mod", str(folder), "--json"]) == 0
    [report] = json.loads(capsys.readouterr().out)
    assert report["mutants"] == 0 and report["coverage"] == 100 and report["survivors"] == []


@pytest.mark.slow
def test_a_mod_without_scenarios_is_measured_by_the_games(tmp_path):
    bare = _copy_mod(tmp_path, SHARP, keep=0)
    report = run_coverage(FEW, mods=[str(bare)])
    assert report.mod_scenarios == 0 and report.scenarios == 6 and len(report.mutants) == 12   # `>` to 5 others
    assert sum(report.counts.values()) == 12 and report.counts[SURVIVED] > 0      # these six never chop
    assert "against 6 scenarios (0 of them the mods')" in report.format()
    assert {_real(m.file) for m, _ in report.of(SURVIVED)} == {_real(f"{bare}/mod.yaml")}


@pytest.mark.slow
def test_game_scenarios_the_mod_makes_fail_are_left_out_but_a_mods_own_failing_one_is_refused(tmp_path, capsys):
    axes = "games/flapjacks/scenarios/axes.yaml"
    report = run_coverage(axes, mods=[SHARP])
    assert f"{axes}: A Chopping Axe rolls three dice; two breaks keep it" in report.left_out
    assert report.scenarios + len(report.left_out) == 13 + 3
    assert "left out: " in report.format() and report.to_json()["left_out"] == report.left_out
    broken = _copy_mod(tmp_path, SHARP)
    file = broken / "scenarios" / "sharp_blades.yaml"
    file.write_text(file.read_text(encoding="utf-8").replace("chops: 3}", "chops: 4}", 1), encoding="utf-8")
    assert main(["test", FEW, "--coverage", "--mod", str(broken)]) == 1
    err = capsys.readouterr().err
    assert "scenarios fail on the unchanged game" in err and "Two chops on the roll become three" in err
    assert f"--mod {broken})" in err


@pytest.mark.slow
@pytest.mark.subprocess
def test_results_with_mods_are_the_same_for_any_number_of_workers():
    one = run_coverage(FEW, mods=[SHARP], workers=1)
    two = run_coverage(FEW, mods=[SHARP], workers=2)
    assert [(v.index, v.status, v.detail) for v in one.verdicts] == [(v.index, v.status, v.detail)
                                                                     for v in two.verdicts]
    assert one.counts[SURVIVED] >= 1
    assert ("examples/mods/sharp_blades/mod.yaml:12", "0 -> 1") in {(m.location, m.change)
                                                                     for m, _ in one.of(SURVIVED)}


def test_a_mod_for_another_game_is_a_located_error(capsys):
    assert main(["test", "games/jacks_friends", "--coverage", "--mod", SHARP]) == 1
    assert "this mod is for the game 'Flapjacks & Sasquatches'" in capsys.readouterr().err
