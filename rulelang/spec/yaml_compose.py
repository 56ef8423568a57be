"""One YAML file's text into PyYAML's node graph, within the spec's budget.

Two parsers make the same graph. libyaml's (PyYAML's C extension, in every
wheel PyPI ships) reads the text into events ten times faster than PyYAML's
pure-Python scanner: a cold ``rulelang validate`` of the larger of our two
games (23 KB of YAML) spent 70 ms of its half second there. Either way the nodes are composed here, in Python, so
the depth, value and alias budgets are counted event by event as before.
When libyaml refuses a file, or is missing, the pure-Python parser reads it
again: a broken file gets PyYAML's own error, located and explained by
``yaml_errors``, the same words on every machine. A control character, which
both refuse in their own words, is looked for first with PyYAML's own test.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import yaml
from yaml.composer import Composer
from yaml.nodes import Node
from yaml.resolver import Resolver

from rulelang.errors import SpecError
from rulelang.spec.document import SourceFile
from rulelang.spec.yaml_errors import mark_span, reader_error, syntax_error

if TYPE_CHECKING:
    from rulelang.spec.budget import Budget

try:
    from yaml._yaml import CParser
except ImportError:                 # a PyYAML built without libyaml: the pure-Python parser reads every file
    CParser = None

STD = "tag:yaml.org,2002:"
STR, INT, FLOAT, BOOL, NULL = (STD + t for t in ("str", "int", "float", "bool", "null"))
MAP, SEQ, MERGE, VALUE = (STD + t for t in ("map", "seq", "merge", "value"))

NULL_RE = re.compile(r"^(?:~|null|Null|NULL|)$")
BOOL_RE = re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$")
INT_RE = re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$")
FLOAT_RE = re.compile(
    r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
)


class _Budgeted(Resolver):
    """Composition with a depth and alias budget, resolving scalars by YAML 1.2 rules (``on``/``yes``/``no``
    stay text); mixed into either parser, whose events it reads."""

    yaml_implicit_resolvers: dict = {}

    def __init__(self, source: SourceFile, budget: Budget):
        Composer.__init__(self)
        Resolver.__init__(self)
        self.source = source
        self.budget = budget
        self.depth = 0
        self.nodes = 0
        self.aliases = 0
        self.anchor_names: dict[int, str] = {}

    def compose_node(self, parent: Node | None, index: Any) -> Node:
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent):
            self._count_alias(event)
            return Composer.compose_node(self, parent, index)
        self._count_node(event)
        if self.depth >= self.budget.limits.depth:
            raise SpecError(
                f"nesting is too deep: more than {self.budget.limits.depth} levels of lists and mappings",
                mark_span(self.source, event.start_mark),
                "a game spec never needs this much nesting; check for runaway brackets",
            )
        self.depth += 1
        try:
            node = Composer.compose_node(self, parent, index)
        finally:
            self.depth -= 1
        if event.anchor is not None:
            self.anchor_names[id(node)] = event.anchor
        return node

    def _count_node(self, event: yaml.Event) -> None:
        """Stop a file of millions of plain values before it is all in memory."""
        self.nodes += 1
        if self.budget.values + self.nodes > self.budget.limits.values:
            before = self.budget.values
            self.budget.spent = True
            raise SpecError(
                f"this file holds more than {self.budget.limits.values:,} values" if not before else
                f"the game's files hold more than {self.budget.limits.values:,} values together "
                f"({before:,} of them in the files read before this one)",
                mark_span(self.source, event.start_mark),
                "a game spec is far smaller; check for generated data",
            )

    def _count_alias(self, event: yaml.AliasEvent) -> None:
        self.aliases += 1
        if self.budget.aliases + self.aliases > self.budget.limits.aliases:
            self.budget.spent = True
            where = "in one file" if not self.budget.aliases else "in the game's files together"
            raise SpecError(
                f"too many aliases: more than {self.budget.limits.aliases} uses of '*name' {where}",
                mark_span(self.source, event.start_mark),
                "write the values out, or split the file",
            )


def _add_resolver(tag: str, regexp: re.Pattern, first: str) -> None:
    _Budgeted.add_implicit_resolver(tag, regexp, list(first))


_add_resolver(BOOL, BOOL_RE, "tTfF")
_add_resolver(INT, INT_RE, "-+0123456789")
_add_resolver(FLOAT, FLOAT_RE, "-+0123456789.")
_add_resolver(NULL, NULL_RE, "~nN")
_Budgeted.add_implicit_resolver(NULL, NULL_RE, [""])
_add_resolver(MERGE, re.compile(r"^<<$"), "<")


class _PurePython(_Budgeted, yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser, Composer):
    """PyYAML's pure-Python parser: the reference, whose errors a designer is shown."""

    def __init__(self, text: str, source: SourceFile, budget: Budget):
        yaml.reader.Reader.__init__(self, text)
        yaml.scanner.Scanner.__init__(self)
        yaml.parser.Parser.__init__(self)
        _Budgeted.__init__(self, source, budget)


