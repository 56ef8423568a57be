"""Statements kept in one home (rulelang/statements/) and the compiler's dispatch by node class.

- A home statement is one module named for its grammar rule: node, check and code side by side; the
  transformer builds it from the rule with no method of its own, and nothing of it is left in nodes.py,
  check_stmts.py, compiler/statements.py or compiler/source_stmt.py.
- It behaves as every other statement: located errors with a caret, generated Python tested against
  its closure, runtime errors told at its line, mutants that delete it or change its parts.
- The checker and the compiler find their method for each node class in a table built once; a node
  class with no compile method fails when the table is built (on import), not when a rule uses it.
"""
from __future__ import annotations

import gc
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

import rulelang
from rulelang import statements as homes
from rulelang.agents import RandomAgent, play_out
from rulelang.check.checker import Checker
from rulelang.compiler import compile_game, expressions, source_expr, source_stmt
from rulelang.compiler import statements as compiler_statements
from rulelang.compiler.expressions import ExprCompiler
from rulelang.compiler.source_stmt import StmtSource
from rulelang.compiler.statements import StmtCompiler
from rulelang.errors import RuleError, RulelangError, Span
from rulelang.lang import nodes as n
from rulelang.lang import parser
from rulelang.lang.to_nodes import ToNodes
from rulelang.lang.visitors import Dispatch, require
from rulelang.spec.loader import load_document
from rulelang.testing import mutate

from golden import record  # the fingerprint of a game: decisions offered and the event log

ROOT = Path(__file__).resolve().parents[2]
VALID = ROOT / "tests" / "broken" / "_valid"
GRAMMAR = (ROOT / "rulelang" / "lang" / "grammar.lark").read_text(encoding="utf-8")
#: The statements moved into one home as the proof of the mechanism (more may follow).
MOVED = {"skip": "Skip", "another_turn": "AnotherTurn", "eliminate": "Eliminate", "end_turn": "EndTurn",
         "shuffle": "Shuffle", "assign": "Assign",
         "aug_assign": "AugAssign", "move_counter": "MoveCounter", "reveal": "Reveal",
         "discard": "Discard", "move_cards": "MoveCards",
         "draw": "Draw", "roll": "Roll",
         "reroll": "Reroll", "add_dice": "AddDice", "remove_dice": "RemoveDice",
         "change_face": "ChangeFace", "create": "Create",
         "pass_stmt": "PassStmt", "check_end": "CheckEnd",
         "choose_range": "ChooseRange", "choose_in": "ChooseIn", "choose_one": "ChooseOne",
         "secret_choose": "SecretChoose", "play": "Play",
         "call_stmt": "CallStmt", "return_stmt": "Return", "while_stmt": "While",
         "for_each": "ForEach", "if_stmt": "If"}


def here(line, col, end_line=None, end_col=None) -> Span:
    return Span("rule", line, col, end_line, end_col)


# --- one module a statement ---------------------------------------------------------------------

def test_each_home_statement_is_one_module_named_for_its_grammar_rule() -> None:
    assert {rule: cls.__name__ for rule, cls in homes.BY_RULE.items()}.items() >= MOVED.items()
    for rule, cls in homes.BY_RULE.items():
        assert cls.__module__ == f"rulelang.statements.{rule}"
        assert issubclass(cls, n.Stmt)
        assert re.search(rf"^{rule}:", GRAMMAR, re.M), rule           # the grammar rule it is built from
        assert re.search(rf"^(\?simple:|\?compound:|\s*\|)\s*{rule}$", GRAMMAR, re.M), rule    # one of the statements
        assert not hasattr(ToNodes, rule), rule                          # built with no method of its own


