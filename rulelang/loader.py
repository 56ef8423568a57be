"""Load a game's YAML files into plain data that remembers where every value came from.

Designers get errors as ``file:line:col``, so the loader keeps a span for every
mapping key, mapping value, list item and scalar, follows ``include:`` to merge
the other files of a game folder, and refuses hostile input (Python tags, alias
bombs, absurd nesting, huge files) with a located error instead of a traceback
or a hang.

PyYAML composes the node graph (its pure-Python safe parser, because we need
to hook composition to bound nesting depth and aliases); we then build the
plain data ourselves so that no PyYAML constructor ever runs on user input.
Scalars are resolved with the YAML 1.2 core schema: ``on``/``yes``/``no`` stay
strings (``on: enter play`` is a trigger key, not ``True``), dates stay strings.
"""
from __future__ import annotations

import bisect
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from rulelang.errors import (
    ErrorList,
    RulelangError,
    Span,
    SpecError,
    did_you_mean,
    raise_all,
    register_source,
)

MAX_FILE_BYTES = 5 * 1024 * 1024
MAX_DEPTH = 100
MAX_NODES = 200_000
MAX_ALIASES = 10_000
MAX_INCLUDE_DEPTH = 20
MAX_FILES = 200

_STD = "tag:yaml.org,2002:"
STR, INT, FLOAT, BOOL, NULL = (_STD + t for t in ("str", "int", "float", "bool", "null"))
MAP, SEQ, MERGE, VALUE = (_STD + t for t in ("map", "seq", "merge", "value"))
_SCALAR_TAGS = {STR, INT, FLOAT, BOOL, NULL, VALUE, MERGE}  # MERGE: "<<" used as a value is text

_LINE_BREAK = re.compile(r"\r\n|[\r\n\x85\u2028\u2029]")
_NULL_RE = re.compile(r"^(?:~|null|Null|NULL|)$")
_BOOL_RE = re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$")
_INT_RE = re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$")
_FLOAT_RE = re.compile(
    r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
)

EMPTY_FILE_HINT = "a game file holds a YAML mapping of top-level keys, such as 'game:', 'zones:' or 'cards:'"


# ---------------------------------------------------------------------------
# The document


@dataclass(frozen=True)
class _Scalar:
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
    _scalars: dict[tuple, _Scalar] = field(default_factory=dict, repr=False)
    _lines: dict[str, list[str]] = field(default_factory=dict, repr=False)
    _text_maps: dict[tuple, "_TextMap"] = field(default_factory=dict, repr=False)

    def span(self, path: tuple) -> Span:
        """The span of the node at ``path``, or of its nearest ancestor that has one."""
        path = tuple(path)
        for end in range(len(path), -1, -1):
            found = self._spans.get(path[:end])
            if found is not None:
                return found
        return Span(str(self.path), 1, 1)

    def key_span(self, path: tuple) -> Span:
        """The span of the mapping key whose value is at ``path`` (falls back to ``span``)."""
        found = self._key_spans.get(tuple(path))
        return found if found is not None else self.span(path)

    def copy(self) -> "Document":
        """A copy whose data may be changed (positions are shared until moved), for tools that vary a spec."""
        import copy as _copy

        return Document(_copy.deepcopy(self.data), self.path, dict(self._spans), dict(self._key_spans),
                        dict(self._scalars), self._lines, {})

    def swap_positions(self, first: tuple, second: tuple) -> None:
        """Exchange the positions recorded under two paths, after their values were exchanged in ``data``."""
        for table in (self._spans, self._key_spans, self._scalars):
            moved = {}
            for key in [k for k in table if k[:len(first)] == first or k[:len(second)] == second]:
                to, start = (second, first) if key[:len(first)] == first else (first, second)
                moved[to + key[len(start):]] = table.pop(key)
            table.update(moved)
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
            text_map = self._text_maps[path] = _TextMap(info, self._lines.get(info.file, []))
        start_line, start_col = text_map.position(line, col)
        if end_line is None or end_col is None:
            return Span(info.file, start_line, start_col)
        stop_line, stop_col = text_map.position(end_line, end_col)
        return Span(info.file, start_line, start_col, stop_line, stop_col)


class _TextMap:
    """Maps positions inside one scalar's text to its file.

    The per-scalar work (block indentation, line starts, where each source line
    sits in a folded value) is done once, so a parser asking for thousands of
    node positions in a long rule text stays linear.
    """

    def __init__(self, info: _Scalar, lines: list[str]):
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
            return info.line, _inline_column(_line_at(lines, info.line), info, col)
        source = _line_at(lines, info.line + line - 1)
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
        start = _skip_node_properties(_line_at(lines, info.line), info.col - 1)
        while number <= len(lines):
            rest = lines[number - 1][start:]
            comment = rest.find(" #")
            yield number, start, (rest[:comment] if comment >= 0 else rest).rstrip()
            number += 1
            following = _line_at(lines, number)
            if not following.strip() or following.lstrip().startswith("#"):
                return
            start = len(following) - len(following.lstrip(" \t"))


