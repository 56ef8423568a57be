"""The game folder's files as the page may read and write them: confined, never through a link, bounded.

A path from the page is POSIX and relative to the folder. It is refused when absolute, when it climbs
out (``..``), when any part of it is a link (even one that leads inside: what a link names can change
under us), when it is not a ``.yaml``, ``.yml`` or ``.md`` file, or when the file is not regular (a FIFO
or a device is never opened). Reads go through ``rulelang.spec.files``' careful reader; a write goes to a
private file in the same folder that is then renamed over the target, so a file is never half written.
"""
from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path, PurePosixPath

from rulelang.serve import ApiError
from rulelang.spec import files
from rulelang.spec.loader import MAX_SPEC_BYTES

#: The kinds of file the page may open and save.
TEXT_SUFFIXES = (".yaml", ".yml", ".md")
#: The careful reader itself, taken once: while a check runs, ``lsp.overlay`` puts the unsaved text in place
#: of ``files.read_confined`` for the loader, and a read for the page must still see the file on disk.
_read_confined = files.read_confined
#: The most files listed (a folder of thousands is not a game; the list stays small).
MAX_LISTED = 2000


class Folder:
    """One game folder (its real path): where every path the page names must lie."""

    def __init__(self, root: Path) -> None:
        self.root = files.real_folder(root)

    def place(self, relative: str, suffixes: tuple[str, ...] | None = TEXT_SUFFIXES) -> Path:
        """The path inside the folder that ``relative`` names, checked by name and part by part (no links)."""
        if not isinstance(relative, str) or not relative or "\\" in relative or "\0" in relative:
            raise _refused("is not a usable file name")
        name = PurePosixPath(relative)
        if name.is_absolute() or any(part in ("..", ".") for part in relative.split("/")) or "" in name.parts:
            raise ApiError(400, f"'{relative}' is not a path inside the game's folder",
                           "name a file by its path from the game's folder, such as scenarios/basic.yaml")
        if suffixes is not None and name.suffix.lower() not in suffixes:
            raise ApiError(400, f"'{relative}' is not a file the page edits", "only .yaml, .yml and .md files")
        path = self.root.joinpath(*name.parts)
        self._no_links(path)
        return path

    def _no_links(self, path: Path) -> None:
        """Refuse a path whose folders or file are links (a missing part is not checked: it cannot be one)."""
        walked = self.root
        for part in path.relative_to(self.root).parts:
            walked = walked / part
            try:
                mode = os.lstat(walked).st_mode
            except FileNotFoundError:
                return
            except OSError as error:
                raise _refused(f"cannot be looked at: {error.strerror or error}") from None
            if stat.S_ISLNK(mode):
                raise ApiError(403, f"'{self.shown(path)}' goes through a link",
                               "the page reads and writes the folder's own files, never through links")

    def shown(self, path: Path) -> str:
        """A path inside the folder as the page names it (POSIX, relative)."""
        try:
            return path.relative_to(self.root).as_posix()
        except ValueError:
            return str(path)

    def read_bytes(self, relative: str, limit: int = MAX_SPEC_BYTES, suffixes: tuple[str, ...] | None = TEXT_SUFFIXES
                   ) -> bytes:
        path = self.place(relative, suffixes)
        try:
            return _read_confined(path, [self.root], limit)
        except files.FileMissing:
            raise ApiError(404, f"'{relative}' cannot be found", "name a file of the game's folder") from None
        except files.FileRefused as refused:
            raise _refused(refused.reason, refused.hint, relative) from None

    def read_text(self, relative: str) -> str:
        return self.read_bytes(relative).decode("utf-8", errors="replace")

    def write_text(self, relative: str, text: str) -> Path:
        """Replace (or make) a file of the folder with ``text``, all of it or nothing."""
        path = self.place(relative)
        data = text.encode("utf-8")
        if len(data) > MAX_SPEC_BYTES:
            raise ApiError(413, f"the text is too large ({len(data):,} bytes)", f"at most {MAX_SPEC_BYTES:,} bytes")
        mode = self._writable_mode(path, relative)
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".saving", dir=path.parent)
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(data)
                out.flush()
                os.fsync(out.fileno())
            os.chmod(temporary, mode)
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        return path

    def _writable_mode(self, path: Path, relative: str) -> int:
        """The mode the saved file keeps: an existing file must be a regular one; a new one needs its folder."""
        try:
            info = os.lstat(path)
        except FileNotFoundError:
            if not path.parent.is_dir():
                raise ApiError(404, f"the folder of '{relative}' does not exist", "save into an existing folder") \
                    from None
            return 0o644
        if not stat.S_ISREG(info.st_mode):
            raise _refused("is not a regular file", "a game's files are plain text files", relative)
        return stat.S_IMODE(info.st_mode)

    def listing(self) -> list[Path]:
        """The folder's text files (no hidden folders, no links), sorted, at most MAX_LISTED."""
        found: list[Path] = []
        for folder, subfolders, names in os.walk(self.root, followlinks=False):
            subfolders[:] = sorted(name for name in subfolders if not name.startswith("."))
            for name in sorted(names):
                path = Path(folder) / name
                if path.suffix.lower() in TEXT_SUFFIXES and not name.startswith(".") and _regular(path):
                    found.append(path)
                    if len(found) >= MAX_LISTED:
                        return found
        return found


def _regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def _refused(reason: str, hint: str | None = None, relative: str | None = None) -> ApiError:
    named = f"'{relative}'" if relative is not None else "this file"
    return ApiError(403, f"{named} {reason}", hint or "name a plain file of the game's folder")
