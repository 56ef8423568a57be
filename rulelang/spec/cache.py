"""A cache folder only this user can write, for work worth keeping between runs.

What is kept is plain data (JSON, lines of hex), never a pickle: a cache file can at worst give a wrong
answer, never run code. A wrong answer still matters (a verdict kept by someone else would skip the
schema check of their game), so a file is read only from a folder that is provably this user's alone,
and the proof is made on the very folder that is then read, not on its name:

- the folder's parent is opened and must be this user's (or root's) and closed to other users' writes,
  as ssh's StrictModes asks: group-writable only when the group is the user's own private group, and
  writable by everyone only with the sticky bit (``/tmp``), where nobody may rename another's folder;
- the folder is opened once, relative to that handle, without following a link, and the open handle must
  show a folder of this user's that nobody else may enter (mode 0700);
- each file is opened relative to the folder's handle, without following a link or waiting on a FIFO, and
  its handle must show a regular file of this user's that nobody else may write; at most a limit is read.

Whoever renames things in the parent changes names only, never the folder already open, so nothing can
be swapped between the check and the use. Anything less and the caller works afresh: a cache saves time,
never correctness. A file's name carries a hash of what it was built from, so a stale one is not used.

``RULELANG_CACHE_DIR`` names the folder (default: ``$XDG_CACHE_HOME/rulelang``, else
``~/.cache/rulelang``); ``RULELANG_CACHE_DIR=off`` turns caching off.
"""
from __future__ import annotations

import hashlib
import os
import secrets
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from rulelang.spec.files import OPEN_FLAGS, FileRefused, read_at_most

#: Permission bits that let another user (group or others) into a folder, or write to a file or folder.
_OPEN_TO_OTHERS = 0o077
_WRITABLE_BY_OTHERS = 0o022
_FOLDER_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)
_NEW_FILE_FLAGS = (os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
                   | getattr(os, "O_NOFOLLOW", 0))
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


def digest(*ingredients: str | bytes) -> str:
    """A hash of the ingredients in hex; each is prefixed with its length, so no two lists run together."""
    hashed = hashlib.sha256()
    for part in ingredients:
        data = part.encode("utf-8") if isinstance(part, str) else part
        hashed.update(len(data).to_bytes(8, "little"))
        hashed.update(data)
    return hashed.hexdigest()


def read(name: str, limit: int) -> bytes | None:
    """The bytes of the cache file ``name`` (at most ``limit``), or None unless it is provably safe to read."""
    _check_name(name)
    with _private_folder() as folder:
        return None if folder is None else _read_in(folder, name, limit)


def write(name: str, data: bytes) -> None:
    """Keep ``data`` as the cache file ``name``, whole or not at all; nothing when no private folder exists.

    The file is written beside its place under a fresh name, then renamed over it, so a reader sees the
    old bytes or the new ones. A file in the way that is not safe to read is left alone, not replaced.
    """
    _check_name(name)
    with _private_folder() as folder:
        if folder is not None and _free_or_ours(folder, name):
            _replace_in(folder, name, data)


# ---------------------------------------------------------------------------
# Verdicts: "this thing, by its digest, passed a check", kept one per line in one small file per kind


def has_verdict(kind: str, key: str) -> bool:
    """Whether ``key`` (a ``digest``) is among the verdicts kept for ``kind``; False wherever in doubt."""
    return key in _verdicts(kind)


def keep_verdict(kind: str, key: str) -> None:
    """Add ``key`` to the verdicts of ``kind``, dropping the oldest past ``VERDICTS_KEPT``.

    Two processes adding at once may lose one verdict, which costs one check again.
    """
    if len(key) != _VERDICT_LINE - 1:
        return
    kept = [line for line in _verdicts(kind) if line != key][-(VERDICTS_KEPT - 1):] + [key]
    write(f"{kind}-verdicts", "".join(line + "\n" for line in kept).encode("ascii"))


def _verdicts(kind: str) -> list[str]:
    """The verdicts kept for ``kind``, oldest first; none from a file that is not safe or not of verdicts."""
    data = read(f"{kind}-verdicts", VERDICTS_KEPT * _VERDICT_LINE)
    if data is None:
        return []
    lines = data.decode("ascii", "replace").split("\n")[:-1]
    return [line for line in lines if len(line) == _VERDICT_LINE - 1 and all(c in "0123456789abcdef" for c in line)]