def _line_at(lines: list[str], number: int) -> str:
    return lines[number - 1] if 1 <= number <= len(lines) else ""


def _block_indent(info: _Scalar, lines: list[str]) -> int:
    """Columns of indentation of a block scalar's content (explicit indicator or detected)."""
    if info.style == "|":
        for k, text in enumerate(info.value.split("\n"), start=1):
            source = _line_at(lines, info.line + k)
            if text and source.endswith(text):
                return len(source) - len(text)
    for source in lines[info.line:]:
        if source.strip():
            return len(source) - len(source.lstrip(" "))
    return 0


def _inline_column(source: str, info: _Scalar, col: int) -> int:
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


# ---------------------------------------------------------------------------
# Composition: PyYAML's safe parser with budgets


class _Composer(yaml.SafeLoader):
    """Compose nodes with a depth and alias budget, resolving scalars by YAML 1.2 rules."""

    yaml_implicit_resolvers: dict = {}

    def __init__(self, text: str, file: str):
        super().__init__(text)
        self.file = file
        self.depth = 0
        self.nodes = 0
        self.aliases = 0
        self.anchor_names: dict[int, str] = {}

    def compose_node(self, parent: Node | None, index: Any) -> Node:
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent):
            self._count_alias(event)
            return super().compose_node(parent, index)
        self._count_node(event)
        if self.depth >= MAX_DEPTH:
            raise SpecError(
                f"nesting is too deep: more than {MAX_DEPTH} levels of lists and mappings",
                _mark_span(self.file, event.start_mark),
                "a game spec never needs this much nesting; check for runaway brackets",
            )
        self.depth += 1
        try:
            node = super().compose_node(parent, index)
        finally:
            self.depth -= 1
        if event.anchor is not None:
            self.anchor_names[id(node)] = event.anchor
        return node

    def _count_node(self, event: yaml.Event) -> None:
        """Stop a file of millions of plain values before it is all in memory."""
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise SpecError(
                f"this file holds more than {MAX_NODES:,} values",
                _mark_span(self.file, event.start_mark),
                "a game spec is far smaller; split it or check for generated data",
            )

    def _count_alias(self, event: yaml.AliasEvent) -> None:
        self.aliases += 1
        if self.aliases > MAX_ALIASES:
            raise SpecError(
                f"too many aliases: more than {MAX_ALIASES} uses of '*name' in one file",
                _mark_span(self.file, event.start_mark),
                "write the values out, or split the file",
            )


def _add_resolver(tag: str, regexp: re.Pattern, first: str) -> None:
    _Composer.add_implicit_resolver(tag, regexp, list(first))


_add_resolver(BOOL, _BOOL_RE, "tTfF")
_add_resolver(INT, _INT_RE, "-+0123456789")
_add_resolver(FLOAT, _FLOAT_RE, "-+0123456789.")
_add_resolver(NULL, _NULL_RE, "~nN")
_Composer.add_implicit_resolver(NULL, _NULL_RE, [""])
_add_resolver(MERGE, re.compile(r"^<<$"), "<")


def _mark_span(file: str, mark: Any, end: Any = None) -> Span:
    if end is None:
        return Span(file, mark.line + 1, mark.column + 1)
    return Span(file, mark.line + 1, mark.column + 1, end.line + 1, end.column + 1)


def _node_span(file: str, node: Node) -> Span:
    return _mark_span(file, node.start_mark, node.end_mark)


def _compose(text: str, file: str) -> tuple[Node | None, dict[int, str]]:
    """Parse one file's text into a node graph, turning every PyYAML failure into a SpecError."""
    try:
        composer = _Composer(text, file)
        try:
            return composer.get_single_node(), composer.anchor_names
        finally:
            composer.dispose()
    except yaml.reader.ReaderError as error:
        raise _reader_error(error, text, file) from None
    except yaml.MarkedYAMLError as error:
        raise _syntax_error(error, text, file) from None
    except yaml.YAMLError as error:
        raise SpecError(f"cannot read this file as YAML: {error}", Span(file, 1, 1)) from None
    except RecursionError:
        raise SpecError(f"nesting is too deep: more than {MAX_DEPTH} levels", Span(file, 1, 1)) from None


# ---------------------------------------------------------------------------
# PyYAML errors as plain sentences


