"""Hooks and the control flow they need: triggers on rolls, turns and steps; changing a roll; rolling for
another player; `while`; procedures that return values; answers that see the player they cancel.

Each test builds a tiny game in a temporary folder and plays it with scripted dice, so no test pins
what a particular seed rolls.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rulelang
from rulelang.agents import RandomAgent
from rulelang.engine.state import State
from rulelang.errors import RuleError, Span, SpecError
from rulelang.lang.parser import parse_block

from helpers.examples import examples
from helpers.tiny_games import BASE, make, play_turn_one

ROOT = Path(__file__).resolve().parents[2]



def events(st: State, kind: str) -> list[dict]:
    return [e for e in st.events if e["type"] == kind]


def load_error(tmp_path: Path, body: str, steps: str = "pass") -> SpecError:
    with pytest.raises(SpecError) as caught:
        make(tmp_path, body, steps)
    return caught.value


# --- rolls ---------------------------------------------------------------------------------

BEFORE_AND_AFTER = """
triggers:
  - name: one more die
    on: before roll d
    if: me.flag
    effect: dice += 1
  - name: ones become sixes
    on: after roll d
    effect: |
      while 1 in rolled:
        change 1 to 6 in rolled
"""


def test_a_before_roll_trigger_adds_a_die_and_an_after_roll_trigger_changes_faces(tmp_path):
    game = make(tmp_path, BEFORE_AND_AFTER, "me.flag = true\nroll 2 d as r\nme.coin = r.total")
    st = play_turn_one(game, [1, 2, 1])
    assert events(st, "rolled")[0]["faces"] == [1, 2, 1]
    assert [e["faces"] for e in events(st, "roll_changed")] == [[6, 2, 1], [6, 2, 6]]
    assert st.counter(0, "coin") == 14


def test_a_trigger_whose_condition_fails_leaves_the_roll_alone(tmp_path):
    game = make(tmp_path, BEFORE_AND_AFTER)
    st = play_turn_one(game, [3, 4])
    assert events(st, "rolled")[0]["faces"] == [3, 4]
    assert events(st, "roll_changed") == []
    assert st.counter(0, "coin") == 7


def test_removing_dice_before_a_roll_can_leave_none(tmp_path):
    game = make(tmp_path, """
triggers:
  - name: no dice
    on: before roll d
    effect: dice -= 5
""")
    st = play_turn_one(game, [])
    assert events(st, "rolled")[0]["faces"] == []
    assert st.counter(0, "coin") == 0


def test_reroll_add_and_remove_change_a_local_roll_and_record_it(tmp_path):
    game = make(tmp_path, "", "roll 2 d as r\nadd 2 to r\nremove 1 from r\nreroll 3 in r\nreroll r\n"
                              "me.coin = r.total")
    st = play_turn_one(game, [1, 2, 3, 4, 3, 6, 6, 6])
    changes = events(st, "roll_changed")
    assert [(e["how"], e["faces"]) for e in changes] == [
        ("added", [1, 2, 3, 4]), ("removed", [1, 2, 3]), ("rerolled", [1, 2, 3]), ("rerolled", [6, 6, 6])]
    assert [e.get("rolled") for e in changes] == [2, None, 1, 3]
    assert st.counter(0, "coin") == 18


def test_a_face_the_die_does_not_have_is_a_runtime_error(tmp_path):
    game = make(tmp_path, "", "roll 1 d as r\nchange 1 to 7 in r")
    with pytest.raises(RuleError, match="die 'd' has no face 7"):
        play_turn_one(game, [1])


def test_a_roll_for_another_player_is_theirs_for_hooks_and_the_log(tmp_path):
    game = make(tmp_path, """
triggers:
  - name: the owner's flag adds a die
    on: before roll d
    if: me.flag and roller != me
    effect: dice += 1
""", "next(me).flag = true\nme rolls 1 d for next(me) as r\nme.coin = r.total")
    st = play_turn_one(game, [2, 3])
    rolled = events(st, "rolled")[0]
    assert (rolled["player"], rolled["for"], rolled["faces"]) == ("P1", "P2", [2, 3])


def test_a_hook_that_waits_for_a_decision_survives_saving_the_game(tmp_path):
    game = make(tmp_path, """