# ---------------------------------------------------------------------------
# The folder and its files, through handles


@contextmanager
def _private_folder() -> Iterator[int | None]:
    """A handle on the cache folder (created if need be), or None unless it is provably this user's alone."""
    root = cache_root()
    handle = None if root is None else _open_private(Path(os.path.abspath(root)))
    try:
        yield handle
    finally:
        if handle is not None:
            os.close(handle)


def _open_private(root: Path) -> int | None:
    """Open ``root`` through a checked handle on its parent, then check what was opened; None if unsafe."""
    if root.name in ("", ".", ".."):
        return None
    try:
        os.makedirs(root.parent, exist_ok=True)
        parent = os.open(root.parent, _FOLDER_FLAGS)
    except OSError:
        return None
    try:
        if not _is_safe_parent(os.fstat(parent)):
            return None
        try:
            os.mkdir(root.name, 0o700, dir_fd=parent)
        except FileExistsError:
            pass
        folder = os.open(root.name, _FOLDER_FLAGS | getattr(os, "O_NOFOLLOW", 0), dir_fd=parent)
    except OSError:
        return None
    finally:
        os.close(parent)
    if _is_private_folder(os.fstat(folder)):
        return folder
    os.close(folder)
    return None


def _is_safe_parent(info: os.stat_result) -> bool:
    """Nobody but this user (and root) may rename what the folder holds (ssh's StrictModes rule)."""
    if not stat.S_ISDIR(info.st_mode) or info.st_uid not in (os.geteuid(), 0):
        return False
    if info.st_mode & stat.S_ISVTX:
        return True                     # like /tmp: others may add names, but not move this user's
    if info.st_mode & stat.S_IWOTH:
        return False
    return not info.st_mode & stat.S_IWGRP or _is_own_private_group(info.st_gid)


def _is_own_private_group(gid: int) -> bool:
    """Whether ``gid`` is this user's private group: named after the user, with no other member listed."""
    try:
        import grp
        import pwd
        me = pwd.getpwuid(os.geteuid())
        group = grp.getgrgid(gid)
    except (ImportError, KeyError):
        return False
    return gid == me.pw_gid and group.gr_name == me.pw_name and set(group.gr_mem) <= {me.pw_name}


def _is_private_folder(info: os.stat_result) -> bool:
    return stat.S_ISDIR(info.st_mode) and info.st_uid == os.geteuid() and not info.st_mode & _OPEN_TO_OTHERS


def _is_trustworthy(info: os.stat_result) -> bool:
    """A regular file (not a link) owned by this user, which no other user may write."""
    return (stat.S_ISREG(info.st_mode) and info.st_uid == os.geteuid()
            and not info.st_mode & _WRITABLE_BY_OTHERS)


def _read_in(folder: int, name: str, limit: int) -> bytes | None:
    try:
        handle = os.open(name, OPEN_FLAGS, dir_fd=folder)
    except OSError:
        return None
    try:
        return read_at_most(handle, limit) if _is_trustworthy(os.fstat(handle)) else None
    except (OSError, FileRefused):
        return None
    finally:
        os.close(handle)


def _free_or_ours(folder: int, name: str) -> bool:
    """Nothing is at ``name`` in the folder, or what is there is a file safe to read (so ours to replace)."""
    try:
        info = os.stat(name, dir_fd=folder, follow_symlinks=False)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return _is_trustworthy(info)


def _replace_in(folder: int, name: str, data: bytes) -> None:
    temporary = f".{name}-{secrets.token_hex(8)}"
    try:
        handle = os.open(temporary, _NEW_FILE_FLAGS, 0o600, dir_fd=folder)
    except OSError:
        return
    try:
        with open(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, name, src_dir_fd=folder, dst_dir_fd=folder)
    except BaseException as error:
        try:
            os.unlink(temporary, dir_fd=folder)
        except OSError:
            pass
        if not isinstance(error, OSError):
            raise                       # an OSError only loses time: the cache is not needed


def _check_name(name: str) -> None:
    """Cache files are named by the engine: one plain name, never a path."""
    if not name or name in (".", "..") or "/" in name or "\0" in name:
        raise ValueError(f"not a cache file name: {name!r}")
