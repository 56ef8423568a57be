"""The mutant kinds issue 32 asked for, the evidence an "equivalent" needs, on a tiny game made for them.

``tests/coverage_kinds`` is a small dice game with one rule of each shape the
kinds change; its two scenarios pin some rules and leave others open on purpose.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from rulelang.spec.loader import load_document
from rulelang.testing.coverage import CAUGHT, EQUIVALENT, SURVIVED, Subject, random_game_difference
from rulelang.testing.mutate import Mutant, build, mutants

ROOT = Path(__file__).resolve().parents[2]
TINY = "tests/coverage_kinds"


@pytest.fixture(autouse=True)
def _at_the_root(monkeypatch):
    monkeypatch.chdir(ROOT)


@pytest.fixture(scope="module")
def subject() -> Subject:
    import os
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        return Subject(TINY)
    finally:
        os.chdir(here)


def _mutant(subject: Subject, line: int, change: str) -> Mutant:
    found = [m for m in subject.mutants if (m.line, m.change) == (line, change)]
    assert len(found) == 1, (line, change, [(m.line, m.change) for m in subject.mutants if m.line == line])
    return found[0]


def test_two_statements_of_one_rule_text_are_swapped_and_a_scenario_notices(subject):
    mutant = _mutant(subject, 41, "swapped `me.banked += me.pot` and `me.pot = 0`")
    assert mutant.kind == "swap"
    assert subject.judge(mutant.index).status == CAUGHT            # banking after emptying the pot banks 0


def test_one_conjunct_of_a_condition_is_dropped_either_side(subject):
    kept = {m.change for m in subject.mutants if m.kind == "conjunct" and m.line == 47}
    assert kept == {"`p.banked >= 10 and p.pot = 0` -> `p.banked >= 10`",
                    "`p.banked >= 10 and p.pot = 0` -> `p.pot = 0`"}
    doc = load_document(TINY)
    build(doc, _mutant(subject, 47, "`p.banked >= 10 and p.pot = 0` -> `p.pot = 0`"))     # it still validates


def test_a_die_face_moves_into_out_of_and_between_outcomes(subject):
    doc = load_document(TINY)
    cases = {(17, "d6: face 4 shows low"): {1: "pig", 2: "low", 3: "low", 4: "low", 5: "high", 6: "high"},
             (18, "d6: face 5 no longer shows high"): {1: "pig", 2: "low", 3: "low", 4: None, 5: None, 6: "high"},
             (18, "d6: face 2 shows high, not low"): {1: "pig", 2: "high", 3: "low", 4: None, 5: "high", 6: "high"}}
    for (line, change), shows in cases.items():
        mutant = _mutant(subject, line, change)
        assert mutant.kind == "die face"
        assert build(doc, mutant).dice["d6"] == shows
    assert doc.data["dice"]["d6"]["outcomes"] == {"pig": [1], "low": [2, 3], "high": [5, 6]}   # untouched
    assert subject.judge(_mutant(subject, 18, "d6: face 5 shows low, not high").index).status == CAUGHT


def test_a_roll_outcome_becomes_every_other_outcome_of_its_die(subject):
    made = {m.change for m in subject.mutants if m.kind == "outcome" and m.line == 34}
    assert made == {"outcome low -> pig", "outcome low -> high", "outcome high -> pig", "outcome high -> low"}
    assert subject.judge(_mutant(subject, 34, "outcome high -> low").index).status == CAUGHT


def test_a_comparison_becomes_every_other_operator():
    doc = load_document(TINY)
    at_47 = {m.change for m in mutants(doc) if m.kind == "comparison" and m.line == 47}
    assert {c for c in at_47 if c.startswith("`>=`")} == {f"`>=` -> `{op}`" for op in ("=", "!=", "<", "<=", ">")}
    assert {c for c in at_47 if c.startswith("`=`")} == {f"`=` -> `{op}`" for op in ("!=", "<", "<=", ">", ">=")}


def test_a_zone_named_in_a_rule_becomes_any_other_zone_of_its_sort_not_only_the_next():
    doc = load_document("games/flapjacks")
    table = [z for z, d in doc.data["zones"].items() if (d or {}).get("owner", "table") == "table"]
    first = table[0]
    renamed = {m.change for m in mutants(doc) if m.kind == "zone" and m.change.startswith(f"zone {first} -> ")}
    assert renamed == {f"zone {first} -> {other}" for other in table[1:]} and len(table) > 2


def test_a_mutant_that_differs_only_from_a_scenarios_set_up_is_a_survivor_shown_there(subject):
    """No random game holds a pot of 500, so random play alone would call this mutant equivalent."""
    mutant = _mutant(subject, 40, "deleted `me.banked += 1`")
    game = build(load_document(TINY), mutant)
    assert all(random_game_difference(subject.game, game, players, seed) is None
               for players in (2, 3) for seed in range(20))
    verdict = subject.judge(mutant.index)
    assert verdict.status == SURVIVED
    assert verdict.detail == ("from the set-up of tests/coverage_kinds/scenarios/kinds.yaml: A pig loses even a huge "
                              "pot (this pins nothing about the bonus for holding it) after P1 hold")


def test_a_survivor_seen_in_random_play_is_shown_with_its_seed(subject):
    mutant = [m for m in subject.mutants if (m.line, m.change) == (47, "`>=` -> `>`")][0]    # 10 banked no win
    verdict = subject.judge(mutant.index)
    assert verdict.status == SURVIVED
    assert verdict.detail.startswith("a random game, seed ") and " players, at decision " in verdict.detail


def test_only_a_search_that_finds_no_difference_makes_an_equivalent(subject):
    verdict = subject.judge(_mutant(subject, 25, "limit 1000 -> 999").index)   # games end long before
    assert (verdict.status, verdict.detail) == (EQUIVALENT, "")
