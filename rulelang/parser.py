"""Rule texts to syntax trees.

One LALR parser is built from ``grammar.lark`` once per process. Every node
gets a span in the YAML file the text came from, through the ``locate``
callback the loader provides, so errors point into the spec, not the string.
"""
from __future__ import annotations

import re
import sys
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterator

import lark
from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import VisitError, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.indenter import Indenter

from . import nodes as n
from .cache import cache_file
from .errors import Span, SpecError, did_you_mean
from .limits import INT64, LITERAL_DIGITS

#: Maps a (line, col, end_line, end_col) inside a text to a span in its file.
Locate = Callable[[int, int, int | None, int | None], Span]

#: Longest rule text, in characters: far above any real effect, low enough to parse in well under a second.
MAX_TEXT = 50_000
#: Deepest syntax tree: operators, lists and blocks nested this deep are a mistake (or an attack),
#: and the checker, compiler and compiled closures all recurse over the tree.
MAX_NESTING = 120


class _BadDedent(Exception):
    """A line dedented to a column no enclosing block starts at (Lark raises a bare DedentError)."""

    def __init__(self, line: int, col: int, levels: list[int]):
        super().__init__(line, col, levels)
        self.line, self.col, self.levels = line, col, levels


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
            raise _BadDedent(token.end_line, token.end_column, list(self.indent_level))
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


@lru_cache(maxsize=1)
def _lark() -> Lark:
    """The parser, analysed once per process, and kept between runs only in a private cache folder.

    Lark's own ``cache=True`` keeps a pickle under a predictable name in the shared temporary folder,
    where another user could plant one; ``cache.cache_file`` gives a path only in a folder that is this
    user's alone, or None, and then the grammar is analysed afresh (about 0.4 s).
    """
    grammar = (Path(__file__).parent / "grammar.lark").read_text(encoding="utf-8")
    cached = cache_file("grammar", grammar, lark.__version__, sys.version)
    return Lark(
        grammar,
        parser="lalr",
        start=["block", "expression"],
        postlex=_BlockIndenter(),
        propagate_positions=True,
        maybe_placeholders=True,
        cache=str(cached) if cached else False,
    )


def parse_block(text: str, locate: Locate) -> list[n.Stmt]:
    """Parse an effect: one or more statements."""
    return _parse(text, "block", locate)


def parse_expression(text: str, locate: Locate) -> n.Expr:
    """Parse a condition or value."""
    return _parse(text, "expression", locate)


def _parse(text: str, start: str, locate: Locate):
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
        raise _syntax_error(error, source, locate) from None
    except _BadDedent as error:
        raise _dedent_error(error, locate) from None
    except RecursionError:
        raise _too_deep(locate(1, 1, None, None)) from None
    _check_nesting(tree, locate)
    try:
        return _ToNodes(locate).transform(tree)
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


# --- syntax errors in words -----------------------------------------------

#: Terminals that can start a value, a statement, or continue a value (operators).
_VALUE_START = {"NAME", "INT", "STRING", "LPAR", "LSQB", "MINUS", "NOT", "TRUE", "FALSE", "NONE", "ALL"}
_STATEMENT_START = {"MOVE", "DISCARD", "DRAW", "SHUFFLE", "ROLL", "EACH", "PLAY", "END", "CHECK", "PASS",
                    "IF", "FOR", "WHILE", "RETURN", "REROLL", "ADD", "REMOVE", "CHANGE", "CREATE", "REVEAL",
                    "ELIMINATE"}
#: The words a statement can start with, for "no statement 'X'" (a statement may also start with a value).
STATEMENT_WORDS = ("move", "discard", "draw", "shuffle", "roll", "each", "play", "end", "check", "pass", "if",
                   "elif", "else", "for", "while", "return", "reroll", "add", "remove", "change", "create", "reveal",
                   "eliminate")
_OPERATORS = {"ADDOP", "MULOP", "AUGOP", "EQUAL", "__ANON_0", "LESSTHAN", "__ANON_1", "MORETHAN", "__ANON_2",
              "IN", "NOT", "IS", "HAS", "AND", "OR", "DOT", "LSQB"}