def _reader_error(error: yaml.reader.ReaderError, text: str, file: str) -> SpecError:
    line, col = _offset_position(text, error.position)
    char = error.character
    code = f"U+{char:04X}" if isinstance(char, int) else repr(char)
    return SpecError(
        f"character {code} is not allowed in a YAML file",
        Span(file, line, col, line, col + 1),
        "remove the control character (a stray copy-paste?)",
    )


def _offset_position(text: str, offset: int) -> tuple[int, int]:
    parts = _LINE_BREAK.split(text[:offset])
    return len(parts), len(parts[-1]) + 1


_TOKEN_NAMES = {
    "<block end>": "the end of the block",
    "<block mapping start>": "a new mapping",
    "<block sequence start>": "a new list",
    "<block collection start>": "a new block",
    "<scalar>": "a value",
    "<stream end>": "the end of the file",
    "<document start>": "the start of the document",
    "<document end>": "the end of the document",
    "<flow mapping start>": "'{'",
    "<flow sequence start>": "'['",
    "<anchor>": "an anchor",
    "<alias>": "an alias",
    "<tag>": "a tag",
}


def _plain_words(message: str) -> str:
    """PyYAML's token names (``<block end>``) in words a designer can read."""
    for token, words in _TOKEN_NAMES.items():
        message = message.replace(f"'{token}'", words).replace(token, words)
    return message


def _syntax_error(error: yaml.MarkedYAMLError, text: str, file: str) -> SpecError:
    """A located SpecError for a PyYAML scanner/parser/composer error."""
    problem = error.problem or error.context or "invalid YAML"
    mark = error.problem_mark or error.context_mark
    lines = _LINE_BREAK.split(text)
    where = _mark_span(file, mark) if mark is not None else Span(file, 1, 1)
    tab = _tab_near(lines, mark)
    if tab is not None:
        line, col, leading = tab
        message = "tab character in indentation" if leading else "tab character where YAML expects a space"
        return SpecError(message, Span(file, line, col, line, col + 1), "indent with spaces, not tabs")
    for matches, explain in _EXPLAINERS:
        if matches(error, problem):
            message, hint, span = explain(error, problem, file, where, lines)
            return SpecError(message, span, hint)
    context = f" ({_plain_words(error.context)})" if error.context else ""
    return SpecError(f"invalid YAML: {_plain_words(problem)}{context}", where)


def _tab_near(lines: list[str], mark: Any) -> tuple[int, int, bool] | None:
    """(line, col, in indentation?) of a tab in the error line's indentation, or at the error itself."""
    if mark is None:
        return None
    source = _line_at(lines, mark.line + 1)
    leading = source[: len(source) - len(source.lstrip(" \t"))]
    if "\t" in leading:
        return mark.line + 1, leading.index("\t") + 1, True
    if source[mark.column : mark.column + 1] == "\t":
        return mark.line + 1, mark.column + 1, False
    return None


def _explain_unclosed_quote(error, problem, file, where, lines):
    start = error.context_mark
    quote = _line_at(lines, start.line + 1)[start.column : start.column + 1] or '"'
    return (f"unclosed quote: this string has no closing {quote}", f"add the closing {quote}",
            _mark_span(file, start))


_KEY_WITHOUT_COLON = re.compile(r"^(\s*(?:-\s+)?)([A-Za-z_][\w-]*)\s+[\[{]")


def _explain_map_value(error, problem, file, where, lines):
    source = _line_at(lines, error.problem_mark.line + 1) if error.problem_mark else ""
    missing = _KEY_WITHOUT_COLON.match(source)
    if missing and ":" not in source[: missing.end()]:
        line = error.problem_mark.line + 1
        col = len(missing.group(1)) + len(missing.group(2)) + 1
        return (f"expected ':' after the key '{missing.group(2)}'", "a key is written 'name: value'",
                Span(file, line, col, line, col + 1))
    return ("unexpected ':' here", "check this line's indentation; a value containing ': ' must be quoted", where)


def _explain_bad_indent(error, problem, file, where, lines):
    mark = error.problem_mark
    source = _line_at(lines, mark.line + 1)
    if source[: mark.column].strip():
        return ("unexpected text after the value on this line", "put the whole value in quotes", where)
    return ("bad indentation: this line does not line up with the lines above it",
            "keys of one mapping, and items of one list, must start in the same column", where)


def _explain_no_colon(error, problem, file, where, lines):
    start = _mark_span(file, error.context_mark) if error.context_mark else where
    return ("expected ':' after this key", "a key is written 'name: value'", start)