triggers:
  - name: may re-roll
    on: after roll d
    effect: |
      me chooses one:
        "keep":
          pass
        "re-roll":
          reroll rolled
""")
    st = play_turn_one(game, [1, 1, 6, 5])
    assert st.decision().prompt == "choose one"
    saved = State.from_json(game, st.to_json())
    saved.dice_script = list(st.dice_script)
    for state in (st, saved):
        state.apply("re-roll", 0)
    assert st.counter(0, "coin") == saved.counter(0, "coin") == 11
    assert st.dumps() == saved.dumps()


def test_a_roll_without_hooks_keeps_one_event_and_no_changes(tmp_path):
    game = make(tmp_path, "")
    st = play_turn_one(game, [2, 2])
    assert len(events(st, "rolled")) == 1 and events(st, "roll_changed") == []


def test_changing_something_that_is_not_a_roll_is_a_load_error(tmp_path):
    error = load_error(tmp_path, "", "x = 3\nreroll x")
    assert error.message == "this is not a roll"


def test_an_unknown_die_in_a_roll_trigger_is_located(tmp_path):
    error = load_error(tmp_path, """
triggers:
  - name: bad
    on: before roll dd
    effect: dice += 1
""")
    assert error.message == "unknown die 'dd'" and error.hint == "did you mean 'd'?"


# --- turns and steps --------------------------------------------------------------------------

def test_turn_and_step_triggers_run_in_order(tmp_path):
    game = make(tmp_path, """
triggers:
  - {name: start, on: start turn, effect: me.coin += 1}
  - {name: before, on: before step act, effect: me.coin += 10}
  - {name: after, on: after step act, effect: me.coin = me.coin * 2}
  - {name: end, on: end turn, effect: me.coin += 1000}
""", "me.coin += 100")
    st = play_turn_one(game, [])
    assert st.counter(0, "coin") == (1 + 10 + 100) * 2
    st.apply("0", 0)
    assert st.counter(0, "coin") == 222 + 1000
    assert st.counter(1, "coin") == 222


def test_an_end_of_turn_trigger_runs_when_a_turn_is_skipped(tmp_path):
    game = make(tmp_path, """
triggers:
  - {name: end, on: end turn, if: me = players[0], effect: me.coin += 5}
""".replace("players[0]", "first(players)"), "if me = first(players):\n  me skips turn")
    st = play_turn_one(game, [])
    assert st.counter(0, "coin") == 5 and st.counter(1, "coin") == 0


def test_an_unknown_step_in_a_trigger_is_located(tmp_path):
    error = load_error(tmp_path, """
triggers:
  - {name: bad, on: before step akt, effect: pass}
""")
    assert error.message == "unknown step 'akt'" and error.hint == "did you mean 'act'?"


def test_a_trigger_on_something_unknown_names_every_form(tmp_path):
    with pytest.raises(SpecError) as caught:
        make(tmp_path, """
triggers:
  - {name: bad, on: during roll d, effect: pass}
""")
    assert "'on'" in caught.value.format()


# --- control flow and values ------------------------------------------------------------------

FACTORIAL = """
procedures:
  factorial:
    params: {k: int}
    returns: int
    effect: |
      if k <= 1:
        return 1
      smaller = factorial(k - 1)
      return k * smaller
"""


def test_a_procedure_returns_a_value_and_may_call_itself(tmp_path):
    game = make(tmp_path, FACTORIAL, "me.coin = factorial(6)")
    assert play_turn_one(game, []).counter(0, "coin") == 720


def test_procedure_values_are_usable_in_expressions_conditions_and_arguments(tmp_path):
    game = make(tmp_path, FACTORIAL, """
me.coin = factorial(3) + factorial(factorial(2) + 1)
if factorial(2) = 3:
  me.coin = 0
elif factorial(4) = 24:
  me.coin += 100
k = 1
while factorial(k) < 100:
  k += 1