if CParser is not None:
    class _Libyaml(_Budgeted, Composer, CParser):
        """libyaml's events, composed by ``Composer`` (ahead of CParser's own, which has no budget hooks)."""

        def __init__(self, text: str, source: SourceFile, budget: Budget):
            CParser.__init__(self, text)
            _Budgeted.__init__(self, source, budget)
else:
    _Libyaml = None

#: What sends a file to the pure parser: a character neither parser reads (so that the file gets the pure
#: parser's error), and what fuzzing both parsers found they disagree on (tests/language/test_yaml_parsers.py): a tab
#: (libyaml takes ``key:<tab>value``, PyYAML refuses it), a byte-order mark past the start, a tag (``!``, but
#: not the ``!=`` of rule texts), a comment right after a block scalar's ``|`` or ``>``, a ``?`` in a file with
#: ``[`` or ``{`` (in a flow collection PyYAML ends a plain scalar at ``?``, libyaml reads on); and a last line
#: with no line break (libyaml ends the top mapping on the line after it). A file with none of them composes
#: into the same nodes, with the same marks, from both.
_PURE_ONLY = re.compile(yaml.reader.Reader.NON_PRINTABLE.pattern + r"|[\t\ufeff]|!(?!=)|[|>][-+0-9]*#")


def compose(text: str, source: SourceFile, budget: Budget) -> tuple[Node | None, dict[int, str]]:
    """Parse one file's text into a node graph and the names of its anchors (by node id), turning every
    PyYAML failure into a SpecError: with libyaml first, when it may read it (``reads_with_libyaml``)."""
    if reads_with_libyaml(text):
        try:
            return _composed(_Libyaml(text, source, budget), budget)
        except (yaml.YAMLError, RecursionError):
            pass                    # read again below, for the pure parser's own account of what is wrong
    try:
        return _composed(_PurePython(text, source, budget), budget)
    except yaml.reader.ReaderError as error:
        raise reader_error(error, text, source) from None
    except yaml.MarkedYAMLError as error:
        raise syntax_error(error, source) from None
    except yaml.YAMLError as error:
        raise SpecError(f"cannot read this file as YAML: {error}", source.span(1, 1)) from None
    except RecursionError:
        raise SpecError(f"nesting is too deep: more than {budget.limits.depth} levels", source.span(1, 1)) from None


def reads_with_libyaml(text: str) -> bool:
    """Whether libyaml reads this text first: it is there, and the text has nothing on which the parsers differ."""
    if _Libyaml is None or not text.endswith("\n") or _PURE_ONLY.search(text):
        return False
    return "?" not in text or ("[" not in text and "{" not in text)


def _composed(composer: _Budgeted, budget: Budget) -> tuple[Node | None, dict[int, str]]:
    try:
        root = composer.get_single_node()
        budget.aliases += composer.aliases
        return root, composer.anchor_names
    finally:
        composer.dispose()
