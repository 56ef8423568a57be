"""Generated code a designer can read (issue 30): `rulelang compile --python` names each function after its
declaration and part (compiler/naming.py), quotes the rule text above it, says at a line's end what of the
state it reads or writes, and folds checks on literals; the game played is the same, byte for byte.

- a name is made of the spec's words only as lower-case ASCII, unique in its game, never code;
- a quoted rule text (a hostile one too: a line break, a carriage return, a right-to-left override) stays
  inside its comment lines, and the code around it compiles and plays as the closures do;
- arithmetic and comparisons of literals are computed when the game compiles; a bound check that cannot
  fail is dropped, one that can is kept and fails at run time as it always did.
"""
from __future__ import annotations

import ast
import keyword
import re
import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rulelang
from rulelang.agents import RandomAgent, play_out
from rulelang.cli import main
from rulelang.compiler import compile_game
from rulelang.compiler.codegen import HELPERS, Unit, assemble
from rulelang.compiler.naming import FunctionNames, declaration_name, identifier
from rulelang.errors import RuleError
from rulelang.spec.loader import load_document

from helpers.examples import examples

ROOT = Path(__file__).resolve().parents[2]
VALID = ROOT / "tests" / "broken" / "_valid"
NAME = re.compile(r"^[a-z][a-z0-9_]*$")


def game_with_setup(tmp_path: Path, lines: list[str], top: str = "") -> Path:
    """The tiny valid game with ``lines`` added to its setup (and ``top`` to the start of its spec)."""
    dest = tmp_path / "game"
    shutil.copytree(VALID, dest)
    path = dest / "game.yaml"
    text = path.read_text(encoding="utf-8")
    old = "setup: |\n  shuffle deck\n"
    text = text.replace(old, old + "".join(f"  {line}\n" for line in lines), 1)
    path.write_text(top + text, encoding="utf-8")
    return dest


def plays_as_the_closures(folder: Path, seeds: range = range(3)) -> None:
    doc = load_document(folder)
    generated, closures = compile_game(doc), compile_game(doc, python=False)
    for seed in seeds:
        states = [game.new_state(2, seed=seed) for game in (generated, closures)]
        for state in states:
            play_out(state, RandomAgent(seed))
        assert states[0].dumps() == states[1].dumps()


def function_named(source: str, name: str) -> str:
    """The listed text of one generated function: its comments above it, its lines."""
    start = source.index(f"def {name}(")
    head = source.rfind("\n\n", 0, start) + 2
    end = source.find("\n\n", start)
    return source[head:end if end >= 0 else None]


# --- names -------------------------------------------------------------------------------------------

def test_a_function_is_named_after_its_declaration_and_part() -> None:
    data = {"cards": [{"id": "Long Saw!"}, {}], "triggers": [{"name": "when an __import__('os') lands"}],
            "phases": [{"name": "Main", "steps": [{"name": "3. Gather"}]}], "end": [{"name": "日本"}]}
    assert declaration_name(data, ("cards", 0, "play", "target")) == "card_long_saw_target"
    assert declaration_name(data, ("cards", 1, "answer", "when")) == "card_2_answer_when"
    assert declaration_name(data, ("triggers", 0, "effect")) == "trigger_when_an_import_os_lands"
    assert declaration_name(data, ("phases", 0, "steps", 0, "effect")) == "step_3_gather"
    assert declaration_name(data, ("phases", 0, "until")) == "phase_main_until"
    assert declaration_name(data, ("end", 0, "when")) == "end_1_when"        # no ASCII left: its place
    assert declaration_name(data, ("procedures", "pay", "effect")) == "procedure_pay"
    assert declaration_name(data, ("functions", "richest", "value")) == "function_richest"
    assert declaration_name(data, ("setup",)) == "setup"


@examples(50)
@given(texts=st.lists(st.text(max_size=40), min_size=1, max_size=6))
def test_names_made_from_any_text_are_plain_unique_identifiers(texts: list[str]) -> None:
    names = FunctionNames()
    names.taken.update(HELPERS)
    made = [names.fresh(f"step_{identifier(text, '1')}") for text in texts + texts]
    assert len(set(made)) == len(made)
    assert all(NAME.match(name) and name.isidentifier() and not keyword.iskeyword(name) for name in made)
    assert not set(made) & set(HELPERS)


def test_the_listing_names_every_function_after_what_it_is(capsys) -> None:
    assert main(["compile", str(ROOT / "games" / "flapjacks"), "--python"]) == 0
    out = capsys.readouterr().out
    defined = re.findall(r"^def (\w+)\(", out, re.M)
    assert len(defined) == len(set(defined))                              # unique in the game
    assert all(NAME.match(name) for name in defined)
    assert "card_dull_axe_target" in defined and "procedure_chopping_step_instruction" in defined
    assert not {"expression", "instruction", "statements", "direct", "turn"} & set(defined)


