"""A mod adds points from a new source to a game's score without replacing it."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulelang import load_game
from rulelang.errors import ErrorList, RulelangError

ROOT = Path(__file__).resolve().parents[2]
PIG = ROOT / "examples" / "pig"


def pig_mod(folder: Path, parts: str, name: str = "mod.yaml", extra: str = "") -> Path:
    path = folder / name
    path.write_text(f"mod: {path.stem}\ngame: Pig\n{extra}add:\n  score_parts:\n{parts}", encoding="utf-8")
    return path


def scores_after_banking(game, pot: int, banked: int) -> list[int]:
    state = game.new_state(2, 0, before_first_turn=True)
    p1 = game.player_holder
    state.counters[p1][game.counters.index("banked")] = banked
    state.counters[p1][game.counters.index("pot")] = pot
    return state.scores()


def test_a_score_part_is_added_to_a_score_written_as_one_expression(tmp_path: Path) -> None:
    plain = load_game(PIG)
    modded = load_game(PIG, [pig_mod(tmp_path, "    at_risk: p.pot\n")])
    assert scores_after_banking(plain, pot=7, banked=30)[0] == 30
    assert scores_after_banking(modded, pot=7, banked=30)[0] == 37


def test_parts_from_two_mods_add_up(tmp_path: Path) -> None:
    first = pig_mod(tmp_path, "    at_risk: p.pot\n", "a.yaml")
    second = pig_mod(tmp_path, "    doubled: p.banked\n", "b.yaml")
    assert scores_after_banking(load_game(PIG, [first, second]), pot=7, banked=30)[0] == 67


def test_a_part_named_twice_conflicts_and_a_bad_part_points_into_the_mod(tmp_path: Path) -> None:
    first = pig_mod(tmp_path, "    bonus: p.pot\n", "a.yaml")
    second = pig_mod(tmp_path, "    bonus: p.banked\n", "b.yaml")
    with pytest.raises(RulelangError) as caught:
        load_game(PIG, [first, second])
    errors = caught.value.errors if isinstance(caught.value, ErrorList) else [caught.value]
    assert errors[0].span.file == str(second) and "bonus" in errors[0].format()
    broken = pig_mod(tmp_path, "    bonus: p.nothing\n", "c.yaml")
    with pytest.raises(RulelangError) as caught:
        load_game(PIG, [broken])
    errors = caught.value.errors if isinstance(caught.value, ErrorList) else [caught.value]
    assert errors[0].span.file == str(broken) and errors[0].span.line == 5