def _explain_bad_char(error, problem, file, where, lines):
    char = re.search(r"character '(.*)' that", problem)
    shown = char.group(1) if char else "this character"
    return (f"'{shown}' cannot start a value", "put the value in quotes", where)


def _explain_undefined_alias(error, problem, file, where, lines):
    name = re.search(r"alias '(.*)'", problem)
    shown = name.group(1) if name else "?"
    return (f"unknown alias '*{shown}'", f"an alias refers to an anchor '&{shown}' defined above it", where)


def _explain_duplicate_anchor(error, problem, file, where, lines):
    name = re.search(r"anchor '(.*)'", error.context or "")
    shown = name.group(1) if name else "?"
    first = error.context_mark.line + 1 if error.context_mark else "?"
    return (f"anchor '&{shown}' is defined twice", f"first defined on line {first}; give each anchor its own name", where)


def _explain_second_document(error, problem, file, where, lines):
    return ("a second YAML document starts here; a file holds one", "remove the '---' line", where)


def _explain_escape(error, problem, file, where, lines):
    char = re.search(r"character '(.*)'", problem)
    shown = char.group(1) if char else "?"
    return (f"unknown escape '\\{shown}' in a double-quoted string",
            "use single quotes, or write '\\\\' for a backslash", where)


def _explain_unclosed_flow(error, problem, file, where, lines):
    """A '[' or '{' not closed before the next line's key, or entries on one line missing their ','."""
    closer = "]" if "sequence" in (error.context or "") else "}"
    opener = "[" if closer == "]" else "{"
    start, problem_at = error.context_mark, error.problem_mark
    if start is not None and problem_at is not None and start.line == problem_at.line:
        return (f"expected ',' or '{closer}' here",
                f"the entries of a '{opener}...{closer}' {_FLOW_WORDS[opener]} are separated by ', '", where)
    line = start.line + 1 if start is not None else "?"
    return (f"expected ',' or '{closer}' here", f"the '{opener}' opened on line {line} is not closed", where)


_FLOW_WORDS = {"[": "list", "{": "mapping"}


_EXPLAINERS = [
    (lambda e, p: "quoted scalar" in (e.context or "") and "end of stream" in p, _explain_unclosed_quote),
    (lambda e, p: "mapping values are not allowed" in p, _explain_map_value),
    (lambda e, p: p.startswith("expected <block end>"), _explain_bad_indent),
    (lambda e, p: "could not find expected ':'" in p, _explain_no_colon),
    (lambda e, p: "that cannot start any token" in p, _explain_bad_char),
    (lambda e, p: "undefined alias" in p, _explain_undefined_alias),
    (lambda e, p: "duplicate anchor" in (e.context or ""), _explain_duplicate_anchor),
    (lambda e, p: "single document" in (e.context or ""), _explain_second_document),
    (lambda e, p: "unknown escape character" in p, _explain_escape),
    (lambda e, p: "flow" in (e.context or "") and p.startswith("expected ','"), _explain_unclosed_flow),
]


# ---------------------------------------------------------------------------
# Building plain data from nodes


def _tag_name(tag: str) -> str:
    return "!!" + tag[len(_STD):] if tag.startswith(_STD) else tag


_KIND_WORDS = {ScalarNode: "a single value", SequenceNode: "a list", MappingNode: "a mapping"}
_EXPECTED_TAG = {MappingNode: {MAP}, SequenceNode: {SEQ}, ScalarNode: _SCALAR_TAGS}


