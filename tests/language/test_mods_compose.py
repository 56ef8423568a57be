"""Mods from different authors stack: wraps chain in load order, `after:`/`before:`, located conflicts
(rulelang/mods/layers.py, rulelang/mods/reshape.py, docs/mods.md: Mods that stack)."""
from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

from rulelang import load_game
from rulelang.cli import main
from rulelang.errors import ErrorList, RulelangError
from rulelang.testing.smoke import play_random

from helpers.examples import examples

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "mods_compose"
#: What each test mod does to a score and to the points collected, and the digit its step marks.
SCORE = {"A": lambda x: x * 2, "B": lambda x: x + 1, "C": lambda x: x + 10}
DIGIT = {"A": "1", "B": "2", "C": "3"}
ORDERS = list(itertools.permutations("ABC"))


def mods_in(order) -> list[Path]:
    return [GAME / f"mod_{name}" for name in order]


def errors_of(call) -> list[RulelangError]:
    with pytest.raises(RulelangError) as caught:
        call()
    error = caught.value
    return list(error.errors) if isinstance(error, ErrorList) else [error]


def chained(order, value: int) -> int:
    """The value through the wrappers: the first mod loaded is innermost, the last is called first."""
    for name in order:
        value = SCORE[name](value)
    return value


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("order", ORDERS, ids=["".join(o) for o in ORDERS])
def test_three_mods_wrapping_one_function_procedure_and_step_chain_in_load_order(order) -> None:
    game = load_game(GAME, mods_in(order))
    state = game.new_state(2, 0, before_first_turn=True)
    state.set_counter(0, "points", 5)
    assert state.scores()[0] == chained(order, 5)
    outcome = play_random(game, 2, 7)
    assert outcome.problem is None and outcome.state.over
    first = outcome.state
    # collect(me, 1) went down the chain outermost first: the last mod's change is applied to 1 first
    collected = 1
    for name in reversed(order):
        collected = {"A": collected * 2, "B": collected + 1, "C": collected + 10}[name]
    assert first.counter(0, "points") % collected == 0
    # the steps the mods insert after one step run in load order
    assert first.counter(0, "marks") == int("".join(DIGIT[name] for name in order))


def test_the_order_of_the_chain_changes_the_game() -> None:
    results = {order: chained(order, 5) for order in ORDERS}
    assert len(set(results.values())) > 1
    played = {"".join(order): play_random(load_game(GAME, mods_in(order)), 2, 7).state.scores() for order in ORDERS}
    assert len({tuple(scores) for scores in played.values()}) > 1


def test_rulelang_mods_reports_the_chain(capsys) -> None:
    code = main(["mods", str(GAME)] + [arg for m in mods_in("BCA") for arg in ("--mod", str(m))])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "chain: function 'score' runs 'A' -> 'C' -> 'B' -> the game's" in out
    assert "chain: procedure 'collect' runs 'A' -> 'C' -> 'B' -> the game's" in out
    assert "ok: 3 mods load together" in out


def test_one_mod_is_one_mod_in_the_report(capsys) -> None:
    code = main(["mods", str(GAME), "--mod", str(GAME / "mod_A")])
    out, _ = capsys.readouterr()
    assert code == 0 and "ok: 1 mod loads over Stacking" in out and "1 mods" not in out


def test_after_puts_a_mod_after_another_whatever_the_command_line_order(tmp_path: Path) -> None:
    late = write(tmp_path / "late.yaml", "mod: Late\ngame: Stacking\nafter: [A]\n"
                 "wrap: {functions: {score: original_score(p) + 100}}\n")
    game = load_game(GAME, [late, GAME / "mod_A"])
    state = game.new_state(2, 0, before_first_turn=True)
    state.set_counter(0, "points", 5)
    assert state.scores()[0] == 5 * 2 + 100          # Late goes around A: (5 * 2) + 100, not (5 + 100) * 2


def test_before_puts_a_mod_before_another(tmp_path: Path) -> None:
    early = write(tmp_path / "early.yaml", "mod: Early\ngame: Stacking\nbefore: [A]\n"
                  "wrap: {functions: {score: original_score(p) + 100}}\n")
    game = load_game(GAME, [GAME / "mod_A", early])
    state = game.new_state(2, 0, before_first_turn=True)
    state.set_counter(0, "points", 5)
    assert state.scores()[0] == (5 + 100) * 2


