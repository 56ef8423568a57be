"""Runaway rules stop with a located error, quickly, and never hang, overflow or eat memory.

Each test builds a hostile variant of the tiny valid game (`tests/broken/_valid`) in a
temporary folder: work hidden inside one statement, numbers that grow without end,
procedures that call themselves, numbers too large to read, and the compiler's own edges.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rulelang
from rulelang.compiler import GameCompiler, compile_game
from rulelang.errors import RuleError, SpecError, shown
from rulelang.lang.types import INT64
from rulelang.model.spec import CALL_DEPTH, FUNCTION_DEPTH
from rulelang.spec.loader import load_document
from rulelang.testing.smoke import play_random

from helpers.examples import examples
from helpers.valid_game import derive, line_of

DIE = ("vars:", "dice:\n  d: {faces: 6}\n\nvars:")
TEN_THOUSAND_DICE = "roll 10000 d as r"


def runtime_error(spec: Path, players: int = 2) -> RuleError:
    game = rulelang.load_game(spec.parent)
    with pytest.raises(RuleError) as caught:
        game.new_state(players, seed=3)
    return caught.value


def load_error(spec: Path) -> SpecError:
    with pytest.raises(SpecError) as caught:
        rulelang.load_game(spec.parent)
    return caught.value


BUDGET = "the rules ran 100,000 steps without a decision"


# --- 1. work inside one statement counts against step_budget ------------------------------------

def test_drawing_a_trillion_cards_from_a_deck_that_refills_stops_at_the_budget(tmp_path):
    spec = derive(tmp_path, effect="draw 1000000000000 from deck to pile")
    error = runtime_error(spec)
    assert error.message.startswith(BUDGET)
    assert error.span.line == line_of(spec, "draw 1000000000000")
    assert "seed 3, turn 1" in error.hint and "step_budget" in error.hint


def test_drawing_many_cards_in_a_game_with_triggers_stops_at_the_budget(tmp_path):
    """With triggers every card move is an instruction of its own: the count still holds."""
    spec = derive(tmp_path, ("functions:", "triggers:\n  - name: noted\n    on: enter pile\n"
                                           "    effect: pass\n\nfunctions:"),
                  effect="draw 1000000000000 from deck to pile")
    error = runtime_error(spec)
    assert error.message.startswith(BUDGET)


@pytest.mark.parametrize("effect, where", [
    ("for each x in r:\n  for each y in r:\n    me.bet = 1", "for each y in r"),            # loop passes
    ("me.bet = sum(count(y in r where y > x) for x in r)", "me.bet = sum"),                # aggregate items
    ("for each x in r:\n  roll 10000 d as s", "roll 10000 d as s"),                          # dice rolled
    ("for each x in r:\n  me chooses y in r where y > 6", "me chooses y in r"),               # options looked at
    ("for each x in r:\n  if x in r:\n    me.bet = 1", "if x in r"),                         # membership tests
    ("for each x in r:\n  shuffle deck  # again", "shuffle deck  # again"),                   # cards shuffled
    ("for each x in r:\n  me.bet = r.total", "me.bet = r.total"),                             # dice added up
])
def test_work_hidden_inside_one_statement_counts(tmp_path, effect, where):
    """The error points at the innermost statement running, also inside loops that never wait."""
    spec = derive(tmp_path, DIE, effect=f"{TEN_THOUSAND_DICE}\n{effect}")
    error = runtime_error(spec)
    assert error.message.startswith(BUDGET)
    assert error.span.line == line_of(spec, where)
    assert "seed 3, turn 1" in error.hint


def test_gathering_every_players_zone_counts_its_cards(tmp_path):
    """`hand` (every player's hand together) is built card by card: 10,000 passes over 12 cards is too much."""
    spec = derive(tmp_path, DIE, effect=f"draw 12 from deck to me.hand\n{TEN_THOUSAND_DICE}\n"
                                        "for each x in r:\n  me.bet = count(hand)")
    error = runtime_error(spec)
    assert error.message.startswith(BUDGET)


def test_loops_that_wait_for_decisions_count_their_passes(tmp_path):
    """A `for each` whose body asks a question compiles to jumps inside one frame; its passes count too."""
    spec = derive(tmp_path, DIE, effect=f"{TEN_THOUSAND_DICE}\nfor each x in r:\n  for each y in r:\n"
                                        "    for each z in r:\n      me chooses n from 0 to z - z")
    error = runtime_error(spec)
    assert error.message.startswith(BUDGET)


def test_a_score_read_between_runs_has_a_budget_of_its_own(tmp_path):
    """Reading scores over and over (views, summaries) never drains the budget of play."""
    spec = derive(tmp_path, ("turn:", "step_budget: 1000\n\nturn:"),
                  ("functions:", "score: sum(q.coin for q in players)\n\nfunctions:"))
    game = rulelang.load_game(spec.parent)
    state = game.new_state(2, seed=1)
    for _ in range(2 * game.step_budget):
        assert state.scores() == [6, 6]
    state.apply_index(0)
    assert state.decision() is not None


# --- 2. numbers stay within number_limit --------------------------------------------------------

def test_squaring_in_nested_loops_stops_at_the_64_bit_limit(tmp_path):
    spec = derive(tmp_path, effect="me.bet = 2\nfor each p in players:\n  for each q in deck:\n"
                                   "    me.bet = me.bet * me.bet")
    error = runtime_error(spec)
    assert error.message.startswith("a number went past the limit of the game: ")
    assert f"not between -{INT64:,} and {INT64:,}" in error.message
    assert error.span.line == line_of(spec, "me.bet * me.bet")
    assert "number_limit" in error.hint


@pytest.mark.parametrize("effect, where", [
    ("for each q in deck:\n  me.coin += me.coin", "me.coin += me.coin"),
    ("for each q in deck:\n  me.bet = me.bet + me.bet + 1", "me.bet + me.bet + 1"),
    ("for each q in deck:\n  me.bet = me.bet - 3 * me.bet - 1", "me.bet - 3 * me.bet - 1"),
    ("me.coin = 600\nme.coin += 600", "me.coin += 600"),
    ("me.bet = 900\nme.bet = sum(me.bet for p in players)", "sum(me.bet for p in players)"),
])
def test_a_declared_number_limit_is_kept_by_every_kind_of_arithmetic(tmp_path, effect, where):
    spec = derive(tmp_path, ("turn:", "number_limit: 1000\n\nturn:"), effect=effect)
    error = runtime_error(spec)
    assert "not between -1,000 and 1,000" in error.message
    assert error.span.line == line_of(spec, where)


def test_moving_counters_onto_a_full_holder_is_refused(tmp_path):
    spec = derive(tmp_path, ("turn:", "number_limit: 1000\n\nturn:"),
                  effect="pot.coin = 999\nmove 2 coin from me to pot")
    error = runtime_error(spec)
    assert "1,001 is not between -1,000 and 1,000" in error.message
    assert error.span.line == line_of(spec, "move 2 coin from me to pot")


def test_numbers_up_to_the_limit_play_as_before(tmp_path):
    spec = derive(tmp_path, ("turn:", "number_limit: 1000\n\nturn:"), effect="me.coin = 999 + 1 - 500 - 500 + 1000")
    state = rulelang.load_game(spec.parent).new_state(2, seed=1)
    assert state.counter(0, "coin") == 1000


def test_a_literal_past_the_declared_limit_is_a_load_error(tmp_path):
    spec = derive(tmp_path, ("turn:", "number_limit: 1000\n\nturn:"), effect="me.bet = 1001")
    error = load_error(spec)
    assert error.message == "this number is past the game's number_limit of 1,000"
    assert (error.span.line, error.span.col) == (line_of(spec, "me.bet = 1001"), 18)


@pytest.mark.parametrize("change, where", [
    (("tags: [shiny, dull]", "tags: [shiny, dull]\ncard_props: {points: 5000}"), "card_props"),
    (("bet: {type: int}", "bet: {type: int, initial: -5000}"), "initial: -5000"),
    (("coin: {label: coin}", "coin: {label: coin, worth: 5000}"), "worth: 5000"),
])
def test_numbers_in_the_yaml_past_the_limit_are_load_errors(tmp_path, change, where):
    spec = derive(tmp_path, ("turn:", "number_limit: 1000\n\nturn:"), change)
    error = load_error(spec)
    assert "is past the game's number_limit of 1,000" in error.message
    assert error.span.line == line_of(spec, where)


def test_a_die_face_of_many_digits_is_told_by_its_size(tmp_path):
    spec = derive(tmp_path, ("vars:", "dice:\n  d: {faces: 6, outcomes: {high: [" + "9" * 3000 + "]}}\n\nvars:"))
    error = load_error(spec)      # the loader refuses it before any die is built, told by its size too
    assert error.message == "this number has 3,000 digits; a spec's numbers have at most 100"
    assert error.span.line == line_of(spec, "outcomes")


def test_a_number_of_thousands_of_digits_in_a_rule_is_a_located_error(tmp_path):
    spec = derive(tmp_path, effect="me.bet = " + "9" * 5000)
    error = load_error(spec)
    assert error.message.startswith("this number is too large")
    assert error.span.line == line_of(spec, "me.bet = 999")


@pytest.fixture(scope="module")
def squaring_game(tmp_path_factory):
    """A game whose first step computes bet * bet - bet, within number_limit 1000000."""
    spec = derive(tmp_path_factory.mktemp("square"), ("turn:", "number_limit: 1000000\n\nturn:"),
                  effect="me.bet = me.bet * me.bet - me.bet")
    return rulelang.load_game(spec.parent)


@given(st.integers(min_value=-(10 ** 6), max_value=10 ** 6))
@examples(150)
def test_arithmetic_is_exact_inside_the_limit_and_an_error_outside(squaring_game, bet):
    state = squaring_game.new_state(2, seed=1, before_first_turn=True)
    state.set_var(0, "bet", bet)
    limit = squaring_game.number_limit
    if abs(bet * bet) <= limit and abs(bet * bet - bet) <= limit:
        state.resume()
        assert state.var(0, "bet") == bet * bet - bet
    else:
        with pytest.raises(RuleError) as caught:
            state.resume()
        assert caught.value.message.startswith("a number went past the limit of the game")
        assert "-1,000,000 and 1,000,000" in caught.value.message


def test_huge_numbers_are_shown_by_their_size():
    assert shown(10 ** 40) == "a number of 41 digits"
    assert shown(-(10 ** 5000)) == "a number of more than 4,000 digits"


# --- 3. call depth ------------------------------------------------------------------------------

PAY_FIRST = ("    effect: move n coin from p to pot", "    effect: |\n      pay(p, n)\n      move n coin from p to pot")
PAY_LAST = ("    effect: move n coin from p to pot", "    effect: |\n      move n coin from p to pot\n      pay(p, n)")
BIG_BUDGET = ("turn:", "step_budget: 1000000\n\nturn:")


def test_a_procedure_that_calls_itself_stops_at_the_call_depth(tmp_path):
    spec = derive(tmp_path, PAY_FIRST, BIG_BUDGET, effect="pay(me, 0)")
    error = runtime_error(spec)
    assert error.message.startswith(f"the rules nest more than {CALL_DEPTH:,} calls deep, calling procedure pay")
    assert error.span.line == line_of(spec, "      pay(p, n)")
    assert "call_depth" in error.hint


def test_the_call_depth_is_the_games_own(tmp_path):
    spec = derive(tmp_path, PAY_FIRST, ("turn:", "call_depth: 50\n\nturn:"), effect="pay(me, 0)")
    error = runtime_error(spec)
    assert error.message.startswith("the rules nest more than 50 calls deep")
    assert len(error.state.stack) <= 52


def test_a_call_in_last_place_does_not_grow_the_stack(tmp_path):
    """Tail calls replace their caller, so a recursion there runs out of budget, not memory."""
    spec = derive(tmp_path, PAY_LAST, effect="pay(me, 0)")
    error = runtime_error(spec)
    assert error.message.startswith(BUDGET)
    assert len(error.state.stack) < 5


@pytest.mark.slow
def test_triggers_that_fire_each_other_do_not_pile_up(tmp_path):
    bounce = ("  hand: {owner: player, visibility: owner}\n",
              "  hand: {owner: player, visibility: owner}\n  left: {owner: table, visibility: public}\n"
              "  right: {owner: table, visibility: public}\n\ntriggers:\n  - name: to the right\n"
              "    on: enter left\n    effect: move card to right\n  - name: to the left\n    on: enter right\n"
              "    effect: move card to left\n")
    spec = derive(tmp_path, bounce, BIG_BUDGET, effect="draw 1 from deck to left")
    error = runtime_error(spec)
    assert error.message.startswith("the rules ran 1,000,000 steps without a decision")
    assert len(error.state.stack) < 5


def test_triggers_that_fire_each_other_before_they_finish_stop_at_the_call_depth(tmp_path):
    bounce = ("  hand: {owner: player, visibility: owner}\n",
              "  hand: {owner: player, visibility: owner}\n  left: {owner: table, visibility: public}\n"
              "  right: {owner: table, visibility: public}\n\ntriggers:\n  - name: to the right\n"
              "    on: enter left\n    effect: |\n      move card to right\n      me.bet = 1\n"
              "  - name: to the left\n    on: enter right\n    effect: |\n      move card to left\n      me.bet = 2\n")
    spec = derive(tmp_path, bounce, BIG_BUDGET, effect="draw 1 from deck to left")
    error = runtime_error(spec)
    assert error.message.startswith(f"the rules nest more than {CALL_DEPTH:,} calls deep, calling trigger 'to the ")
    assert error.span.line in (line_of(spec, "move card to right"), line_of(spec, "move card to left"))


# --- functions: callees first, no loops, no deep chains ------------------------------------------------

def test_a_function_may_call_one_declared_after_it(tmp_path):
    spec = derive(tmp_path, ("functions:\n", "functions:\n  first_rich:\n    value: richest()\n"),
                  ("winner: richest()", "winner: first_rich()"))
    game = rulelang.load_game(spec.parent)
    outcome = play_random(game, 2, seed=1)
    assert outcome.error is None and outcome.state.over


def test_a_function_of_a_later_function_has_its_type_checked(tmp_path):
    spec = derive(tmp_path, ("functions:\n", "functions:\n  doubled:\n    value: richest() + 1\n"))
    error = load_error(spec)
    assert "the left side of '+' must be a number" in error.message


def test_a_long_chain_of_functions_is_a_load_error(tmp_path):
    chain = "".join(f"  f{i}:\n    value: f{i + 1}()\n" for i in range(3000)) + "  f3000:\n    value: richest()\n"
    spec = derive(tmp_path, ("functions:\n", "functions:\n" + chain), ("winner: richest()", "winner: f0()"))
    error = load_error(spec)
    assert error.message.endswith(f"calls functions more than {FUNCTION_DEPTH} deep")


def test_a_chain_of_functions_within_the_limit_runs(tmp_path):
    chain = "".join(f"  f{i}:\n    value: f{i + 1}()\n" for i in range(FUNCTION_DEPTH - 2)) \
        + f"  f{FUNCTION_DEPTH - 2}:\n    value: richest()\n"
    spec = derive(tmp_path, ("functions:\n", "functions:\n" + chain), ("winner: richest()", "winner: f0()"))
    game = rulelang.load_game(spec.parent)
    assert play_random(game, 2, seed=1).error is None


def test_two_functions_calling_each_other_are_refused(tmp_path):
    spec = derive(tmp_path, ("functions:\n", "functions:\n  ping:\n    value: pong()\n  pong:\n    value: ping()\n"))
    error = load_error(spec)
    assert "calls itself (through 'p" in error.message


# --- 5. a card kind with no copies ---------------------------------------------------------------

def test_a_card_with_count_zero_and_a_resolve_trigger_loads_and_plays(tmp_path):
    folder = tmp_path / "game"
    spec = derive(tmp_path, ("functions:", "triggers:\n  - name: shine\n    on: resolve shiny\n"
                                           "    effect: me.coin += 1\n\nfunctions:"))
    cards = folder / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("    count: 6\n    zone: deck\n    tags: [shiny]",
                                                               "    count: 0\n    zone: deck\n    tags: [shiny]\n"
                                                               "    play: {effect: pass}", 1), encoding="utf-8")
    game = rulelang.load_game(spec.parent)
    assert [c.id for c in game.cards] == ["gem", "rock"]
    assert all(t.id == "rock" for t in game.card_type)
    outcome = play_random(game, 2, seed=2)
    assert outcome.error is None or outcome.error.message == "the game did not end within 60 turns"


