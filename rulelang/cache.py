"""A cache folder only this user can write, for work worth keeping between runs.

A cached parser is a pickle, and unpickling runs code, so a cache file is read
only from a folder that is this user's own, not a link, and closed to everyone
else (mode 0700), and only when the file itself is a regular file of this user's
that nobody else may write. Anything less and the caller builds afresh: a cache
saves time, never correctness. The file name carries a hash of everything the
cached thing was built from, so a stale file is never picked up.

``RULELANG_CACHE_DIR`` names the folder (default: ``$XDG_CACHE_HOME/rulelang``,
else ``~/.cache/rulelang``); ``RULELANG_CACHE_DIR=off`` turns caching off.
"""
from __future__ import annotations

import hashlib
import os
import stat
import tempfile
from pathlib import Path

#: Permission bits that let another user (group or others) into a folder or file.
_OPEN_TO_OTHERS = 0o077
_WRITABLE_BY_OTHERS = 0o022
#: How many verdicts a kind keeps, newest last: the recent versions of the games a designer works on.
VERDICTS_KEPT = 256
#: A verdict is a digest in hex (``digest``) on a line of its own.
_VERDICT_LINE = 65


def cache_root() -> Path | None:
    """The configured cache folder, or None when caching is off or no home is known."""
    configured = os.environ.get("RULELANG_CACHE_DIR")
    if configured is not None:
        return None if configured.strip().lower() in ("", "off", "0", "no", "false") else Path(configured)
    base = os.environ.get("XDG_CACHE_HOME")
    if base and os.path.isabs(base):
        return Path(base) / "rulelang"
    try:
        return Path.home() / ".cache" / "rulelang"
    except (RuntimeError, KeyError):
        return None


def private_folder() -> Path | None:
    """The cache folder, created if needed, or None unless it is provably private to this user."""
    root = cache_root()
    if root is None:
        return None
    try:
        root.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.mkdir(root, 0o700)
        except FileExistsError:
            pass
        info = os.lstat(root)
    except OSError:
        return None
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid() or info.st_mode & _OPEN_TO_OTHERS:
        return None
    return root


def cache_file(kind: str, *ingredients: str | bytes) -> Path | None:
    """Where to keep a thing of this kind built from these ingredients, or None if no safe place exists.

    An existing file at that path is returned only if it is safe to read (see ``is_trustworthy``);
    otherwise None, and the caller neither reads nor overwrites it.
    """
    folder = private_folder()
    if folder is None:
        return None
    return _usable(folder / f"{kind}-{digest(*ingredients)[:32]}")


def digest(*ingredients: str | bytes) -> str:
    """A hash of the ingredients in hex; each is prefixed with its length, so no two lists run together."""
    hashed = hashlib.sha256()
    for part in ingredients:
        data = part.encode("utf-8") if isinstance(part, str) else part
        hashed.update(len(data).to_bytes(8, "little"))
        hashed.update(data)
    return hashed.hexdigest()


def _usable(path: Path) -> Path | None:
    """The path when nothing is there yet or what is there is safe to read (``is_trustworthy``), else None."""
    try:
        os.lstat(path)
    except FileNotFoundError:
        return path
    except OSError:
        return None
    return path if is_trustworthy(path) else None


# ---------------------------------------------------------------------------
# Verdicts: "this thing, by its digest, passed a check", kept one per line in one small file per kind


def has_verdict(kind: str, key: str) -> bool:
    """Whether ``key`` (a ``digest``) is among the verdicts kept for ``kind``; False wherever in doubt."""
    return key in _verdicts(kind)


def keep_verdict(kind: str, key: str) -> None:
    """Add ``key`` to the verdicts of ``kind``, dropping the oldest past ``VERDICTS_KEPT``.

    The file is replaced whole by a new one (written beside it, then renamed), so a reader sees the old
    list or the new one; two processes adding at once may lose one verdict, which costs one check again.
    """
    path = _verdict_path(kind)
    if path is None or len(key) != _VERDICT_LINE - 1:
        return
    kept = [line for line in _verdicts(kind) if line != key][-(VERDICTS_KEPT - 1):] + [key]
    try:
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{kind}-")
        try:
            with os.fdopen(handle, "w", encoding="ascii") as out:
                out.write("".join(line + "\n" for line in kept))
            os.replace(temporary, path)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError:
        pass                            # a verdict saves time only: nothing is lost without it


def _verdict_path(kind: str) -> Path | None:
    folder = private_folder()
    return None if folder is None else _usable(folder / f"{kind}-verdicts")


def _verdicts(kind: str) -> list[str]:
    """The verdicts kept for ``kind``, oldest first; none from a file that is not safe or not of verdicts."""
    path = _verdict_path(kind)
    if path is None:
        return []
    limit = VERDICTS_KEPT * _VERDICT_LINE
    try:
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return []
    try:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            return []
        data = os.read(handle, limit + 1)
    except OSError:
        return []
    finally:
        os.close(handle)
    lines = data.decode("ascii", "replace").split("\n")[:-1] if len(data) <= limit else []
    return [line for line in lines if len(line) == _VERDICT_LINE - 1 and all(c in "0123456789abcdef" for c in line)]


def is_trustworthy(path: Path) -> bool:
    """A regular file (not a link) owned by this user, which no other user may write."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    return (stat.S_ISREG(info.st_mode) and info.st_uid == os.geteuid()
            and not info.st_mode & _WRITABLE_BY_OTHERS)
