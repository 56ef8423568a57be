"""What the adapters promise about a spec's numbers (rulelang.adapters.core and .features), without the extras.

- Utility bounds: those a game declares with `returns: {value, min, max}` (every return is kept within them),
  else the game's number_limit (which told OpenSpiel ±9.2e18 for every spec with returns).
- An observation vector has a bounded length: a large spec asked for 358 million numbers each.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import rulelang
from rulelang import RulelangError
from rulelang.adapters import features
from rulelang.adapters.core import SpecTable
from rulelang.agents import RandomAgent, play_out
from rulelang.errors import RuleError, SpecError
from rulelang.lang.types import INT64

ROOT = Path(__file__).resolve().parents[2]
PIG = ROOT / "examples" / "pig"

#: A declared range and the one the examples' returns really take (seen over random games).
DECLARED = {"kuhn_poker": (-2, 4), "leduc_poker": (-13, 13), "liars_dice": (-1, 1), "goofspiel": (-1, 1)}


def pig_returning(tmp_path: Path, returns: str) -> Path:
    dest = tmp_path / "pig"
    shutil.copytree(PIG, dest, ignore=shutil.ignore_patterns("scenarios"))
    spec = dest / "game.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace("score: p.banked\n", f"score: p.banked\n{returns}"),
                    encoding="utf-8")
    return dest


@pytest.mark.parametrize("name", sorted(DECLARED))
def test_the_examples_declare_bounds_their_returns_keep(name: str) -> None:
    table = SpecTable(ROOT / "examples" / name, 2)
    assert table.utility_bounds() == tuple(map(float, DECLARED[name]))
    for seed in range(40):
        state = table.new_state(seed)
        play_out(state, RandomAgent(seed))
        low, high = DECLARED[name]
        assert all(low <= r <= high for r in state.returns())


def test_declared_bounds_are_the_utility_bounds(tmp_path: Path) -> None:
    game = pig_returning(tmp_path, "returns:\n  value: p.banked - 50\n  min: -50\n  max: 200\n")
    assert SpecTable(game, 2, params={"goal": 20}).utility_bounds() == (-50.0, 200.0)
    state = rulelang.load_game(game, params={"goal": 20}).new_state(2, 3)
    play_out(state, RandomAgent(3))
    told = state.events[-1]["returns"]
    assert told == state.returns() and max(told) >= 20 - 50 and all(-50 <= r <= 200 for r in told)


def test_bounds_fall_back_to_the_number_limit_or_to_winning(tmp_path: Path) -> None:
    assert SpecTable(pig_returning(tmp_path, "returns: p.banked\n"), 2).utility_bounds() == (-float(INT64), float(INT64))
    assert SpecTable(PIG, 2).utility_bounds() == (0.0, 1.0)


def test_a_return_outside_the_declared_bounds_is_a_located_rule_error(tmp_path: Path) -> None:
    game = rulelang.load_game(pig_returning(tmp_path, "returns:\n  value: p.banked + 1000\n  min: 0\n  max: 10\n"),
                              params={"goal": 5})
    state = game.new_state(2, 1)
    with pytest.raises(RuleError) as caught:
        play_out(state, RandomAgent(1))
    assert "return is 10" in caught.value.message and "outside the bounds 'returns' declares (0 to 10)" \
        in caught.value.message
    assert caught.value.span.line == 25 and caught.value.span.col == 10


def test_bounds_that_contradict_themselves_are_located(tmp_path: Path) -> None:
    with pytest.raises(SpecError) as caught:
        rulelang.load_game(pig_returning(tmp_path, "returns:\n  value: p.banked\n  min: 5\n  max: -5\n"))
    assert caught.value.message == "'max' (-5) must be at least 'min' (5)"
    assert (caught.value.span.line, caught.value.span.col) == (27, 8)


def test_an_observation_vector_past_the_bound_is_refused_with_its_reason(monkeypatch) -> None:
    size = SpecTable(PIG, 2).view_encoder().size
    monkeypatch.setattr(features, "MAX_VIEW_NUMBERS", size - 1)
    with pytest.raises(RulelangError) as caught:
        SpecTable(PIG, 2).view_encoder()
    assert f"would take {size:,} of them" in caught.value.message
    assert f"holds at most {size - 1:,}" in caught.value.message
    assert "observation strings" in caught.value.hint


@pytest.mark.parametrize("path", ["games/flapjacks", "games/jacks_friends", "examples/leduc_poker"])
def test_the_games_views_fit_the_bound(path: str) -> None:
    table = SpecTable(ROOT / path, rulelang.load_game(ROOT / path).max_players)
    assert table.view_encoder().size <= features.MAX_VIEW_NUMBERS