class _Builder:
    """Turns one file's node graph into plain data, recording spans as it goes."""

    def __init__(self, file: str, doc: Document, anchor_names: dict[int, str]):
        self.file = file
        self.doc = doc
        self.anchor_names = anchor_names
        self.errors: list[RulelangError] = []
        self.sizes: dict[int, tuple[int, int]] = {}

    def build(self, root: Node) -> Any:
        self._measure(root, set())
        return self._value(root, ())

    # -- budgets ----------------------------------------------------------

    def _measure(self, node: Node, active: set[int]) -> tuple[int, int]:
        """(values, depth) of ``node`` with aliases expanded; refuses bombs and self-references.

        Memoised per node, so a billion-laughs file is refused after a few
        hundred steps instead of expanding anything.
        """
        known = self.sizes.get(id(node))
        if known is not None:
            return known
        if id(node) in active:
            name = self.anchor_names.get(id(node), "?")
            raise SpecError(f"anchor '&{name}' is used inside itself", _node_span(self.file, node),
                            "an alias cannot refer to the node that contains it")
        active.add(id(node))
        size, depth = 1, 0
        for child in _children(node):
            child_size, child_depth = self._measure(child, active)
            size, depth = size + child_size, max(depth, child_depth)
        active.discard(id(node))
        self._check_budget(node, size, depth + 1)
        self.sizes[id(node)] = (size, depth + 1)
        return size, depth + 1

    def _check_budget(self, node: Node, size: int, depth: int) -> None:
        if size > MAX_NODES:
            raise SpecError(
                f"this file expands to more than {MAX_NODES:,} values once aliases are expanded",
                _node_span(self.file, node),
                "an alias '*name' repeats everything its anchor holds; use fewer aliases",
            )
        if depth > MAX_DEPTH:
            raise SpecError(
                f"nesting is too deep: more than {MAX_DEPTH} levels once aliases are expanded",
                _node_span(self.file, node),
            )

    # -- values -----------------------------------------------------------

    def _value(self, node: Node, path: tuple) -> Any:
        self.doc._spans[path] = _node_span(self.file, node)
        if not self._tag_fits(node):
            return None
        if isinstance(node, MappingNode):
            return self._mapping(node, path)
        if isinstance(node, SequenceNode):
            return [self._value(item, path + (i,)) for i, item in enumerate(node.value)]
        value = self._scalar(node)
        if isinstance(value, str):
            self.doc._scalars[path] = _Scalar(value, node.style, self.file,
                                              node.start_mark.line + 1, node.start_mark.column + 1)
        return value

    def _tag_fits(self, node: Node) -> bool:
        """Refuse tags that would build Python objects or that we do not know."""
        if node.tag in _EXPECTED_TAG[type(node)]:
            return True
        name = _tag_name(node.tag)
        span = _node_span(self.file, node)
        if "python/" in node.tag:
            self.errors.append(SpecError(f"YAML tag '{name}' is not allowed: a spec holds plain data, not Python objects",
                                         span, "remove the tag"))
        elif node.tag in _SCALAR_TAGS | {MAP, SEQ}:
            self.errors.append(SpecError(f"tag '{name}' does not fit {_KIND_WORDS[type(node)]}", span, "remove the tag"))
        else:
            self.errors.append(SpecError(f"unknown YAML tag '{name}'", span,
                                         "remove the tag: only plain YAML data (text, numbers, lists, mappings) is allowed"))
        return False

    def _scalar(self, node: ScalarNode) -> Any:
        text = node.value
        try:
            return _convert_scalar(node.tag, text)
        except ValueError:
            shown = text if len(text) <= 40 else text[:37] + "..."
            self.errors.append(SpecError(f"'{shown}' cannot be read as {_tag_name(node.tag)}",
                                         _node_span(self.file, node), "remove the tag or fix the value"))
            return None

    def _mapping(self, node: MappingNode, path: tuple) -> dict:
        explicit = self._explicit_entries(node)
        merged = [(self._key(k, report=False), k, v) for k, v in self._merged_pairs(node)]
        entries = [e for e in merged if e[0] not in explicit]
        entries += [(key, k, v) for key, (k, v) in explicit.items()]
        result: dict = {}
        for key, key_node, value_node in entries:
            self.doc._key_spans[path + (key,)] = _node_span(self.file, key_node)
            result[key] = self._value(value_node, path + (key,))
        return result

    def _explicit_entries(self, node: MappingNode) -> dict[Any, tuple[Node, Node]]:
        """The mapping's own keys (not '<<' merges), reporting duplicates at the second one."""
        entries: dict[Any, tuple[Node, Node]] = {}
        for key_node, value_node in node.value:
            if key_node.tag == MERGE:
                continue
            key = self._key(key_node)
            if key is _BAD_KEY:
                continue
            if key in entries:
                self._duplicate_key(key, key_node, entries[key][0])
                continue
            entries[key] = (key_node, value_node)
        return entries

    def _merged_pairs(self, node: MappingNode) -> list[tuple[Node, Node]]:
        """Pairs brought in by '<<' merge keys: earlier sources win, the mapping's own keys win over all."""
        out: list[tuple[Node, Node]] = []
        taken: set = set()
        for key_node, value_node in node.value:
            if key_node.tag != MERGE:
                continue
            for source in self._merge_sources(value_node):
                own = [(k, v) for k, v in source.value if k.tag != MERGE]
                for k, v in self._merged_pairs(source) + own:
                    key = self._key(k, report=False)
                    if key is not _BAD_KEY and key not in taken:
                        taken.add(key)
                        out.append((k, v))
        return out

    def _merge_sources(self, node: Node) -> list[MappingNode]:
        if isinstance(node, MappingNode):
            return [node]
        if isinstance(node, SequenceNode) and all(isinstance(item, MappingNode) for item in node.value):
            return list(node.value)
        self.errors.append(SpecError("'<<' merges a mapping or a list of mappings", _node_span(self.file, node)))
        return []

    def _key(self, node: Node, report: bool = True) -> Any:
        """A key's plain value, or _BAD_KEY (reported once) for keys that cannot be names."""
        if not isinstance(node, ScalarNode):
            if report:
                self.errors.append(SpecError(f"a key must be a name or a number, not {_KIND_WORDS[type(node)]}",
                                             _node_span(self.file, node)))
            return _BAD_KEY
        if node.tag not in _SCALAR_TAGS:
            if report:
                self._tag_fits(node)
            return _BAD_KEY
        try:
            return _convert_scalar(node.tag, node.value)
        except ValueError:
            return node.value

    def _duplicate_key(self, key: Any, node: Node, first: Node) -> None:
        self.errors.append(SpecError(
            f"duplicate key '{key}' in this mapping",
            _node_span(self.file, node),
            f"'{key}' is already defined on line {first.start_mark.line + 1}",
        ))


