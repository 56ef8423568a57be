"""Tests for rulelang.spec.loader: positions, includes, located errors, hostile input."""
from __future__ import annotations

import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

from rulelang.errors import ErrorList, RulelangError, Span, SpecError
from rulelang.spec import loader
from rulelang.spec.document import Document
from rulelang.spec.loader import load_document

from helpers.examples import examples

#: CPU seconds after which a refusal counts as a hang; bench/hostile.py measures the real figures.
HANG_SECONDS = 20


def write(folder: Path, name: str, text: str | bytes) -> Path:
    """Write a test file (creating folders) and return its path."""
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def load_error(path: Path | str, **kwargs) -> RulelangError:
    """The error loading ``path`` raises (failing the test if it loads)."""
    with pytest.raises(RulelangError) as caught:
        load_document(path, **kwargs)
    return caught.value


def errors_of(error: RulelangError) -> list[RulelangError]:
    return list(error.errors) if isinstance(error, ErrorList) else [error]


def at(span: Span | None) -> tuple[int, int]:
    assert span is not None
    return span.line, span.col


# ---------------------------------------------------------------------------
# Data and positions

GAME = """\
# yaml-language-server: $schema=../../schemas/game.schema.json
game: Flapjacks
players: {min: 2, max: 5}
zones:
  main_deck:
    owner: table
    visibility: hidden
cards:
  - id: steel_axe
    name: Steel Axe
    tags: [equipment, axe]
  - id: blisters
    count: 4
"""


def test_plain_data_comes_back(tmp_path: Path) -> None:
    doc = load_document(write(tmp_path, "game.yaml", GAME))
    assert doc.data == {
        "game": "Flapjacks",
        "players": {"min": 2, "max": 5},
        "zones": {"main_deck": {"owner": "table", "visibility": "hidden"}},
        "cards": [
            {"id": "steel_axe", "name": "Steel Axe", "tags": ["equipment", "axe"]},
            {"id": "blisters", "count": 4},
        ],
    }


def test_spans_of_nested_values_and_keys(tmp_path: Path) -> None:
    doc = load_document(write(tmp_path, "game.yaml", GAME))
    file = str(tmp_path / "game.yaml")
    assert doc.span(("game",)) == Span(file, 2, 7, 2, 16)
    assert at(doc.span(("players", "max"))) == (3, 24)
    assert at(doc.span(("zones", "main_deck", "visibility"))) == (7, 17)
    assert at(doc.key_span(("zones", "main_deck", "visibility"))) == (7, 5)
    assert doc.key_span(("zones", "main_deck")) == Span(file, 5, 3, 5, 12)
    assert at(doc.span(("cards", 1))) == (12, 5)
    assert at(doc.span(("cards", 0, "tags", 1))) == (11, 23)
    assert at(doc.key_span(("cards", 1, "count"))) == (13, 5)


def test_span_falls_back_to_nearest_ancestor(tmp_path: Path) -> None:
    doc = load_document(write(tmp_path, "game.yaml", GAME))
    assert doc.span(("cards", 0, "no_such_key", 3)) == doc.span(("cards", 0))
    assert doc.span(()) .line == 2
    assert doc.key_span(("cards", 0)) == doc.span(("cards", 0))  # list items have no key


def test_span_accepts_lists_and_deques_as_paths(tmp_path: Path) -> None:
    from collections import deque

    doc = load_document(write(tmp_path, "game.yaml", GAME))
    assert doc.span(deque(["cards", 1])) == doc.span(("cards", 1))
    assert doc.key_span(["cards", 1, "count"]) == doc.key_span(("cards", 1, "count"))


def test_document_without_positions_falls_back_to_the_file() -> None:
    doc = Document({"a": 1}, Path("games/x/game.yaml"))
    assert doc.span(("a",)) == Span(str(Path("games/x/game.yaml")), 1, 1)
    assert doc.text_span(("a",), 1, 1) == doc.span(("a",))


def test_yaml_12_scalars(tmp_path: Path) -> None:
    """`on:` must stay a key named 'on' (triggers use it); dates and yes/no stay text."""
    text = """\
on: enter play
yes_no: [yes, no, off, y]
bools: [true, false, True, FALSE]
date: 2024-01-31
ints: [0x1F, 0o17, 012, -3, +4]
floats: [1.5, 1e3, .5, -.inf]
nulls: [~, null, ]
empty:
"""
    data = load_document(write(tmp_path, "game.yaml", text)).data
    assert data["on"] == "enter play"
    assert data["yes_no"] == ["yes", "no", "off", "y"]
    assert data["bools"] == [True, False, True, False]
    assert data["date"] == "2024-01-31"
    assert data["ints"] == [31, 15, 12, -3, 4]
    assert data["floats"][:3] == [1.5, 1000.0, 0.5] and data["floats"][3] == float("-inf")
    assert data["nulls"] == [None, None]
    assert data["empty"] is None


