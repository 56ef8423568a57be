"""A game's plain data, and where every value of it came from.

Designers get errors as ``file:line:col``, so the loader keeps a span for
every mapping key, mapping value, list item and scalar of the merged files,
and can map a position inside a rule text (as the rule parser reports it)
back to its file, whatever YAML style the text was written in.
"""
from __future__ import annotations

import bisect
import copy
import hashlib
import json
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulelang.errors import Span

#: The line breaks YAML knows; files are split on these so line numbers agree with PyYAML's.
LINE_BREAK = re.compile(r"\r\n|[\r\n\x85\u2028\u2029]")


#: Characters that end a line for Python's ``splitlines`` but not for YAML (which refuses them in a file):
#: a line is quoted up to the first of them, so none is printed raw under an error.
_QUOTE_STOP = re.compile(r"[\v\f\x1c\x1d\x1e]")


class SourceFile:
    """A file's name and its lines as YAML counts them; the spans it makes carry the line they point at."""

    def __init__(self, file: str, text: str):
        self.file = file
        #: The text split at YAML's line breaks (a break at the very end leaves a last, empty piece).
        self.lines = LINE_BREAK.split(text)
        #: How many lines the file has: the empty piece after a final line break is not one.
        self.count = len(self.lines) - (self.lines[-1] == "")
        self._stops = _QUOTE_STOP.search(text) is not None

    def quoted_line(self, number: int) -> str | None:
        """The text of 1-based line ``number`` as an error quotes it, or None past the file's end."""
        if not 1 <= number <= self.count:
            return None
        text = self.lines[number - 1]
        return _QUOTE_STOP.split(text, 1)[0] if self._stops else text

    def span(self, line: int, col: int, end_line: int | None = None, end_col: int | None = None) -> Span:
        """The span of a 1-based place in this file, holding its line to quote."""
        return Span(self.file, line, col, end_line, end_col, text=self.quoted_line(line))


@dataclass(frozen=True)
class ScalarText:
    """Where a string scalar sits in its file, so positions inside its text can be mapped back."""

    value: str
    style: str | None
    file: str
    line: int
    col: int