def test_the_listing_is_the_same_on_every_compile(capsys) -> None:
    # a constant holding closures (a choice's branches) once printed their addresses: every run differed
    listings = []
    for _ in range(2):
        assert main(["compile", str(ROOT / "examples" / "liars_dice"), "--python"]) == 0
        listings.append(capsys.readouterr().out)
    assert listings[0] == listings[1]
    assert " at 0x" not in listings[0] and "<a closure>" in listings[0]


# --- quoted rule text ----------------------------------------------------------------------------------

def test_each_function_quotes_its_rule_text() -> None:
    source = rulelang.load_game(ROOT / "games" / "jacks_friends").program.source()
    assert '#   | "eat one meat" if t.meat >= 1:\ndef procedure_eat_expression(st, L):' in source


def test_a_hostile_rule_text_stays_inside_its_comment_and_the_game_plays_the_same(tmp_path: Path) -> None:
    """A right-to-left override in a string of the rules is quoted escaped; a line break or a carriage
    return in a quoted line (as a file's text could hold) is escaped too, so no quoted text starts a line
    of code, and the module compiles."""
    folder = game_with_setup(tmp_path, ['word = "a\u202eb"', 'if word != "x" and 1 < 2:', "  pot.coin = 2 + 3"])
    game = rulelang.load_game(folder)
    u = Unit(name="step_quoted")
    u.new_function("instruction").line("pass")
    assemble(u)
    u.quoted = ["x = 1\nevil = __import__('os')", "y\r= 2", "z\u202e\u2028w"]
    game.program.units.append(("(a test)", u))
    source = game.program.source()
    assert "\u202e" not in source and "\r" not in source and "\u2028" not in source
    assert '#   | word = "a\\u202eb"' in source
    assert "#   | x = 1\\nevil = __import__('os')" in source and "#   | y\\r= 2" in source
    assert all(line.startswith("#") or "evil" not in line for line in source.splitlines())
    tree = ast.parse(source)
    assert "evil" not in {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    plays_as_the_closures(folder)


# --- what a line reads -----------------------------------------------------------------------------------

def test_a_line_says_which_counter_variable_or_zone_it_reads_or_writes() -> None:
    source = rulelang.load_game(ROOT / "games" / "jacks_friends").program.source()
    assert "return (st.counters[6 + L['t']][1] >= 1)  # t.meat" in source
    eat = function_named(source, "procedure_eat_instruction")
    assert re.search(r"st\.counters\[_from\d+\]\[1\] = _have\d+ - _moved\d+  # t\.meat$", eat, re.M)
    assert re.search(r"st\.counters\[5\]\[1\] \+= _moved\d+  # box\.meat$", eat, re.M)
    flapjacks = rulelang.load_game(ROOT / "games" / "flapjacks").program.source()
    assert re.search(r"_draw_cards\(st, 1, \d+, [^)]+\)  # jack_deck, me\.hand$", flapjacks, re.M)


def test_the_notes_are_in_the_listing_only_not_in_the_code_that_runs() -> None:
    game = rulelang.load_game(ROOT / "games" / "jacks_friends")
    for _, u in game.program.units:
        assert "# t.meat" not in u.source and "# box.meat" not in u.source


# --- checks on literals ----------------------------------------------------------------------------------

def test_arithmetic_and_comparisons_of_literals_are_computed_when_the_game_compiles(tmp_path: Path) -> None:
    folder = game_with_setup(tmp_path, ["if 1 < 2 and 3 = 3:", "  pot.coin = 2 + 3 * 4", "me_too = 7 // 2", "pot.coin = -5 + 2"])
    source = rulelang.load_game(folder).program.source()
    setup = function_named(source, "setup_instruction")
    assert "if (True and True):" in setup
    assert re.search(r"if _row\d\[0\] != 14:\n +_row\d\[0\] = 14  # pot\.coin\n", setup)
    assert re.search(r"_v\d = 3\n +L\['me_too'\] = _v\d\n", setup)
    assert re.search(r"if _row\d\[0\] != 0:\n +_row\d\[0\] = 0  # pot\.coin\n", setup)   # -3, kept at 0
    assert "_too_big_now" not in setup and not re.search(r"if _v\d+ < 0:", setup)   # no check that cannot fail
    plays_as_the_closures(folder)


@pytest.mark.parametrize("statement", ["pot.coin = 1000 + 1", "pot.coin = 999 * 2", "pot.coin = 0 - 1000 - 1"])
def test_a_literal_sum_past_the_number_limit_still_fails_at_run_time_as_before(tmp_path: Path, statement: str) -> None:
    """A literal past the limit is refused when the game loads (as before); a sum of literals past it is not
    folded: it fails as the game starts, with the closures' own error."""
    folder = game_with_setup(tmp_path, [statement], top="number_limit: 1000\n")
    doc = load_document(folder)
    source = compile_game(doc).program.source()
    assert "_too_big_now" in function_named(source, "setup_instruction")         # the check is kept
    errors = []
    for python in (True, False):
        with pytest.raises(RuleError) as failed:
            compile_game(doc, python=python).new_state(2, seed=1)
        errors.append(str(failed.value))
    assert errors[0] == errors[1] and "went past the limit" in errors[0]