_ENDINGS = {"_NL": "the end of the line", "$END": "the end of the text", "_DEDENT": "the end of the block",
            "_INDENT": "an indented block"}
_WORDS = {"NAME": "a name", "INT": "a number", "STRING": "a quoted label", "COLON": "':'",
          "ADDOP": "'+' or '-'", "MULOP": "'*' or '//'", "AUGOP": "'+=' or '-='"}

#: Characters the DSL does not use, and what to write instead.
_CHAR_HINTS = {
    "'": "labels use double quotes, like \"pay one coin\"",
    ";": "statements are one per line; there is no ';'",
    "&": "write 'and'",
    "|": "write 'or'",
    "!": "write 'not', or '!=' to compare",
    "/": "divide with '//' (whole numbers only)",
    "%": "there is no '%'; the DSL has + - * //",
    "{": "there are no '{...}' mappings in rule texts; lists are written [a, b]",
    "}": "there are no '{...}' mappings in rule texts; lists are written [a, b]",
    "\t": "indent with spaces",
}


def _describe(terminal: str) -> str:
    if terminal in _WORDS:
        return _WORDS[terminal]
    if terminal in _ENDINGS:
        return _ENDINGS[terminal]
    for term in _lark().terminals:
        if term.name == terminal and term.pattern.type == "str":
            return f"'{term.pattern.value}'"
    return terminal.lower()


def _expected_words(expected: set[str]) -> str:
    """What the parser could take here, in a few words: "a value", "':'", "the end of the line"."""
    expected = {t for t in expected if not t.startswith("__IGNORE")}
    words: list[str] = []
    if len(expected & _STATEMENT_START) >= 3:
        words.append("a statement")
        expected -= _STATEMENT_START | _VALUE_START
    elif expected & {"NAME", "INT", "STRING", "LPAR"}:
        words.append("a value")
        expected -= _VALUE_START
    rest = expected - _OPERATORS - set(_ENDINGS) - {"IF"}     # after a value, 'if' goes on as 'A if C else B'
    endings = [_ENDINGS[t] for t in ("_INDENT", "_NL", "_DEDENT", "$END") if t in expected]
    words += sorted(_describe(t) for t in rest)
    if not words and not endings and expected & (_OPERATORS | {"IF"}):
        words.append("an operator")
    words += endings
    if not words:
        return "something else"
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _accepted(error: UnexpectedToken) -> set[str]:
    """The terminals that really fit here (LALR's own list over-approximates)."""
    parser = getattr(error, "interactive_parser", None)
    if parser is not None:
        try:
            return set(parser.accepts())
        except Exception:  # noqa: BLE001 - fall back to Lark's list; it is only for a message
            pass
    return set(error.expected)


def _syntax_error(error: UnexpectedInput, source: str, locate: Locate) -> SpecError:
    line = getattr(error, "line", 1) or 1
    col = getattr(error, "column", 1) or 1
    if isinstance(error, UnexpectedToken):
        return _unexpected_token(error, source, locate)
    if isinstance(error, UnexpectedCharacters):
        char = source[error.pos_in_stream] if error.pos_in_stream < len(source) else "?"
        shown = f'"{char}"' if char == "'" else "a tab" if char == "\t" else f"'{char}'"
        hint = _CHAR_HINTS.get(char)
        if char.isupper():
            hint = "names are lower case, like card_name"
        elif char == '"':
            hint = "this label has no closing '\"' on its line"
        elif char == "=" and source[error.pos_in_stream + 1 : error.pos_in_stream + 2] == "=":
            hint = "compare with '=' (there is no '==')"
        elif not char.isprintable():
            shown = f"U+{ord(char):04X}"
        return SpecError(f"unexpected character {shown}", locate(line, col, line, col + 1), hint)
    if isinstance(error, UnexpectedEOF):
        line, col = _end_position(source)
        return SpecError(f"the text ends too early; expected {_expected_words(set(error.expected))}",
                         locate(line, col, None, None))
    return SpecError("cannot read this rule text", locate(line, col, None, None))


