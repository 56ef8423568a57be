"""libyaml and PyYAML's pure-Python parser read a spec into the same Document, or refuse it in the same words.

rulelang/spec/yaml_compose.py reads a file with libyaml when it has nothing the two parsers disagree on, and with
the pure parser otherwise or when libyaml refuses it. These tests read every YAML file of the repository, and
texts made of YAML's own marks, both ways, and show that libyaml is really used where it may be.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

from rulelang.errors import RulelangError
from rulelang.spec import loader, yaml_compose
from rulelang.spec.yamlfile import load_file

from helpers.examples import examples

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(yaml_compose._Libyaml is None, reason="PyYAML was built without libyaml")


def read(raw: bytes, monkeypatch: pytest.MonkeyPatch, fast: bool) -> tuple:
    """What loading one file gives: its data, every span and scalar, or the error's whole text."""
    with monkeypatch.context() as patch:
        if not fast:
            patch.setattr(yaml_compose, "_Libyaml", None)
        try:
            doc = load_file(raw, "f.yaml", loader.new_budget())
        except RulelangError as error:
            return "refused", str(error), error.hint
    return "read", doc.data, doc._spans, doc._key_spans, doc._scalars


def repository_yaml() -> list[Path]:
    skip = {".ci", ".git", ".hypothesis", "build"}
    return sorted(p for p in ROOT.rglob("*.y*ml")
                  if p.suffix in (".yaml", ".yml") and not skip & set(p.relative_to(ROOT).parts) and p.is_file())


@pytest.mark.slow
def test_every_file_of_the_repository_reads_the_same_both_ways(monkeypatch: pytest.MonkeyPatch) -> None:
    files = repository_yaml()
    assert len(files) > 100                     # the games, the examples, the scenarios and the broken corpus
    refused = 0
    for path in files:
        raw = path.read_bytes()
        fast = read(raw, monkeypatch, fast=True)
        assert fast == read(raw, monkeypatch, fast=False), path
        refused += fast[0] == "refused"
    assert refused >= 10                        # the broken corpus's YAML errors are among them


def test_the_games_are_read_by_libyaml() -> None:
    for path in (ROOT / "games").rglob("*.yaml"):
        assert yaml_compose.reads_with_libyaml(path.read_text(encoding="utf-8")), path


@pytest.mark.parametrize("text, why", [
    ("game:\tx\n", "a tab"),
    ("game: x", "no line break at the end"),
    ("game: \ufeffx\n", "a byte-order mark past the start"),
    ("game: !!str x\n", "a tag"),
    ("game: |# note\n  x\n", "a comment on a block scalar's first line"),
    ("game: \x01\n", "a control character"),
    ("game: {a: b? c}\n", "a question mark where a flow collection may be"),
])
def test_what_the_parsers_disagree_on_goes_to_the_pure_parser(text: str, why: str) -> None:
    assert not yaml_compose.reads_with_libyaml(text), why


def test_rule_texts_comparing_with_bang_equals_are_no_tag() -> None:
    assert yaml_compose.reads_with_libyaml("when: target != me\n")


def test_a_tab_libyaml_would_take_is_refused_as_pyyaml_refuses_it(monkeypatch: pytest.MonkeyPatch) -> None:
    raw = b"game:\tx\n"
    fast = read(raw, monkeypatch, fast=True)
    assert fast[0] == "refused" and "tab character" in fast[1]


@pytest.mark.parametrize("text", [
    "k: " + "[" * 5000 + "]" * 5000 + "\n",                          # deeper than the depth budget
    "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(               # a billion laughs
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n"
        for i in range(12)),
    "k: [a, b\n",                                                     # a syntax error: the pure parser's words
    "k: {a: 1, a: 2}\n",                                              # a duplicate key
])
def test_budgets_and_errors_hold_on_the_fast_path(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    assert yaml_compose.reads_with_libyaml(text)
    fast = read(text.encode(), monkeypatch, fast=True)
    assert fast[0] == "refused"
    assert fast == read(text.encode(), monkeypatch, fast=False)


#: YAML's marks, indents and scalars of every style, and what fuzzing found the parsers differ on (a tab, a
#: byte-order mark, tags, directives, comments after block headers), so that the rules above are tested too.
ATOMS = list("ab1 -:#'\"[]{},&*!|>?%@`\n\n\n  .\\~é\u2028\r\t=") + [
    "- ", ": ", "key: ", "  ", "    ", "&a ", "*a", "<<: ", "!!str ", "---", "...", "\n  - ", "\n    ", "'x'",
    '"\\n"', "|\n  x\n", ">-\n  y\n", "|2\n   z\n", "0x1F", "1e3", "null", "true", "on", "%YAML 1.1\n",
    "%TAG ! tag:x,2000:\n", "? ", "\ufeff", "x != y", "[a, b]", "{a: 1}", "\n- ", "#c", " #c"]


@examples(600, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(head=st.sampled_from(["k: ", "", "- ", "a:\n  "]),
       body=st.lists(st.sampled_from(ATOMS), max_size=60).map("".join),
       tail=st.sampled_from(["\n", "", "\n\n"]))
def test_any_text_reads_the_same_both_ways(head: str, body: str, tail: str, monkeypatch: pytest.MonkeyPatch) -> None:
    raw = (head + body + tail).encode()
    assert read(raw, monkeypatch, fast=True) == read(raw, monkeypatch, fast=False)
