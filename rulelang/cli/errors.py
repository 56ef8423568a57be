"""How the command reports what went wrong: usage errors, failures of rulelang itself, the last resort.

A usage error (``UsageError``: a bad option, a path that cannot be used at all) is one line and exit 2; a
failure of rulelang or of the machine is the one line of ``internal_error`` and exit 3; ``say`` prints
on stderr and stays silent if even that fails. The parser, ``main`` and every command share these, so
they sit apart from all of them.
"""
from __future__ import annotations

import os
import sys
from collections.abc import Callable

from rulelang.errors import UsageError, internal_error
from rulelang.spec.files import missing_path

__all__ = ["check_mods", "internal_error", "missing_path", "say", "silence_stdout"]


def check_mods(mods: list[str]) -> None:
    """A --mod that names nothing is a usage error, before any game is loaded."""
    for mod in mods:
        missing = missing_path(mod)
        if missing:
            raise UsageError(f"--mod: {missing}")


def say(message: Callable[[], str]) -> None:
    """Print a message on stderr; if even that fails (no memory, stderr closed), stay silent.

    A caller's lambda takes the names it reads as defaults (``lambda error=error: ...``): an ``except ... as``
    name is gone once its handler ends, and the default shows (to readers and linters) which one it means."""
    try:
        print(message(), file=sys.stderr)
    except BaseException:           # noqa: BLE001 - the last resort must not raise
        pass


def silence_stdout() -> None:
    """Point stdout at /dev/null so the final flush at exit does not complain about the closed pipe."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
