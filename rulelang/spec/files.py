"""Reading a game's files without trusting them: confined, regular, bounded.

A game folder may come from anyone. Its files may be links out of the folder
(to ``/etc/passwd``), link loops, FIFOs that block a reader forever, or devices
that never end (``/dev/zero``). So every spec file is read through
``read_confined``: its real path must lie inside an allowed folder (the game's
folder; later a mod's folder too), it must be a regular file, and at most the
size limit plus one byte is read. The checks are made again on the opened
handle, so a file swapped for a link or a FIFO between the check and the open
is refused as well. A refused file is never read, so no error can quote it.
"""
from __future__ import annotations

import errno
import os
import stat
from collections.abc import Sequence
from pathlib import Path

from rulelang.errors import Span, SpecError

#: Bytes in one file name, and in a whole path, on the usual file systems (NAME_MAX, PATH_MAX).
NAME_MAX = 255
PATH_MAX = 4096

#: Open for reading without following a final link, without blocking on a FIFO and without a terminal.
OPEN_FLAGS = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
              | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0))
_CHUNK = 1 << 20


class FileRefused(Exception):
    """Why a file cannot be used: ``reason`` completes a sentence that starts by naming the file."""

    def __init__(self, reason: str, hint: str | None = None):
        super().__init__(reason)
        self.reason = reason
        self.hint = hint


class FileOutside(FileRefused):
    """The file lies outside the allowed folders; ``through_link`` when its name is inside but a link leads out."""

    def __init__(self, reason: str, hint: str, through_link: bool):
        super().__init__(reason, hint)
        self.through_link = through_link


class FileMissing(FileRefused):
    """Nothing is there (callers say so in their own words, listing what is there instead)."""

    def __init__(self) -> None:
        super().__init__("cannot be found")


class FileTooLarge(FileRefused):
    """The file holds more bytes than the limit left for it; ``size`` is None when it grew while read."""

    def __init__(self, size: int | None, limit: int):
        shown = f"{size:,} bytes" if size is not None else f"more than {limit:,} bytes"
        super().__init__(f"is too large ({shown}; {limit:,} bytes are allowed)")
        self.size = size
        self.limit = limit


def real_folder(path: Path) -> Path:
    """The real path of a folder the user named (the root that a game's files must stay inside)."""
    real = _real_path(path)
    if not real.is_dir():
        raise FileRefused("is not a folder")
    return real


def confine(path: Path, roots: Sequence[Path]) -> Path:
    """The real path of ``path``, which must lie inside one of ``roots`` (real paths of folders).

    ``path`` is a real folder joined with a name as written (an include entry,
    say): a name that leads outside by its ``..`` is refused before anything
    outside is looked at, so the answer never tells whether a file exists elsewhere.
    """
    _check_name(path)
    where = _folders_words(roots)
    if not _inside_any(Path(os.path.abspath(path)), roots):
        raise FileOutside(f"is outside {where}", "name a file inside the game's folder", False)
    if not _inside_any(Path(os.path.realpath(path)), roots):
        raise _link_outside(where)
    real = _real_path(path)
    if not _inside_any(real, roots):
        raise _link_outside(where)
    return real


def _link_outside(where: str) -> FileOutside:
    return FileOutside(f"is a link that leads outside {where}",
                       "a game's files must be files of its own folder, not links to files elsewhere", True)


def look_at(path: Path) -> os.stat_result:
    """``os.stat`` (following links) of a path a user named, every failure a FileRefused in words.

    For commands that must tell a missing path (FileMissing) from a link loop
    or a name too long, instead of calling them all "no such file".
    """
    _check_name(path)
    try:
        return os.stat(path)
    except OSError as error:
        raise _refusal(error) from None


def check_regular(real: Path, wanted: str = "a YAML file") -> os.stat_result:
    """Refuse folders, FIFOs, devices and sockets before anything opens them (opening one may block or act)."""
    try:
        info = os.stat(real)
    except OSError as error:
        raise _refusal(error) from None
    _require_regular(info.st_mode, wanted)
    return info


def read_confined(path: Path, roots: Sequence[Path], limit: int) -> bytes:
    """The bytes of a regular file inside ``roots``, at most ``limit`` of them (else FileTooLarge).

    The file is opened once, without following a final link and without
    blocking, and what was opened is checked again through the handle: a
    regular file, the very file that was checked, still inside ``roots``.
    """
    real = confine(path, roots)
    checked = check_regular(real)
    if checked.st_size > limit:
        raise FileTooLarge(checked.st_size, limit)
    handle = _open_handle(real)
    try:
        _check_handle(handle, checked, roots)
        return read_at_most(handle, limit)
    finally:
        os.close(handle)


def _open_handle(real: Path) -> int:
    """Open without following a final link and without waiting for a writer (a FIFO swapped in)."""
    try:
        return os.open(real, OPEN_FLAGS)
    except OSError as error:
        if error.errno == errno.ELOOP:      # the checked file was replaced by a link since
            raise _changed() from None
        raise _refusal(error) from None


def _changed() -> FileRefused:
    return FileRefused("changed while it was being opened", "load the game again once nothing is changing it")


def read_spec_file(path: Path, roots: Sequence[Path], limit: int, shown: str | None = None) -> bytes:
    """``read_confined`` for a file the user named (or a caller found): a refusal is a located SpecError.

    The error points at the file as a whole and quotes nothing of it.
    """
    name = shown if shown is not None else str(path)
    try:
        return read_confined(real_folder(path.parent) / path.name, roots, limit)
    except FileRefused as refused:
        raise SpecError(f"this file {refused.reason}", whole_file(name), refused.hint) from None