def test_a_rule_named_for_a_keyword_ends_in_stmt_and_from_rule_gathers_the_clauses_it_repeats() -> None:
    """`if` has its `elif` clauses and `else` body gathered by its from_rule; `return` and `while` are rules
    named for keywords; `for each x in A where C` gives its fields one for one, the NAME as its text."""
    if_, loop, ret, again = parser.parse_block(
        "if a:\n    pass\nelif b:\n    pass\nelif c:\n    pass\nelse:\n    end turn\n"
        "for each x in xs where x > 1:\n    pass\nreturn\nwhile d:\n    pass\n", here)
    If, ForEach = homes.BY_RULE["if_stmt"], homes.BY_RULE["for_each"]
    assert type(if_) is If and [cond.id for cond, _ in if_.branches] == ["a", "b", "c"]
    assert [type(body[0]).__name__ for _, body in if_.branches] == ["PassStmt"] * 3
    assert [type(s).__name__ for s in if_.orelse] == ["EndTurn"] and if_.span.line == 1
    assert type(loop) is ForEach and loop.var == "x" and loop.source.id == "xs" and loop.cond.op == ">"
    assert type(ret) is homes.BY_RULE["return_stmt"] and ret.value is None and ret.span.line == 11
    assert type(again) is homes.BY_RULE["while_stmt"] and again.cond.id == "d"
    assert [homes.rule_of(c) for c in (If, ForEach, type(ret))] == ["if_stmt", "for_each", "return_stmt"]


def test_nothing_of_a_moved_statement_is_left_in_its_old_homes() -> None:
    for name in MOVED.values():
        assert not hasattr(n, name)
        assert not hasattr(Checker, f"stmt_{name}")
        assert not any(hasattr(StmtCompiler, prefix + name) for prefix in ("f_", "s_"))
        assert not hasattr(StmtSource, f"g_{name}")


def test_a_home_statement_parses_to_its_node_with_its_fields_and_span() -> None:
    skip, shuffle, end, other = parser.parse_block("p skips turn\nshuffle me.hand\nend turn\n"
                                                   "next(me) takes another turn\n", here)
    assert type(skip).__name__ == "Skip" and isinstance(skip.player, n.Name) and skip.player.id == "p"
    assert (skip.span.line, skip.span.col, skip.span.end_col) == (1, 1, 13)
    assert type(shuffle.zone).__name__ == "Attr" and shuffle.zone.name == "hand"
    assert type(end).__name__ == "EndTurn" and end.SYNTAX_FIELDS == () and end.span.line == 3
    assert type(other).__name__ == "AnotherTurn" and other.player.func == "next"
    assert [type(x).__name__ for x in n.walk(shuffle)] == ["Shuffle", "Attr", "Name"]


def test_an_alternative_of_a_home_statements_rule_builds_it_with_the_fields_it_writes() -> None:
    one, everyone = parser.parse_block("reveal me.hand to next(me)\nreveal top(deck) to all\n", here)
    assert type(one).__name__ == type(everyone).__name__ == "Reveal"
    assert one.to.func == "next" and everyone.to is None and everyone.cards.func == "top"
    assert (everyone.span.line, everyone.span.col, everyone.span.end_col) == (2, 1, 24)
    assert not any(hasattr(ToNodes, alias) for alias in n.HOME_FORMS)
    assert n.HOME_FORMS["reveal_all"] == (homes.BY_RULE["reveal"], ("cards",))


def test_a_home_statement_keeps_the_place_of_a_name_for_its_errors_in_either_form() -> None:
    mine, theirs = parser.parse_block("roll 2 d6 as r\nnext(me) rolls 1 coin for me as q\n", here)
    assert (mine.amount.value, mine.die, mine.var, mine.player, mine.for_player) == (2, "d6", "r", None, None)
    assert (theirs.die, theirs.var, theirs.player.func, theirs.for_player.id) == ("coin", "q", "next", "me")
    assert (mine.die_span.line, mine.die_span.col, mine.die_span.end_col) == (1, 8, 10)
    assert (theirs.die_span.line, theirs.die_span.col, theirs.die_span.end_col) == (2, 18, 22)
    assert mine.SYNTAX_FIELDS == ("amount", "die", "var", "player", "for_player")


