"""The editor's text of open documents, read in place of the files on disk.

While a designer types, the file on disk is stale: the checks must see the text
held in the editor. ``rulelang.spec.files`` cannot take an overlay, so this thin layer
wraps its one reader of spec files, ``read_confined``, for the length of a check.
Every guarantee of the careful reader still holds for an open document: its name
must lie inside the allowed folders (``files.confine``: no link out, no ``..``
out), it must be a regular file on disk, and its text counts against the byte
limit. Only the bytes come from the editor.
"""
from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from rulelang.spec import files

_LOCK = threading.Lock()


def _overlaid_reader(texts: Mapping[Path, bytes], read=files.read_confined):
    """``files.read_confined`` that answers with the editor's bytes for the files in ``texts`` (real paths)."""

    def read_confined(path: Path, roots: Sequence[Path], limit: int) -> bytes:
        real = files.confine(path, roots)
        held = texts.get(real)
        if held is None:
            return read(path, roots, limit)
        files.check_regular(real)
        if len(held) > limit:
            raise files.FileTooLarge(len(held), limit)
        return held

    return read_confined


@contextlib.contextmanager
def editor_texts(texts: Mapping[Path, str]) -> Iterator[None]:
    """Within this block, every spec file read whose real path is a key of ``texts`` reads that text instead."""
    encoded = {Path(path): text.encode("utf-8") for path, text in texts.items()}
    with _LOCK:
        original = files.read_confined
        files.read_confined = _overlaid_reader(encoded, original)
        try:
            yield
        finally:
            files.read_confined = original