return k * 1000 + me.coin
""".replace("return k * 1000 + me.coin", "me.coin += k * 1000"))
    assert play_turn_one(game, []).counter(0, "coin") == 5112


def test_recursion_past_call_depth_stops_with_an_error(tmp_path):
    game = make(tmp_path, FACTORIAL.replace("if k <= 1", "if k <= -1000000"), "me.coin = factorial(5000)")
    with pytest.raises(RuleError, match="calls deep"):
        play_turn_one(game, [])


def test_while_counts_each_pass_against_the_step_budget(tmp_path):
    game = make(tmp_path, "", "while true:\n  me.coin += 0")
    with pytest.raises(RuleError, match="without a decision"):
        play_turn_one(game, [])


def test_a_while_loop_that_waits_for_decisions_counts_too(tmp_path):
    game = make(tmp_path, "", "x = 0\nwhile x < 3:\n  me chooses y from 0 to 1\n  x += 1 + y\nme.coin = x")
    st = play_turn_one(game, [])
    for _ in range(3):
        st.apply("0", 0)
    assert st.counter(0, "coin") == 3


def test_a_contest_rolls_again_on_ties(tmp_path):
    game = make(tmp_path, "", """
me rolls 1 d as mine
next(me) rolls 1 d as theirs
while mine.total = theirs.total:
  reroll mine
  reroll theirs
me.coin = mine.total - theirs.total + 10
""")
    st = play_turn_one(game, [4, 4, 2, 2, 5, 3])
    assert st.counter(0, "coin") == 12
    assert len(events(st, "roll_changed")) == 4


def test_return_without_returns_and_values_of_plain_procedures_are_load_errors(tmp_path):
    error = load_error(tmp_path, "procedures:\n  p:\n    effect: return 3\n")
    assert error.message == "only a procedure that declares 'returns:' returns a value"
    error = load_error(tmp_path, "procedures:\n  p:\n    effect: pass\n", "x = p()")
    assert error.message == "procedure 'p' returns no value"
    error = load_error(tmp_path, FACTORIAL, "me.coin = count(c in deck where factorial(2) > 1)")
    assert error.message == "'factorial' is a procedure: call it on a line of its own"


def test_the_value_returned_must_have_the_declared_type(tmp_path):
    error = load_error(tmp_path, "procedures:\n  p:\n    returns: int\n    effect: return me\n")
    assert error.message == "the value returned must be a number, not a player"


# --- answers ------------------------------------------------------------------------------------

def test_an_answer_names_the_player_of_the_card_it_cancels():
    game = rulelang.load_game(ROOT / "examples" / "hooks")
    st = game.new_state(2, seed=1, before_first_turn=True)
    st.halt_before("play", 1)
    st.go_to_step("play", 1, 1)
    st.arrange({"hand:P2": ["challenge"], "hand:P1": ["parry"]})
    st.resume()
    st.apply("answer:parry", 0)
    answered = events(st, "answered")[0]
    assert answered["player"] == "P1"
    fine = [e for e in st.events if e["type"] == "transferred"][-1]
    assert (fine["from"], fine["to"]) == ("P2", "P1")


# --- messages -----------------------------------------------------------------------------------

@pytest.mark.parametrize("text, word, hint", [
    ("whle x > 1:\n  pass", "whle", "did you mean 'while'?"),
    ("x = 1\nrol 2 d as r", "rol", "did you mean 'roll'?"),
    ("xyzzy 3:\n  pass", "xyzzy", "a statement is an assignment"),
])
def test_an_unknown_statement_is_named_with_the_nearest(text, word, hint):
    with pytest.raises(SpecError) as caught:
        parse_block(text, lambda line, col, end_line, end_col: Span("t", line, col))
    assert caught.value.message == f"no statement '{word}'"
    assert caught.value.hint.startswith(hint)


def test_a_missing_keyword_still_says_what_was_expected():
    with pytest.raises(SpecError) as caught:
        parse_block("draw 1 deck to me.hand", lambda line, col, end_line, end_col: Span("t", line, col))
    assert caught.value.message == "unexpected 'deck'; expected 'from'"


# --- whole games ----------------------------------------------------------------------------------

@pytest.mark.slow
@examples(25)
@given(seed=st.integers(0, 2 ** 32), players=st.integers(2, 4))
def test_duel_games_round_trip_through_saves_at_every_decision(seed, players):
    game = rulelang.load_game(ROOT / "examples" / "hooks")
    state = game.new_state(players, seed)
    agent = RandomAgent(seed)
    while not state.is_over:
        state = State.from_json(game, state.to_json())
        player = state.decision().player
        state.apply(agent.choose(state, player), player)
    assert state.winner_names()


# --- tokens, durations, score parts -----------------------------------------------------------

TOKENS = """
  - {id: spark, name: Spark, count: 3, zone: supply, token: true}
  - id: ward
    name: Ward
    count: 1
    zone: deck
    lasts_in: hand
    discard: deck
    discard_after: {roll: d}