def test_a_statement_with_an_optional_part_or_a_name_is_built_from_its_rule_alone() -> None:
    """`reroll [F in] R` writes the face first, so its fields are (face, roll) and a missing face is None;
    `create N CARD in Z` gets where CARD is written in its keyword field `card_span` (errors point there)."""
    every, one, create = parser.parse_block("reroll r\nreroll 1 + 2 in rolled\ncreate 2 spark in me.hand\n", here)
    assert type(every).SYNTAX_FIELDS == ("face", "roll") and every.face is None and every.roll.id == "r"
    assert type(one.face).__name__ == "BinOp" and one.roll.id == "rolled"
    assert [type(x).__name__ for x in n.walk(one)] == ["Reroll", "BinOp", "Num", "Num", "Name"]   # as written
    assert type(create).SYNTAX_FIELDS == ("amount", "card", "dest") and create.card == "spark"
    assert (create.card_span.line, create.card_span.col, create.card_span.end_col) == (3, 10, 15)
    assert (create.span.col, create.span.end_col) == (1, 26)


def test_an_optional_word_of_a_home_statement_is_a_flag_true_when_the_text_writes_it() -> None:
    said, quiet = parser.parse_block("me publicly chooses x in players\n"
                                     "me chooses y in players where y != me as who\n", here)
    assert said.public is True and quiet.public is False
    assert (said.cond, said.name, quiet.name) == (None, None, "who") and quiet.cond.op == "!="
    assert type(said).SYNTAX_FIELDS == ("player", "public", "target", "source", "cond", "name")
    plain, or_discard = parser.parse_block("play from me.hand\nplay from me.hand else discard\n", here)
    assert (plain.else_discard, or_discard.else_discard) == (False, True)     # a rule of words: `[else_discard]`


def test_a_rule_of_parts_with_no_method_of_its_own_gives_a_home_statement_the_list_of_them() -> None:
    one, two = parser.parse_block('me publicly chooses one as pick:\n  "Rest":\n    pass\n'
                                  '  for x in players:\n    pass\nme chooses one:\n  "Go" if turn > 1:\n    pass\n', here)
    assert (one.public, one.name, two.public, two.name) == (True, "pick", False, None)
    assert [type(b).__name__ for b in one.branches] == ["Branch", "EachBranch"] and one.branches[1].var == "x"
    assert [b.label for b in two.branches] == ["Go"] and two.branches[0].cond.op == ">"
    assert [type(x).__name__ for x in n.walk(two)] == ["ChooseOne", "Name", "Branch", "Compare", "Name", "Num", "PassStmt"]


def test_the_statement_decorator_refuses_an_incomplete_statement() -> None:
    class NoCheck(n.Stmt):
        def closure(self, sc):
            return lambda st, L: None

    class TwoWays(n.Stmt):          # both ways, and no `straight` to say which one runs
        def check(self, ck, scope):
            pass

        def closure(self, sc):
            return lambda st, L: None

        def instruction(self, sc, b):
            pass

    class SourceOfAnInstruction(n.Stmt):
        def check(self, ck, scope):
            pass

        def instruction(self, sc, b):
            pass

        def python(self, ss, out):
            pass

    class InPlaceOfAClosure(n.Stmt):
        def check(self, ck, scope):
            pass

        def closure(self, sc):
            return lambda st, L: None

        def in_place(self, dc, out):
            pass

    class FormTaken(n.Stmt):        # an alias another statement is built from already
        FORMS = {"reveal_all": ()}

        def check(self, ck, scope):
            pass

        def closure(self, sc):
            return lambda st, L: None

    class EndsTheGameWaiting(n.Stmt):   # may end the game, so it closes a run: a closure, not instructions
        MAY_END_GAME = True

        def check(self, ck, scope):
            pass

        def instruction(self, sc, b):
            pass

    try:
        for cls, words in ((NoCheck, "a check and a closure"), (TwoWays, "says which runs"),
                           (SourceOfAnInstruction, "only a statement run as a closure"),
                           (InPlaceOfAClosure, "only a statement run as an instruction"),
                           (FormTaken, "the form 'reveal_all' is taken"),
                           (EndsTheGameWaiting, "may end the game runs as a closure only")):
            with pytest.raises(TypeError, match=words):
                homes.statement(cls)
        assert not {"no_check", "two_ways", "source_of_an_instruction", "in_place_of_a_closure",
                    "form_taken", "ends_the_game_waiting"} & set(homes.BY_RULE)
        assert n.HOME_FORMS["reveal_all"][0].__name__ == "Reveal"
    finally:
        del NoCheck, TwoWays, SourceOfAnInstruction, InPlaceOfAClosure, FormTaken, EndsTheGameWaiting, cls  # none outlives it
        gc.collect()


