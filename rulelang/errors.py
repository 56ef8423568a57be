"""One error type for everything a spec, a scenario or a game can get wrong.

Every error carries a span in a source file, so the CLI can print it the way
compilers do: ``file:line:col: error: message``, the source line, a caret
under the span, and a hint when one helps. The span brings the source line
with it (``Span.text``, filled where the span is made from the file's text,
see ``document.SourceFile``), so an error prints itself with nothing looked up.
"""
from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from .printable import marked, printable


@dataclass(frozen=True)
class Span:
    """A place in a file: 1-based line and column; ``end_col`` is exclusive.

    Line 0 names the file as a whole (a file that could not be read): nothing of it is quoted.
    ``text`` is the file's line ``line``, quoted under an error; None when the file's text was
    not at hand where the span was made (it takes no part in comparing spans).
    """

    file: str
    line: int
    col: int
    end_line: int | None = None
    end_col: int | None = None
    text: str | None = field(default=None, compare=False, repr=False, kw_only=True)

    def __str__(self) -> str:
        if self.line < 1:
            return self.file
        return f"{self.file}:{self.line}:{self.col}"


#: Maps a (line, col, end_line, end_col) inside a rule text to a span in the file the text came from.
Locate = Callable[[int, int, "int | None", "int | None"], Span]


class UsageError(Exception):
    """A mistake in how rulelang was called (a bad option, a path that cannot be used at all, a param value the
    game refuses): its message is one line, and the command's exit code is 2. The one type for all of them, so
    the command catches one thing."""


class RulelangError(Exception):
    """Base of every error rulelang reports to a user."""

    kind = "error"

    def __init__(self, message: str, span: Span | None = None, hint: str | None = None,
                 notes: list[str] | None = None):
        super().__init__(message)
        self.message = message
        self.span = span
        self.hint = hint
        #: Extra facts printed after the hint as ``note:`` lines (e.g. how to replay a game).
        self.notes: list[str] = list(notes or [])

    def format(self) -> str:
        """The gcc-style report: location, message, source line, caret, hint, notes.

        Each line is made printable (``printable``): the file name, the message, the hint and the
        notes may all quote a file, and a line break in one is shown, never followed.
        """
        where = f"{self.span}: " if self.span else ""
        out = [printable(f"{where}{self.kind}: {self.message}")]
        if self.span is not None and self.span.text is not None:
            out.extend(_excerpt(self.span.text, self.span))
        if self.hint:
            out.append(printable(f"hint: {self.hint}"))
        out.extend(printable(f"note: {note}") for note in self.notes)
        return "\n".join(out)

    def __str__(self) -> str:
        return self.format()


#: Source lines longer than this are shown as a window around the caret.
MAX_SHOWN = 120