class _BadKey:
    """Marks a key that could not be used (already reported)."""

    def __repr__(self) -> str:
        return "<bad key>"


_BAD_KEY = _BadKey()


def _children(node: Node) -> Iterator[Node]:
    if isinstance(node, SequenceNode):
        yield from node.value
    elif isinstance(node, MappingNode):
        for key, value in node.value:
            yield key
            yield value


def _convert_scalar(tag: str, text: str) -> Any:
    """A scalar's plain value under the YAML 1.2 core schema; ValueError if it does not fit its tag."""
    if tag in (STR, VALUE, MERGE):
        return text
    if tag == NULL:
        if not _NULL_RE.match(text):
            raise ValueError(text)
        return None
    if tag == BOOL:
        if not _BOOL_RE.match(text):
            raise ValueError(text)
        return text.lower() == "true"
    if tag == INT:
        return _to_int(text)
    return _to_float(text)


def _to_int(text: str) -> int:
    if not _INT_RE.match(text):
        raise ValueError(text)
    if text.startswith("0o"):
        return int(text[2:], 8)
    if text.startswith("0x"):
        return int(text[2:], 16)
    return int(text, 10)


def _to_float(text: str) -> float:
    if not _FLOAT_RE.match(text) and not _INT_RE.match(text):
        raise ValueError(text)
    lowered = text.lower()
    if lowered.endswith(".inf"):
        return -math.inf if lowered.startswith("-") else math.inf
    if lowered == ".nan":
        return math.nan
    return float(_to_int(text)) if _INT_RE.match(text) else float(text)


# ---------------------------------------------------------------------------
# Files


def _read_text(real: Path, file: str) -> str:
    """A file's text, refusing missing, huge and non-UTF-8 files with a located error."""
    if not real.exists():
        raise SpecError(f"cannot find '{file}'", None, _folder_hint(real))
    if real.is_dir():
        raise SpecError(f"'{file}' is a folder, not a YAML file", None)
    size = real.stat().st_size
    if size > MAX_FILE_BYTES:
        raise SpecError(f"file is too large ({size / 2**20:.1f} MB; the limit is {MAX_FILE_BYTES // 2**20} MB)",
                        Span(file, 1, 1), "split it into smaller files with 'include:'")
    try:
        raw = real.read_bytes()
    except OSError as error:
        raise SpecError(f"cannot read '{file}': {error.strerror or error}", None) from None
    return _decode(raw, file)


def _decode(raw: bytes, file: str) -> str:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        register_source(file, raw.decode("utf-8", errors="replace"))
        line, col = _byte_position(raw, error.start)
        raise SpecError(f"file is not UTF-8 text: byte 0x{raw[error.start]:02X} cannot be read",
                        Span(file, line, col, line, col + 1), "save the file with UTF-8 encoding") from None
    text = text[1:] if text.startswith("\ufeff") else text
    register_source(file, text)
    return text


def _byte_position(raw: bytes, offset: int) -> tuple[int, int]:
    """1-based line and column of a byte offset (the text before it is valid UTF-8)."""
    start = raw.rfind(b"\n", 0, offset) + 1
    line = raw.count(b"\n", 0, offset) + 1
    return line, len(raw[start:offset].decode("utf-8", errors="replace")) + 1


def _folder_hint(real: Path, suggest: bool = True) -> str | None:
    """List the YAML files next to a missing file, naming the closest one."""
    names = _yaml_files(real.parent)
    if not names:
        return None
    close = did_you_mean(real.name, names) if suggest else None
    listing = "YAML files there: " + ", ".join(names)
    return f"{close} {listing}" if close else listing