def test_too_many_cards_in_all_is_a_load_error(tmp_path):
    folder = tmp_path / "game"
    spec = derive(tmp_path)
    many = "".join(f"  - {{id: pebble{i}, name: Pebble, count: 1000, zone: deck}}\n" for i in range(11))
    cards = folder / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8") + many, encoding="utf-8")
    error = load_error(spec)
    assert error.message == "the game has 11,012 cards: at most 10,000 are allowed"


# --- 6. Python's own limits become located errors -------------------------------------------------

def test_running_out_of_memory_in_a_rule_is_a_located_error(tmp_path):
    spec = derive(tmp_path, effect="me.bet = 1\nme.bet = 2")
    game = rulelang.load_game(spec.parent)

    def exhausted(*args):
        raise MemoryError
    step = game.step_pcs["Draw"]
    original = game.code[game.main][step]
    game.code[game.main][step] = lambda st, fr: exhausted() if st.turn == 1 else original(st, fr)
    with pytest.raises(RuleError) as caught:
        game.new_state(2, seed=1)
    assert caught.value.message == "the rules ran out of memory"
    assert "seed 1, turn 1" in caught.value.hint


@pytest.mark.slow
def test_python_recursion_while_playing_is_a_located_error(tmp_path):
    """32 functions deep, each nested 100 levels: Python's own stack runs out, the game says where."""
    def nested(inner: str) -> str:
        return "(" * 100 + inner + " + 1)" * 100
    chain = "".join(f"  f{i}:\n    params: {{x: int}}\n    value: {nested(f'f{i + 1}(x)')}\n"
                    for i in range(FUNCTION_DEPTH - 1)) + f"  f{FUNCTION_DEPTH - 1}:\n    params: {{x: int}}\n    value: x\n"
    spec = derive(tmp_path, ("functions:\n", "functions:\n" + chain), effect="me.bet = f0(1)")
    closures = compile_game(load_document(spec.parent), python=False)     # one Python frame per level
    with pytest.raises(RuleError) as caught:
        closures.new_state(2, seed=3)
    error = caught.value
    assert error.message == "the rules nest too deeply"
    assert error.span.line == line_of(spec, "me.bet = f0(1)")
    # generated code splits deep expressions into functions of 20 levels: the same rules fit the stack
    state = rulelang.load_game(spec.parent).new_state(2, seed=3)
    assert state.var(0, "bet") == 1 + 100 * (FUNCTION_DEPTH - 1)