@dataclass
class Document:
    """Plain data of a game (includes merged) plus the source position of every node."""

    data: Any
    path: Path
    _spans: dict[tuple, Span] = field(default_factory=dict, repr=False)
    _key_spans: dict[tuple, Span] = field(default_factory=dict, repr=False)
    _scalars: dict[tuple, ScalarText] = field(default_factory=dict, repr=False)
    #: Every file whose values are here (included files and mods too), by name.
    _sources: dict[str, SourceFile] = field(default_factory=dict, repr=False)
    _text_maps: dict[tuple, _TextMap] = field(default_factory=dict, repr=False)
    #: Calls renamed inside one declaration, by its path: a chained mod wrapper's ``original_NAME`` is
    #: the wrapper below it (``rulelang.mods.reshape``), which the compiler applies after parsing.
    _call_renames: dict[tuple, dict[str, str]] = field(default_factory=dict, repr=False)
    #: What the game was made of, for logs (loader.load_document): the SHA-256 of the game's own files
    #: (``spec``) and the mods laid over it in order (``mods``: name and SHA-256 of its files); empty
    #: when no mod is laid over it.
    origin: dict = field(default_factory=dict, repr=False)
    #: The game's ``card_groups`` once they were laid into its cards (``spec/groups.py``): a document of its
    #: own, data ``{"card_groups": ...}`` with their positions, for the cards the mods add; None without groups.
    card_groups: Document | None = field(default=None, repr=False)

    def span(self, path: tuple) -> Span:
        """The span of the node at ``path``, or of its nearest ancestor that has one."""
        path = tuple(path)
        for end in range(len(path), -1, -1):
            found = self._spans.get(path[:end])
            if found is not None:
                return found
        return self.span_in(str(self.path), 1, 1)

    def span_in(self, file: str, line: int, col: int, end_line: int | None = None,
                end_col: int | None = None) -> Span:
        """A span in one of this document's files, holding its line to quote when the file's text is here."""
        source = self._sources.get(file)
        if source is None:
            return Span(file, line, col, end_line, end_col)
        return source.span(line, col, end_line, end_col)

    def joined_lines(self, path: tuple) -> bool:
        """Whether the text at ``path`` was written over several lines that YAML joined into one (a plain or
        '>' value): a rule text meant as a block of lines, written without '|'."""
        info = self._scalars.get(tuple(path))
        span = self._spans.get(tuple(path))
        return (info is not None and info.style in (None, ">") and span is not None
                and span.end_line is not None and span.end_line > span.line)

    def lines_of(self, span: Span) -> list[str]:
        """The lines of its file that ``span`` covers, as an error quotes them (none when the file's text is
        not here)."""
        source = self._sources.get(span.file)
        if source is None or span.line < 1:
            return []
        last = max(span.end_line or span.line, span.line)
        return [text for k in range(span.line, last + 1) if (text := source.quoted_line(k)) is not None]

    def key_span(self, path: tuple) -> Span:
        """The span of the mapping key whose value is at ``path`` (falls back to ``span``)."""
        found = self._key_spans.get(tuple(path))
        return found if found is not None else self.span(path)

    def digest(self) -> str:
        """SHA-256 of the data as loaded (includes merged, in file order), not of the files' bytes: a log
        names the rules it was played by, so a comment, a schema line or a re-indented file changes nothing."""
        text = json.dumps(self.data, ensure_ascii=False, separators=(",", ":"), default=str)
        return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()

    def copy(self) -> Document:
        """A copy whose data may be changed (positions are shared until moved), for tools that vary a spec."""
        return Document(copy.deepcopy(self.data), self.path, dict(self._spans), dict(self._key_spans),
                        dict(self._scalars), self._sources, {}, dict(self._call_renames), self.origin,
                        self.card_groups)

    def call_renames(self, path: tuple) -> dict[str, str]:
        """The calls renamed in the rule texts of the declaration at the start of ``path`` (usually none)."""
        return self._call_renames.get(tuple(path[:2]), {}) if self._call_renames else {}

    def rename_calls(self, declaration: tuple, renames: dict[str, str]) -> None:
        """Calls to these names inside the declaration at ``declaration`` go to the new names instead."""
        if renames:
            self._call_renames[tuple(declaration)] = dict(renames)
        else:
            self._call_renames.pop(tuple(declaration), None)

    def move_call_renames(self, old: tuple, new: tuple) -> None:
        """A declaration moved (a wrapper renamed when another wraps it): its renamed calls go with it."""
        found = self._call_renames.pop(tuple(old), None)
        if found is not None:
            self._call_renames[tuple(new)] = found

    def swap_positions(self, first: tuple, second: tuple) -> None:
        """Exchange the positions recorded under two paths, after their values were exchanged in ``data``."""
        for table in (self._spans, self._key_spans, self._scalars):
            moved = {}
            for key in [k for k in table if k[:len(first)] == first or k[:len(second)] == second]:
                to, start = (second, first) if key[:len(first)] == first else (first, second)
                moved[to + key[len(start):]] = table.pop(key)
            table.update(moved)
        self._text_maps.clear()

    # -- moving positions, for mods that change the data after it was loaded ----------------

    def _tables(self) -> tuple[dict, dict, dict]:
        return self._spans, self._key_spans, self._scalars

    def drop_positions(self, path: tuple) -> None:
        """Forget every position at or under ``path`` (its value was removed or is about to be replaced)."""
        size = len(path)
        for table in self._tables():
            for key in [k for k in table if k[:size] == path]:
                del table[key]
        self._text_maps.clear()

    def graft(self, path: tuple, other: Document, source: tuple) -> None:
        """Take the positions of ``other`` at or under ``source`` as those at or under ``path``.

        A value copied from a mod file into the game keeps pointing at the mod
        file's lines, so an error in it is reported there. ``path``'s own key
        span is kept when ``other`` has none for ``source`` (a list item).
        """
        self.drop_positions(path)
        size = len(source)
        for mine, theirs in zip(self._tables(), other._tables()):
            for key, where in theirs.items():
                if key[:size] == source:
                    mine[path + key[size:]] = where
        self._sources.update(other._sources)
        self._text_maps.clear()

    def move_positions(self, old: tuple, new: tuple) -> None:
        """Positions at or under ``old`` now belong to ``new`` (a value renamed or moved)."""
        size = len(old)
        for table in self._tables():
            moved = {new + k[size:]: table.pop(k) for k in [k for k in table if k[:size] == old]}
            table.update(moved)
        self._text_maps.clear()

    def copy_positions(self, source: tuple, target: tuple) -> None:
        """Positions at or under ``source`` also serve ``target`` (a value copied, such as a wrapper's params)."""
        size = len(source)
        for table in self._tables():
            table.update({target + k[size:]: where for k, where in list(table.items()) if k[:size] == source})
        self._text_maps.clear()

    def shift_items(self, list_path: tuple, start: int, delta: int) -> None:
        """Items of the list at ``list_path`` from index ``start`` moved by ``delta`` (an insert or a removal)."""
        size = len(list_path)
        for table in self._tables():
            moving = [k for k in table if len(k) > size and k[:size] == list_path
                      and isinstance(k[size], int) and k[size] >= start]
            moved = {k[:size] + (k[size] + delta,) + k[size + 1:]: table.pop(k) for k in moving}
            table.update(moved)
        self._text_maps.clear()

    def set_span(self, path: tuple, span: Span) -> None:
        """Point the value at ``path`` at ``span`` (a number a mod set); a text's old positions are dropped."""
        self._spans[tuple(path)] = span
        self._scalars.pop(tuple(path), None)
        self._text_maps.clear()

    def text_span(
        self,
        path: tuple,
        line: int,
        col: int,
        end_line: int | None = None,
        end_col: int | None = None,
    ) -> Span:
        """Map a 1-based position inside a string value (as a DSL parser reports it) to the file."""
        path = tuple(path)
        info = self._scalars.get(path)
        if info is None:
            return self.span(path)
        text_map = self._text_maps.get(path)
        if text_map is None or text_map.info is not info:
            source = self._sources.get(info.file)
            text_map = self._text_maps[path] = _TextMap(info, source.lines if source else [])
        start_line, start_col = text_map.position(line, col)
        if end_line is None or end_col is None:
            return self.span_in(info.file, start_line, start_col)
        stop_line, stop_col = text_map.position(end_line, end_col)
        return self.span_in(info.file, start_line, start_col, stop_line, stop_col)