"""


def token_game(tmp_path: Path, steps: str, extra: str = "") -> rulelang.Game:
    base = BASE.replace("  hand: {owner: player, visibility: owner}\n",
                        "  hand: {owner: player, visibility: owner}\n  supply: {owner: table, visibility: hidden}\n")
    return make(tmp_path, extra, steps, base=base + TOKENS)


def test_created_tokens_come_from_their_supply_and_go_back_when_discarded(tmp_path):
    game = token_game(tmp_path, "create 5 spark in me.hand\ndiscard first(c in me.hand where c is spark)")
    st = play_turn_one(game, [])
    assert st.zone("hand", 0) == ["spark", "spark"]
    assert st.zone("supply") == ["spark"]
    created = [e for e in st.events if e["type"] == "moved" and e["how"] == "created"]
    assert len(created) == 3                        # only as many as the supply holds
    back = [e for e in st.events if e["type"] == "moved" and e["how"] == "discarded"]
    assert back[0]["to"] == "supply"


@examples(30)
@given(made=st.integers(-2, 6), dropped=st.integers(0, 4))
def test_every_token_is_in_exactly_one_place_and_a_saved_game_keeps_them(tmp_path_factory, made, dropped):
    game = token_game(tmp_path_factory.mktemp("tokens"),
                      f"create {made} spark in me.hand\n"
                      f"for each c in (c in me.hand where c is spark):\n  if count(supply) < {dropped}:\n"
                      "    discard c")
    state = play_turn_one(game, [])
    places = [card for zone in state.zones for card in zone]
    assert sorted(places) == list(range(len(game.card_type)))
    assert State.from_json(game, state.to_json()).dumps() == state.dumps()
    assert state.zone("supply").count("spark") + state.zone("hand", 0).count("spark") == 3


def test_creating_a_card_that_is_no_token_is_a_load_error(tmp_path):
    with pytest.raises(SpecError) as caught:
        token_game(tmp_path, "create 1 gem in me.hand")
    assert caught.value.message == "card 'gem' is not a token"


SPARK_ENTERS = """
triggers:
  - name: a spark arrives
    on: enter hand
    effect: me.coin += 1
"""


@pytest.mark.parametrize("python", [True, False])
def test_what_a_create_fires_runs_before_the_statement_after_it(tmp_path, python):
    """`create` runs fused with its neighbours only where no zone trigger can fire (Create.straight); here one
    can, so it is an instruction of its own and the trigger has run when the next statement looks."""
    game = token_game(tmp_path, "create 2 spark in me.hand\nme.flag = me.coin = 2", SPARK_ENTERS)
    if not python:
        from rulelang.compiler import compile_game
        from rulelang.spec.loader import load_document
        game = compile_game(load_document(tmp_path / "game"), python=False)
    st = play_turn_one(game, [])
    assert len([e for e in st.events if e["type"] == "moved" and e["how"] == "created"]) == 2
    assert st.counter(0, "coin") == 2 and st.var(0, "flag") is True


def test_create_is_fused_only_where_no_zone_trigger_can_fire() -> None:
    from types import SimpleNamespace

    from rulelang import statements as homes
    create = parse_block("create 1 spark in me.hand\n", lambda *at: Span("rule", *at))[0]
    for has_triggers, zones, fused in ((False, None, True), (True, frozenset(), True),
                                       (True, frozenset({"hand"}), False), (True, None, False)):
        sc = SimpleNamespace(has_triggers=has_triggers, zone_triggers=zones)
        assert homes.runs_straight(create, sc) is fused


def test_a_card_moved_into_its_lasts_in_zone_expires_after_its_owners_roll(tmp_path):
    game = token_game(tmp_path, "move first(c in deck where c is ward) to me.hand\nnext(me) rolls 1 d as r\n"
                                "me.coin = count(me.hand)\nroll 1 d as s\nme.flag = count(me.hand) = 0")
    st = play_turn_one(game, [3, 4])
    assert st.counter(0, "coin") == 1                # another player's roll does not end it
    assert st.var(0, "flag") is True
    expired = [e for e in st.events if e.get("how") == "expired"]
    assert [(e["card"], e["from"]) for e in expired] == [("ward", "hand:P1")]


def test_a_score_is_the_sum_of_its_parts(tmp_path):
    game = make(tmp_path, """