def _yaml_files(folder: Path, exclude: Path | None = None) -> list[str]:
    if not folder.is_dir():
        return []
    return sorted(p.name for p in folder.iterdir()
                  if p.suffix in (".yaml", ".yml") and p.is_file() and p != exclude)


def _load_file(real: Path, file: str) -> Document:
    """One YAML file as a Document (includes not followed); the top level must be a mapping."""
    text = _read_text(real, file)
    doc = Document(None, Path(file))
    doc._lines[file] = _LINE_BREAK.split(text)
    root, anchors = _compose(text, file)
    if root is None or (isinstance(root, ScalarNode) and root.tag == NULL):
        raise SpecError("file is empty", Span(file, 1, 1), EMPTY_FILE_HINT)
    builder = _Builder(file, doc, anchors)
    doc.data = builder.build(root)
    raise_all(builder.errors)
    if not isinstance(doc.data, dict):
        raise SpecError(f"the top level of this file must be a mapping of keys, not {_KIND_WORDS[type(root)]}",
                        doc.span(()), EMPTY_FILE_HINT)
    return doc


# ---------------------------------------------------------------------------
# Includes


@dataclass
class _Includer:
    """Follows ``include:`` from the main file, keeping every file inside the game's folder."""

    root: Path          # the game folder, resolved
    shown_root: Path    # the game folder as the user wrote it
    errors: list[RulelangError] = field(default_factory=list)
    included: dict[Path, Span] = field(default_factory=dict)

    def shown(self, real: Path) -> str:
        return str(self.shown_root / real.relative_to(self.root))

    def load(self, real: Path, chain: tuple[Path, ...]) -> Document:
        doc = _load_file(real, self.shown(real))
        entries = doc.data.pop("include", None)
        if entries is None:
            return doc
        for entry, entry_path in self._entries(doc, entries):
            target = self._target(doc, real, entry, entry_path, chain)
            if target is not None:
                self._include(doc, target, chain + (real,))
        _drop_positions(doc, "include")
        return doc

    def _entries(self, doc: Document, entries: Any) -> list[tuple[str, tuple]]:
        if isinstance(entries, str):
            return [(entries, ("include",))]
        if isinstance(entries, list):
            good = [(e, ("include", i)) for i, e in enumerate(entries) if isinstance(e, str)]
            if len(good) == len(entries):
                return good
        self.errors.append(SpecError("'include' must be a file name or a list of file names",
                                     doc.span(("include",)), "include: [cards.yaml, zones.yaml]"))
        return []

    def _target(self, doc: Document, real: Path, entry: str, at: tuple, chain: tuple[Path, ...]) -> Path | None:
        """The resolved file an include entry names, or None after reporting why it cannot be used."""
        span = doc.span(at)
        if Path(entry).is_absolute() or entry.startswith(("/", "\\")):
            self.errors.append(SpecError(f"include '{entry}' must be a path relative to this file", span,
                                         "name a file inside the game's folder"))
            return None
        try:
            target = (real.parent / entry).resolve()
        except (ValueError, OSError):           # a NUL byte, a name too long for the system...
            self.errors.append(SpecError(f"include {entry!r} is not a usable file name", span,
                                         "name a YAML file of the game's folder"))
            return None
        if not _is_inside(target, self.root):
            self.errors.append(SpecError(f"include '{entry}' is outside the game's folder", span,
                                         f"includes must name files inside '{self.shown_root}'"))
            return None
        if target in chain or target == real:
            names = [str(p.relative_to(self.root)) for p in chain + (real, target)]
            self.errors.append(SpecError("circular include: " + " -> ".join(names), span,
                                         "remove one of these includes"))
            return None
        if not target.is_file():
            self.errors.append(self._missing(entry, target, real, span))
            return None
        if target in self.included:
            self.errors.append(SpecError(f"'{entry}' is included twice", span,
                                         f"it is already included at {self.included[target]}"))
            return None
        if len(self.included) >= MAX_FILES or len(chain) >= MAX_INCLUDE_DEPTH:
            self.errors.append(SpecError("too many included files", span,
                                         f"at most {MAX_FILES} files, included at most {MAX_INCLUDE_DEPTH} deep"))
            return None
        self.included[target] = span
        return target

    def _missing(self, entry: str, target: Path, real: Path, span: Span) -> SpecError:
        folder = target.parent if _is_inside(target.parent, self.root) else real.parent
        prefix = Path(entry).parent.as_posix() + "/" if Path(entry).parent != Path(".") else ""
        names = [prefix + n for n in _yaml_files(folder, exclude=real)]
        hint = did_you_mean(entry, names)
        listing = ("YAML files here: " + ", ".join(names)) if names else "there are no other YAML files here"
        return SpecError(f"cannot find included file '{entry}'", span, f"{hint} {listing}" if hint else listing)

    def _include(self, doc: Document, target: Path, chain: tuple[Path, ...]) -> None:
        try:
            part = self.load(target, chain)
        except RulelangError as error:
            for found in _flatten(error):      # the file could not be read at all: say who asked for it
                found.notes.append(f"included from {self.included[target]}")
                self.errors.append(found)
            return
        _merge(doc, part, self.errors)