def _unexpected_token(error: UnexpectedToken, source: str, locate: Locate) -> SpecError:
    token = error.token
    expected = _accepted(error)
    line, col = token.line or 1, token.column or 1
    width = max(1, len(str(token.value)))
    if token.type == "$END" or token.type == "_DEDENT" and not token.value:
        found, width = "end of text", 1
        line, col = _end_position(source)
    elif token.type == "_NL":
        found, width = "end of line", 1
    elif token.type in ("_INDENT", "_DEDENT"):
        found, width = "indentation", 1
        line, col = token.end_line or line, token.end_column or col
        if token.type == "_INDENT":
            return SpecError("this line is indented more than the line before it", locate(line, col, line, col + 1),
                             "indent a block only after a line ending in ':'; "
                             "the lines of one block start in the same column")
    else:
        found = f"'{token.value}'"
    unknown = _unknown_statement(token, expected, source)
    if unknown is not None:
        word, start = unknown
        return SpecError(f"no statement '{word}'", locate(line, start, line, start + len(word)),
                         did_you_mean(word, STATEMENT_WORDS)
                         or "a statement is an assignment, a procedure call or starts with a word like "
                            "'move', 'draw', 'if', 'for each' or 'while'")
    span = locate(line, col, line, col + width)
    message = f"unexpected {found}; expected {_expected_words(expected)}"
    return SpecError(message, span, _hint_for(token, expected, source, locate))


def _unknown_statement(token: Token, expected: set[str], source: str) -> tuple[str, int] | None:
    """A line that starts with one unknown word and goes on (`repeat 3:`): (the word, its column), else None.

    The parser read the word as a value and stumbled on what follows; the writer meant a statement.
    """
    if token.start_pos is None or token.type in ("_NL", "$END", "_DEDENT", "_INDENT") or token.type in _OPERATORS:
        return None
    if token.type in ("EQUAL", "COLON", "RPAR", "RSQB", "COMMA", "LPAR"):
        return None
    line_start = source.rfind("\n", 0, token.start_pos) + 1
    match = re.fullmatch(r"([\t ]*)([a-z_][a-z0-9_]*)[\t ]+", source[line_start:token.start_pos])
    if match is None or match.group(2) in STATEMENT_WORDS:
        return None
    return match.group(2), len(match.group(1)) + 1


def _hint_for(token: Token, expected: set[str], source: str, locate: Locate) -> str | None:
    upto = source if token.type == "$END" or token.start_pos is None else source[: token.start_pos]
    before = upto.rstrip(" \t")
    if token.type == "LPAR" and re.search(r"\.\s*[a-z_][a-z0-9_]*$", before):
        return "there are no methods: procedures and functions are called by name alone, like name(args)"
    if token.type == "IF" and before.endswith("else"):
        return "write 'elif CONDITION:'"
    if token.type == "EQUAL" and before.endswith(("=", "<", ">", "!")):
        return "compare with '=', '!=', '<', '<=', '>' or '>=' (there is no '==')"
    if token.type == "_DEDENT" and "_INDENT" in expected or token.type == "_NL" and "_INDENT" in expected:
        return "indent the lines of the block under the line ending in ':'"
    if "COLON" in expected and token.type != "COLON":
        return "a block starts with ':' at the end of its first line"
    if {"RPAR", "RSQB"} & expected:
        opened = _open_bracket(upto)
        if opened is not None:
            char, line, col = opened
            where = locate(line, col, None, None)
            return f"the '{char}' at line {where.line}, column {where.col} is not closed"
    if token.type in ("_NL", "$END") and (expected & _VALUE_START or len(expected) == 1):
        return "the statement is not finished"
    return None


def _open_bracket(text: str) -> tuple[str, int, int] | None:
    """The innermost bracket still open at the end of ``text`` (labels and comments skipped)."""
    stack: list[tuple[str, int, int]] = []
    line, col, i = 1, 1, 0
    quoted = comment = False
    while i < len(text):
        ch = text[i]
        if ch == "\n":
            line, col, quoted, comment = line + 1, 0, False, False
        elif comment:
            pass
        elif ch == '"':
            quoted = not quoted
        elif quoted:
            pass
        elif ch == "#":
            comment = True
        elif ch in "([":
            stack.append((ch, line, col))
        elif ch in ")]" and stack:
            stack.pop()
        i, col = i + 1, col + 1
    return stack[-1] if stack else None


