"""One YAML file into plain data that remembers where every value came from.

PyYAML composes the node graph (yaml_compose.py, which bounds nesting depth,
values and aliases as it goes); we then build the plain data ourselves so
that no PyYAML constructor ever runs on user input.
Scalars are resolved with the YAML 1.2 core schema: ``on``/``yes``/``no`` stay
strings (``on: enter play`` is a trigger key, not ``True``), dates stay strings.
Hostile input (Python tags, alias bombs, absurd nesting, floods of values or
lines) is refused with a located error instead of a traceback or a hang; the
limits are counted in a ``Budget`` shared by all the files of one spec.
"""
from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from rulelang.errors import RulelangError, Span, SpecError, raise_all
from rulelang.spec.budget import Budget
from rulelang.spec.document import Document, ScalarText, SourceFile
from rulelang.spec.yaml_compose import (
    BOOL,
    BOOL_RE,
    FLOAT,
    FLOAT_RE,
    INT,
    INT_RE,
    MAP,
    MERGE,
    NULL,
    NULL_RE,
    SEQ,
    STD,
    STR,
    VALUE,
    compose,
)
from rulelang.spec.yaml_errors import mark_span

_SCALAR_TAGS = {STR, INT, FLOAT, BOOL, NULL, VALUE, MERGE}  # MERGE: "<<" used as a value is text

#: Digits of an integer literal: far past any count a game needs, far below Python's conversion limit (4,300).
MAX_NUMBER_DIGITS = 100

EMPTY_FILE_HINT = "a game file holds a YAML mapping of top-level keys, such as 'game:', 'zones:' or 'cards:'"


def _node_span(source: SourceFile, node: Node) -> Span:
    return mark_span(source, node.start_mark, node.end_mark)


# ---------------------------------------------------------------------------
# Building plain data from nodes



def _tag_name(tag: str) -> str:
    return "!!" + tag[len(STD):] if tag.startswith(STD) else tag


_KIND_WORDS = {ScalarNode: "a single value", SequenceNode: "a list", MappingNode: "a mapping"}
_EXPECTED_TAG = {MappingNode: {MAP}, SequenceNode: {SEQ}, ScalarNode: _SCALAR_TAGS}


