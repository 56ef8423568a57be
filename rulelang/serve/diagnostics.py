"""`POST api/check`: the errors of one unsaved text, found by the CLI's loader and checker.

The language server's checks (``rulelang.lsp.diagnose``: the file checked as what it is, game, include,
mod, scenario or policy, with the editor's text read in place of the file) need no pygls, so the page
gets the very diagnostics an editor gets. Each is located by 1-based lines and columns in the file it
is in, named by its path from the game's folder.
"""
from __future__ import annotations

import logging
import os
import threading
import time
from pathlib import Path
from typing import Any

from rulelang.errors import RulelangError, internal_error
from rulelang.lsp.diagnose import Checker
from rulelang.printable import printable, printable_lines
from rulelang.serve.folder import Folder

#: Held while a game's files are read: the overlay of unsaved texts is process-wide while a check runs,
#: so nothing else (a play, a job, the rulebook) may load the game meanwhile.
LOADING = threading.Lock()


class Diagnostics:
    """Checks unsaved texts of one game folder."""

    def __init__(self, folder: Folder) -> None:
        self.folder = folder
        self.checker = Checker()

    def check(self, relative: str, text: str) -> dict[str, Any]:
        """{"diagnostics": [...], "ms": time taken} for ``text`` in place of the file ``relative``."""
        path = self.folder.place(relative)
        started = time.perf_counter()
        with LOADING:
            self.checker.set_text(path, text)
            try:
                errors = self.checker.check(path).errors
            except Exception as error:  # noqa: BLE001 - a bug of rulelang is told on the file, not a crash
                logging.exception("checking %s", path)
                errors = [RulelangError(internal_error(error))]
            finally:
                self.checker.set_text(path, None)
        found = [self.diagnostic(error, path) for error in errors]
        return {"diagnostics": found, "ms": round((time.perf_counter() - started) * 1000, 1)}

    def saved(self, path: Path) -> list[dict[str, Any]]:
        """The diagnostics of a file as it now is on disk (after a save)."""
        with LOADING:
            self.checker.set_text(path, None)
            try:
                errors = self.checker.check(path).errors
            except Exception as error:  # noqa: BLE001 - as in check
                logging.exception("checking %s", path)
                errors = [RulelangError(internal_error(error))]
        return [self.diagnostic(error, path) for error in errors]

    def diagnostic(self, error: RulelangError, checked: Path) -> dict[str, Any]:
        """One error as the page shows it; an error with no place is put at the start of the checked file."""
        span = error.span
        file = Path(os.path.abspath(span.file)) if span is not None and span.file else checked
        line = span.line if span is not None and span.line and span.line > 0 else 1
        column = span.col if span is not None and span.line and span.col and span.col > 0 else 1
        end_line, end_column = line, column + 1
        if span is not None and span.end_line and span.end_col and (span.end_line, span.end_col) > (line, column):
            end_line, end_column = span.end_line, span.end_col
        message = printable_lines([error.message] + [f"note: {note}" for note in error.notes])
        return {"path": self.folder.shown(file),
                "line": line, "column": column, "end_line": end_line, "end_column": end_column,
                "severity": "warning" if error.kind == "warning" else "error",
                "message": message, "hint": printable(error.hint) if error.hint else ""}
