"""Between rulelang's places (1-based lines, 1-based columns in characters) and LSP's (0-based, UTF-16 units)."""
from __future__ import annotations

from lsprotocol import types

from rulelang.errors import Span


def utf16_units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def to_client_column(line: str | None, col: int) -> int:
    """A 0-based character index in ``line`` as UTF-16 units (the editor's count); as-is without the line."""
    if line is None:
        return col
    return utf16_units(line[:col]) + max(0, col - len(line))


def from_client_column(line: str, units: int) -> int:
    """A position in UTF-16 units on ``line`` as a 0-based character index."""
    count = 0
    for index, char in enumerate(line):
        if count >= units:
            return index
        count += 2 if ord(char) > 0xFFFF else 1
    return len(line)


def span_range(span: Span | None, line_text=lambda number: None) -> types.Range:
    """The editor's range of a span; a span of a whole file (line 0), or none, is the file's first character.

    ``line_text(number)`` gives a 1-based line of the span's file, to count UTF-16 units where it is known.
    """
    if span is None or span.line < 1:
        return types.Range(types.Position(0, 0), types.Position(0, 0))
    start_text = span.text if span.text is not None else line_text(span.line)
    start = types.Position(span.line - 1, to_client_column(start_text, max(span.col - 1, 0)))
    if span.end_line is None or span.end_col is None or (span.end_line, span.end_col) <= (span.line, span.col):
        end = types.Position(start.line, to_client_column(start_text, max(span.col, 1)))
    else:
        end_text = start_text if span.end_line == span.line else line_text(span.end_line)
        end = types.Position(span.end_line - 1, to_client_column(end_text, span.end_col - 1))
    return types.Range(start, end)