class _Builder:
    """Turns one file's node graph into plain data, recording spans as it goes."""

    def __init__(self, source: SourceFile, doc: Document, anchor_names: dict[int, str], budget: Budget):
        self.source = source
        self.file = source.file
        self.doc = doc
        self.anchor_names = anchor_names
        self.budget = budget
        self.errors: list[RulelangError] = []
        self.sizes: dict[int, tuple[int, int]] = {}

    def build(self, root: Node) -> Any:
        size, _ = self._measure(root, set())
        self.budget.values += size
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
            raise SpecError(f"anchor '&{name}' is used inside itself", _node_span(self.source, node),
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
        if self.budget.values + size > self.budget.limits.values:
            self.budget.spent = True
            together = " together with the files read before it" if self.budget.values else ""
            raise SpecError(
                f"this file expands to more than {self.budget.limits.values:,} values once aliases are expanded{together}",
                _node_span(self.source, node),
                "an alias '*name' repeats everything its anchor holds; use fewer aliases",
            )
        if depth > self.budget.limits.depth:
            raise SpecError(
                f"nesting is too deep: more than {self.budget.limits.depth} levels once aliases are expanded",
                _node_span(self.source, node),
            )

    # -- values -----------------------------------------------------------

    def _value(self, node: Node, path: tuple) -> Any:
        self.doc._spans[path] = _node_span(self.source, node)
        if not self._tag_fits(node):
            return None
        if isinstance(node, MappingNode):
            return self._mapping(node, path)
        if isinstance(node, SequenceNode):
            return [self._value(item, path + (i,)) for i, item in enumerate(node.value)]
        value = self._scalar(node)
        if isinstance(value, str):
            # libyaml calls a plain scalar's style '', PyYAML None: the Document is the same from either parser
            self.doc._scalars[path] = ScalarText(value, node.style or None, self.file,
                                              node.start_mark.line + 1, node.start_mark.column + 1)
        return value

    def _tag_fits(self, node: Node) -> bool:
        """Refuse tags that would build Python objects or that we do not know."""
        if node.tag in _EXPECTED_TAG[type(node)]:
            return True
        name = _tag_name(node.tag)
        span = _node_span(self.source, node)
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
        except _NumberTooLong as long:
            self.errors.append(SpecError(f"this number has {long.digits:,} digits; a spec's numbers have at most "
                                         f"{MAX_NUMBER_DIGITS}", _node_span(self.source, node), "write a smaller number"))
            return None
        except ValueError:
            shown = text if len(text) <= 40 else text[:37] + "..."
            self.errors.append(SpecError(f"'{shown}' cannot be read as {_tag_name(node.tag)}",
                                         _node_span(self.source, node), "remove the tag or fix the value"))
            return None

    def _mapping(self, node: MappingNode, path: tuple) -> dict:
        explicit = self._explicit_entries(node)
        merged = [(self._key(k, report=False), k, v) for k, v in self._merged_pairs(node)]
        entries = [e for e in merged if e[0] not in explicit]
        entries += [(key, k, v) for key, (k, v) in explicit.items()]
        result: dict = {}
        for key, key_node, value_node in entries:
            self.doc._key_spans[path + (key,)] = _node_span(self.source, key_node)
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
        self.errors.append(SpecError("'<<' merges a mapping or a list of mappings", _node_span(self.source, node)))
        return []

    def _key(self, node: Node, report: bool = True) -> Any:
        """A key's plain value, or _BAD_KEY (reported once) for keys that cannot be names."""
        if not isinstance(node, ScalarNode):
            if report:
                self.errors.append(SpecError(f"a key must be a name or a number, not {_KIND_WORDS[type(node)]}",
                                             _node_span(self.source, node)))
            return _BAD_KEY
        if node.tag not in _SCALAR_TAGS:
            if report:
                self._tag_fits(node)
            return _BAD_KEY
        try:
            key = _convert_scalar(node.tag, node.value)
        except ValueError:
            return node.value
        if key is None or isinstance(key, (bool, float)):
            if report:
                self._not_a_name(node, key)
            return _BAD_KEY
        return key

    def _not_a_name(self, node: ScalarNode, key: Any) -> None:
        """A key YAML reads as nothing, true/false or a decimal: no name, and no loader expects one."""
        reads_as = {type(None): "nothing (null)", bool: "true or false", float: "a decimal number"}[type(key)]
        shown = node.value if len(node.value) <= 40 else node.value[:37] + "..."
        self.errors.append(SpecError(f"the key '{shown}' reads as {reads_as}, not as a name or a whole number",
                                     _node_span(self.source, node),
                                     f"quote the key (\"{shown}\":) if it is meant as a word, or rename it"))

    def _duplicate_key(self, key: Any, node: Node, first: Node) -> None:
        self.errors.append(SpecError(
            f"duplicate key '{key}' in this mapping",
            _node_span(self.source, node),
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
        if not NULL_RE.match(text):
            raise ValueError(text)
        return None
    if tag == BOOL:
        if not BOOL_RE.match(text):
            raise ValueError(text)
        return text.lower() == "true"
    if tag == INT:
        return _to_int(text)
    return _to_float(text)


class _NumberTooLong(ValueError):
    """An integer literal too long to be a game's number (and slow, or refused, to convert)."""

    def __init__(self, digits: int):
        super().__init__(f"{digits} digits")
        self.digits = digits


def _to_int(text: str) -> int:
    if not INT_RE.match(text):
        raise ValueError(text)
    digits = len(text.lstrip("+-").removeprefix("0x").removeprefix("0o"))
    if digits > MAX_NUMBER_DIGITS:
        raise _NumberTooLong(digits)
    if text.startswith("0o"):
        return int(text[2:], 8)
    if text.startswith("0x"):
        return int(text[2:], 16)
    return int(text, 10)


def _to_float(text: str) -> float:
    if not FLOAT_RE.match(text) and not INT_RE.match(text):
        raise ValueError(text)
    lowered = text.lower()
    if lowered.endswith(".inf"):
        return -math.inf if lowered.startswith("-") else math.inf
    if lowered == ".nan":
        return math.nan
    return float(_to_int(text)) if INT_RE.match(text) else float(text)


# ---------------------------------------------------------------------------
# One file


def _count_lines(source: SourceFile, budget: Budget) -> None:
    """Refuse a spec of absurdly many lines before the (slow, line by line) YAML scanner starts on it."""
    before = budget.lines
    budget.lines += source.count
    if budget.lines <= budget.limits.lines:
        return
    budget.spent = True
    message = (f"this file has more than {budget.limits.lines:,} lines" if not before else
               f"the game's files have more than {budget.limits.lines:,} lines together "
               f"({before:,} of them in the files read before this one)")
    raise SpecError(message, source.span(1, 1), "a game spec is far smaller; check for generated data")


def _decode(raw: bytes, file: str) -> str:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        shown = SourceFile(file, raw.decode("utf-8", errors="replace"))
        line, col = _byte_position(raw, error.start)
        raise SpecError(f"file is not UTF-8 text: byte 0x{raw[error.start]:02X} cannot be read",
                        shown.span(line, col, line, col + 1), "save the file with UTF-8 encoding") from None
    return text[1:] if text.startswith("\ufeff") else text


def _byte_position(raw: bytes, offset: int) -> tuple[int, int]:
    """1-based line and column of a byte offset (the text before it is valid UTF-8)."""
    start = raw.rfind(b"\n", 0, offset) + 1
    line = raw.count(b"\n", 0, offset) + 1
    return line, len(raw[start:offset].decode("utf-8", errors="replace")) + 1


def load_file(raw: bytes, file: str, budget: Budget) -> Document:
    """One YAML file as a Document (includes not followed); the top level must be a mapping."""
    text = _decode(raw, file)
    budget.bytes += len(raw)
    doc = Document(None, Path(file))
    source = doc._sources[file] = SourceFile(file, text)
    _count_lines(source, budget)
    root, anchors = compose(text, source, budget)
    if root is None or (isinstance(root, ScalarNode) and root.tag == NULL):
        raise SpecError("file is empty", source.span(1, 1), EMPTY_FILE_HINT)
    builder = _Builder(source, doc, anchors, budget)
    doc.data = builder.build(root)
    raise_all(builder.errors)
    if not isinstance(doc.data, dict):
        raise SpecError(f"the top level of this file must be a mapping of keys, not {_KIND_WORDS[type(root)]}",
                        doc.span(()), EMPTY_FILE_HINT)
    return doc
