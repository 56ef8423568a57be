"""An error carries the source line it quotes, from where it is made: nothing is looked up when it prints."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulelang import errors, load_game
from rulelang.errors import RulelangError, Span, SpecError
from rulelang.spec.document import SourceFile

PIG = Path(__file__).resolve().parents[2] / "examples" / "pig" / "game.yaml"


def _error_of(folder: Path) -> RulelangError:
    with pytest.raises(RulelangError) as caught:
        load_game(folder)
    return caught.value


def _pig_with(folder: Path, old: str, new: str) -> None:
    text = PIG.read_text(encoding="utf-8")
    assert old in text
    (folder / "game.yaml").write_text(text.replace(old, new), encoding="utf-8")


def test_the_errors_module_keeps_no_table_of_files() -> None:
    kept = [name for name, value in vars(errors).items()
            if not name.startswith("__") and isinstance(value, (dict, list, set))]
    assert kept == []
    assert not hasattr(errors, "register_source") and not hasattr(errors, "source_line")


def test_an_error_keeps_quoting_its_own_file_after_another_file_of_that_name_is_read(tmp_path: Path) -> None:
    """Read a spec, then a changed spec at the same path: the first error still quotes the first text."""
    _pig_with(tmp_path, "check end", "chek end")
    first = _error_of(tmp_path)
    printed = first.format()
    assert "chek end" in printed
    _pig_with(tmp_path, "me.pot += r.total", "me.pott += r.total")
    second = _error_of(tmp_path)
    assert "me.pott += r.total" in second.format()
    assert first.format() == printed
    shutil.rmtree(tmp_path)
    assert first.format() == printed       # the file is gone; the error needs nothing of it


def test_a_rule_text_error_quotes_the_yaml_line_with_a_caret_under_the_name(tmp_path: Path) -> None:
    _pig_with(tmp_path, "me.pot += r.total", "me.pot += r.totl")
    lines = _error_of(tmp_path).format().splitlines()
    assert lines[1] == "          me.pot += r.totl"
    assert lines[2].index("^") == lines[1].index("r.totl")


def test_a_span_made_without_the_text_quotes_nothing() -> None:
    assert SpecError("bad", Span("nowhere.yaml", 3, 2)).format() == "nowhere.yaml:3:2: error: bad"


def test_the_quoted_text_takes_no_part_in_comparing_spans() -> None:
    source = SourceFile("f.yaml", "a: 1\nb: 2\n")
    quoted, bare = source.span(2, 1, 2, 2), Span("f.yaml", 2, 1, 2, 2)
    assert quoted.text == "b: 2" and bare.text is None
    assert quoted == bare and hash(quoted) == hash(bare)


def test_a_source_file_counts_lines_as_yaml_does() -> None:
    source = SourceFile("f.yaml", "a\r\nb\rc\u2028d\n")
    assert [source.quoted_line(k) for k in range(0, 6)] == [None, "a", "b", "c", "d", None]
    assert SourceFile("f.yaml", "").quoted_line(1) is None


def test_a_line_is_quoted_up_to_a_character_yaml_refuses_as_a_break(tmp_path: Path) -> None:
    """A form feed is no line break to YAML (which refuses it) but one to Python: nothing from it on is printed."""
    (tmp_path / "game.yaml").write_bytes(b"game: x\nb: x\x0cy\n")
    assert _error_of(tmp_path).format().splitlines()[:3] == [
        f"{tmp_path / 'game.yaml'}:2:5: error: character U+000C is not allowed in a YAML file", "b: x", "    ^"]