class _TextMap:
    """Maps positions inside one scalar's text to its file.

    The per-scalar work (block indentation, line starts, where each source line
    sits in a folded value) is done once, so a parser asking for thousands of
    node positions in a long rule text stays linear.
    """

    def __init__(self, info: ScalarText, lines: list[str]):
        self.info = info
        self.lines = lines
        self._indent: int | None = None
        self._starts: list[int] | None = None
        self._folds: list[tuple[int, int, int, int]] | None | bool = False   # False: not built yet

    @property
    def indent(self) -> int:
        if self._indent is None:
            self._indent = _block_indent(self.info, self.lines)
        return self._indent

    def position(self, line: int, col: int) -> tuple[int, int]:
        """File line and column of (line, col) inside the value."""
        info, lines = self.info, self.lines
        line, col = max(line, 1), max(col, 1)
        if info.style == "|":
            return info.line + line, self.indent + col
        if info.style in (">", None):
            found = self._folded_position(self._offset(line, col))
            if found is not None:
                return found
        if info.style == ">":
            return info.line + line, self.indent + col
        if line == 1:
            return info.line, _inline_column(line_at(lines, info.line), info, col)
        source = line_at(lines, info.line + line - 1)
        return info.line + line - 1, len(source) - len(source.lstrip(" ")) + col

    def _offset(self, line: int, col: int) -> int:
        """0-based offset in the value of 1-based (line, col), clamped to the value."""
        if self._starts is None:
            self._starts = [0] + [i + 1 for i, ch in enumerate(self.info.value) if ch == "\n"]
        starts = self._starts
        before = starts[line - 1] if line <= len(starts) else len(self.info.value)
        return min(before + col - 1, len(self.info.value))

    def _folded_position(self, offset: int) -> tuple[int, int] | None:
        """Where ``offset`` sits in a value whose source lines YAML joined (folded '>' or plain).

        Each source line's text is found again in the value, in order; None when
        that fails (a flow collection, say), and ``position`` falls back to simpler rules.
        """
        if self._folds is False:
            self._folds = self._build_folds()
        folds = self._folds
        if not folds:
            return None
        i = bisect.bisect_right(folds, (offset, math.inf)) - 1
        if i < 0:
            return folds[0][1], folds[0][2] + 1
        found, number, start, length = folds[i]
        return number, start + min(offset - found, length) + 1

    def _build_folds(self) -> list[tuple[int, int, int, int]] | None:
        """(value offset, file line, 0-based column, length) of each source line's text."""
        out: list[tuple[int, int, int, int]] = []
        pos = 0
        for number, start, content in self._segments():
            if not content:
                continue
            found = self.info.value.find(content, pos)
            if found < 0:
                return out or None
            out.append((found, number, start, len(content)))
            pos = found + len(content)
        return out or None

    def _segments(self) -> Iterator[tuple[int, int, str]]:
        """(file line, 0-based column, text) of each source line of the scalar, in order."""
        info, lines = self.info, self.lines
        if info.style == ">":
            indent = self.indent
            for number in range(info.line + 1, len(lines) + 1):
                source = lines[number - 1]
                if source.strip() and len(source) - len(source.lstrip(" ")) < indent:
                    return
                yield number, indent, source[indent:].rstrip()
            return
        number = info.line
        start = _skip_node_properties(line_at(lines, info.line), info.col - 1)
        while number <= len(lines):
            rest = lines[number - 1][start:]
            comment = rest.find(" #")
            yield number, start, (rest[:comment] if comment >= 0 else rest).rstrip()
            number += 1
            following = line_at(lines, number)
            if not following.strip() or following.lstrip().startswith("#"):
                return
            start = len(following) - len(following.lstrip(" \t"))