def _dedent_error(error: _BadDedent, locate: Locate) -> SpecError:
    """A line indented to no enclosing block's column: name the columns it could line up with."""
    columns = [locate(error.line, level + 1, None, None).col for level in error.levels]
    known = [str(c) for c in dict.fromkeys(columns)]
    choices = ", ".join(known[:-1]) + " or " + known[-1] if len(known) > 1 else known[0]
    return SpecError("this line does not line up with any line above it",
                     locate(error.line, error.col, error.line, error.col + 1),
                     f"start it in column {choices}, like the lines of the block it belongs to")


def _end_position(source: str) -> tuple[int, int]:
    lines = source.rstrip("\n").split("\n")
    return len(lines), len(lines[-1]) + 1


# --- tree to nodes ---------------------------------------------------------

def _name(token) -> str | None:
    """The NAME after an optional `as`, or None when the text gives none."""
    return None if token is None else str(token)


def _is_keyword(child) -> bool:
    return isinstance(child, Token) and child.type in ("WHERE", "ELSE", "IF", "ALL", "FOR")


class _ToNodes(Transformer):
    """Turns Lark's tree into ``nodes`` dataclasses with file spans."""

    def __init__(self, locate: Locate):
        super().__init__()
        self.locate = locate

    def _span(self, meta) -> Span:
        if getattr(meta, "empty", False):
            return self.locate(1, 1, None, None)
        return self.locate(meta.line, meta.column, meta.end_line, meta.end_column)

    def _tok_span(self, token: Token) -> Span:
        return self.locate(token.line, token.column, token.end_line, token.end_column)

    # blocks
    @v_args(meta=True)
    def block(self, meta, children):
        return [c for c in children if c is not None]

    @v_args(meta=True)
    def expression(self, meta, children):
        return children[0]

    @v_args(meta=True)
    def body(self, meta, children):
        return [c for c in children if c is not None]

    # statements
    @v_args(meta=True)
    def assign(self, meta, c):
        return n.Assign(c[0], c[1], span=self._span(meta))

    @v_args(meta=True)
    def augassign(self, meta, c):
        return n.AugAssign(c[0], str(c[1]), c[2], span=self._span(meta))

    @v_args(meta=True)
    def move_counter(self, meta, c):
        return n.MoveCounter(c[0], c[1], c[2], c[3], span=self._span(meta))

    @v_args(meta=True)
    def amount(self, meta, c):
        return c[0]

    @v_args(meta=True)
    def all_amount(self, meta, c):
        return None

    @v_args(meta=True)
    def move_cards(self, meta, c):
        return n.MoveCards(c[0], c[1], span=self._span(meta))

    @v_args(meta=True)
    def discard(self, meta, c):
        return n.Discard(c[0], span=self._span(meta))

    @v_args(meta=True)
    def draw(self, meta, c):
        return n.Draw(c[0], c[1], c[2], span=self._span(meta))

    @v_args(meta=True)
    def shuffle(self, meta, c):
        return n.Shuffle(c[0], span=self._span(meta))

    @v_args(meta=True)
    def reveal(self, meta, c):
        return n.Reveal(c[0], c[1], span=self._span(meta))

    @v_args(meta=True)
    def reveal_all(self, meta, c):
        return n.Reveal(c[0], None, span=self._span(meta))

    @v_args(meta=True)
    def roll(self, meta, c):
        return n.Roll(c[0], str(c[1]), str(c[2]), span=self._span(meta), die_span=self._tok_span(c[1]))

    @v_args(meta=True)
    def roll_by(self, meta, c):
        return n.Roll(c[1], str(c[2]), str(c[5]), c[0], c[4], span=self._span(meta), die_span=self._tok_span(c[2]))

    @v_args(meta=True)
    def create(self, meta, c):
        return n.Create(c[0], str(c[1]), c[2], span=self._span(meta), card_span=self._tok_span(c[1]))

    @v_args(meta=True)
    def while_stmt(self, meta, c):
        return n.While(c[0], c[1], span=self._span(meta))

    @v_args(meta=True)
    def return_stmt(self, meta, c):
        return n.Return(c[0], span=self._span(meta))

    @v_args(meta=True)
    def reroll(self, meta, c):
        if c[1] is None:
            return n.Reroll(c[0], None, span=self._span(meta))
        return n.Reroll(c[1], c[0], span=self._span(meta))

    @v_args(meta=True)
    def add_dice(self, meta, c):
        return n.AddDice(c[0], c[1], span=self._span(meta))

    @v_args(meta=True)
    def remove_dice(self, meta, c):
        return n.RemoveDice(c[0], c[1], span=self._span(meta))


    @v_args(meta=True)
    def change_face(self, meta, c):
        return n.ChangeFace(c[0], c[1], c[2], span=self._span(meta))

    @v_args(meta=True)
    def choose_in(self, meta, c):
        return n.ChooseIn(c[0], c[1], c[2], c[4], _name(c[5]), span=self._span(meta))

    @v_args(meta=True)
    def choose_range(self, meta, c):
        return n.ChooseRange(c[0], c[1], c[2], c[3], _name(c[4]), span=self._span(meta))

    @v_args(meta=True)
    def secret_choose(self, meta, c):
        return n.SecretChoose(str(c[0]), c[1], c[3], c[4], c[5], c[7], _name(c[8]), span=self._span(meta))

    @v_args(meta=True)
    def play(self, meta, c):
        return n.Play(c[0], c[1] is not None, span=self._span(meta))

    @v_args(meta=True)
    def skip(self, meta, c):
        return n.Skip(c[0], span=self._span(meta))

    @v_args(meta=True)
    def another_turn(self, meta, c):
        return n.AnotherTurn(c[0], span=self._span(meta))

    @v_args(meta=True)
    def eliminate(self, meta, c):
        return n.Eliminate(c[0], span=self._span(meta))

    @v_args(meta=True)
    def end_turn(self, meta, c):
        return n.EndTurn(span=self._span(meta))

    @v_args(meta=True)
    def check_end(self, meta, c):
        return n.CheckEnd(span=self._span(meta))

    @v_args(meta=True)
    def call_stmt(self, meta, c):
        return n.CallStmt(c[0], span=self._span(meta))

    @v_args(meta=True)
    def pass_stmt(self, meta, c):
        return n.Pass(span=self._span(meta))

    @v_args(meta=True)
    def if_stmt(self, meta, c):
        branches = [(c[0], c[1])]
        orelse = None
        for part in c[2:]:
            if part is None:
                continue
            if part[0] == "elif":
                branches.append((part[1], part[2]))
            else:
                orelse = part[1]
        return n.If(branches, orelse, span=self._span(meta))

    @v_args(meta=True)
    def elif_clause(self, meta, c):
        return ("elif", c[0], c[1])

    @v_args(meta=True)
    def else_clause(self, meta, c):
        return ("else", c[1])

    @v_args(meta=True)
    def for_stmt(self, meta, c):
        return n.ForEach(str(c[0]), c[1], c[3], c[4], span=self._span(meta))

    @v_args(meta=True)
    def choose_one(self, meta, c):
        return n.ChooseOne(c[0], list(c[2:]), _name(c[1]), span=self._span(meta))

    @v_args(meta=True)
    def branch(self, meta, c):
        label = str(c[0])[1:-1]
        return n.Branch(label, c[3], c[4], _name(c[1]), span=self._span(meta))

    # expressions
    @v_args(meta=True)
    def or_op(self, meta, c):
        return n.BoolOp("or", c[0], c[1], span=self._span(meta))

    @v_args(meta=True)
    def cond_expr(self, meta, c):
        then, _, cond, _, orelse = c
        return n.CondExpr(cond, then, orelse, span=self._span(meta))

    @v_args(meta=True)
    def and_op(self, meta, c):
        return n.BoolOp("and", c[0], c[1], span=self._span(meta))

    @v_args(meta=True)
    def not_op(self, meta, c):
        return n.Not(c[0], span=self._span(meta))

    def _compare(op: str):
        @v_args(meta=True)
        def build(self, meta, c):
            return n.Compare(op, c[0], c[1], span=self._span(meta))
        return build

    eq, ne, lt, le = _compare("="), _compare("!="), _compare("<"), _compare("<=")
    gt, ge = _compare(">"), _compare(">=")

    @v_args(meta=True)
    def member(self, meta, c):
        return n.Member(c[0], c[1], span=self._span(meta))

    @v_args(meta=True)
    def not_member(self, meta, c):
        return n.Member(c[0], c[1], negated=True, span=self._span(meta))

    @v_args(meta=True)
    def is_test(self, meta, c):
        return n.IsTest(c[0], str(c[1]), span=self._span(meta), name_span=self._tok_span(c[1]))

    @v_args(meta=True)
    def is_not_test(self, meta, c):
        return n.IsTest(c[0], str(c[1]), negated=True, span=self._span(meta), name_span=self._tok_span(c[1]))

    @v_args(meta=True)
    def has_test(self, meta, c):
        return n.HasTest(c[0], str(c[1]), span=self._span(meta), name_span=self._tok_span(c[1]))

    @v_args(meta=True)
    def binop(self, meta, c):
        return n.BinOp(str(c[1]), c[0], c[2], span=self._span(meta))

    @v_args(meta=True)
    def neg(self, meta, c):
        return n.Neg(c[0], span=self._span(meta))

    @v_args(meta=True)
    def attr(self, meta, c):
        return n.Attr(c[0], str(c[1]), span=self._span(meta))

    @v_args(meta=True)
    def index(self, meta, c):
        return n.Index(c[0], c[1], span=self._span(meta))

    @v_args(meta=True)
    def int(self, meta, c):
        digits = str(c[0]).lstrip("0") or "0"
        if len(digits) > LITERAL_DIGITS or int(digits) > INT64:    # never int() of thousands of digits
            raise SpecError(f"this number is too large: a rule may write numbers up to {INT64:,}",
                            self._span(meta), "numbers in a game stay within the signed 64-bit range")
        return n.Num(int(digits), span=self._span(meta))

    @v_args(meta=True)
    def string(self, meta, c):
        return n.Text(str(c[0])[1:-1], span=self._span(meta))

    @v_args(meta=True)
    def true(self, meta, c):
        return n.Bool(True, span=self._span(meta))

    @v_args(meta=True)
    def false(self, meta, c):
        return n.Bool(False, span=self._span(meta))

    @v_args(meta=True)
    def none(self, meta, c):
        return n.NoneLit(span=self._span(meta))

    @v_args(meta=True)
    def name(self, meta, c):
        return n.Name(str(c[0]), span=self._span(meta))

    @v_args(meta=True)
    def list(self, meta, c):
        return n.ListLit([x for x in c if x is not None], span=self._span(meta))

    @v_args(meta=True)
    def call(self, meta, c):
        args = [a if isinstance(a, n.Arg) else n.Arg(a, span=a.span) for a in c[1:] if a is not None]
        return n.Call(str(c[0]), args, span=self._span(meta))

    @v_args(meta=True)
    def arg(self, meta, c):
        return n.Arg(c[0], span=self._span(meta))

    @v_args(meta=True)
    def filter_list(self, meta, c):
        return n.Call("filter", [self._filter_arg(meta, c)], span=self._span(meta))

    @v_args(meta=True)
    def filtered(self, meta, c):
        return self._filter_arg(meta, c)

    def _filter_arg(self, meta, c) -> n.Arg:
        head, cond = c[0], c[2]
        if isinstance(head, n.Member) and not head.negated and isinstance(head.item, n.Name):
            return n.Arg(n.Name(head.item.id, span=head.item.span), var=head.item.id,
                         source=head.container, cond=cond, span=self._span(meta))
        raise SpecError("a filter reads 'x in LIST where CONDITION'", self._span(meta),
                        hint="name the item first, as in count(c in me.hand where c is tool)")

    @v_args(meta=True)
    def generator(self, meta, c):
        return n.Arg(c[0], var=str(c[1]), source=c[2], cond=c[4], span=self._span(meta))