def _excerpt(text: str, span: Span) -> list[str]:
    """The source line and a caret line under the span; a long line is cut to a window around it."""
    start = min(max(span.col - 1, 0), len(text))
    if span.end_line in (None, span.line) and span.end_col and span.end_col > span.col:
        width = span.end_col - span.col
    else:
        width = 1
    prefix = suffix = ""
    if len(text) > MAX_SHOWN:
        left = max(0, start - MAX_SHOWN // 3)
        right = min(len(text), left + MAX_SHOWN)
        prefix = "..." if left > 0 else ""
        suffix = "..." if right < len(text) else ""
        text, start = text[left:right], start - left
    pad = " " * len(prefix) + "".join("\t" if ch == "\t" else " " for ch in text[:start])
    caret = pad + "^" * max(1, min(width, max(1, len(text) - start)))
    return [prefix + marked(text) + suffix, caret]


class SpecError(RulelangError):
    """A mistake in a game spec, found while loading or checking it."""


class SpecWarning(SpecError):
    """Something a spec declares but never uses, or asks for but never reaches: the game runs, but likely not
    as its author meant. Printed like an error; `validate --strict` makes it one."""

    kind = "warning"


class RuleError(RulelangError):
    """A rule that went wrong while a game was being played."""


class ScenarioError(RulelangError):
    """A scenario file that cannot be run."""


def closest(name: str, choices: Iterable[str]) -> str | None:
    """The known name closest to ``name``, if any is close enough."""
    close = difflib.get_close_matches(name, sorted(set(choices)), n=1, cutoff=0.6)
    return close[0] if close else None


def did_you_mean(name: str, choices: Iterable[str]) -> str | None:
    """A hint naming the closest known name, if any is close enough."""
    close = closest(name, choices)
    return f"did you mean '{close}'?" if close else None


#: The most names a hint lists when none is close to the one written.
MOST_LISTED = 8


def listed(names: Iterable[str], most: int = MOST_LISTED) -> str:
    """Names for a hint, in the order given, the first ``most`` of them: ``deck, pile, hand``."""
    unique = list(dict.fromkeys(names))
    return ", ".join(unique[:most]) + (", ..." if len(unique) > most else "")


def did_you_mean_or_list(name: str, choices: Iterable[str], what: str, home: str | None = None) -> str | None:
    """The closest known name, else the known ones listed (``known zones: deck, pile``): a hint that teaches
    what may be written there even when the name is far from all of them. ``home`` is the key new ones are
    declared under, said too; None when nothing is known nor a home given."""
    choices = list(dict.fromkeys(choices))
    close = did_you_mean(name, choices)
    if close:
        return close
    declare = f"declare it under '{home}:'" if home else None
    if not choices:
        return declare
    return f"known {what}: {listed(choices)}" + (f"; or {declare}" if declare else "")


class ErrorList(RulelangError):
    """Several errors found in one pass, reported together in file order."""

    def __init__(self, errors: list[RulelangError]):
        self.errors = in_file_order(errors)
        first = self.errors[0]
        super().__init__(first.message, first.span, first.hint)
        self.kind = first.kind

    def format(self) -> str:
        return "\n".join(e.format() for e in self.errors)


def in_file_order(errors: Iterable[RulelangError]) -> list[RulelangError]:
    """Errors sorted by file, line and column (those with no place first)."""
    return sorted(errors, key=_error_order)


def _error_order(error: RulelangError) -> tuple:
    span = error.span
    return (span.file, span.line, span.col) if span else ("", 0, 0)


def raise_all(errors: list[RulelangError], one_per_place: bool = True) -> None:
    """Raise nothing, the one error, or all of them together (by default one per place: see ``first_per_place``)."""
    if one_per_place:
        errors = first_per_place(errors)
    if len(errors) == 1:
        raise errors[0]
    if errors:
        raise ErrorList(errors)


def first_per_place(errors: list[RulelangError]) -> list[RulelangError]:
    """Keep the first error reported at each file position.

    A mistake found first ("unknown name 'dekc'") makes the checks that follow
    at the same place fail too ("the zone drawn from must be a zone, not none");
    those say nothing new and bury the real message.
    """
    seen: set[tuple] = set()
    out: list[RulelangError] = []
    for error in errors:
        place = _error_order(error) if error.span is not None else None
        if place is None or place not in seen:
            out.append(error)
        if place is not None:
            seen.add(place)
    return out


def shown(value: int) -> str:
    """A number for a message: in full when short, else by its size (str() of a huge int is slow or refused)."""
    if abs(value) < 10 ** 30:
        return f"{value:,}"
    if value.bit_length() < 14_000:         # under Python's 4,300-digit limit for str()
        return f"a number of {len(str(abs(value))):,} digits"
    return "a number of more than 4,000 digits"


def internal_error(error: BaseException) -> str:
    """The one line shown for a failure of rulelang itself (or of the machine): the command's and the
    language server's last resort, never a traceback."""
    if isinstance(error, MemoryError):
        what = "out of memory"
    elif isinstance(error, RecursionError):
        what = "Python's recursion limit was reached (RecursionError)"
    else:
        what = f"{type(error).__name__}: {error}"
    return printable(f"rulelang: internal error: {what} (please report it with the command that caused it)")