def test_standard_tags_are_allowed(tmp_path: Path) -> None:
    text = 'a: !!str 123\nb: !!int "7"\nc: !!float 2\nd: !!bool true\ne: !!null ""\nf: !!seq [1]\ng: !!map {x: 1}\n'
    data = load_document(write(tmp_path, "game.yaml", text)).data
    assert data == {"a": "123", "b": 7, "c": 2.0, "d": True, "e": None, "f": [1], "g": {"x": 1}}


def test_anchors_aliases_and_merge_keys(tmp_path: Path) -> None:
    text = """\
base: &base {dice: 1, points: 2}
card:
  <<: *base
  points: 5
copy: *base
"""
    doc = load_document(write(tmp_path, "game.yaml", text))
    assert doc.data["card"] == {"dice": 1, "points": 5}
    assert doc.data["copy"] == {"dice": 1, "points": 2}
    assert doc.data["copy"] is not doc.data["base"]  # aliases give independent copies
    assert at(doc.span(("card", "dice"))) == (1, 20)  # merged value points at its anchor
    assert at(doc.span(("card", "points"))) == (4, 11)


def test_merge_marker_as_a_value_is_text(tmp_path: Path) -> None:
    doc = load_document(write(tmp_path, "game.yaml", "a: <<\nb: [<<]\n"))
    assert doc.data == {"a": "<<", "b": ["<<"]}


def test_bom_is_ignored(tmp_path: Path) -> None:
    doc = load_document(write(tmp_path, "game.yaml", "\ufeffgame: x\n"))
    assert doc.data == {"game": "x"}
    assert at(doc.span(("game",))) == (1, 7)


def test_crlf_line_endings(tmp_path: Path) -> None:
    doc = load_document(write(tmp_path, "game.yaml", b"a: 1\r\nb:\r\n  c: |\r\n    x y\r\n"))
    assert doc.data == {"a": 1, "b": {"c": "x y\n"}}
    assert at(doc.text_span(("b", "c"), 1, 3)) == (4, 7)


def test_folder_loads_game_yaml_with_relative_file_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, "games/x/game.yaml", "game: x\ninclude: cards.yaml\n")
    write(tmp_path, "games/x/cards.yaml", "cards:\n  - id: a\n")
    monkeypatch.chdir(tmp_path)
    doc = load_document("games/x")
    assert doc.path == Path("games/x/game.yaml")
    assert doc.span(("game",)).file == str(Path("games/x/game.yaml"))
    assert doc.span(("cards", 0, "id")) == Span(str(Path("games/x/cards.yaml")), 2, 9, 2, 10)
    assert str(doc.span(("cards", 0))) == f"{Path('games/x/cards.yaml')}:2:5"


def test_file_path_given_directly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, "g/main.yaml", "game: x\n")
    monkeypatch.chdir(tmp_path)
    doc = load_document(Path("g/main.yaml"))
    assert doc.path == Path("g/main.yaml")
    assert doc.span(("game",)).file == str(Path("g/main.yaml"))


def test_source_is_registered_for_error_quotes(tmp_path: Path) -> None:
    doc = load_document(write(tmp_path, "game.yaml", "game: x\nzones:\n  treee: {}\n"))
    error = SpecError("unknown zone 'treee'", doc.key_span(("zones", "treee")), "did you mean 'tree'?")
    assert error.format().splitlines() == [
        f"{tmp_path / 'game.yaml'}:3:3: error: unknown zone 'treee'",
        "  treee: {}",
        "  ^^^^^",
        "hint: did you mean 'tree'?",
    ]


# ---------------------------------------------------------------------------
# text_span: positions inside DSL texts

BLOCKS = """\
steps:
  - name: draw
    effect: |
      draw 1 from deck to me.hand
      if me.hand has axe:
          discard me.hand
  - strip: |-
      x = 1
      y = 2
  - keep: |+
      pass

  - explicit: |2
          indented more
      back
  - folded: >
      one two
      three

      four
"""


def test_text_span_literal_block(tmp_path: Path) -> None:
    doc = load_document(write(tmp_path, "game.yaml", BLOCKS))
    path = ("steps", 0, "effect")
    assert doc.data["steps"][0]["effect"].splitlines()[1] == "if me.hand has axe:"
    assert at(doc.text_span(path, 1, 1)) == (4, 7)
    assert at(doc.text_span(path, 2, 4)) == (5, 10)  # 'me' of 'if me.hand'
    assert at(doc.text_span(path, 3, 5)) == (6, 11)  # 'discard', indented inside the block
    span = doc.text_span(path, 2, 4, 2, 11)
    assert (span.line, span.col, span.end_line, span.end_col) == (5, 10, 5, 17)
    assert span.file == str(tmp_path / "game.yaml")