# --- they behave as every statement -------------------------------------------------------------------

def game_with(tmp_path: Path, score_lines: list[str], setup_lines: tuple[str, ...] = ()) -> Path:
    """The base game of the broken-spec corpus, with lines after `check end` in its Score step."""
    dest = tmp_path / "game"
    shutil.copytree(VALID, dest)
    path = dest / "game.yaml"
    text = path.read_text(encoding="utf-8")
    text = text.replace("setup: |\n  shuffle deck\n",
                        "setup: |\n  shuffle deck\n" + "".join(f"  {line}\n" for line in setup_lines), 1)
    old = "        check end\n"
    assert text.count(old) == 1
    path.write_text(text.replace(old, old + "".join(f"        {line}\n" for line in score_lines)),
                    encoding="utf-8")
    return dest


def test_a_home_statements_check_gives_located_errors_with_a_caret(tmp_path: Path) -> None:
    folder = game_with(tmp_path, ["shuffle me.coin", "me.bet skips turn"])
    with pytest.raises(RulelangError) as caught:
        rulelang.load_game(folder)
    text = str(caught.value)
    lines = (folder / "game.yaml").read_text(encoding="utf-8").splitlines()
    row = next(k for k, line in enumerate(lines, 1) if "shuffle me.coin" in line)
    assert f"game.yaml:{row}:17: error: what is shuffled must be a zone, not a number\n" \
           "        shuffle me.coin\n                ^^^^^^^\n" in text
    assert f"game.yaml:{row + 1}:9: error: who chooses must be a player, not a number\n" \
           "        me.bet skips turn\n        ^^^^^^" in text


PLAYED = ["if me.coin > 4 and count(players) > 2:", "  eliminate me", "if turn = 4:",
          "  me takes another turn", "elif turn = 7:", "  next(me) skips turn", "shuffle pile",
          "if turn = 11:", "  end turn", "me.bet = 0"]


def test_generated_code_and_closures_play_the_home_statements_alike(tmp_path: Path) -> None:
    doc = load_document(game_with(tmp_path, PLAYED))
    generated, closures = compile_game(doc), compile_game(doc, python=False)
    assert "_shuffle_zone(st, 1)" in generated.program.source()     # shuffle's own generated line
    seen: set[str] = set()
    for players in (2, 3):
        for seed in range(8):
            assert record.fingerprint(generated, players, seed) == record.fingerprint(closures, players, seed)
            state = generated.new_state(players, seed)
            play_out(state, RandomAgent(seed))
            seen |= {event["type"] for event in state.events}
    assert {"skipped", "another_turn", "eliminated", "shuffled"} <= seen


@pytest.mark.parametrize("python", [True, False])
def test_a_failure_in_a_home_statement_is_told_at_its_line(tmp_path: Path, python: bool) -> None:
    folder = game_with(tmp_path, [], ("none takes another turn",))
    game = compile_game(load_document(folder), python=python)
    with pytest.raises(RuleError) as caught:
        game.new_state(2, seed=1)
    assert caught.value.message == "the player who takes another turn is none"
    lines = (folder / "game.yaml").read_text(encoding="utf-8").splitlines()
    assert lines[caught.value.span.line - 1].strip() == "none takes another turn"


def test_mutants_delete_a_home_statement_and_change_its_parts(tmp_path: Path) -> None:
    folder = game_with(tmp_path, PLAYED)
    doc = load_document(folder)
    lines = (folder / "game.yaml").read_text(encoding="utf-8").splitlines()
    found = mutate.mutants(doc)
    at = {(lines[m.line - 1].strip(), m.change) for m in found if m.in_text}
    for text in ("eliminate me", "me takes another turn", "next(me) skips turn", "shuffle pile", "end turn"):
        assert (text, f"deleted `{text}`") in at
    assert ("next(me) skips turn", "`next(...)` -> `previous(...)`") in at
    assert ("shuffle pile", "zone pile -> deck") in at
    mutant = next(m for m in found if m.change == "deleted `next(me) skips turn`")
    for game, skips in ((compile_game(doc), True), (mutate.build(doc, mutant), False)):
        state = game.new_state(2, seed=1)          # a seed whose game reaches turn 7
        play_out(state, RandomAgent(1))
        assert ("skipped" in {event["type"] for event in state.events}) is skips