def whole_file(name: str) -> Span:
    """A location naming a file but no line of it."""
    return Span(name, 0, 0)


# ---------------------------------------------------------------------------
# Helpers


def _real_path(path: Path) -> Path:
    """``os.path.realpath`` that insists every link resolves, with truthful refusals."""
    _check_name(path)
    try:
        return Path(os.path.realpath(path, strict=True))
    except OSError as error:
        if error.errno == errno.ENOENT and os.path.lexists(path):
            raise FileRefused("is a link to nothing: what it points at does not exist",
                              "replace the link with the file itself") from None
        raise _refusal(error) from None
    except (ValueError, UnicodeError):
        raise FileRefused("is not a usable file name", "name a YAML file of the game's folder") from None


def _check_name(path: Path) -> None:
    """Refuse names no file system takes, before the system is asked about them."""
    try:
        parts = [os.fsencode(part) for part in Path(path).parts]
    except (ValueError, UnicodeError):
        raise FileRefused("is not a usable file name", "name a YAML file of the game's folder") from None
    if any(b"\0" in part for part in parts):
        raise FileRefused("is not a usable file name", "a file name cannot hold a NUL character")
    longest = max((len(part) for part in parts), default=0)
    if longest > NAME_MAX:
        raise FileRefused(f"has a name too long for a file ({longest} bytes; the limit is {NAME_MAX})",
                          "use a shorter file name")
    if len(os.fsencode(os.path.abspath(path))) >= PATH_MAX:
        raise _refusal(OSError(errno.ENAMETOOLONG, "File name too long"))


def _refusal(error: OSError) -> FileRefused:
    """What an operating-system error means for a spec file, in words."""
    if error.errno in (errno.ENOENT, errno.ENOTDIR):
        return FileMissing()
    if error.errno == errno.ELOOP:
        return FileRefused("is a link loop: following its links never reaches a file",
                           "replace the link with the file it should name")
    if error.errno == errno.ENAMETOOLONG:
        return FileRefused("has a name too long for the file system", "use a shorter file name or a shorter path")
    if error.errno in (errno.EACCES, errno.EPERM):
        return FileRefused("cannot be read: permission denied", "check the file's permissions")
    return FileRefused(f"cannot be read: {error.strerror or error}")


_KINDS = [(stat.S_ISFIFO, "a FIFO (a named pipe)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")]


def _require_regular(mode: int, wanted: str = "a YAML file") -> None:
    if stat.S_ISREG(mode):
        return
    if stat.S_ISDIR(mode):
        raise FileRefused(f"is a folder, not {wanted}", f"name {wanted} inside it")
    kind = next((words for test, words in _KINDS if test(mode)), "something else")
    raise FileRefused(f"is not a regular file: it is {kind}", "a game's files are plain text files")


def read_regular(path: Path, limit: int) -> bytes:
    """The bytes of a regular file the user named anywhere (a log, a saved game), at most ``limit`` of them.

    No folder confines such a file, but it gets the same care as a spec file: a
    FIFO or device is refused before it is opened, the open never blocks, the
    handle is checked to be the file that was checked, and reading stops at the limit.
    """
    _check_name(path)
    real = _real_path(path)
    checked = check_regular(real, "a file")
    if checked.st_size > limit:
        raise FileTooLarge(checked.st_size, limit)
    handle = _open_handle(real)
    try:
        _check_same_regular(handle, checked)
        return read_at_most(handle, limit)
    finally:
        os.close(handle)


def _check_same_regular(handle: int, checked: os.stat_result) -> None:
    opened = os.fstat(handle)
    _require_regular(opened.st_mode)
    if (opened.st_dev, opened.st_ino) != (checked.st_dev, checked.st_ino):
        raise _changed()


def _check_handle(handle: int, checked: os.stat_result, roots: Sequence[Path]) -> None:
    """The opened file is regular, is the file that was checked, and (where the system says) lies inside."""
    _check_same_regular(handle, checked)
    where = _handle_path(handle)
    if where is not None and not _inside_any(where, roots):
        raise FileRefused(f"was moved outside {_folders_words(roots)} while it was being opened")


def _handle_path(handle: int) -> Path | None:
    """Where the system says an open file lies (Linux's /proc), or None when it cannot say."""
    try:
        target = os.readlink(f"/proc/self/fd/{handle}")
    except OSError:
        return None
    return Path(target) if target.startswith("/") else None


def read_at_most(handle: int, limit: int) -> bytes:
    """Read to the end, but never more than ``limit`` + 1 bytes (a file may grow while read)."""
    chunks: list[bytes] = []
    total = 0
    while True:
        try:
            chunk = os.read(handle, min(_CHUNK, limit + 1 - total))
        except OSError as error:
            raise _refusal(error) from None
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        total += len(chunk)
        if total > limit:
            raise FileTooLarge(None, limit)


def is_inside(path: Path, folder: Path) -> bool:
    """Whether ``path`` is ``folder`` or lies under it, by name (both already resolved, or both as written)."""
    return path == folder or folder in path.parents


def _inside_any(path: Path, roots: Sequence[Path]) -> bool:
    return any(is_inside(path, root) for root in roots)


def _folders_words(roots: Sequence[Path]) -> str:
    return "the game's folder" if len(roots) == 1 else "the folders of the game and its mods"


def missing_path(path: str) -> str | None:
    """The usage message for a path that cannot be used at all (missing, a link loop, a name too long)."""
    try:
        look_at(Path(path))
    except FileMissing:
        return f"no such file or folder: {path}"
    except FileRefused as refused:
        return f"'{path}' {refused.reason}"
    return None
