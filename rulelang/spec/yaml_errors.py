"""PyYAML's errors as plain sentences, located and with a hint.

PyYAML reports ``expected <block end>, but found '<scalar>'``; a designer
needs "bad indentation: this line does not line up with the lines above it"
with the line quoted and a caret. Each explainer recognises one family of
PyYAML messages and says what is wrong in words.
"""
from __future__ import annotations

import re
from typing import Any

import yaml

from rulelang.errors import Span, SpecError
from rulelang.spec.document import LINE_BREAK, SourceFile, line_at


def mark_span(in_file: SourceFile, mark: Any, end: Any = None) -> Span:
    """The span of a PyYAML mark (0-based) in the 1-based lines and columns of errors."""
    if end is None:
        return in_file.span(mark.line + 1, mark.column + 1)
    return in_file.span(mark.line + 1, mark.column + 1, end.line + 1, end.column + 1)


def reader_error(error: yaml.reader.ReaderError, text: str, in_file: SourceFile) -> SpecError:
    line, col = _offset_position(text, error.position)
    char = error.character
    code = f"U+{char:04X}" if isinstance(char, int) else repr(char)
    return SpecError(
        f"character {code} is not allowed in a YAML file",
        in_file.span(line, col, line, col + 1),
        "remove the control character (a stray copy-paste?)",
    )


def _offset_position(text: str, offset: int) -> tuple[int, int]:
    parts = LINE_BREAK.split(text[:offset])
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


def syntax_error(error: yaml.MarkedYAMLError, in_file: SourceFile) -> SpecError:
    """A located SpecError for a PyYAML scanner/parser/composer error."""
    problem = error.problem or error.context or "invalid YAML"
    mark = error.problem_mark or error.context_mark
    lines = in_file.lines
    where = mark_span(in_file, mark) if mark is not None else in_file.span(1, 1)
    tab = _tab_near(lines, mark)
    if tab is not None:
        line, col, leading = tab
        message = "tab character in indentation" if leading else "tab character where YAML expects a space"
        return SpecError(message, in_file.span(line, col, line, col + 1), "indent with spaces, not tabs")
    for matches, explain in _EXPLAINERS:
        if matches(error, problem):
            message, hint, span = explain(error, problem, in_file, where, lines)
            return _unbarred_text(lines, span.line, message, in_file) or SpecError(message, span, hint)
    context = f" ({_plain_words(error.context)})" if error.context else ""
    return SpecError(f"invalid YAML: {_plain_words(problem)}{context}", where)


#: The keys whose rule text is a block of lines: written over several lines, each line is a statement.
BLOCK_TEXT_KEYS = ("effect", "setup")
#: A key alone on its line, or with a plain value starting there (not '|', '>' or a quote).
_KEY_LINE = re.compile(r"^\s*(?:-\s+)?([A-Za-z_][\w-]*):(?:\s+([^\s#|>'\"].*))?\s*$")


def without_bar_hint(key: object, line: int) -> str:
    """What to say of a rule text whose lines YAML joined into one because its key has no '|'."""
    return f"'{key}' (line {line}) has no '|', so YAML joined its lines into one: write '{key}: |'"


def _unbarred_text(lines: list[str], number: int, message: str, in_file: SourceFile) -> SpecError | None:
    """The error for YAML's inside a rule text written over several lines without '|' (the ':' ending
    `for each p in players:` reads as a key there), at the key that lacks it; None for any other error.

    The key is the nearest line above the error's indented less than it, when it is a block text's key
    with no '|'.
    """
    indent = _indent(line_at(lines, number))
    for above in range(number - 1, 0, -1):
        text = line_at(lines, above)
        if not text.strip() or text.lstrip().startswith("#") or _indent(text) >= indent:
            continue
        key = _KEY_LINE.match(text)
        if key is None or key.group(1) not in BLOCK_TEXT_KEYS:
            return None
        name, col = key.group(1), key.start(1) + 1
        return SpecError(f"a rule text over several lines needs '|' after '{name}:'",
                         in_file.span(above, col, above, col + len(name) + 1),
                         f"write '{name}: |'; without it, YAML reads the lines as data ({message}, line {number})")
    return None


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip(" "))