def test_text_span_strip_keep_and_explicit_indent(tmp_path: Path) -> None:
    doc = load_document(write(tmp_path, "game.yaml", BLOCKS))
    assert doc.data["steps"][1]["strip"] == "x = 1\ny = 2"
    assert at(doc.text_span(("steps", 1, "strip"), 2, 5)) == (9, 11)
    assert doc.data["steps"][2]["keep"] == "pass\n\n"
    assert at(doc.text_span(("steps", 2, "keep"), 1, 1)) == (11, 7)
    assert doc.data["steps"][3]["explicit"] == "    indented more\nback\n"
    assert at(doc.text_span(("steps", 3, "explicit"), 1, 5)) == (14, 11)
    assert at(doc.text_span(("steps", 3, "explicit"), 2, 1)) == (15, 7)


def test_text_span_folded_is_best_effort(tmp_path: Path) -> None:
    doc = load_document(write(tmp_path, "game.yaml", BLOCKS))
    assert doc.data["steps"][4]["folded"] == "one two three\nfour\n"
    assert at(doc.text_span(("steps", 4, "folded"), 1, 5)) == (17, 11)


def test_text_span_flow_scalars(tmp_path: Path) -> None:
    text = """\
cards:
  - target: a player other than me
    when: 'card is monster'
    effect: "draw 1 from main_deck to me.hand"
    tricky: 'it''s me'
    escaped: "say \\"hi\\" to me"
    anchored: &t plain text here
"""
    doc = load_document(write(tmp_path, "game.yaml", text))
    card = ("cards", 0)
    assert at(doc.text_span(card + ("target",), 1, 3)) == (2, 15)
    assert at(doc.text_span(card + ("when",), 1, 9)) == (3, 20)
    span = doc.text_span(card + ("effect",), 1, 6, 1, 7)
    assert (span.line, span.col, span.end_line, span.end_col) == (4, 19, 4, 20)
    assert doc.data["cards"][0]["tricky"] == "it's me"
    assert at(doc.text_span(card + ("tricky",), 1, 6)) == (5, 20)  # "me" after the doubled quote
    assert doc.data["cards"][0]["escaped"] == 'say "hi" to me'
    assert at(doc.text_span(card + ("escaped",), 1, 13)) == (6, 29)  # "me" after two escapes
    assert at(doc.text_span(card + ("anchored",), 1, 7)) == (7, 24)


def test_text_span_multiline_flow_is_best_effort(tmp_path: Path) -> None:
    doc = load_document(write(tmp_path, "game.yaml", 'a: "one\n\n   two"\n'))
    assert doc.data["a"] == "one\ntwo"
    assert at(doc.text_span(("a",), 2, 1)) == (2, 1)


def test_text_span_of_non_string_falls_back(tmp_path: Path) -> None:
    doc = load_document(write(tmp_path, "game.yaml", "a:\n  b: 3\n"))
    assert doc.text_span(("a", "b"), 1, 1) == doc.span(("a", "b"))
    assert doc.text_span(("a",), 1, 1) == doc.span(("a",))


# ---------------------------------------------------------------------------
# Includes


def test_include_merges_lists_and_mappings_with_positions(tmp_path: Path) -> None:
    write(tmp_path, "g/game.yaml", "game: x\ninclude: [cards.yaml, zones.yaml]\ncards:\n  - id: a\nzones:\n  deck: {}\n")
    write(tmp_path, "g/cards.yaml", "cards:\n  - id: b\n  - id: c\n")
    write(tmp_path, "g/zones.yaml", "zones:\n  hand: {owner: player}\ndice:\n  d6: {faces: 6}\n")
    doc = load_document(tmp_path / "g")
    assert doc.data == {
        "game": "x",
        "cards": [{"id": "a"}, {"id": "b"}, {"id": "c"}],
        "zones": {"deck": {}, "hand": {"owner": "player"}},
        "dice": {"d6": {"faces": 6}},
    }
    cards_file = str(tmp_path / "g" / "cards.yaml")
    zones_file = str(tmp_path / "g" / "zones.yaml")
    assert doc.span(("cards", 0, "id")).file == str(tmp_path / "g" / "game.yaml")
    assert doc.span(("cards", 2, "id")) == Span(cards_file, 3, 9, 3, 10)
    assert doc.span(("cards", 1)).file == cards_file
    assert doc.key_span(("zones", "hand")) == Span(zones_file, 2, 3, 2, 7)
    assert at(doc.span(("zones", "hand", "owner"))) == (2, 17)
    assert doc.span(("dice", "d6", "faces")).file == zones_file


def test_include_as_a_string_and_nested_includes(tmp_path: Path) -> None:
    write(tmp_path, "g/game.yaml", "game: x\ninclude: a.yaml\ncards: [{id: one}]\n")
    write(tmp_path, "g/a.yaml", "include: [sub/b.yaml]\ncards: [{id: two}]\n")
    write(tmp_path, "g/sub/b.yaml", "cards:\n  - {id: three, text: 'x y'}\n")
    doc = load_document(tmp_path / "g")
    assert [c["id"] for c in doc.data["cards"]] == ["one", "two", "three"]
    assert "include" not in doc.data
    span = doc.text_span(("cards", 2, "text"), 1, 3)
    assert (span.file, span.line, span.col) == (str(tmp_path / "g" / "sub" / "b.yaml"), 2, 26)