def line_at(lines: list[str], number: int) -> str:
    return lines[number - 1] if 1 <= number <= len(lines) else ""


def _block_indent(info: ScalarText, lines: list[str]) -> int:
    """Columns of indentation of a block scalar's content (explicit indicator or detected)."""
    if info.style == "|":
        for k, text in enumerate(info.value.split("\n"), start=1):
            source = line_at(lines, info.line + k)
            if text and source.endswith(text):
                return len(source) - len(text)
    for source in lines[info.line:]:
        if source.strip():
            return len(source) - len(source.lstrip(" "))
    return 0


def _inline_column(source: str, info: ScalarText, col: int) -> int:
    """1-based file column of value column ``col`` on the first line of a flow scalar."""
    start = _skip_node_properties(source, info.col - 1)
    if info.style not in ("'", '"'):
        return start + col
    i = start + 1
    for _ in range(col - 1):
        if i >= len(source):
            return i + 1 + (col - 1)  # past the line: best effort
        i += _quoted_char_width(source, i, info.style)
    return i + 1


def _skip_node_properties(source: str, i: int) -> int:
    """Skip an anchor (&a) or tag (!t) before a scalar: the node starts there, its text after."""
    while i < len(source) and source[i] in "&!":
        while i < len(source) and source[i] not in " \t":
            i += 1
        while i < len(source) and source[i] in " \t":
            i += 1
    return i


def _quoted_char_width(source: str, i: int, style: str) -> int:
    """How many source characters make one value character at ``source[i]``."""
    if style == "'":
        return 2 if source.startswith("''", i) else 1
    if source[i] != "\\" or i + 1 >= len(source):
        return 1
    return {"x": 4, "u": 6, "U": 10}.get(source[i + 1], 2)


def value_at(data: Any, path: tuple | list) -> Any:
    """The value at a path of mapping keys and list indexes (a KeyError or an IndexError where there is none).

    The one walk down a spec's loaded data: the model, the mods and the mutants all read a value by its path.
    """
    for key in path:
        data = data[key]
    return data


def value_or_none(data: Any, path: tuple | list) -> Any:
    """The value at ``path`` in nested mappings and lists, or None where there is none (data not yet checked)."""
    for key in path:
        if isinstance(data, dict):
            data = data.get(key)
        elif isinstance(data, list) and isinstance(key, int) and key < len(data):
            data = data[key]
        else:
            return None
    return data
