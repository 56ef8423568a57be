"""A parameter's type is checked where it is declared, and no message ever shows a type as the checker's '?'.

A procedure's `params: {n: integer}` once passed the schema (a param's type may be any name) and met its
first check at a call, as "argument 'n' must be ?, not a number": the type that is none printed as the
checker's own mark. Now the declaration is the error ("unknown type 'integer'", did you mean 'int'?),
and whatever word is written there, nothing said shows a bare '?'.
"""
from __future__ import annotations

from pathlib import Path
from tempfile import TemporaryDirectory

import pytest
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

from rulelang.check.types import describe
from rulelang.cli import main
from rulelang.errors import RulelangError
from rulelang.lang.types import ANY, INT, UNKNOWN, Type, declared_type, list_of, tuple_of, type_word_hint
from rulelang.pipeline import read_spec
from rulelang.spec.schema import validate_document
from rulelang.testing.mutate import build, mutants

from helpers.examples import examples
from helpers.reports import BARE_MARK, said_lines
from helpers.valid_game import VALID, derive

PARAMS = "params: {p: player, n: int}"
#: Words a designer may write for a type: the language's, near misses, other languages' and any name.
WORDS = st.one_of(
    st.sampled_from(["int", "bool", "player", "card", "counter", "location", "integer", "number", "boolean",
                     "crd", "plyer", "zone", "text", "list", "(int, int)", "(int, integr)", "(int)"]),
    st.from_regex(r"[a-z_][a-z0-9_]{0,12}", fullmatch=True))


def report_for(word: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """`validate --games 0` of the valid game whose procedure declares `n: WORD`."""
    with TemporaryDirectory() as tmp:
        spec = derive(Path(tmp), (PARAMS, f'params: {{p: player, n: "{word}"}}'))
        capsys.readouterr()
        code = main(["validate", "--games", "0", str(spec.parent)])
        return code, capsys.readouterr().err.replace(str(spec), "game.yaml")


@pytest.mark.slow
@examples(60, suppress_health_check=[HealthCheck.function_scoped_fixture])   # capsys is read before each
@given(word=WORDS)
def test_a_param_type_is_checked_where_it_is_declared(word: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = report_for(word, capsys)
    assert [line for line in said_lines(err) if BARE_MARK.search(line)] == []
    if declared_type(word) is not None:         # a type: the rules may still not fit it (n a player), in words
        assert "unknown type" not in err
        return
    assert code == 1
    first = err.splitlines()[0]
    assert first.startswith("game.yaml:35:"), "at the declaration, not at a call"
    if not word.startswith("("):                # a tuple written wrong is the schema's to say
        assert f"error: unknown type '{word}'" in first


@pytest.mark.parametrize(("word", "hint"), [
    ("integer", "did you mean 'int'?"), ("number", "did you mean 'int'?"), ("boolean", "did you mean 'bool'?"),
    ("crd", "did you mean 'card'?"), ("plyer", "did you mean 'player'?")])
def test_a_type_word_near_one_gets_it(word: str, hint: str) -> None:
    assert type_word_hint(word) == hint


def test_a_type_word_far_from_all_lists_them() -> None:
    assert "int, bool, player, location, card, counter" in type_word_hint("wibble")



@pytest.mark.parametrize("kind", [UNKNOWN, ANY, list_of(UNKNOWN), list_of(ANY), tuple_of([INT, UNKNOWN])])
def test_the_checkers_own_marks_are_described_in_words(kind: Type) -> None:
    assert not BARE_MARK.search(f"error: this must be {describe(kind)}")
    assert "any" not in describe(kind).replace("any value", "")


@pytest.mark.slow
def test_no_mutant_of_the_valid_game_shows_a_bare_mark() -> None:
    """Every slip `rulelang test --coverage` makes in the valid game (21 of its 86 mutants no longer load):
    what is said of each, error or warning, shows no type as the checker's '?'."""
    doc = read_spec(VALID)
    validate_document(doc)
    said: list[str] = []
    for mutant in mutants(doc):
        try:
            said += [w.format() for w in build(doc, mutant).warnings]
        except RulelangError as error:
            said.append(error.format())
    assert len(said) > 20
    assert [line for text in said for line in said_lines(text) if BARE_MARK.search(line)] == []
