"""The game's checks without building the game: what diagnostics need, fast enough to run on each edit.

Loading parses the YAML of every file of the game; an edit changes one. Within
``kept_files()`` a file whose bytes were loaded before is not parsed again: the
loader gets a fresh copy of what it made then (its data and positions), and the
budget of the whole spec is charged what that file cost, or, where the charge
would come near a limit, the file is loaded afresh so the limit speaks as usual.

The check stage (``check.game``) parses every rule text and checks names and
types; the compiler then generates the code that runs the game. An editor needs
the errors, not the code, so ``QuickChecker`` runs the check stage alone (no
error is found while generating: every check comes first). Parsing is most of what is left, and an edit changes one
text or none: a parsed text is kept and reused while its text and its place in
its file (the lines it spans, as written) are the same, so its spans are too.
"""
from __future__ import annotations

import contextlib
import copy
import pickle
import threading
from collections import OrderedDict
from collections.abc import Hashable, Iterator

from rulelang.check.game import GameChecker
from rulelang.errors import RulelangError, SpecError
from rulelang.spec import loader
from rulelang.spec.budget import Budget
from rulelang.spec.document import Document

#: Parsed rule texts kept between checks (a game has a few hundred; several games may be open).
PARSES_KEPT = 4096

_PARSES: OrderedDict[Hashable, bytes] = OrderedDict()     # a parse as this process pickled it (faster to copy)

#: Loaded files kept between checks, by name and bytes.
FILES_KEPT = 256
_FILES: OrderedDict[tuple[str, bytes], tuple[Document, tuple[int, ...]]] = OrderedDict()
_COUNTS = ("bytes", "lines", "values", "aliases")
_LOCK = threading.Lock()


def _fresh(doc: Document) -> Document:
    """A copy the loader may change (it pops ``include``, merges, drops positions) without touching the kept one."""
    return Document(copy.deepcopy(doc.data), doc.path, dict(doc._spans), dict(doc._key_spans), dict(doc._scalars),
                    dict(doc._sources))


def _kept_loader(load):
    def load_file(raw: bytes, file: str, budget: Budget) -> Document:
        key = (file, raw)
        kept = _FILES.get(key)
        if kept is not None and all(getattr(budget, name) + cost < getattr(budget.limits, name)
                                    for name, cost in zip(_COUNTS, kept[1])):
            _FILES.move_to_end(key)
            for name, cost in zip(_COUNTS, kept[1]):
                setattr(budget, name, getattr(budget, name) + cost)
            return _fresh(kept[0])
        before = [getattr(budget, name) for name in _COUNTS]
        doc = load(raw, file, budget)
        _FILES[key] = (_fresh(doc), tuple(getattr(budget, name) - was for name, was in zip(_COUNTS, before)))
        while len(_FILES) > FILES_KEPT:
            _FILES.popitem(last=False)
        return doc

    return load_file


@contextlib.contextmanager
def kept_files() -> Iterator[None]:
    """Within this block the loader reuses what it made of a file whose name and bytes it has loaded before."""
    with _LOCK:
        original = loader.load_file
        loader.load_file = _kept_loader(original)
        try:
            yield
        finally:
            loader.load_file = original


def _parse_key(doc: Document, path: tuple, text: str, block: bool) -> Hashable | None:
    """What a parse and its spans depend on: the text, its style and place, and its file's lines (None: unknown)."""
    info = doc._scalars.get(path)
    source = doc._sources.get(info.file) if info is not None else None
    if info is None or source is None:
        return None
    span = doc.span(path)
    last = span.end_line if span.end_line is not None else info.line
    return (block, text, info, tuple(source.lines[max(info.line - 1, 0):last]))


class QuickChecker(GameChecker):
    """The check stage (``check.game``), reusing the parses of unchanged texts."""

    def parse(self, job) -> None:
        key = _parse_key(self.doc, job.path, job.text.text, job.block)
        if key is not None and key in _PARSES:
            _PARSES.move_to_end(key)
            job.tree = pickle.loads(_PARSES[key])       # a fresh tree: the checker writes types and refs into it
            return
        errors_before = len(self.errors)
        super().parse(job)
        if key is not None and job.tree is not None and len(self.errors) == errors_before:
            _PARSES[key] = pickle.dumps(job.tree, pickle.HIGHEST_PROTOCOL)   # made here, read only here
            while len(_PARSES) > PARSES_KEPT:
                _PARSES.popitem(last=False)


def check_compiles(doc: Document) -> list[RulelangError]:
    """Raise every error ``compile_game`` would raise for ``doc`` (already schema-checked), without compiling;
    return its warnings (shown as such)."""
    try:
        return QuickChecker(doc).run().warnings
    except RecursionError:
        raise SpecError("the spec nests too deeply to compile", doc.span(()),
                        "split deep rule texts into functions or procedures") from None