def test_includes_false_reads_one_file(tmp_path: Path) -> None:
    write(tmp_path, "g/game.yaml", "game: x\ninclude: [missing.yaml]\n")
    doc = load_document(tmp_path / "g", includes=False)
    assert doc.data == {"game": "x", "include": ["missing.yaml"]}
    assert at(doc.span(("include", 0))) == (2, 11)


def test_key_defined_in_two_files(tmp_path: Path) -> None:
    write(tmp_path, "g/game.yaml", "game: x\ninclude: [zones.yaml]\nzones:\n  deck: {}\n")
    write(tmp_path, "g/zones.yaml", "zones:\n  hand: {}\n  deck: {}\n")
    error = load_error(tmp_path / "g")
    assert isinstance(error, SpecError)
    assert error.message == "'zones.deck' is defined twice"
    assert error.span.file == str(tmp_path / "g" / "zones.yaml")
    assert at(error.span) == (3, 3)
    assert error.hint == f"first defined at {tmp_path / 'g' / 'game.yaml'}:4:3"


def test_scalar_defined_in_two_files(tmp_path: Path) -> None:
    write(tmp_path, "g/game.yaml", "game: x\ninclude: [more.yaml]\n")
    write(tmp_path, "g/more.yaml", "\ngame: y\n")
    error = load_error(tmp_path / "g")
    assert error.message == "'game' is defined twice"
    assert (error.span.file, *at(error.span)) == (str(tmp_path / "g" / "more.yaml"), 2, 1)
    assert "game.yaml:1:1" in error.hint


def test_list_in_one_file_mapping_in_another(tmp_path: Path) -> None:
    write(tmp_path, "g/game.yaml", "game: x\ninclude: [more.yaml]\ncards: []\n")
    write(tmp_path, "g/more.yaml", "cards: {a: 1}\n")
    error = load_error(tmp_path / "g")
    assert error.message.startswith("'cards' is a mapping here but a list in ")
    assert error.span.file == str(tmp_path / "g" / "more.yaml")


def test_missing_include_lists_yaml_files(tmp_path: Path) -> None:
    write(tmp_path, "g/game.yaml", "game: x\ninclude:\n  - cards.yaml\n  - crads2.yaml\n")
    write(tmp_path, "g/cards.yaml", "cards: []\n")
    write(tmp_path, "g/cards2.yaml", "tags: []\n")
    write(tmp_path, "g/notes.txt", "not yaml")
    error = load_error(tmp_path / "g")
    assert error.message == "cannot find included file 'crads2.yaml'"
    assert at(error.span) == (4, 5)
    assert error.hint == "did you mean 'cards2.yaml'? YAML files here: cards.yaml, cards2.yaml"


def test_circular_include_names_the_cycle(tmp_path: Path) -> None:
    write(tmp_path, "g/game.yaml", "game: x\ninclude: [a.yaml]\n")
    write(tmp_path, "g/a.yaml", "include: [b.yaml]\n")
    write(tmp_path, "g/b.yaml", "tags: []\ninclude: [a.yaml]\n")
    error = load_error(tmp_path / "g")
    assert error.message == "circular include: game.yaml -> a.yaml -> b.yaml -> a.yaml"
    assert (error.span.file, *at(error.span)) == (str(tmp_path / "g" / "b.yaml"), 2, 11)


def test_file_including_itself(tmp_path: Path) -> None:
    write(tmp_path, "g/game.yaml", "game: x\ninclude: game.yaml\n")
    error = load_error(tmp_path / "g")
    assert error.message == "circular include: game.yaml -> game.yaml"


def test_same_file_included_twice(tmp_path: Path) -> None:
    write(tmp_path, "g/game.yaml", "game: x\ninclude: [a.yaml, b.yaml]\n")
    write(tmp_path, "g/a.yaml", "include: [common.yaml]\n")
    write(tmp_path, "g/b.yaml", "include: [common.yaml]\n")
    write(tmp_path, "g/common.yaml", "tags: [x]\n")
    error = load_error(tmp_path / "g")
    assert error.message == "'common.yaml' is included twice"
    assert error.span.file == str(tmp_path / "g" / "b.yaml")
    assert "a.yaml:1:11" in error.hint


@pytest.mark.parametrize("entry", ["../outside.yaml", "sub/../../outside.yaml"])
def test_include_outside_the_game_folder_is_refused(tmp_path: Path, entry: str) -> None:
    write(tmp_path, "outside.yaml", "tags: [secret]\n")
    write(tmp_path, "g/game.yaml", f"game: x\ninclude: ['{entry}']\n")
    error = load_error(tmp_path / "g")
    assert error.message == f"include '{entry}' is outside the game's folder"
    assert at(error.span) == (2, 11)


def test_include_of_an_impossible_file_name_is_refused(tmp_path: Path) -> None:
    write(tmp_path, "g/game.yaml", 'game: x\ninclude: ["a\\0b.yaml"]\n')      # a NUL byte (found by hypothesis)
    error = load_error(tmp_path / "g")
    assert error.message == "include 'a\\x00b.yaml' is not a usable file name"
    assert at(error.span) == (2, 11)


