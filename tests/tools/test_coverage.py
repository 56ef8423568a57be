"""Rule coverage: the mutator makes valid, located mutants, and the scenarios catch them.

The unit tests use Pig (small and fast); the CI tests run every mutant of
Jack's Friends and a fixed seeded sample of Flapjacks' mutants, so a new rule
that no scenario pins is noticed here.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rulelang.cli import main
from rulelang.errors import RulelangError
from rulelang.spec.loader import load_document
from rulelang.testing.coverage import (
    CAUGHT,
    EQUIVALENT,
    INVALID,
    SURVIVED,
    Subject,
    chosen,
    distinct_setups,
    run_coverage,
)
from rulelang.testing.mutate import build, mutants

ROOT = Path(__file__).resolve().parents[2]
PIG = Path("examples/pig")
GAMES = [Path("games/flapjacks"), Path("games/jacks_friends"), PIG]
# Kinds that make at least one valid mutant of these games. (Another die in a roll, kind "die", is made
# too, but in these games it always reads an outcome the other die lacks, so it never validates.)
KINDS = {"comparison", "arithmetic", "boolean", "number", "statement", "order", "zone", "target", "tag", "swap",
         "conjunct", "die face", "outcome",
         "duration", "prop", "counter", "location", "condition", "function", "trigger"}


@pytest.fixture(autouse=True)
def _at_the_root(monkeypatch):
    """Spans name files as the path was given: relative to the repository here."""
    monkeypatch.chdir(ROOT)


def _all_mutants():
    for folder in GAMES:
        doc = load_document(folder)
        for mutant in mutants(doc):
            yield doc, mutant


@pytest.mark.slow
def test_every_kind_of_mutant_is_made_and_builds_located_somewhere():
    valid: dict[str, object] = {}
    for doc, mutant in _all_mutants():
        if mutant.kind in valid:
            continue
        try:
            build(doc, mutant)
        except RulelangError:
            continue
        valid[mutant.kind] = mutant
    assert set(valid) == KINDS
    for mutant in valid.values():
        assert Path(mutant.file).is_file()
        lines = Path(mutant.file).read_text(encoding="utf-8").splitlines()
        assert 1 <= mutant.line <= len(lines) and lines[mutant.line - 1], mutant     # a real line of the spec
        assert mutant.change and mutant.group


def test_mutants_are_numbered_in_a_fixed_order_and_described_by_place():
    doc = load_document(PIG)
    first, again = mutants(doc), mutants(load_document(PIG))
    assert [(m.location, m.change) for m in first] == [(m.location, m.change) for m in again]
    assert [m.index for m in first] == list(range(len(first)))
    described = {(m.location, m.change) for m in first}
    assert ("examples/pig/game.yaml:48", "`>=` -> `>`") in described
    assert ("examples/pig/game.yaml:12", "default 100 -> 99") in described
    assert ("examples/pig/game.yaml:20", "faces 6 -> 5") in described
    assert ("examples/pig/game.yaml:37", "`+=` -> `-=`") in described
    assert ("examples/pig/game.yaml:35", "deleted `me.pot = 0`") in described
    assert any(m.kind == "order" and m.change == "first random -> first" for m in first)


def test_a_mutant_changes_the_compiled_game_and_leaves_the_spec_alone():
    doc = load_document("games/flapjacks")
    by_change = {(m.group, m.change): m for m in mutants(doc)}
    cards = build(doc, by_change[("card mighty_oak", "points 12 -> 13")]).cards
    assert next(c for c in cards if c.id == "mighty_oak").props["points"] == 13
    assert next(c for c in doc.data["cards"] if c["id"] == "mighty_oak")["props"]["points"] == 12
    swapped = build(doc, next(m for m in by_change.values() if m.change.startswith("swapped steps 'lose a turn'")))
    assert list(swapped.step_pcs)[:2] == ["draw a tree", "lose a turn"]


def test_a_card_counted_zero_times_still_compiles():
    doc = load_document("games/flapjacks")
    saw = next(m for m in mutants(doc) if m.group == "card long_saw" and m.change == "count 1 -> 0")
    assert all(c.id != "long_saw" for c in build(doc, saw).card_type)


def _weak_pig(tmp_path: Path, keep: int) -> Path:
    """Pig with only its first ``keep`` scenarios."""
    folder = tmp_path / "pig"
    shutil.copytree(PIG, folder)
    file = folder / "scenarios" / "pig.yaml"
    text = file.read_text(encoding="utf-8")
    parts = text.split("\n  - scenario:")
    file.write_text("\n  - scenario:".join(parts[:keep + 1]) + "\n", encoding="utf-8")
    return folder


@pytest.mark.slow
def test_a_weak_scenario_set_leaves_real_rules_as_survivors(tmp_path):
    report = run_coverage(str(_weak_pig(tmp_path, 1)))
    survivors = {m.change for m, _ in report.of(SURVIVED)}
    assert "default 100 -> 99" in survivors                  # nothing pins the winning total
    assert report.rate < 100
    strong = run_coverage(str(PIG))
    assert strong.counts[CAUGHT] > report.counts[CAUGHT]


@pytest.mark.slow
def test_a_change_nothing_can_observe_is_marked_equivalent(tmp_path):
    report = run_coverage(str(_weak_pig(tmp_path, 1)))
    equivalent = {(m.line, m.change) for m, _ in report.of(EQUIVALENT)}
    assert (28, "limit 100000 -> 99999") in equivalent       # games end long before (100,000 is the largest limit)
    survivors = {(m.line, m.change) for m, _ in report.of(SURVIVED)}
    assert (12, "default 100 -> 99") not in equivalent               # plays differently: a hole,
    assert (12, "default 100 -> 99") in survivors                    # and that very mutant exists
    assert report.counts[INVALID] > 0
    assert sum(report.counts.values()) == len(report.mutants)


@pytest.mark.slow
@pytest.mark.subprocess
def test_results_are_the_same_for_any_number_of_workers():
    one = run_coverage(str(PIG), workers=1)
    two = run_coverage(str(PIG), workers=2)
    assert [(v.index, v.status, v.detail) for v in one.verdicts] == [(v.index, v.status, v.detail)
                                                                     for v in two.verdicts]


def test_a_sample_is_seeded_sorted_and_within_range():
    assert chosen(50, 10, 3) == chosen(50, 10, 3)
    assert chosen(50, 10, 3) == sorted(set(chosen(50, 10, 3)))
    assert len(chosen(50, 10, 3)) == 10 and all(0 <= i < 50 for i in chosen(50, 10, 3))
    assert chosen(5, 10, 3) == list(range(5))


@pytest.mark.slow
def test_the_command_reports_json_and_fails_below_the_minimum(tmp_path, capsys):
    weak = str(_weak_pig(tmp_path, 1))
    assert main(["test", weak, "--coverage", "--json", "--min-coverage", "100"]) == 1
    out, err = capsys.readouterr()
    report = json.loads(out)[0]
    assert report["coverage"] < 100 and report["survived"] == len([s for s in report["survivors"]
                                                                    if s["status"] == SURVIVED])
    assert "below 100%" in err
    # a sample's coverage depends on the mutants it draws (the weak game catches few): only that it runs
    assert main(["test", weak, "--coverage", "--min-coverage", "0", "--sample", "5"]) == 0
    assert "mutants (a sample)" in capsys.readouterr().out
    assert main(["test", weak, "--json"]) == 2


def test_scenarios_failing_on_the_unchanged_game_are_refused(tmp_path, capsys):
    folder = _weak_pig(tmp_path, 1)
    file = folder / "scenarios" / "pig.yaml"
    file.write_text(file.read_text(encoding="utf-8").replace("banked: 9", "banked: 10"), encoding="utf-8")
    assert main(["test", str(folder), "--coverage"]) == 1
    assert "scenarios fail on the unchanged game" in capsys.readouterr().err


# --- CI: the games' scenarios catch their mutants ---------------------------------------------

def _holes(report) -> set[tuple[str, str]]:
    return {(m.file, m.change) for m, _ in report.of(SURVIVED)}


@pytest.mark.slow
@pytest.mark.subprocess
def test_every_mutant_of_jacks_friends_that_plays_differently_is_caught():
    report = run_coverage("games/jacks_friends", workers=2)
    assert report.counts[CAUGHT] > 150
    assert _holes(report) == set(), report.format()


#: The scenario of Jack's Friends that pins `>= 2` (not `= 2`) in "the townsfolk emptied two of the giant's
#: locations": three locations empty after one round still end the game.
THREE_EMPTY = "  - scenario: 3. All three locations empty after one turn"


def _jacks_friends_without_three_empty(tmp_path: Path) -> Path:
    folder = tmp_path / "jacks_friends"
    shutil.copytree(ROOT / "games" / "jacks_friends", folder)
    file = folder / "scenarios" / "end_conditions.yaml"
    text = file.read_text(encoding="utf-8")
    start = text.index(THREE_EMPTY)
    rest = text.find("\n  - scenario:", start + 1)
    file.write_text(text[:start] + (text[rest + 1:] if rest >= 0 else ""), encoding="utf-8")
    return folder


@pytest.mark.slow
def test_a_hole_a_whole_round_of_secret_choices_deep_is_found_by_play_outs_from_a_set_up(tmp_path):
    """Without the scenario that pins it, `>= 2` -> `= 2` shows only when a round of four secret choices
    empties the last two locations with the third already empty: beyond two decisions of the search from any
    set-up. From first seed 16 no random game of the ten at each player count shows it; random play-outs from
    the set-ups find it.

    The search is random and bounded, so this is not so from every first seed: of first seeds 0-299, the ten
    random games find the hole from 93, the play-outs from 96 more, and 111 miss it (then it is reported
    equivalent, which the report says means no difference found within its games and play-outs)."""
    subject = Subject(str(_jacks_friends_without_three_empty(tmp_path)), first_seed=16)
    assert not [s for s in subject.scenarios if s.name.startswith(THREE_EMPTY.split(": ", 1)[1])]
    mutant = next(m for m in subject.mutants if m.file.endswith("game.yaml") and m.line == 118
                  and m.change == "`>=` -> `=`")
    verdict = subject.judge(mutant.index)
    assert verdict.status == SURVIVED, verdict
    assert verdict.detail.startswith("a random play-out from the set-up of ") and ", seed " in verdict.detail
    assert ", at decision " in verdict.detail


def test_play_outs_start_once_from_each_set_up_a_game_accepts():
    subject = Subject("games/jacks_friends")
    starts = distinct_setups(subject.scenarios)
    assert 10 < len(starts) < len(subject.scenarios)
    assert not [s for s in starts if "refused" in (s.data.get("expect") or {})]
    keys = [(s.data.get("players"), s.data.get("seed"), json.dumps(s.data.get("setup"), sort_keys=True)) for s in starts]
    assert len(set(keys)) == len(keys)


@pytest.mark.slow
@pytest.mark.subprocess
def test_a_seeded_sample_of_flapjacks_mutants_is_caught():
    report = run_coverage("games/flapjacks", workers=2, seed=0, sample=200)
    assert _holes(report) == set(), report.format()
    # about three in four are caught, the rest invalid or shown equivalent (949 of 1,271 in the whole run)
    assert report.counts[CAUGHT] > 140


def test_the_path_may_be_the_game_its_main_file_or_some_of_its_scenarios():
    whole = run_coverage("examples/pig", sample=3)
    assert run_coverage("examples/pig/game.yaml", sample=3).scenarios == whole.scenarios
    assert run_coverage("examples/pig/scenarios", sample=3).scenarios == whole.scenarios
    assert run_coverage("examples/pig/scenarios/pig.yaml", sample=3).scenarios == whole.scenarios > 5


@pytest.mark.slow
def test_every_mutant_of_pig_that_plays_differently_is_caught():
    report = run_coverage("examples/pig")
    assert _holes(report) == set(), report.format()
