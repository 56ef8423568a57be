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
from pathlib import Path

#: Permission bits that let another user (group or others) into a folder or file.
_OPEN_TO_OTHERS = 0o077
_WRITABLE_BY_OTHERS = 0o022


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
    digest = hashlib.sha256()
    for part in ingredients:
        data = part.encode("utf-8") if isinstance(part, str) else part
        digest.update(len(data).to_bytes(8, "little"))
        digest.update(data)
    path = folder / f"{kind}-{digest.hexdigest()[:32]}"
    try:
        os.lstat(path)
    except FileNotFoundError:
        return path
    except OSError:
        return None
    return path if is_trustworthy(path) else None


def is_trustworthy(path: Path) -> bool:
    """A regular file (not a link) owned by this user, which no other user may write."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    return (stat.S_ISREG(info.st_mode) and info.st_uid == os.geteuid()
            and not info.st_mode & _WRITABLE_BY_OTHERS)
