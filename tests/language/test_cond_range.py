"""`A if COND else B` and `range(a, b)`: values computed as Python would, lists bounded and charged as work."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rulelang
from rulelang import RuleError, SpecError
from rulelang.engine.limits import MAX_OPTIONS

from helpers.effect_games import ONE_STEP, EffectGames
from helpers.examples import examples

GAME = """\
game: Values
players: {{min: 2, max: 2}}
params:
  a: {{type: int, default: 0, min: -1000, max: 1000}}
  b: {{type: int, default: 0, min: -1000, max: 1000}}
vars:
  out: {{type: int}}
  picks: {{type: int}}
step_budget: 1000
""" + ONE_STEP

game = EffectGames(GAME)


def out(g: rulelang.Game) -> int:
    return g.new_state(2, 0).var(0, "out")


@examples(40)
@given(a=st.integers(-1000, 1000), b=st.integers(-1000, 1000))
def test_a_conditional_is_the_value_of_its_branch(tmp_path_factory, a, b):
    g = game(tmp_path_factory.getbasetemp(), "me.out = a if a > b else b - 1 if b > 0 else 7", a=a, b=b)
    assert out(g) == (a if a > b else b - 1 if b > 0 else 7)


@examples(40)
@given(a=st.integers(-150, 150), b=st.integers(-150, 150))      # within the step budget of 1000
def test_range_holds_the_numbers_from_a_up_to_b(tmp_path_factory, a, b):
    g = game(tmp_path_factory.getbasetemp(), "me.out = sum(range(a, b))\nme.picks = count(range(a, b))", a=a, b=b)
    state = g.new_state(2, 0)
    assert (state.var(0, "out"), state.var(0, "picks")) == (sum(range(a, b)), len(range(a, b)))


def test_a_choice_over_a_range_offers_each_number(tmp_path):
    g = game(tmp_path, "me chooses n in range(a, b) where n != 3\nme.out = n", a=1, b=6)
    state = g.new_state(2, 0)
    assert state.legal() == ["1", "2", "4", "5"]
    state.apply("4")
    assert state.var(0, "out") == 4


def test_only_the_branch_taken_is_computed(tmp_path):
    g = game(tmp_path, "me.out = 1 if a = 0 else sum(range(0, 5000))", a=0)
    assert out(g) == 1                    # the other branch would run past the step budget of 1000


def test_a_range_is_charged_as_work_per_number(tmp_path):
    with pytest.raises(RuleError, match="steps without a decision"):
        out(game(tmp_path, "me.out = count(range(0, 5000))"))


def test_a_range_longer_than_the_options_limit_is_refused(tmp_path):
    with pytest.raises(RuleError, match=f"more than the {MAX_OPTIONS:,} numbers"):
        out(game(tmp_path, "me.out = count(range(0, 1000 * 1000))"))


@pytest.mark.parametrize("effect, words", [
    ("me.out = 1 if a else 2", "the condition of 'if ... else' must be a condition"),
    ("me.out = 1 if a > 0 else true", "must be of one kind, not a number and a condition"),
    ("me.out = count(range(1))", "'range' takes two numbers"),
    ("me.out = count(range(1, true))", "each argument of 'range' must be a number"),
])
def test_misused_conditionals_and_ranges_are_load_errors(tmp_path, effect, words):
    with pytest.raises(SpecError) as error:
        game(tmp_path, effect)
    assert words in str(error.value.format())
