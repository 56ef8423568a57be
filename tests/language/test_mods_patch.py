"""`patch:` changes one part of a declaration by path, without copying it (rulelang/mods/reshape.py, docs/mods.md)."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulelang import load_game
from rulelang.errors import ErrorList, RulelangError
from rulelang.pipeline import read_spec
from rulelang.spec.loader import load_document
from rulelang.testing.smoke import play_random

from helpers.examples import examples

TESTS = Path(__file__).resolve().parents[1]
GAME = TESTS / "mods_compose"
FJ = TESTS.parent / "games" / "flapjacks"


def mod(tmp_path: Path, body: str, name: str = "patch.yaml", game: str = "Stacking", title: str = "Patcher") -> Path:
    path = tmp_path / name
    path.write_text(f"mod: {title}\ngame: {game}\n{body}", encoding="utf-8")
    return path


def errors_of(call) -> list[RulelangError]:
    with pytest.raises(RulelangError) as caught:
        call()
    error = caught.value
    return list(error.errors) if isinstance(error, ErrorList) else [error]


def step_effect(doc) -> str:
    return doc.data["turn"]["steps"][0]["effect"]


def test_a_line_of_a_step_is_replaced_and_lines_added_after_it(tmp_path: Path) -> None:
    patch = mod(tmp_path, "patch:\n  - {path: turn.steps.collect_a_point.effect, line: 1, with: 'collect(me, 2)'}\n"
                          "  - {path: turn.steps.collect_a_point.effect, line: 1, then: 'me.marks += 1'}\n")
    assert step_effect(read_spec(GAME, mods=[patch])) == "collect(me, 2)\nme.marks += 1\ncheck end\n"
    state = play_random(load_game(GAME, [patch]), 2, 0).state
    assert state.counter(0, "marks") == state.counter(0, "points") // 2


def test_a_condition_is_narrowed_with_and(tmp_path: Path) -> None:
    patch = mod(tmp_path, "patch:\n  - {path: end.enough_points.when, and: turn > 500}\n")
    doc = read_spec(GAME, mods=[patch])
    assert doc.data["end"][0]["when"] == "(any(p in players where score(p) >= 200)) and (turn > 500)"
    state = play_random(load_game(GAME, [patch]), 2, 0).state
    assert state.turn > 500


def test_a_card_target_is_narrowed_without_copying_the_card(tmp_path: Path) -> None:
    patch = mod(tmp_path, "patch:\n  - path: cards.lure_help.play.target\n    and: not target.play has paul_bunyan\n",
                game="Flapjacks & Sasquatches")
    doc = read_spec(FJ, mods=[patch])
    card = next(c for c in doc.data["cards"] if c["id"] == "lure_help")
    assert card["play"]["target"] == "(target != me and target.play has help) and (not target.play has paul_bunyan)"
    assert card["play"]["effect"] == next(c for c in load_document(FJ).data["cards"]
                                          if c["id"] == "lure_help")["play"]["effect"]
    assert load_game(FJ, [patch]) is not None


def test_one_outcome_of_a_die_is_replaced(tmp_path: Path) -> None:
    patch = mod(tmp_path, "patch:\n  - {path: dice.chop.outcomes.break, with: [1]}\n"
                          "  - {path: dice.chop.outcomes.miss, with: [2, 3]}\n", game="Flapjacks & Sasquatches")
    game = load_game(FJ, [patch])
    doc = read_spec(FJ, mods=[patch])
    assert doc.data["dice"]["chop"]["outcomes"] == {"break": [1], "miss": [2, 3], "chop": [4, 5, 6]}
    assert game is not None


@pytest.mark.parametrize("entry, message, line", [
    ("{path: procedures.nothing.effect, with: pass}", "patch procedures.nothing.effect: 'procedures' has no key "
                                                      "'nothing'", 4),
    ("{path: turn.steps.collect_a_point.effect, line: 9, with: pass}", "patch turn.steps.collect_a_point.effect: "
                                                                       "the text has no line 9", 4),
    ("{path: end.enough_points.when, line: 1, and: 'true'}", "patch end.enough_points.when: `and:` narrows a whole "
                                                             "condition, not one line", 4),
    ("{path: procedures.collect.params, and: 'true'}", "patch procedures.collect.params: 'procedures.collect.params' "
                                                       "is not a rule text: it has no lines and takes no `and:` or "
                                                       "`then:`", 4),
])
def test_a_path_that_names_nothing_is_located_in_the_mod(tmp_path: Path, entry: str, message: str, line: int) -> None:
    patch = mod(tmp_path, f"patch:\n  - {entry}\n")
    errors = errors_of(lambda: load_game(GAME, [patch]))
    assert errors[0].message == message and errors[0].span.file == str(patch) and errors[0].span.line == line


def test_a_rule_error_in_a_patched_part_points_into_the_mod(tmp_path: Path) -> None:
    patch = mod(tmp_path, "patch:\n  - path: end.enough_points.when\n    with: any(p in players where p.nope > 1)\n")
    errors = errors_of(lambda: load_game(GAME, [patch]))
    assert errors[0].span.file == str(patch) and errors[0].span.line == 5 and "nope" in errors[0].message


def test_two_mods_replacing_one_part_conflict_but_two_narrowing_it_compose(tmp_path: Path) -> None:
    first = mod(tmp_path, "patch:\n  - {path: end.enough_points.when, with: 'turn > 5'}\n", "a.yaml", title="A")
    second = mod(tmp_path, "patch:\n  - {path: end.enough_points.when, with: 'turn > 6'}\n", "b.yaml", title="B")
    errors = errors_of(lambda: load_game(GAME, [first, second]))
    assert "conflict" in errors[0].message and errors[0].span.file == str(second)
    assert f"{first}:4:" in errors[0].format()
    narrow = mod(tmp_path, "patch:\n  - {path: end.enough_points.when, and: 'turn > 7'}\n", "c.yaml", title="C")
    again = mod(tmp_path, "patch:\n  - {path: end.enough_points.when, and: 'turn > 8'}\n", "d.yaml", title="D")
    when = read_spec(GAME, mods=[narrow, again]).data["end"][0]["when"]
    assert when.endswith("and (turn > 7)) and (turn > 8)")


LINE = st.tuples(st.integers(min_value=0, max_value=3),
                 st.text(alphabet="abc xyz=+1", min_size=1, max_size=12).map(str.strip).filter(bool))


@examples(200)
@given(lines=st.lists(LINE, min_size=1, max_size=6), ending=st.booleans(), data=st.data())
def test_a_line_replaced_by_itself_leaves_the_text_as_it_was(lines, ending: bool, data) -> None:
    from rulelang.mods.reshape import _patched_text
    text = "\n".join("    " * depth + words for depth, words in lines) + ("\n" if ending else "")
    n = data.draw(st.integers(min_value=1, max_value=len(lines)))
    assert _patched_text(text, "with", lines[n - 1][1], n) == text
    added = _patched_text(text, "then", "more", n)
    assert added.split("\n")[n] == "    " * lines[n - 1][0] + "more"
    assert added.replace("\n" + "    " * lines[n - 1][0] + "more", "", 1) == text