def test_absolute_include_is_refused(tmp_path: Path) -> None:
    target = write(tmp_path, "g/cards.yaml", "cards: []\n")
    write(tmp_path, "g/game.yaml", f"game: x\ninclude: ['{target.as_posix()}']\n")
    error = load_error(tmp_path / "g")
    assert error.message.endswith("must be a path relative to this file")


def test_include_must_name_files(tmp_path: Path) -> None:
    write(tmp_path, "g/game.yaml", "game: x\ninclude: [{a: 1}]\n")
    error = load_error(tmp_path / "g")
    assert error.message == "'include' must be a file name or a list of file names"
    assert at(error.span) == (2, 10)


def test_errors_from_several_files_come_together(tmp_path: Path) -> None:
    write(tmp_path, "g/game.yaml", "game: x\ninclude: [a.yaml, b.yaml, nope.yaml]\n")
    write(tmp_path, "g/a.yaml", "a: 1\na: 2\n")
    write(tmp_path, "g/b.yaml", "b: [1\n")
    error = load_error(tmp_path / "g")
    assert isinstance(error, ErrorList)
    files = sorted(Path(e.span.file).name for e in error.errors)
    assert files == ["a.yaml", "b.yaml", "game.yaml"]


# ---------------------------------------------------------------------------
# Located errors for malformed files


def test_tab_in_indentation(tmp_path: Path) -> None:
    error = load_error(write(tmp_path, "game.yaml", "game: x\nzones:\n\tdeck: {}\n"))
    assert error.message == "tab character in indentation"
    assert at(error.span) == (3, 1)
    assert error.hint == "indent with spaces, not tabs"


def test_tab_after_a_key(tmp_path: Path) -> None:
    error = load_error(write(tmp_path, "game.yaml", "game:\tx\n"))
    assert error.message == "tab character where YAML expects a space"
    assert at(error.span) == (1, 6)
    assert error.hint == "indent with spaces, not tabs"


def test_bad_indentation(tmp_path: Path) -> None:
    error = load_error(write(tmp_path, "game.yaml", "zones:\n  deck: {}\n hand: {}\n"))
    assert error.message == "bad indentation: this line does not line up with the lines above it"
    assert at(error.span) == (3, 2)
    assert "same column" in error.hint


def test_text_after_a_quoted_value(tmp_path: Path) -> None:
    error = load_error(write(tmp_path, "game.yaml", "name: 'Steel' Axe\n"))
    assert error.message == "unexpected text after the value on this line"
    assert at(error.span) == (1, 15)
    assert error.hint == "put the whole value in quotes"


def test_over_indented_key(tmp_path: Path) -> None:
    error = load_error(write(tmp_path, "game.yaml", "zones:\n  deck: 1\n    hand: 2\n"))
    assert error.message == "unexpected ':' here"
    assert at(error.span) == (3, 9)
    assert "indentation" in error.hint


@pytest.mark.parametrize("quote", ['"', "'"])
def test_unclosed_quote_points_at_the_opening_quote(tmp_path: Path, quote: str) -> None:
    error = load_error(write(tmp_path, "game.yaml", f"game: x\ntext: {quote}hello\nother: 1\n"))
    assert error.message == f"unclosed quote: this string has no closing {quote}"
    assert at(error.span) == (2, 7)


def test_unclosed_bracket(tmp_path: Path) -> None:
    error = load_error(write(tmp_path, "game.yaml", "tags: [a, b\nzones: {}\n"))
    assert error.message == "expected ',' or ']' here"
    assert at(error.span) == (2, 6)
    assert error.hint == "the '[' opened on line 1 is not closed"


def test_character_that_cannot_start_a_value(tmp_path: Path) -> None:
    error = load_error(write(tmp_path, "game.yaml", "game: @home\n"))
    assert error.message == "'@' cannot start a value"
    assert at(error.span) == (1, 7)
    assert error.hint == "put the value in quotes"


def test_undefined_alias(tmp_path: Path) -> None:
    error = load_error(write(tmp_path, "game.yaml", "a: 1\nb: *nope\n"))
    assert error.message == "unknown alias '*nope'"
    assert at(error.span) == (2, 4)


def test_two_documents(tmp_path: Path) -> None:
    error = load_error(write(tmp_path, "game.yaml", "a: 1\n---\nb: 2\n"))
    assert error.message == "a second YAML document starts here; a file holds one"
    assert at(error.span) == (2, 1)


def test_unknown_escape(tmp_path: Path) -> None:
    error = load_error(write(tmp_path, "game.yaml", 'a: "C:\\games"\n'))
    assert error.message == "unknown escape '\\g' in a double-quoted string"
    assert at(error.span) == (1, 8)


def test_other_yaml_errors_are_plain_sentences(tmp_path: Path) -> None:
    error = load_error(write(tmp_path, "game.yaml", "%YAML 9.9\n--- \na: 1\n"))
    assert isinstance(error, SpecError)
    assert error.span is not None and error.span.line == 1
    assert "<" not in error.message and "Error" not in error.message


