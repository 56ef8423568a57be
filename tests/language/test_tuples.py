"""Tuples: `(a, b)` values, `t[k]`, lists built with `for`, tuple variables, and choices among tuples.

Each property is checked against what Python computes for the same numbers; option ids are pinned
(`3-5`, `-1-2`), a folded list (fixed when the game is compiled) against the same list built while
playing, and tuple variables through views, events and saved games (which must refuse forged ones).
"""
from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rulelang
from rulelang import RuleError, State
from rulelang.adapters.core import ActionMap
from rulelang.engine.views import events_for
from rulelang.logs.narrate import narrate
from rulelang.logs.saves import SavedStateError, load_state

from helpers.effect_games import ONE_STEP, EffectGames
from helpers.examples import examples

ROOT = Path(__file__).resolve().parents[2]
GAME = """\
game: Pairs
players: {{min: 2, max: 3}}
params:
  a: {{type: int, default: 0, min: -50, max: 50}}
  b: {{type: int, default: 0, min: -50, max: 50}}
  c: {{type: int, default: 0, min: -50, max: 50}}
  d: {{type: int, default: 0, min: -50, max: 50}}
vars:
  w: {{type: int}}
  x: {{type: int}}
  y: {{type: int}}
  z: {{type: int}}
  out: {{type: int}}
  pair: {{type: "(int, int)", initial: [0, 0]}}
  secret: {{type: "(player, bool)", initial: [null, false], visibility: owner}}
step_budget: 1000
""" + ONE_STEP

game = EffectGames(GAME)


small = st.integers(-50, 50)


def played(g: rulelang.Game, w: int = 0, x: int = 0, y: int = 0, z: int = 0, players: int = 2) -> State:
    """A game of ``g`` whose first player's w, x, y and z are given before turn 1 (one compiled game for all)."""
    state = g.new_state(players, 0, before_first_turn=True, ask_single_options=True)
    for name, value in zip("wxyz", (w, x, y, z)):
        state.set_var(0, name, value)
    state.resume()
    return state


@examples(60)
@given(a=small, b=small, c=small, d=small)
def test_tuples_compare_and_order_element_by_element(tmp_path_factory, a, b, c, d):
    effect = ("s = (me.w, me.x)\nt = (me.y, me.z)\n"
              "me.out = (1 if s < t else 0) + (2 if s = t else 0) + (4 if s >= t else 0) + 8 * (t[1] - s[0])")
    state = played(game(tmp_path_factory.getbasetemp(), effect), a, b, c, d)
    expected = (1 if (a, b) < (c, d) else 0) + (2 if (a, b) == (c, d) else 0) + (4 if (a, b) >= (c, d) else 0)
    assert state.var(0, "out") == expected + 8 * (d - a)


@examples(10)
@given(a=st.integers(0, 6), b=st.integers(0, 6))
def test_a_list_built_with_for_is_every_combination_in_order_the_last_loop_fastest(tmp_path_factory, a, b):
    g = game(tmp_path_factory.getbasetemp(),
             "me chooses t in [(q, f) for q in range(0, a) for f in range(q, b) where f != 3]\nme.pair = t", a=a, b=b)
    wanted = [f"{q}-{f}" for q in range(a) for f in range(q, b) if f != 3]
    state = g.new_state(2, 0)
    if len(wanted) > 1:
        assert state.legal() == wanted
        state.apply(wanted[-1])
    assert g.decisions["work.t"][0].options == tuple((w, "(" + w.replace("-", ", ") + ")") for w in wanted)
    if wanted:
        assert state.var(0, "pair") == [int(x) for x in wanted[-1].split("-")]


@examples(10)
@given(a=st.integers(0, 5), b=st.integers(0, 5))
def test_a_list_fixed_when_compiled_equals_the_same_list_built_while_playing(tmp_path_factory, a, b):
    """`turn - 1` is 0 on turn 1 but is not known when compiling: the second list is built in play."""
    base = tmp_path_factory.getbasetemp()
    fixed = game(base, "me chooses t in [(q, q * f) for q in range(0, a) for f in range(-1, b)]\nme.pair = t",
                 a=a, b=b)
    played = game(base, "me chooses t in [(q, q * f) for q in range(turn - 1, a) for f in range(-1, b)]\nme.pair = t",
                  a=a, b=b)
    assert played.decisions["work.t"][0].options is None            # open: only known in play
    assert fixed.decisions["work.t"][0].options is not None
    ours, theirs = fixed.new_state(2, 0), played.new_state(2, 0)
    assert ours.legal() == theirs.legal()
    assert ours.dumps() == theirs.dumps()


