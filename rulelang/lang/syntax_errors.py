"""A Lark failure on a rule text, told as a located SpecError in the designer's words.

The parser hands over what Lark raised, the text and the ``locate`` callback; the messages name
what the grammar expects here ("a value", "':'", "the end of the line"), using the terminal
names declared in ``grammar.lark`` and, for words and punctuation, the text they match.
"""
from __future__ import annotations

import re
from collections.abc import Mapping

from lark import Token
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from rulelang.errors import Locate, SpecError, did_you_mean

#: A terminal's name to the text it matches, for the terminals that match one fixed text ("COLON" -> ":").
Literals = Mapping[str, str]


class BadDedent(Exception):
    """A line dedented to a column no enclosing block starts at (Lark raises a bare DedentError)."""

    def __init__(self, line: int, col: int, levels: list[int]):
        super().__init__(line, col, levels)
        self.line, self.col, self.levels = line, col, levels

#: Terminals that can start a value, a statement, or continue a value (operators).
_VALUE_START = {"NAME", "INT", "STRING", "LPAR", "LSQB", "MINUS", "NOT", "TRUE", "FALSE", "NONE", "ALL"}
_STATEMENT_START = {"MOVE", "DISCARD", "DRAW", "SHUFFLE", "ROLL", "EACH", "PLAY", "END", "CHECK", "PASS",
                    "IF", "FOR", "WHILE", "RETURN", "REROLL", "ADD", "REMOVE", "CHANGE", "CREATE", "REVEAL",
                    "ELIMINATE", "CANCEL"}
#: The words a statement can start with, for "no statement 'X'" (a statement may also start with a value).
STATEMENT_WORDS = ("move", "discard", "draw", "shuffle", "roll", "each", "play", "end", "check", "pass", "if",
                   "elif", "else", "for", "while", "return", "reroll", "add", "remove", "change", "create", "reveal",
                   "eliminate", "cancel")
_OPERATORS = {"ADDOP", "MULOP", "AUGOP", "EQUAL", "NOTEQUAL", "LESSTHAN", "LESSEQUAL", "MORETHAN", "MOREEQUAL",
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


def _describe(terminal: str, literals: Literals) -> str:
    if terminal in _WORDS:
        return _WORDS[terminal]
    if terminal in _ENDINGS:
        return _ENDINGS[terminal]
    if terminal in literals:
        return f"'{literals[terminal]}'"
    return terminal.lower()


def _expected_words(expected: set[str], literals: Literals) -> str:
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
    words += sorted(_describe(t, literals) for t in rest)
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


def syntax_error(error: UnexpectedInput, source: str, locate: Locate, literals: Literals) -> SpecError:
    """What went wrong where Lark stopped reading ``source``, with a hint when one helps."""
    line = getattr(error, "line", 1) or 1
    col = getattr(error, "column", 1) or 1
    if isinstance(error, UnexpectedToken):
        return _unexpected_token(error, source, locate, literals)
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
        return SpecError(f"the text ends too early; expected {_expected_words(set(error.expected), literals)}",
                         locate(line, col, None, None))
    return SpecError("cannot read this rule text", locate(line, col, None, None))


def _unexpected_token(error: UnexpectedToken, source: str, locate: Locate, literals: Literals) -> SpecError:
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
    message = f"unexpected {found}; expected {_expected_words(expected, literals)}"
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


def dedent_error(error: BadDedent, locate: Locate) -> SpecError:
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