# --- the compiler's dispatch ------------------------------------------------------------------------

def test_every_node_class_has_its_compile_method() -> None:
    assert expressions._CLOSURES.missing() == []
    assert set(compiler_statements._CLOSURES.missing()) & set(compiler_statements._INSTRUCTIONS.missing()) == set()
    for cls in homes.BY_RULE.values():          # a home statement is found through its own methods
        assert (compiler_statements._CLOSURES.get(cls) or compiler_statements._INSTRUCTIONS.get(cls)) is not None
    assert source_stmt._SOURCES.get(homes.BY_RULE["shuffle"]) is not None
    assert source_expr._SOURCES.get(n.BinOp) is source_expr.ExprSource.x_BinOp


def test_every_home_statement_run_as_a_closure_has_its_generated_python() -> None:
    """One back end: generated Python is the form a game runs, so no statement is called there as its closure
    (the closures stay the reference; tests/equivalence/test_codegen.py plays both)."""
    closures = [cls for cls in homes.BY_RULE.values() if callable(getattr(cls, "closure", None))]
    assert closures
    assert [cls.__name__ for cls in closures if source_stmt._SOURCES.get(cls) is None] == []
    # and every expression but a literal, which is always a constant (``ExprCompiler.constant``)
    assert set(source_expr._SOURCES.missing()) <= {"Bool", "NoneLit", "Num", "Text"}


def test_a_node_class_with_no_compile_method_fails_when_the_table_is_built() -> None:
    @dataclass(eq=False)
    class Orphan(n.Expr):
        value: int

    @dataclass(eq=False)
    class Stray(n.Stmt):
        pass
    try:
        with pytest.raises(TypeError, match="the expression compiler has no c_<Class> for Orphan"):
            require("the expression compiler", Dispatch(ExprCompiler, "c_", n.Expr))
        with pytest.raises(TypeError, match=r"has no f_<Class> or s_<Class> for Stray$"):
            require("the statement compiler", Dispatch(StmtCompiler, "f_", n.Stmt, own="closure"),
                      Dispatch(StmtCompiler, "s_", n.Stmt, own="instruction"))
        assert [c for c in n.leaf_classes(n.Stmt) if not homes.is_home(c)] == [Stray]     # every other one has a home
        assert Checker.handler(Orphan) is None and Checker.handler(Stray) is None
        assert not [name for name in dir(Checker) if name.startswith("stmt_")]     # the checker checks none itself
    finally:
        del Orphan, Stray
        gc.collect()


# --- the worked example ----------------------------------------------------------------------------

def test_the_worked_example_shows_its_statement_as_it_is_in_the_repository() -> None:
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    example = page[page.index("## Adding a statement: a worked example"):]
    shown = re.search(r"^   ```python\n(.*?)^   ```$", example, re.S | re.M).group(1)
    module = (ROOT / "rulelang" / "statements" / "another_turn.py").read_text(encoding="utf-8")
    assert "\n".join(line[3:] for line in shown.splitlines()) == module.rstrip("\n")
    assert 'another_turn: postfix "takes" "another" "turn"' in GRAMMAR and "       | another_turn" in example
    paths = re.findall(r"`((?:tests|examples|rulelang|docs)/[^`]+)`", example)
    assert len(paths) >= 4
    for path in paths:
        assert (ROOT / path).exists(), path


def test_a_counter_set_by_index_to_a_number_compiles_to_python_as_its_closure_runs(tmp_path: Path) -> None:
    """`me[coin] = 3`: the generated line once read the target's ref, which an index has not, and crashed."""
    doc = load_document(game_with(tmp_path, ["me[coin] = 3"]))
    generated, closures = compile_game(doc), compile_game(doc, python=False)
    for seed in range(4):
        assert record.fingerprint(generated, 2, seed) == record.fingerprint(closures, 2, seed)
