"""Writing `rulelang run --log FILE` so that no log is ever lost.

The events go to a private file beside FILE (same folder, so the rename is
atomic) and replace FILE only once written. An existing log is therefore never
truncated before the new one is ready. If writing fails half-way (a full disk,
an interrupt), what was written so far still lands in FILE, cut at the last
complete line, so the log always holds whole JSON lines: the game up to the
failure. A FILE that exists and is not a regular file (a FIFO, /dev/stdout)
is written directly, since a rename would replace the device itself.
"""
from __future__ import annotations

import errno
import json
import os
import stat
import tempfile
from collections.abc import Iterable

#: The system call that writes; tests replace it to fake a full disk.
_os_write = os.write


class LogPathError(Exception):
    """FILE cannot take a log at all (no such folder, a folder, no permission): nothing was played yet."""


class LogIncomplete(Exception):
    """Writing stopped part-way; ``written`` events (whole lines) are in the log."""

    def __init__(self, reason: str, written: int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.written = written


def event_line(event: dict) -> bytes:
    """One event as the log stores it: compact JSON with sorted keys, one line."""
    return (json.dumps(event, sort_keys=True, separators=(",", ":")) + "\n").encode("utf-8")


class LogFile:
    """A log being written for ``target``: open it before playing, then ``save`` the events once."""

    def __init__(self, target: str) -> None:
        self.target = target
        self.temp: str | None = None
        self.saved = False
        try:
            info = os.stat(target)
        except FileNotFoundError:
            info = None
        except OSError as error:
            raise LogPathError(_reason(error)) from None
        if info is not None and stat.S_ISDIR(info.st_mode):
            raise LogPathError("it is a folder")
        if info is not None and not os.access(target, os.W_OK):
            raise LogPathError("it is not writable")    # a rename would replace it regardless: refuse, as open would
        #: the file to replace: a link to a log is followed, so the link keeps pointing at the new log
        self.real = os.path.realpath(target)
        try:
            if info is not None and not stat.S_ISREG(info.st_mode):
                self.fd = _open_device(target)
            else:
                self.fd, self.temp = _open_beside(self.real, info)
        except OSError as error:
            raise LogPathError(_reason(error)) from None

    def save(self, events: Iterable[dict]) -> int:
        """Write the events and put the log in place; return how many were written.

        On a failure (``OSError``) raise ``LogIncomplete`` once the complete lines
        written so far are in the target; an interrupt lands them too, then goes on.
        """
        self.saved = True
        written = complete = 0
        failure: OSError | None = None
        try:
            for event in events:
                line = event_line(event)
                _write_all(self.fd, line)
                written += 1
                complete += len(line)
        except OSError as error:
            failure = error
        except BaseException:
            self._land(complete)
            raise
        try:
            self._land(complete)
        except OSError as error:
            raise LogIncomplete(f"cannot put it in place: {_reason(error)}", 0) from None
        if failure is not None:
            raise LogIncomplete(_reason(failure), written)
        return written

    def discard_unsaved(self) -> None:
        """If ``save`` never ran (the command stopped first), remove the private file; the target stays."""
        if self.saved:
            return
        self.saved = True
        _close(self.fd)
        if self.temp is not None:
            _remove(self.temp)

    def _land(self, size: int) -> None:
        """Cut the private file at the last complete line and rename it over the target."""
        if self.temp is None:
            _close(self.fd)
            return
        try:
            os.ftruncate(self.fd, size)
        except OSError:
            pass                      # a partial line stays; the rename below still keeps the rest
        _close(self.fd)
        try:
            os.replace(self.temp, self.real)
        except OSError:
            _remove(self.temp)
            raise


def _open_beside(real: str, info: os.stat_result | None) -> tuple[int, str]:
    """A new private file in the target's folder, with the mode the log will have."""
    folder, name = os.path.split(real)
    fd, temp = tempfile.mkstemp(prefix=f".{name}.", suffix=".partial", dir=folder or ".")
    try:
        os.fchmod(fd, stat.S_IMODE(info.st_mode) if info is not None else _default_mode())
    except OSError:
        pass                          # the log stays private (0600): still a log
    return fd, temp


def _open_device(real: str) -> int:
    """A FIFO or device, opened without blocking (a FIFO with no reader is refused, not waited on)."""
    fd = os.open(real, os.O_WRONLY | os.O_NONBLOCK | os.O_NOCTTY)
    os.set_blocking(fd, True)
    return fd


def _default_mode() -> int:
    """What a plain ``open(path, "w")`` would give: 0666 less the umask."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        done = _os_write(fd, view)
        if done <= 0:                 # no progress: treat it as a full disk rather than loop
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        view = view[done:]


def _close(fd: int) -> None:
    try:
        os.close(fd)
    except OSError:
        pass


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _reason(error: OSError) -> str:
    if error.errno == errno.ENXIO:
        return "it is a FIFO that no process reads"
    return error.strerror or str(error)
