"""Rule texts to syntax trees.

One LALR parser is built from ``grammar.lark`` once per process. Every node
gets a span in the YAML file the text came from, through the ``locate``
callback the loader provides, so errors point into the spec, not the string.

This module reads the text (the Lark parser, its indentation post-lexer, the
limits on size and depth); ``to_nodes`` turns the tree Lark gives into nodes,
and ``syntax_errors`` turns a text Lark cannot read into a message.
"""
from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput, VisitError
from lark.indenter import Indenter

from rulelang.errors import Locate, Span, SpecError
from rulelang.lang import grammar_tables
from rulelang.lang import nodes as n
from rulelang.lang.syntax_errors import BadDedent, Literals, dedent_error, syntax_error
from rulelang.lang.to_nodes import ToNodes

#: Longest rule text, in characters: far above any real effect, low enough to parse in well under a second.
MAX_TEXT = 50_000
#: Deepest syntax tree: operators, lists and blocks nested this deep are a mistake (or an attack),
#: and the checker, compiler and compiled closures all recurse over the tree.
MAX_NESTING = 120


class _BlockIndenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8

    def handle_NL(self, token: Token) -> Iterator[Token]:
        """Lark's, but a dedent to no known column raises with the line's position."""
        if self.paren_level > 0:
            return
        yield token
        indent_str = token.rsplit("\n", 1)[1]
        indent = indent_str.count(" ") + indent_str.count("\t") * self.tab_len
        if indent > self.indent_level[-1]:
            self.indent_level.append(indent)
            yield Token.new_borrow_pos(self.INDENT_type, indent_str, token)
            return
        if indent not in self.indent_level:
            raise BadDedent(token.end_line, token.end_column, list(self.indent_level))
        while indent < self.indent_level[-1]:
            self.indent_level.pop()
            yield Token.new_borrow_pos(self.DEDENT_type, indent_str, token)

    def _process(self, stream):
        """Lark's, without its assertion on unbalanced closing brackets (the parser reports those)."""
        token = None
        for token in stream:
            if token.type == self.NL_type:
                yield from self.handle_NL(token)
            else:
                yield token
            if token.type in self.OPEN_PAREN_types:
                self.paren_level += 1
            elif token.type in self.CLOSE_PAREN_types:
                self.paren_level = max(0, self.paren_level - 1)
        while len(self.indent_level) > 1:
            self.indent_level.pop()
            yield Token.new_borrow_pos(self.DEDENT_type, "", token) if token else Token(self.DEDENT_type, "")


#: The grammar of rule texts; its analysed tables are shipped beside it (``grammar_tables.py``).
GRAMMAR = Path(__file__).with_name("grammar.lark")


@lru_cache(maxsize=1)
def _lark() -> Lark:
    """The parser, built once per process from the grammar's tables as plain data (``grammar_tables``).

    Only when no tables fit this grammar and this Lark is the grammar analysed (most of a second), and
    its tables kept in the private cache folder for the next run. No pickle is read or written.
    """
    grammar = GRAMMAR.read_text(encoding="utf-8")
    loaded = grammar_tables.load(grammar, _BlockIndenter())
    if loaded is None:
        loaded = analysed(grammar)
        grammar_tables.keep(loaded, grammar)
    return loaded


def analysed(grammar: str) -> Lark:
    """The LALR parser of ``grammar``, analysed from its text."""
    return Lark(
        grammar,
        parser="lalr",
        start=["block", "expression"],
        postlex=_BlockIndenter(),
        propagate_positions=True,
        maybe_placeholders=True,
    )


@lru_cache(maxsize=1)
def _literals() -> Literals:
    """The text each word and punctuation terminal of the grammar matches, by the name the grammar gives it."""
    return {term.name: term.pattern.value for term in _lark().terminals if term.pattern.type == "str"}


def parse_block(text: str, locate: Locate) -> list[n.Stmt]:
    """Parse an effect: one or more statements."""
    return _parse(text, "block", locate)


def parse_expression(text: str, locate: Locate) -> n.Expr:
    """Parse a condition or value."""
    return _parse(text, "expression", locate)


def _parse(text: str, start: str, locate: Locate):
    """Check the text's size, parse it from rule ``start``, refuse a tree too deep, build its nodes."""
    if not isinstance(text, str):
        raise SpecError("expected a rule text (a string)", locate(1, 1, None, None))
    if len(text) > MAX_TEXT:
        raise SpecError(f"rule text is too long ({len(text):,} characters; the limit is {MAX_TEXT:,})",
                        locate(1, 1, None, None), hint="split it into procedures")
    if not text.strip():
        raise SpecError("rule text is empty", locate(1, 1, None, None),
                        hint="write a statement, or 'pass' for nothing" if start == "block" else None)
    source = text if text.endswith("\n") else text + "\n"
    try:
        tree = _lark().parse(source, start=start)
    except UnexpectedInput as error:
        raise syntax_error(error, source, locate, _literals()) from None
    except BadDedent as error:
        raise dedent_error(error, locate) from None
    except RecursionError:
        raise _too_deep(locate(1, 1, None, None)) from None
    _check_nesting(tree, locate)
    try:
        return ToNodes(locate).transform(tree)
    except VisitError as error:
        if isinstance(error.orig_exc, SpecError):
            raise error.orig_exc from None
        raise


def _too_deep(span: Span) -> SpecError:
    return SpecError(f"rule text is nested too deeply (more than {MAX_NESTING} levels of operators, "
                     "lists or blocks)", span, "split it into functions or procedures")


def _check_nesting(tree: Tree, locate: Locate) -> None:
    """Refuse absurdly deep trees before anything recurses over them (iteratively, so no stack overflow)."""
    todo: list[tuple[Tree, int]] = [(tree, 1)]
    while todo:
        node, depth = todo.pop()
        if depth > MAX_NESTING:
            meta = node.meta
            line, col = (1, 1) if getattr(meta, "empty", True) else (meta.line, meta.column)
            raise _too_deep(locate(line, col, None, None))
        todo.extend((child, depth + 1) for child in node.children if isinstance(child, Tree))


def write_shipped_tables() -> None:
    """Write the shipped tables afresh from ``grammar.lark`` (run after editing it, or for another Lark).

    It lives here, not in ``grammar_tables``, because it needs the parser: the tables know nothing of it."""
    import lark

    grammar = GRAMMAR.read_text(encoding="utf-8")
    grammar_tables.SHIPPED.write_bytes(grammar_tables.tables_of(analysed(grammar), grammar))
    shipped = grammar_tables.SHIPPED
    print(f"wrote {shipped} ({shipped.stat().st_size:,} bytes) for Lark {lark.__version__}")


if __name__ == "__main__":
    write_shipped_tables()