def test_recursion_while_compiling_is_a_spec_error(tmp_path, monkeypatch):
    spec = derive(tmp_path)

    def overflow(self):
        raise RecursionError
    monkeypatch.setattr(GameCompiler, "compile", overflow)
    error = load_error(spec)
    assert error.message == "the spec nests too deeply to compile"
    assert error.span.file == str(spec)


def test_a_failing_score_is_located_at_the_score(tmp_path):
    spec = derive(tmp_path, ("functions:", "score: 10 // (p.coin - 3)\n\nfunctions:"))
    game = rulelang.load_game(spec.parent)
    state = game.new_state(2, seed=1)
    with pytest.raises(RuleError) as caught:
        state.scores()
    assert caught.value.message == "division by zero"
    assert caught.value.span.line == line_of(spec, "score: 10 // (p.coin - 3)")


def test_a_score_that_reads_nobody_is_located_at_the_score(tmp_path):
    spec = derive(tmp_path, ("functions:", "score: first(q in players where q.coin > 100).coin\n\nfunctions:"))
    state = rulelang.load_game(spec.parent).new_state(2, seed=1)
    with pytest.raises(RuleError) as caught:
        state.scores()
    assert caught.value.message == "a value used here is none: no such player, card or place"
    assert caught.value.span.line == line_of(spec, "score: first(q in players")
