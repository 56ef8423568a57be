"""Garbage in, located errors out: random text, bytes and YAML never escape as anything but RulelangError.

Hypothesis feeds the rule-text parser random text (both raw characters and
near-miss programs built from the DSL's own words), and the loader random
bytes, random text and random YAML structures; the structures that survive
the schema go on to the checker and the compiler. Every example runs under a
hard time limit (SIGALRM), so a hang fails the test instead of stalling it.
"""
from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

from rulelang.compiler import compile_game
from rulelang.errors import RulelangError, Span
from rulelang.lang.parser import parse_block, parse_expression
from rulelang.spec.loader import load_document
from rulelang.spec.schema import validate_document

from helpers.examples import examples
from helpers.time_limit import time_limit

ROOT = Path(__file__).resolve().parents[2]
VALID = ROOT / "tests" / "broken" / "_valid"
GARBAGE = examples(250, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


def locate(line: int, col: int, end_line: int | None, end_col: int | None) -> Span:
    return Span("rule.txt", line, col, end_line, end_col)


# --- rule texts -----------------------------------------------------------------

WORDS = [
    # the DSL's keywords and punctuation
    "move", "from", "to", "discard", "draw", "shuffle", "roll", "as", "chooses", "in", "where", "each",
    "secretly", "play", "else", "skips", "turn", "end", "check", "pass", "if", "elif", "for", "one", "or",
    "and", "not", "is", "has", "all", "true", "false", "none", "=", "!=", "<", "<=", ">", ">=", "+", "-",
    "*", "//", "+=", "-=", ".", ",", ":", "(", ")", "[", "]", '"a label"', "0", "3", "99999999999999999999",
    # names of the tiny game and Python words that must lead nowhere
    "me", "players", "others", "game", "deck", "hand", "pile", "coin", "pot", "gem", "shiny", "bet", "pay",
    "richest", "count", "max", "first", "x", "__import__", "__class__", "__dict__", "eval", "os", "lambda",
    # layout
    "\n", "\n  ", "\n    ", ":\n  ", "\t", "#", "\\\n", "'", ";", "{", "}", "\r\n", "\x00", "é",
]
near_programs = st.lists(st.sampled_from(WORDS), max_size=40).map(" ".join)
raw_text = st.text(max_size=300)
dsl_alphabet = st.text(alphabet=st.sampled_from(list("abcdefmnopsty_ .,:()[]=<>+-*/\"'#\n\t 0123456789")),
                       max_size=200)
rule_texts = st.one_of(near_programs, raw_text, dsl_alphabet)


@GARBAGE
@given(text=rule_texts)
def test_parse_block_raises_only_rulelang_errors(text: str) -> None:
    with time_limit():
        try:
            parse_block(text, locate)
        except RulelangError as error:
            assert error.span is not None and error.span.file == "rule.txt"
            error.format()


@GARBAGE
@given(text=rule_texts)
def test_parse_expression_raises_only_rulelang_errors(text: str) -> None:
    with time_limit():
        try:
            parse_expression(text, locate)
        except RulelangError as error:
            assert error.span is not None
            error.format()


# --- files ----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("garbage")


def load_all(path: Path) -> None:
    """Everything `validate --games 0` does with a file: load, schema, check and compile."""
    with time_limit():
        try:
            doc = load_document(path)
            validate_document(doc)
            compile_game(doc)
        except RulelangError as error:
            error.format()


@GARBAGE
@given(data=st.binary(max_size=400))
def test_random_bytes(folder: Path, data: bytes) -> None:
    path = folder / "bytes.yaml"
    path.write_bytes(data)
    load_all(path)


yaml_alphabet = st.sampled_from(list("ab:- \n\t[]{},&*!|>'\"#%@`?~0123456789.\\") + ["<<", "!!python/", "---"])


@GARBAGE
@given(text=st.one_of(st.text(max_size=300), st.lists(yaml_alphabet, max_size=120).map("".join)))
def test_random_text(folder: Path, text: str) -> None:
    path = folder / "text.yaml"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    load_all(path)


# --- random structures, and the tiny valid game with random parts -----------------------------

scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20), st.floats(allow_nan=True),
                    st.text(max_size=20), st.sampled_from(["deck", "hand", "me", "coin", "gem", "seat", "table"]))
structures = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.one_of(st.text(max_size=12), st.integers(0, 9)), inner, max_size=4)),
    max_leaves=25)


@pytest.mark.slow
@GARBAGE
@given(data=st.dictionaries(st.sampled_from(["game", "players", "turn", "zones", "cards", "roles", "counters", "vars",
                                             "end", "setup", "triggers", "procedures", "functions", "tables",
                                             "dice", "locations", "step_budget", "include"]),
                            structures, max_size=8))
def test_random_structures(folder: Path, data: dict) -> None:
    path = folder / "structure.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    load_all(path)


def _valid_data() -> dict:
    data = yaml.safe_load((VALID / "game.yaml").read_text(encoding="utf-8"))
    data.pop("include")
    data.update(yaml.safe_load((VALID / "cards.yaml").read_text(encoding="utf-8")))
    return data


BASE = _valid_data()


def _paths(data: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path to a value inside ``data``."""
    out = [prefix]
    if isinstance(data, dict):
        for key, value in data.items():
            out += _paths(value, prefix + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            out += _paths(value, prefix + (i,))
    return out


PATHS = _paths(BASE)[1:]
RULE_TEXTS = [p for p in PATHS if p[-1] in ("effect", "when", "winner", "value", "setup", "if", "target", "to")]


def _replace(data: dict, path: tuple, value: Any) -> dict:
    data = copy.deepcopy(data)
    node = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return data


@pytest.mark.slow
@GARBAGE
@given(path=st.sampled_from(PATHS), value=structures)
def test_valid_game_with_one_random_part(folder: Path, path: tuple, value: Any) -> None:
    path_file = folder / "mutant.yaml"
    path_file.write_text(yaml.safe_dump(_replace(BASE, path, value), allow_unicode=True), encoding="utf-8")
    load_all(path_file)


@pytest.mark.slow
@GARBAGE
@given(path=st.sampled_from(RULE_TEXTS), text=near_programs)
def test_valid_game_with_one_random_rule_text(folder: Path, path: tuple, text: str) -> None:
    path_file = folder / "rule_mutant.yaml"
    path_file.write_text(yaml.safe_dump(_replace(BASE, path, text), allow_unicode=True), encoding="utf-8")
    load_all(path_file)