score:
  parts:
    coins: p.coin
    bonus: count(p.hand) * 10
""", "me.coin = 4\ndraw 2 from deck to me.hand")
    st = play_turn_one(game, [])
    assert st.scores() == [24, 0]


def test_a_score_part_past_the_number_limit_is_an_error(tmp_path):
    game = make(tmp_path, """
number_limit: 100
score:
  parts:
    a: p.coin
    b: "60"
""", "me.coin = 50")
    st = play_turn_one(game, [])
    with pytest.raises(RuleError, match="past the limit"):
        st.scores()


def test_a_card_with_nowhere_to_be_discarded_is_reported_at_its_zone_line(tmp_path):
    base = BASE.replace("  - {id: gem, name: Gem, count: 6, zone: deck}\n",
                        "  - id: gem\n    name: Gem\n    count: 6\n    zone: deck\n    play: {effect: pass}\n")
    game = make(tmp_path, "", "draw 1 from deck to me.hand\nplay from me.hand", base=base)
    with pytest.raises(RuleError) as caught:
        play_turn_one(game, [])
    error = caught.value
    assert error.message == "card 'gem' has nowhere to be discarded"
    lines = (tmp_path / "game" / "game.yaml").read_text(encoding="utf-8").splitlines()
    assert lines[error.span.line - 1].strip() == "zone: deck"
    assert error.hint.startswith("give zone 'deck' a 'discard:' pile")


def test_discard_when_applies_in_the_lasts_in_zone_of_a_card_that_is_never_played(tmp_path):
    base = BASE.replace("  hand: {owner: player, visibility: owner}\n",
                        "  hand: {owner: player, visibility: owner}\n  front: {owner: player, visibility: public}\n")
    base += ("  - id: omen\n    name: Omen\n    count: 1\n    zone: deck\n    discard: deck\n"
             "    lasts_in: hand\n    discard_when: count(owner.hand) >= 3\n"
             "  - {id: banner, name: Banner, count: 1, zone: deck, discard: deck, play: {to: me.front, effect: pass}}\n")
    game = make(tmp_path, "", "move first(c in deck where c is omen) to me.hand\nme.coin = count(me.hand)\n"
                              "move (c in deck where c is gem) to me.hand", base=base)
    st = play_turn_one(game, [])
    assert st.counter(0, "coin") == 1
    assert "omen" not in st.zone("hand", 0) and "omen" in st.zone("deck")
    assert st.zone("hand", 0).count("gem") == 6


def test_leave_triggers_of_an_answered_card_run_before_the_answers_effect(tmp_path):
    base = BASE.replace("  - {id: gem, name: Gem, count: 6, zone: deck}\n", """\
  - {id: gem, name: Gem, count: 6, zone: deck, discard: deck, play: {effect: pass}}
  - id: block
    name: Block
    count: 1
    zone: deck
    discard: deck
    answer: {when: card is gem, effect: "me.coin = player.coin * 10 + 1"}
""")
    game = make(tmp_path, """
triggers:
  - {name: left, on: leave hand, effect: owner.coin += 1}
""", "move (c in deck where c is block) to next(me).hand\nmove first(c in deck where c is gem) to me.hand\n"
     "me.coin = 0\nnext(me).coin = 0\nplay from me.hand", base=base)
    st = play_turn_one(game, [])
    st.apply("answer:block", 1)
    assert st.counter(0, "coin") == 1          # the gem left P1's hand: P1's trigger ran
    assert st.counter(1, "coin") == 11         # then the answer saw it: 1 * 10 + 1 (its own trigger was overwritten)