def test_duplicate_key(tmp_path: Path) -> None:
    error = load_error(write(tmp_path, "game.yaml", "game: x\nzones:\n  deck: {}\n  hand: {}\n  deck: {}\n"))
    assert error.message == "duplicate key 'deck' in this mapping"
    assert at(error.span) == (5, 3)
    assert error.hint == "'deck' is already defined on line 3"


@pytest.mark.parametrize("key, reads_as", [
    ("null", "nothing (null)"), ("~", "nothing (null)"), ("true", "true or false"), ("False", "true or false"),
    (".inf", "a decimal number"), (".nan", "a decimal number"), ("-.inf", "a decimal number"), ("2.5", "a decimal number"),
])
def test_a_key_that_reads_as_no_name_is_refused_at_the_key(tmp_path: Path, key: str, reads_as: str) -> None:
    """Such keys passed the name check as JSON's 'null', 'true', 'inf' and crashed the loader further on."""
    error = load_error(write(tmp_path, "game.yaml", f"game: x\ncounters:\n  gold: {{}}\n  {key}: {{label: L}}\n"))
    assert error.message == f"the key '{key}' reads as {reads_as}, not as a name or a whole number"
    assert at(error.span) == (4, 3)
    assert error.hint is not None and f'"{key}":' in error.hint


def test_a_quoted_word_and_a_whole_number_are_keys(tmp_path: Path) -> None:
    data = load_document(write(tmp_path, "game.yaml", "a: {\"null\": 1, \"true\": 2, 3: 4}\n")).data
    assert data["a"] == {"null": 1, "true": 2, 3: 4}


def test_several_duplicate_keys_reported_together(tmp_path: Path) -> None:
    error = load_error(write(tmp_path, "game.yaml", "a: 1\na: 2\nb: {c: 1, c: 2}\n"))
    assert [(e.message, at(e.span)) for e in errors_of(error)] == [
        ("duplicate key 'a' in this mapping", (2, 1)),
        ("duplicate key 'c' in this mapping", (3, 11)),
    ]


@pytest.mark.parametrize("text", ["", "\n\n", "# just a comment\n", "---\n"])
def test_empty_file(tmp_path: Path, text: str) -> None:
    error = load_error(write(tmp_path, "game.yaml", text))
    assert error.message == "file is empty"
    assert at(error.span) == (1, 1)
    assert "mapping of top-level keys" in error.hint


def test_top_level_must_be_a_mapping(tmp_path: Path) -> None:
    error = load_error(write(tmp_path, "game.yaml", "- a\n- b\n"))
    assert error.message == "the top level of this file must be a mapping of keys, not a list"
    assert at(error.span) == (1, 1)


def test_not_utf8(tmp_path: Path) -> None:
    error = load_error(write(tmp_path, "game.yaml", "game: x\nname: 'Caf\xe9 \xfc'\n".encode("latin-1")))
    assert error.message == "file is not UTF-8 text: byte 0xE9 cannot be read"
    assert at(error.span) == (2, 11)
    assert error.hint == "save the file with UTF-8 encoding"


def test_not_utf8_after_multibyte_characters(tmp_path: Path) -> None:
    error = load_error(write(tmp_path, "game.yaml", "a: 'ééé".encode() + b"\xff'\n"))
    assert at(error.span) == (1, 8)


def test_control_character(tmp_path: Path) -> None:
    error = load_error(write(tmp_path, "game.yaml", "a: 1\nb: x\x07y\n"))
    assert error.message == "character U+0007 is not allowed in a YAML file"
    assert at(error.span) == (2, 5)


def test_missing_file(tmp_path: Path) -> None:
    write(tmp_path, "gmae.yaml", "a: 1\n")
    error = load_error(tmp_path / "game.yaml")
    assert isinstance(error, SpecError)
    assert error.message == f"cannot find '{tmp_path / 'game.yaml'}'"
    assert error.hint.startswith("did you mean 'gmae.yaml'?")


def test_folder_without_game_yaml(tmp_path: Path) -> None:
    write(tmp_path, "g/cards.yaml", "cards: []\n")
    error = load_error(tmp_path / "g")
    assert error.message == f"there is no game.yaml in '{tmp_path / 'g'}'"
    assert error.hint == "YAML files there: cards.yaml"


def test_complex_keys_are_refused(tmp_path: Path) -> None:
    error = load_error(write(tmp_path, "game.yaml", "? [a, b]\n: 1\n"))
    assert error.message == "a key must be a name or a number, not a list"
    assert at(error.span) == (1, 3)


def test_bad_value_for_a_standard_tag(tmp_path: Path) -> None:
    error = load_error(write(tmp_path, "game.yaml", "count: !!int three\n"))
    assert error.message == "'three' cannot be read as !!int"
    assert at(error.span) == (1, 8)