@examples(60)
@given(a=small, b=small, c=small, d=small)
def test_option_ids_tell_tuples_apart_negative_numbers_too(tmp_path_factory, a, b, c, d):
    g = game(tmp_path_factory.getbasetemp(), "me chooses t in [(me.w, me.x), (me.y, me.z)]\nme.pair = t")
    ids = played(g, a, b, c, d).legal()
    assert ids[0] == f"{a}-{b}"
    assert (len(ids) == 1) == ((a, b) == (c, d))


def test_a_list_of_params_is_fixed_when_compiled(tmp_path):
    g = game(tmp_path, "me chooses t in [(a, b), (c, -d)]\nme.pair = t", a=-1, b=2, c=1, d=2)
    assert g.decisions["work.t"][0].options == (("-1-2", "(-1, 2)"), ("1--2", "(1, -2)"))


def test_ids_and_labels_of_tuples_of_players_and_conditions(tmp_path):
    g = game(tmp_path, "me chooses t in [(p, p = me) for p in players]\nme.secret = t")
    state = g.new_state(3, 0)
    assert state.legal() == ["P1-true", "P2-false", "P3-false"]
    assert state.view(0)["decision"] is not None
    assert [o.label for o in state.decision().options[0]] == ["(P1, True)", "(P2, False)", "(P3, False)"]
    state.apply("P2-false")
    assert state.var(0, "secret") == [1, False]


def test_a_for_branch_offers_its_items_among_labelled_branches_and_binds_the_one_chosen(tmp_path):
    effect = ('me chooses one as pick:\n    "first" as first:\n        me.out = -1\n'
              '    for t in [(k, k * k) for k in range(me.w, 4)] where t[1] != 4:\n        me.pair = t\n'
              '    "last" as last if me.x > 0:\n        me.out = -2')
    g = game(tmp_path, effect)
    assert g.decisions["work.pick"][0].options is None             # open: the list depends on me.w
    state = played(g, w=1, x=1)
    assert state.legal() == ["first", "1-1", "3-9", "last"]
    state.apply("3-9")
    assert (state.var(0, "pair"), state.var(0, "out")) == ([3, 9], 0)
    assert played(g, w=5, x=0).legal() == ["first"]


def test_the_loop_names_are_restored_after_the_list_is_built(tmp_path):
    state = game(tmp_path, "q = 40\nxs = [(q, q) for q in range(0, 3 + turn)]\nme.out = q + count(xs)").new_state(2, 0)
    assert state.var(0, "out") == 44


def test_a_list_too_big_to_fold_is_left_to_the_game_and_stopped_by_its_budget(tmp_path):
    g = game(tmp_path, "me chooses t in [(x, y) for x in range(0, 100000) for y in range(0, 100000)]\nme.pair = t")
    assert g.decisions["work.t"][0].options is None          # not computed when compiling
    with pytest.raises(RuleError, match="steps without a decision"):
        g.new_state(2, 0)


def test_a_list_with_more_loops_than_the_limit_is_a_load_error(tmp_path):
    loops = " ".join(f"for v{k} in range(0, 2)" for k in range(9))
    with pytest.raises(rulelang.SpecError, match="at most 8 loops, not 9"):
        game(tmp_path, f"me.out = count([v0 {loops}])")


def test_building_a_list_is_charged_as_work(tmp_path):
    with pytest.raises(RuleError, match="steps without a decision"):
        game(tmp_path, "me.out = count([(x, y) for x in range(0, 40 + turn) for y in range(0, 40)])").new_state(2, 0)