def test_after_a_mod_not_loaded_is_no_constraint(tmp_path: Path) -> None:
    late = write(tmp_path / "late.yaml", "mod: Late\ngame: Stacking\nafter: [Nobody]\n")
    assert load_game(GAME, [late]) is not None


def test_mods_that_ask_to_follow_each_other_in_a_circle_are_a_located_error(tmp_path: Path) -> None:
    one = write(tmp_path / "one.yaml", "mod: One\ngame: Stacking\nafter: [Two]\n")
    two = write(tmp_path / "two.yaml", "mod: Two\ngame: Stacking\nafter: [One]\n")
    errors = errors_of(lambda: load_game(GAME, [one, two]))
    assert "circle" in errors[0].message and errors[0].span.file == str(one) and errors[0].span.line == 3


def test_two_mods_adding_one_card_id_conflict_with_both_files_and_lines(tmp_path: Path) -> None:
    card = "add:\n  zones: {{pile_{0}: {{owner: table, visibility: public}}}}\n  cards:\n    - {{id: token, name: Token, count: 1, zone: pile_{0}}}\n"
    first = write(tmp_path / "first.yaml", "mod: First\ngame: Stacking\n" + card.format(1))
    second = write(tmp_path / "second.yaml", "mod: Second\ngame: Stacking\n" + card.format(2))
    errors = errors_of(lambda: load_game(GAME, [first, second]))
    conflict = next(e for e in errors if "conflict" in e.message)
    shown = conflict.format()
    assert conflict.span.file == str(second) and conflict.span.line == 6
    assert f"{first}:6:" in shown and "rename" in shown and "overrides" in shown


def test_a_renamed_card_resolves_the_conflict(tmp_path: Path) -> None:
    card = "add:\n  zones: {{pile_{0}: {{owner: table, visibility: public}}}}\n  cards:\n    - {{id: {1}, name: Token, count: 1, zone: pile_{0}}}\n"
    first = write(tmp_path / "first.yaml", "mod: First\ngame: Stacking\n" + card.format(1, "token"))
    second = write(tmp_path / "second.yaml", "mod: Second\ngame: Stacking\n" + card.format(2, "second_token"))
    game = load_game(GAME, [first, second])
    state = game.new_state(2, 0, before_first_turn=True)
    assert state.zone("pile_1") == ["token"] and state.zone("pile_2") == ["second_token"]


def test_a_replace_of_a_wrapped_function_by_another_mod_is_still_a_conflict(tmp_path: Path) -> None:
    other = write(tmp_path / "other.yaml", "mod: Other\ngame: Stacking\n"
                  "replace: {functions: {score: {params: {p: player}, value: p.marks}}}\n")
    errors = errors_of(lambda: load_game(GAME, [GAME / "mod_A", other]))
    assert "conflict" in errors[0].message and errors[0].span.file == str(other)


def test_a_chained_wrapper_error_points_at_its_own_mod(tmp_path: Path) -> None:
    bad = write(tmp_path / "bad.yaml", "mod: Bad\ngame: Stacking\n"
                "wrap:\n  functions:\n    score: original_score(p) + nope\n")
    errors = errors_of(lambda: load_game(GAME, [GAME / "mod_A", bad]))
    assert errors[0].span.file == str(bad) and errors[0].span.line == 5 and "nope" in errors[0].message


WRAPPERS = st.lists(st.tuples(st.sampled_from(["+", "*"]), st.integers(min_value=1, max_value=5)),
                    min_size=1, max_size=5)


@examples(12, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(wrappers=WRAPPERS, points=st.integers(min_value=0, max_value=20))
def test_any_number_of_wrappers_compose_in_load_order(tmp_path_factory, wrappers, points: int) -> None:
    folder = tmp_path_factory.mktemp("chain")
    mods = [write(folder / f"m{i}.yaml", f"mod: M{i}\ngame: Stacking\n"
                  f"wrap: {{functions: {{score: 'original_score(p) {op} {k}'}}}}\n")
            for i, (op, k) in enumerate(wrappers)]
    state = load_game(GAME, mods).new_state(2, 0, before_first_turn=True)
    state.set_counter(0, "points", points)
    expected = points
    for op, k in wrappers:
        expected = expected + k if op == "+" else expected * k
    assert state.scores()[0] == expected