@pytest.mark.parametrize("literal, digits", [("1" * 5000, 5000), ("-" + "9" * 4301, 4301), ("0x" + "f" * 5000, 5000),
                                             ("0o" + "7" * 200, 200), ("!!float " + "1" * 400, 400)])
def test_a_number_too_long_is_a_located_error(tmp_path: Path, literal: str, digits: int) -> None:
    error = load_error(write(tmp_path, "game.yaml", f"game: x\ncount: {literal}\n"))
    assert error.message == f"this number has {digits:,} digits; a spec's numbers have at most 100"
    assert at(error.span) == (2, 8)
    assert error.format()                   # printing it never converts the number


def test_a_number_of_100_digits_loads(tmp_path: Path) -> None:
    doc = load_document(write(tmp_path, "game.yaml", "count: " + "9" * 100 + "\n"))
    assert doc.data["count"] == 10**100 - 1


# ---------------------------------------------------------------------------
# Hostile input


@pytest.mark.parametrize(
    "value",
    [
        "!!python/object/apply:os.system ['echo pwned']",
        "!!python/object:collections.OrderedDict {}",
        "!!python/name:os.system",
        "!!python/tuple [1, 2]",
        "!!python/module:os",
    ],
)
def test_python_tags_are_refused(tmp_path: Path, value: str) -> None:
    error = load_error(write(tmp_path, "game.yaml", f"game: x\nevil: {value}\n"))
    assert isinstance(error, SpecError)
    assert error.message.startswith("YAML tag '!!python/")
    assert error.message.endswith("is not allowed: a spec holds plain data, not Python objects")
    assert at(error.span) == (2, 7)


def test_python_tag_on_a_key_is_refused(tmp_path: Path) -> None:
    error = load_error(write(tmp_path, "game.yaml", "? !!python/object/apply:os.system ['x']\n: 1\n"))
    assert error.message.startswith("a key must be")


@pytest.mark.parametrize("tag", ["!foo", "!<tag:example.com,2000:x>", "!!binary", "!!timestamp", "!!set", "!!omap"])
def test_unknown_and_local_tags_are_refused(tmp_path: Path, tag: str) -> None:
    error = load_error(write(tmp_path, "game.yaml", f"a:\n  b: {tag} abc\n"))
    assert error.message.startswith("unknown YAML tag")
    assert at(error.span) == (2, 6)


def test_tag_of_the_wrong_kind(tmp_path: Path) -> None:
    error = load_error(write(tmp_path, "game.yaml", "a: !!map [1]\n"))
    assert error.message == "tag '!!map' does not fit a list"


BILLION_LAUGHS = """\
a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
"""


def test_billion_laughs_is_refused_quickly(tmp_path: Path) -> None:
    path = write(tmp_path, "game.yaml", BILLION_LAUGHS)
    start = time.process_time()
    error = load_error(path)
    assert time.process_time() - start < HANG_SECONDS
    assert error.message == "this file expands to more than 30,000 values once aliases are expanded"
    assert at(error.span) == (5, 4)  # the first node that is too big
    assert "fewer aliases" in error.hint


def test_modest_aliases_are_fine(tmp_path: Path) -> None:
    doc = load_document(write(tmp_path, "game.yaml", "\n".join(BILLION_LAUGHS.splitlines()[:4]) + "\n"))
    assert len(doc.data["d"]) == 9 and len(doc.data["d"][0][0]) == 9


def test_too_many_aliases(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loader, "MAX_ALIASES", 10)
    error = load_error(write(tmp_path, "game.yaml", "a: &a 1\nb: [" + ", ".join(["*a"] * 11) + "]\n"))
    assert error.message == "too many aliases: more than 10 uses of '*name' in one file"
    assert at(error.span) == (2, 45)


def test_too_many_plain_values(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loader, "MAX_NODES", 1000)
    error = load_error(write(tmp_path, "game.yaml", "a: [" + ", ".join(["1"] * 2000) + "]\n"))
    assert error.message == "this file holds more than 1,000 values"
    assert error.span.line == 1


def test_missing_include_in_a_subfolder(tmp_path: Path) -> None:
    write(tmp_path, "g/game.yaml", "game: x\ninclude: [cards/bsae.yaml]\n")
    write(tmp_path, "g/cards/base.yaml", "cards: []\n")
    error = load_error(tmp_path / "g")
    assert error.hint == "did you mean 'cards/base.yaml'? YAML files here: cards/base.yaml"


def test_anchor_inside_itself(tmp_path: Path) -> None:
    error = load_error(write(tmp_path, "game.yaml", "a: &loop\n  - x\n  - *loop\n"))
    assert error.message == "anchor '&loop' is used inside itself"
    assert at(error.span) == (1, 4)


def test_self_merge(tmp_path: Path) -> None:
    error = load_error(write(tmp_path, "game.yaml", "a: &m\n  x: 1\n  <<: *m\n"))
    assert error.message == "anchor '&m' is used inside itself"