def test_a_tuple_variable_in_views_events_and_saves(tmp_path):
    g = game(tmp_path, "me.secret = (next(me), true)\nme.pair = (turn, -3)\nme chooses n from 1 to 2")
    state = g.new_state(2, 0)
    assert state.view(0)["players"][0]["vars"]["secret"] == ["P2", True]
    assert "secret" not in state.view(1)["players"][0]["vars"]              # the owner's only
    told = [e for e in events_for(g, state.events, 0) if e.get("type") == "set"]
    assert {"pair", "secret"} <= {e.get("var") for e in told}
    data = json.loads(json.dumps(state.to_json()))
    assert State.from_json(g, data).dumps() == state.dumps()
    vi = g.var_names.index("pair")
    data["vars"][0][vi] = [1, 2, 3]
    with pytest.raises(SavedStateError, match=r"holds a list of 2 values, not \[1,2,3\]"):
        load_state(g, data)
    data["vars"][0][vi] = [1, True]
    with pytest.raises(SavedStateError, match="whole number"):
        load_state(g, data)
    data["vars"][0][vi] = [1, 2]
    data["vars"][0][g.var_names.index("secret")] = [7, True]
    with pytest.raises(SavedStateError, match="a player of this game"):
        load_state(g, data)


# -- a `for` branch of `chooses one`: Liar's dice ---------------------------------------------------

LIARS_DICE = ROOT / "examples" / "liars_dice"
BIDS = [f"{q}-{f}" for q in (1, 2) for f in range(1, 7)]


def test_the_decision_lists_every_bid_in_order_then_the_call():
    g = rulelang.load_game(LIARS_DICE)
    (site,) = g.decisions["bid_or_call.bid"]
    assert [oid for oid, _ in site.options] == BIDS + ["liar"]
    assert site.options[0] == ("1-1", "(1, 1)")
    assert ActionMap(g).ids == BIDS + ["liar"]
    bigger = rulelang.load_game(LIARS_DICE, params={"dice_per_player": 3})
    assert ActionMap(bigger).ids == [f"{q}-{f}" for q, f in itertools.product(range(1, 7), range(1, 7))] + ["liar"]


def test_a_bid_binds_the_branch_name_and_a_saved_game_waiting_there_reads_back():
    g = rulelang.load_game(LIARS_DICE)
    state = g.new_state(2, 4)
    state.apply("1-6")
    assert state.var(0, "bid") == [1, 6]
    (told,) = [e for e in state.events if e.get("var") == "bid"]
    assert told["value"] == [1, 6]                                    # the log holds the tuple as a list
    assert narrate(g, told) == "  P1's bid: (1, 6)"                   # the play-by-play as the rules write it
    assert state.legal() == BIDS[6:] + ["liar"]
    data = json.loads(json.dumps(state.to_json()))
    restored = load_state(g, data)
    assert restored.legal() == state.legal()
    for s in (state, restored):
        s.apply("2-2")
    assert restored.dumps() == state.dumps()


def test_a_forged_bid_in_a_saved_game_is_refused():
    g = rulelang.load_game(LIARS_DICE)
    state = g.new_state(2, 4)
    state.apply("1-6")
    data = json.loads(json.dumps(state.to_json()))
    data["vars"][0][g.var_names.index("bid")] = [1, "six"]
    with pytest.raises(SavedStateError, match=r"vars\.P1\.bid\[1\]: 'six' is not of type"):
        load_state(g, data)
    data["vars"][0][g.var_names.index("bid")] = [1, 6, 1]
    with pytest.raises(SavedStateError, match=r"vars\.P1\.bid: a \(int,int\) variable holds a list of 2 values"):
        load_state(g, data)


def test_a_tuple_variable_is_one_number_per_element_in_a_learners_vector():
    from rulelang.adapters.core import SpecTable
    table = SpecTable(LIARS_DICE, 2)
    state = table.new_state(4)
    state.apply("2-5")
    encoder = table.view_encoder()
    vector = encoder.encode(state.view(1))
    assert len(vector) == encoder.size
    names = list(encoder.var_names)
    width = sum(encoder.var_widths)
    assert width == len(names) + 1                          # `bid` takes two numbers
    p1 = vector[2 + 2 * 2 + len(encoder.holders) * len(encoder.counters) + len(encoder.counters):][:width]
    at = sum(encoder.var_widths[:names.index("bid")])
    assert p1[at:at + 2] == [2.0, 5.0]
    assert p1[:6] == [0.0] * 6                              # P1's faces are hidden from P2


@pytest.mark.parametrize("seed", range(5))
def test_games_are_the_same_byte_for_byte_for_a_seed(seed):
    g = rulelang.load_game(LIARS_DICE)
    first, second = g.new_state(2, seed), g.new_state(2, seed)
    for s in (first, second):
        while not s.is_over:
            s.apply(s.legal()[seed % len(s.legal())])
    assert first.dumps() == second.dumps()