def _is_inside(path: Path, folder: Path) -> bool:
    try:
        path.relative_to(folder)
    except ValueError:
        return False
    return True


def _drop_positions(doc: Document, key: str) -> None:
    for table in (doc._spans, doc._key_spans, doc._scalars):
        for path in [p for p in table if p[:1] == (key,)]:
            del table[path]


def _merge(doc: Document, part: Document, errors: list[RulelangError]) -> None:
    """Merge an included file into ``doc``: lists concatenate, mappings join, nothing is defined twice."""
    moves: dict[Any, Any] = {}
    for key, value in part.data.items():
        moves[key] = _merge_key(doc, part, key, value, errors)
    _copy_positions(doc, part, moves)
    doc._lines.update(part._lines)


def _merge_key(doc: Document, part: Document, key: Any, value: Any, errors: list[RulelangError]) -> Any:
    """Merge one top-level key; returns how its positions move: 'new', a list offset, a set of keys, or None."""
    if key not in doc.data:
        doc.data[key] = value
        return "new"
    mine = doc.data[key]
    if isinstance(mine, list) and isinstance(value, list):
        mine.extend(value)
        return len(mine) - len(value)
    if isinstance(mine, dict) and isinstance(value, dict):
        added = set()
        for sub, sub_value in value.items():
            if sub in mine:
                errors.append(_defined_twice(doc, part, (key, sub)))
            else:
                mine[sub] = sub_value
                added.add(sub)
        return added
    if type(mine) is not type(value) and (isinstance(mine, (list, dict)) or isinstance(value, (list, dict))):
        errors.append(SpecError(
            f"'{key}' is {_kind_of(value)} here but {_kind_of(mine)} in {doc.key_span((key,))}",
            part.key_span((key,)), "a key defined in several files must be a list or a mapping in all of them"))
    else:
        errors.append(_defined_twice(doc, part, (key,)))
    return None


def _kind_of(value: Any) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return "a single value"


def _defined_twice(doc: Document, part: Document, path: tuple) -> SpecError:
    name = ".".join(str(p) for p in path)
    first = doc.key_span(path)
    return SpecError(f"'{name}' is defined twice", part.key_span(path), f"first defined at {first}")


def _copy_positions(doc: Document, part: Document, moves: dict[Any, Any]) -> None:
    for source, target in ((part._spans, doc._spans), (part._key_spans, doc._key_spans),
                           (part._scalars, doc._scalars)):
        for path, where in source.items():
            moved = _moved_path(path, moves)
            if moved is not None:
                target[moved] = where


def _moved_path(path: tuple, moves: dict[Any, Any]) -> tuple | None:
    """Where a position of an included file lands in the merged document (None: not merged)."""
    if not path:
        return None
    move = moves.get(path[0])
    if move == "new":
        return path
    if isinstance(move, int) and not isinstance(move, bool) and len(path) >= 2:
        return (path[0], path[1] + move) + path[2:]
    if isinstance(move, set) and len(path) >= 2 and path[1] in move:
        return path
    return None


# ---------------------------------------------------------------------------
# Entry point


def _main_file(given: Path) -> Path:
    if given.is_dir():
        return given / "game.yaml"
    return given


def load_document(path: str | Path, includes: bool = True) -> Document:
    """Load a game (a folder's game.yaml, or a YAML file) with includes merged.

    With ``includes=False`` only that one file is read and its ``include`` key
    is left in the data as written.
    """
    shown = _main_file(Path(path))
    real = shown.resolve()
    if not real.exists():
        folder = Path(path).is_dir()
        missing = f"there is no game.yaml in '{path}'" if folder else f"cannot find '{shown}'"
        raise SpecError(missing, None, _folder_hint(real, suggest=not folder))
    if not includes:
        return _load_file(real, str(shown))
    includer = _Includer(root=real.parent, shown_root=shown.parent)
    try:
        doc = includer.load(real, ())
    except RulelangError as error:
        includer.errors[:0] = _flatten(error)
    raise_all(includer.errors)
    doc.path = shown
    return doc


def _flatten(error: RulelangError) -> list[RulelangError]:
    return list(error.errors) if isinstance(error, ErrorList) else [error]
