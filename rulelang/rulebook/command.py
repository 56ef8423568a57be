"""`rulelang rules` and `rulelang explain`: their arguments and what they do.

`rules` prints the rulebook as Markdown (each line through ``printable``) or writes it to ``-o FILE.md`` or
``FILE.html``; the file is written beside its target and renamed over it, so a failed write never leaves
half a rulebook where an older one was.
"""
from __future__ import annotations

import argparse
import os
import stat
import sys
import tempfile
from pathlib import Path

from rulelang.errors import UsageError
from rulelang.spec.files import missing_path

from ..printable import printable_lines

#: The kinds of file `-o` writes, by their ending.
FORMATS = {".md": "markdown", ".markdown": "markdown", ".html": "html", ".htm": "html"}


def add_rules_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", metavar="PATH", help="the game (a folder or its game.yaml)")
    parser.add_argument("-o", "--output", metavar="FILE",
                        help="write the rulebook to FILE.md (Markdown) or FILE.html instead of printing it")


def add_explain_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", metavar="PATH", help="the game (a folder or its game.yaml)")
    parser.add_argument("name", metavar="NAME",
                        help="a card, step, procedure, function, trigger, end condition, ruling, variable, zone, "
                             "counter or die of the game (its id or its name; KIND:NAME, e.g. card:helper, "
                             "when two kinds share a name)")
    parser.add_argument("--coverage", action="store_true",
                        help="judge this entry's mutants against the game's scenarios: is it pinned? "
                             "(seconds to a minute)")


def cmd_rules(args: argparse.Namespace) -> int:
    """Print or write the rulebook made from the checked spec (and what each mod changes)."""
    from .book import make_book
    from .checked import load_checked
    from .modded import modded_book
    from .render import markdown, page

    _require_path(args.path)
    kind = _output_kind(args.output) if args.output else "markdown"
    book = modded_book(args.path, args.mods) if args.mods else make_book(load_checked(args.path))
    text = page(book) if kind == "html" else markdown(book)
    if args.output:
        write_whole(args.output, text)
        print(printable_lines([f"wrote {args.output}"]))
    else:
        sys.stdout.write(printable_lines(text.splitlines()) + "\n")
    return 0


def cmd_explain(args: argparse.Namespace) -> int:
    """Print all that is known of one name of the game."""
    from .explain import explain

    _require_path(args.path)
    sys.stdout.write(printable_lines(explain(args.path, args.name, args.mods, args.coverage)) + "\n")
    return 0


def _require_path(path: str) -> None:
    missing = missing_path(path)
    if missing:
        raise UsageError(missing)


def _output_kind(path: str) -> str:
    kind = FORMATS.get(Path(path).suffix.lower())
    if kind is None:
        raise UsageError(f"-o {path}: the file must end in .md or .html (Markdown or HTML)")
    return kind


def write_whole(path: str, text: str) -> None:
    """Write ``text`` to a private file beside ``path`` and rename it over ``path``: all of it or nothing.

    An existing ``path`` that is not a plain file (a folder, a FIFO, a device) is refused, not replaced.
    """
    target = Path(path)
    try:
        mode = os.lstat(target).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        raise UsageError(f"-o {path}: it exists and is not a plain file")
    handle, temporary = tempfile.mkstemp(prefix=".rulebook-", dir=target.parent if str(target.parent) else ".")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.chmod(temporary, 0o644)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