def _tab_near(lines: list[str], mark: Any) -> tuple[int, int, bool] | None:
    """(line, col, in indentation?) of a tab in the error line's indentation, or at the error itself."""
    if mark is None:
        return None
    source = line_at(lines, mark.line + 1)
    leading = source[: len(source) - len(source.lstrip(" \t"))]
    if "\t" in leading:
        return mark.line + 1, leading.index("\t") + 1, True
    if source[mark.column : mark.column + 1] == "\t":
        return mark.line + 1, mark.column + 1, False
    return None


def _explain_unclosed_quote(error, problem, in_file, where, lines):
    start = error.context_mark
    quote = line_at(lines, start.line + 1)[start.column : start.column + 1] or '"'
    return (f"unclosed quote: this string has no closing {quote}", f"add the closing {quote}",
            mark_span(in_file, start))


_KEY_WITHOUT_COLON = re.compile(r"^(\s*(?:-\s+)?)([A-Za-z_][\w-]*)\s+[\[{]")


def _explain_map_value(error, problem, in_file, where, lines):
    source = line_at(lines, error.problem_mark.line + 1) if error.problem_mark else ""
    missing = _KEY_WITHOUT_COLON.match(source)
    if missing and ":" not in source[: missing.end()]:
        line = error.problem_mark.line + 1
        col = len(missing.group(1)) + len(missing.group(2)) + 1
        return (f"expected ':' after the key '{missing.group(2)}'", "a key is written 'name: value'",
                in_file.span(line, col, line, col + 1))
    return ("unexpected ':' here", "check this line's indentation; a value containing ': ' must be quoted", where)


def _explain_bad_indent(error, problem, in_file, where, lines):
    mark = error.problem_mark
    source = line_at(lines, mark.line + 1)
    if source[: mark.column].strip():
        return ("unexpected text after the value on this line", "put the whole value in quotes", where)
    return ("bad indentation: this line does not line up with the lines above it",
            "keys of one mapping, and items of one list, must start in the same column", where)


def _explain_no_colon(error, problem, in_file, where, lines):
    start = mark_span(in_file, error.context_mark) if error.context_mark else where
    return ("expected ':' after this key", "a key is written 'name: value'", start)


def _explain_bad_char(error, problem, in_file, where, lines):
    char = re.search(r"character '(.*)' that", problem)
    shown = char.group(1) if char else "this character"
    return (f"'{shown}' cannot start a value", "put the value in quotes", where)


def _explain_undefined_alias(error, problem, in_file, where, lines):
    name = re.search(r"alias '(.*)'", problem)
    shown = name.group(1) if name else "?"
    return (f"unknown alias '*{shown}'", f"an alias refers to an anchor '&{shown}' defined above it", where)


def _explain_duplicate_anchor(error, problem, in_file, where, lines):
    name = re.search(r"anchor '(.*)'", error.context or "")
    shown = name.group(1) if name else "?"
    first = error.context_mark.line + 1 if error.context_mark else "?"
    return (f"anchor '&{shown}' is defined twice", f"first defined on line {first}; give each anchor its own name", where)


def _explain_second_document(error, problem, in_file, where, lines):
    return ("a second YAML document starts here; a file holds one", "remove the '---' line", where)


def _explain_escape(error, problem, in_file, where, lines):
    char = re.search(r"character '(.*)'", problem)
    shown = char.group(1) if char else "?"
    return (f"unknown escape '\\{shown}' in a double-quoted string",
            "use single quotes, or write '\\\\' for a backslash", where)


def _explain_unclosed_flow(error, problem, in_file, where, lines):
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
