"""The game's checks without building the game: what diagnostics need, fast enough to run on each edit.

``GameCompiler.compile`` parses every rule text, checks names and types, then
generates the code that runs the game. An editor needs the errors, not the code,
so ``QuickCompiler`` stops before generating (no error is found there: every
check comes first). Parsing is most of what is left, and an edit changes one
text or none: a parsed text is kept and reused while its text and its place in
its file (the lines it spans, as written) are the same, so its spans are too.
"""
from __future__ import annotations

import copy
from collections import OrderedDict
from typing import Any, Hashable

from rulelang.compiler import GameCompiler
from rulelang.document import Document
from rulelang.errors import SpecError

#: Parsed rule texts kept between checks (a game has a few hundred; several games may be open).
PARSES_KEPT = 4096

_PARSES: "OrderedDict[Hashable, Any]" = OrderedDict()


def _parse_key(doc: Document, path: tuple, text: str, block: bool) -> Hashable | None:
    """What a parse and its spans depend on: the text, its style and place, and its file's lines (None: unknown)."""
    info = doc._scalars.get(path)
    source = doc._sources.get(info.file) if info is not None else None
    if info is None or source is None:
        return None
    span = doc.span(path)
    last = span.end_line if span.end_line is not None else info.line
    return (block, text, info, tuple(source.lines[max(info.line - 1, 0):last]))


class QuickCompiler(GameCompiler):
    """``GameCompiler`` that checks everything and generates nothing, reusing the parses of unchanged texts."""

    def parse(self, job) -> None:
        key = _parse_key(self.doc, job.path, job.text.text, job.block)
        if key is not None and key in _PARSES:
            _PARSES.move_to_end(key)
            job.tree = copy.deepcopy(_PARSES[key])     # the checker writes types into a tree: keep the kept one clean
            return
        errors_before = len(self.errors)
        super().parse(job)
        if key is not None and job.tree is not None and len(self.errors) == errors_before:
            _PARSES[key] = copy.deepcopy(job.tree)
            while len(_PARSES) > PARSES_KEPT:
                _PARSES.popitem(last=False)

    def generate(self, jobs) -> None:
        """Nothing to generate: the checks are done."""


def check_compiles(doc: Document) -> None:
    """Raise every error ``compile_game`` would raise for ``doc`` (already schema-checked), without compiling."""
    try:
        QuickCompiler(doc).compile()
    except RecursionError:
        raise SpecError("the spec nests too deeply to compile", doc.span(()),
                        "split deep rule texts into functions or procedures") from None
