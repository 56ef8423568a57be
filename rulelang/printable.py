"""Text from a file as it may reach a terminal or a pipe: the one home of that filter.

Names, labels, messages and paths come from files a user may have downloaded. Written raw, a control
character in one can set the window title, clear the screen, move the cursor over earlier lines, plant a
link, flip the reading order (a right-to-left override) or forge a line of output (a line break). So
every piece of text that came from a file is passed through ``printable`` where it leaves for a terminal
or a pipe: each unsafe character becomes a visible escape (``\\x1b``, ``\\n``, ``\\u202e``), and nothing
else changes. A quoted source line under an error keeps its columns instead (``marked``), so its caret
still points at the right place. JSON output needs neither: JSON escapes these itself.

Rulelang's own layout (the line breaks between lines, a heading's blank line) is added around the
escaped text, never passed through it. Text drawn by rich goes in as ``rich.text.Text``, never as
markup, so a ``[/]`` in a name is just text.

Counts shown to people are worded here too (``counted``): "1 player", "2 players", wherever a number
of things is printed, so no message says "1 mods".
"""
from __future__ import annotations

import unicodedata
from collections.abc import Iterable

#: Unicode categories never written raw: controls (C0, DEL, C1: ESC, CR, BEL...), format characters
#: (bidi overrides and isolates, zero-width characters), lone surrogates (not even encodable) and the
#: line and paragraph separators.
UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


def is_unsafe(ch: str) -> bool:
    """Whether the character may change what a terminal shows beyond its own glyph."""
    return unicodedata.category(ch) in UNSAFE_CATEGORIES


def printable(text: str) -> str:
    """``text`` as one line of output: every unsafe character (line breaks and tabs included) is written
    as its escape, such as ``\\n``, ``\\x1b`` or ``\\u202e``; other text, backslashes included, is kept."""
    if text.isprintable():          # the usual case, at C speed (isprintable is False for every unsafe one)
        return text
    return "".join(_escape(ch) if is_unsafe(ch) else ch for ch in text)


def printable_lines(lines: Iterable[str]) -> str:
    """Lines joined with line breaks, each made ``printable``: a break inside one is shown, not followed."""
    return "\n".join(printable(line) for line in lines)


def marked(line: str) -> str:
    """A quoted source line with each unsafe character shown as U+FFFD, one column for one, so the caret
    under it lines up; a tab is kept (the caret line copies it), being harmless."""
    if line.isprintable():
        return line
    return "".join("\ufffd" if ch != "\t" and is_unsafe(ch) else ch for ch in line)


def counted(count: int, noun: str, plural: str | None = None, grouped: bool = False) -> str:
    """A count and its noun as people say it: ``1 player``, ``2 players``, ``0 players``.

    ``plural`` for a noun that does not just take an ``s`` (``entry``, ``entries``); ``grouped`` writes
    the number with thousands separators (``12,000 games``).
    """
    number = f"{count:,}" if grouped else str(count)
    return f"{number} {noun if count == 1 else plural or noun + 's'}"


def _escape(ch: str) -> str:
    return ch.encode("unicode_escape").decode("ascii")