@pytest.mark.parametrize("start, opener, closer", [("a: ", "[", "]"), ("a: ", "{a: ", "}"), ("", "- ", "")])
def test_deep_nesting_is_refused_without_recursion_error(tmp_path: Path, start: str, opener: str, closer: str) -> None:
    path = write(tmp_path, "game.yaml", start + opener * 10_000 + "1" + closer * 10_000 + "\n")
    start = time.process_time()
    error = load_error(path)
    assert time.process_time() - start < HANG_SECONDS
    assert isinstance(error, SpecError)
    assert error.message == "nesting is too deep: more than 100 levels of lists and mappings"
    assert error.span.line == 1


def test_deep_block_nesting_is_refused(tmp_path: Path) -> None:
    text = "".join("  " * i + f"k{i}:\n" for i in range(150)) + "  " * 150 + "end\n"
    error = load_error(write(tmp_path, "game.yaml", text))
    assert error.message.startswith("nesting is too deep")
    assert error.span.line == 100


def test_nesting_made_deep_by_aliases_is_refused(tmp_path: Path) -> None:
    inner = "[" * 60 + "1" + "]" * 60
    text = f"a: &a {inner}\nb: &b {'[' * 60}*a{']' * 60}\n"
    error = load_error(write(tmp_path, "game.yaml", text))
    assert error.message == "nesting is too deep: more than 100 levels once aliases are expanded"


def test_moderate_nesting_is_fine(tmp_path: Path) -> None:
    doc = load_document(write(tmp_path, "game.yaml", "a: " + "[" * 90 + "1" + "]" * 90 + "\n"))
    value = doc.data["a"]
    for _ in range(90):
        value = value[0]
    assert value == 1


def test_huge_file_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "game.yaml", b"#" * (loader.MAX_SPEC_BYTES + 1))
    start = time.process_time()
    error = load_error(path)
    assert time.process_time() - start < HANG_SECONDS      # the file is never parsed
    assert error.message == "file is too large (2.0 MB; the limit is 2 MB)"
    assert at(error.span) == (1, 1)


def test_huge_included_file_is_refused_at_its_own_name(tmp_path: Path) -> None:
    write(tmp_path, "g/game.yaml", "game: x\ninclude: big.yaml\n")
    write(tmp_path, "g/big.yaml", b" " * (loader.MAX_SPEC_BYTES + 1))
    error = load_error(tmp_path / "g")
    assert error.span.file == str(tmp_path / "g" / "big.yaml")
    assert error.message.startswith("file is too large")


def test_one_megabyte_rule_text_loads(tmp_path: Path) -> None:
    body = "".join(f"      draw {i % 10} from deck to me.hand\n" for i in range(40_000))
    path = write(tmp_path, "game.yaml", "turn:\n  steps:\n  - effect: |\n" + body + "game: x\n")
    doc = load_document(path)
    text = doc.data["turn"]["steps"][0]["effect"]
    assert len(text) > 1_000_000
    assert at(doc.text_span(("turn", "steps", 0, "effect"), 31_000, 6)) == (3 + 31_000, 12)
    assert doc.data["game"] == "x"


def test_one_megabyte_quoted_string_loads(tmp_path: Path) -> None:
    doc = load_document(write(tmp_path, "game.yaml", 'text: "' + "x" * 1_000_000 + '"\n'))
    assert len(doc.data["text"]) == 1_000_000


YAML_PIECES = list("ab: -[]{}&*!|>'\"#\n\t\\,?%@`~0x.") + ["\u00e9", "<<", "  ", "!!python/name:os.system", "&a ", "*a"]
YAMLISH = st.lists(st.sampled_from(YAML_PIECES), max_size=60).map("".join)


@examples(300, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=YAMLISH)
def test_any_text_loads_or_raises_a_located_rulelang_error(tmp_path: Path, text: str) -> None:
    path = write(tmp_path, "fuzz.yaml", text)
    try:
        doc = load_document(path)
    except RulelangError as error:
        for one in errors_of(error):
            assert one.span is not None and one.span.line >= 1 and one.span.col >= 1
            assert one.format()
        return
    assert isinstance(doc.data, dict)


@examples(100, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=st.binary(max_size=60))
def test_any_bytes_load_or_raise_a_rulelang_error(tmp_path: Path, raw: bytes) -> None:
    path = write(tmp_path, "fuzz.yaml", raw)
    try:
        load_document(path)
    except RulelangError:
        pass


@pytest.fixture(scope="module")
def blocks_doc(tmp_path_factory: pytest.TempPathFactory) -> Document:
    return load_document(write(tmp_path_factory.mktemp("blocks"), "game.yaml", BLOCKS))


@examples(200)
@given(line=st.integers(min_value=-2, max_value=40), col=st.integers(min_value=-2, max_value=200))
def test_text_span_never_fails(blocks_doc: Document, line: int, col: int) -> None:
    for path in [("steps", 0, "effect"), ("steps", 4, "folded"), ("steps", 3, "explicit"), ("steps", 1, "strip")]:
        span = blocks_doc.text_span(path, line, col, line, col + 1)
        assert span.line >= 1 and span.col >= 1
