"""Load a game's YAML files into one plain document that remembers where every value came from.

A game is a folder: its ``game.yaml`` and the files it names under ``include:``,
merged into one ``Document`` (lists concatenate, mappings join, nothing is
defined twice). Every file is read through ``rulelang.spec.files``: a regular file
whose real path lies inside the game's folder, so a link out of it, a FIFO or a
device is a located error that quotes nothing of it. The limits on bytes,
lines, values, aliases and files hold for all the files of a game together
(``rulelang.spec.yamlfile`` turns each file into data and counts them).
"""
from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulelang.errors import ErrorList, RulelangError, Span, SpecError, did_you_mean, raise_all
from rulelang.spec import files
from rulelang.spec.budget import Budget, Limits
from rulelang.spec.document import Document
from rulelang.spec.groups import expand_card_groups
from rulelang.spec.yamlfile import load_file

__all__ = ["Document", "load_document", "load_tree", "read_spec_file"]

#: The main file of a game's folder.
GAME_FILE = "game.yaml"

read_spec_file = files.read_spec_file

# Limits on a whole spec: the main file and all its includes together. The largest game
# here is about 20 KB, 700 lines and 1,300 values; the pure-Python YAML parser composes
# about 30,000 values, or scans about 100,000 blank lines, a second on a busy machine,
# so reaching a limit and refusing takes about a second whatever the files hold
# (figures: bench/hostile_loads.py).
MAX_SPEC_BYTES = 2 * 1024 * 1024
MAX_LINES = 100_000
MAX_NODES = 30_000          # values (mapping keys count), aliases expanded
MAX_ALIASES = 10_000
MAX_FILES = 200
MAX_DEPTH = 100
MAX_INCLUDE_DEPTH = 20


# ---------------------------------------------------------------------------
# Reading files


def new_budget() -> Budget:
    """A fresh budget for one spec, with the limits as this module sets them now (tests lower them)."""
    return Budget(Limits(bytes=MAX_SPEC_BYTES, lines=MAX_LINES, values=MAX_NODES, aliases=MAX_ALIASES,
                         depth=MAX_DEPTH))


def _read_raw(real: Path, file: str, roots: tuple[Path, ...], budget: Budget) -> bytes:
    """The bytes of a spec file through the safe reader; a file past the byte budget is a located error."""
    try:
        return files.read_confined(real, roots, budget.bytes_left())
    except files.FileTooLarge as big:
        raise _too_large(big, file, budget) from None
    except files.FileRefused as refused:
        raise SpecError(f"this file {refused.reason}", files.whole_file(file), refused.hint) from None


def _too_large(big: files.FileTooLarge, file: str, budget: Budget) -> SpecError:
    budget.spent = True
    limit = f"{budget.limits.bytes / 2**20:g} MB"
    if big.size is None:
        message = f"file grew past the {limit} limit while it was being read"
    elif budget.bytes:
        message = (f"file is too large ({big.size / 2**20:.1f} MB): with the files read before it "
                   f"({budget.bytes / 2**20:.1f} MB) the game passes its limit of {limit} for all files together")
    else:
        message = f"file is too large ({big.size / 2**20:.1f} MB; the limit is {limit})"
    return SpecError(message, Span(file, 1, 1), "a game spec is far smaller; check for generated data")


def _folder_hint(missing: Path, suggest: bool = True) -> str | None:
    """List the YAML files next to a missing file, naming the closest one."""
    names = _yaml_files(missing.parent)
    if not names:
        return None
    close = did_you_mean(missing.name, names) if suggest else None
    listing = "YAML files there: " + ", ".join(names)
    return f"{close} {listing}" if close else listing


def _yaml_files(folder: Path, exclude: Path | None = None) -> list[str]:
    """The YAML files of a folder, by name (for hints); nothing when it cannot be listed."""
    try:
        return sorted(p.name for p in folder.iterdir()
                      if p.suffix in (".yaml", ".yml") and p.is_file() and p != exclude)
    except (OSError, ValueError):
        return []


# ---------------------------------------------------------------------------
# Includes


@dataclass
class _Includer:
    """Follows ``include:`` from the main file, keeping every file inside the allowed folders.

    ``roots`` are real paths: the game's folder first (a mod's folder may follow).
    """

    roots: tuple[Path, ...]
    shown_root: Path    # the game folder as the user wrote it
    budget: Budget = field(default_factory=new_budget)
    errors: list[RulelangError] = field(default_factory=list)
    included: dict[Path, Span] = field(default_factory=dict)

    def shown(self, real: Path) -> str:
        if files.is_inside(real, self.roots[0]):
            return str(self.shown_root / real.relative_to(self.roots[0]))
        return str(real)

    def load(self, real: Path, raw: bytes, chain: tuple[Path, ...]) -> Document:
        doc = load_file(raw, self.shown(real), self.budget)
        entries = doc.data.pop("include", None)
        if entries is None:
            return doc
        for entry, entry_path in self._entries(doc, entries):
            if self.budget.spent or self._out_of_files(doc.span(entry_path), chain):
                break
            target = self._target(doc, real, entry, entry_path, chain)
            if target is not None:
                self._include(doc, target, chain + (real,))
        _drop_positions(doc, "include")
        return doc

    def _entries(self, doc: Document, entries: Any) -> list[tuple[str, tuple]]:
        if isinstance(entries, str):
            return [(entries, ("include",))]
        if isinstance(entries, list):
            good = [(e, ("include", i)) for i, e in enumerate(entries) if isinstance(e, str)]
            if len(good) > MAX_FILES:
                self.errors.append(SpecError(f"'include' names {len(good):,} files; a game has at most {MAX_FILES}",
                                             doc.span(("include",)), "merge some of the files"))
                return []
            if len(good) == len(entries):
                return good
        self.errors.append(SpecError("'include' must be a file name or a list of file names",
                                     doc.span(("include",)), "include: [cards.yaml, zones.yaml]"))
        return []

    def _out_of_files(self, span: Span, chain: tuple[Path, ...]) -> bool:
        """True (once reported) when one more include would pass the limits on files or nesting."""
        if len(self.included) < MAX_FILES and len(chain) < MAX_INCLUDE_DEPTH:
            return False
        self.errors.append(SpecError("too many included files", span,
                                     f"at most {MAX_FILES} files, included at most {MAX_INCLUDE_DEPTH} deep"))
        return True

    def _target(self, doc: Document, real: Path, entry: str, at: tuple, chain: tuple[Path, ...]) -> Path | None:
        """The real file an include entry names, or None after reporting why it cannot be used."""
        span = doc.span(at)
        if Path(entry).is_absolute() or entry.startswith(("/", "\\")):
            self.errors.append(SpecError(f"include '{entry}' must be a path relative to this file", span,
                                         "name a file inside the game's folder"))
            return None
        try:
            target = files.confine(real.parent / entry, self.roots)
            if target in chain or target == real:
                names = [str(p.relative_to(self.roots[0])) for p in chain + (real, target)]
                self.errors.append(SpecError("circular include: " + " -> ".join(names), span,
                                             "remove one of these includes"))
                return None
            files.check_regular(target)
        except files.FileMissing:
            self.errors.append(self._missing(entry, real.parent / entry, real, span))
            return None
        except files.FileRefused as refused:
            self.errors.append(self._refused(entry, refused, span))
            return None
        if target in self.included:
            self.errors.append(SpecError(f"'{entry}' is included twice", span,
                                         f"it is already included at {self.included[target]}"))
            return None
        self.included[target] = span
        return target

    def _refused(self, entry: str, refused: files.FileRefused, span: Span) -> SpecError:
        shown = entry if len(entry) <= 60 else entry[:57] + "..."
        hint = refused.hint
        if isinstance(refused, files.FileOutside) and not refused.through_link:
            hint = f"includes must name files inside '{self.shown_root}'"
        return SpecError(f"include {shown!r} {refused.reason}", span, hint)

    def _missing(self, entry: str, target: Path, real: Path, span: Span) -> SpecError:
        folder = target.parent if files.is_inside(target.parent, self.roots[0]) else real.parent
        prefix = Path(entry).parent.as_posix() + "/" if Path(entry).parent != Path(".") else ""
        names = [prefix + n for n in _yaml_files(folder, exclude=real)]
        hint = did_you_mean(entry, names)
        listing = ("YAML files here: " + ", ".join(names)) if names else "there are no other YAML files here"
        return SpecError(f"cannot find included file '{entry}'", span, f"{hint} {listing}" if hint else listing)

    def _include(self, doc: Document, target: Path, chain: tuple[Path, ...]) -> None:
        try:
            raw = _read_raw(target, self.shown(target), self.roots, self.budget)
            part = self.load(target, raw, chain)
        except RulelangError as error:
            for found in _flatten(error):      # the file could not be read at all: say who asked for it
                found.notes.append(f"included from {self.included[target]}")
                self.errors.append(found)
            return
        _merge(doc, part, self.errors)


def _drop_positions(doc: Document, key: str) -> None:
    for table in (doc._spans, doc._key_spans, doc._scalars):
        for path in [p for p in table if p[:1] == (key,)]:
            del table[path]


def _merge(doc: Document, part: Document, errors: list[RulelangError]) -> None:
    """Merge an included file into ``doc``: lists concatenate, mappings join, nothing is defined twice."""
    moves: dict[Any, Any] = {}
    for key, value in part.data.items():
        moves[key] = _merge_key(doc, part, key, value, errors)
    _copy_positions(doc, part, moves)
    doc._sources.update(part._sources)


def _merge_key(doc: Document, part: Document, key: Any, value: Any, errors: list[RulelangError]) -> Any:
    """Merge one top-level key; returns how its positions move: 'new', a list offset, a set of keys, or None."""
    if key not in doc.data:
        doc.data[key] = value
        return "new"
    mine = doc.data[key]
    if isinstance(mine, list) and isinstance(value, list):
        mine.extend(value)
        return len(mine) - len(value)
    if isinstance(mine, dict) and isinstance(value, dict):
        added = set()
        for sub, sub_value in value.items():
            if sub in mine:
                errors.append(_defined_twice(doc, part, (key, sub)))
            else:
                mine[sub] = sub_value
                added.add(sub)
        return added
    if type(mine) is not type(value) and (isinstance(mine, (list, dict)) or isinstance(value, (list, dict))):
        errors.append(SpecError(
            f"'{key}' is {_kind_of(value)} here but {_kind_of(mine)} in {doc.key_span((key,))}",
            part.key_span((key,)), "a key defined in several files must be a list or a mapping in all of them"))
    else:
        errors.append(_defined_twice(doc, part, (key,)))
    return None


def _kind_of(value: Any) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return "a single value"


def _defined_twice(doc: Document, part: Document, path: tuple) -> SpecError:
    name = ".".join(str(p) for p in path)
    first = doc.key_span(path)
    return SpecError(f"'{name}' is defined twice", part.key_span(path), f"first defined at {first}")


def _copy_positions(doc: Document, part: Document, moves: dict[Any, Any]) -> None:
    for source, target in ((part._spans, doc._spans), (part._key_spans, doc._key_spans),
                           (part._scalars, doc._scalars)):
        for path, where in source.items():
            moved = _moved_path(path, moves)
            if moved is not None:
                target[moved] = where


def _moved_path(path: tuple, moves: dict[Any, Any]) -> tuple | None:
    """Where a position of an included file lands in the merged document (None: not merged)."""
    if not path:
        return None
    move = moves.get(path[0])
    if move == "new":
        return path
    if isinstance(move, int) and not isinstance(move, bool) and len(path) >= 2:
        return (path[0], path[1] + move) + path[2:]
    if isinstance(move, set) and len(path) >= 2 and path[1] in move:
        return path
    return None


# ---------------------------------------------------------------------------
# Entry point


def is_folder(given: Path) -> bool:
    try:
        return stat.S_ISDIR(os.stat(given).st_mode)
    except (OSError, ValueError):
        return False


def load_document(path: str | Path, includes: bool = True, budget: Budget | None = None) -> Document:
    """Load a game (a folder's game.yaml, or a YAML file) with includes merged.

    Every file read must be a regular file whose real path lies inside the
    folder named (or the folder of the file named): a link out of it, a FIFO or
    a device is a located error that quotes nothing of what it points at. The
    limits on bytes, values and files hold for all the files together: pass the
    ``budget`` on to whatever reads more files for the same spec (the mods, see
    ``rulelang.pipeline.read_spec``). With ``includes=False`` only that one file is
    read and its ``include`` key is left in the data as written (and its ``card_groups`` too). A game's
    card groups are laid into its cards here (``spec/groups.py``), so every reader sees whole cards.
    """
    if not includes:
        given = Path(path)
        shown = given / GAME_FILE if is_folder(given) else given
        roots = (_game_folder(shown),)
        real, raw = _read_main(shown, roots, str(path) if is_folder(given) else None, new_budget())
        return load_file(raw, str(shown), new_budget())
    budget = budget or new_budget()
    doc = load_tree(path, GAME_FILE, budget)
    expand_card_groups(doc, budget)
    return doc


def load_tree(path: str | Path, main_name: str, budget: Budget) -> Document:
    """A main file (``path``, or ``main_name`` in the folder ``path``) with its includes, all inside its folder."""
    given = Path(path)
    folder = is_folder(given)
    shown = given / main_name if folder else given
    roots = (_game_folder(shown),)
    real, raw = _read_main(shown, roots, str(path) if folder else None, budget, main_name)
    includer = _Includer(roots=roots, shown_root=shown.parent, budget=budget)
    try:
        doc = includer.load(real, raw, ())
    except RulelangError as error:
        includer.errors[:0] = _flatten(error)
    raise_all(includer.errors)
    doc.path = shown
    return doc


def _game_folder(shown: Path) -> Path:
    """The real path of the folder holding the main file: every file of the game must lie inside it."""
    try:
        return files.real_folder(shown.parent)
    except files.FileMissing:
        raise SpecError(f"cannot find '{shown}'", None) from None
    except files.FileRefused as refused:
        raise SpecError(f"this folder {refused.reason}", files.whole_file(str(shown.parent)),
                        refused.hint) from None


def _read_main(shown: Path, roots: tuple[Path, ...], folder: str | None, budget: Budget,
               main_name: str = "game.yaml") -> tuple[Path, bytes]:
    """The main file's real path and bytes, confined to ``roots`` like every include."""
    try:
        real = files.confine(roots[0] / shown.name, roots)
    except files.FileMissing:
        missing = f"there is no {main_name} in '{folder}'" if folder else f"cannot find '{shown}'"
        hint = _folder_hint(shown, suggest=not folder)
        if main_name == "game.yaml" and (shown.parent / "mod.yaml").is_file():
            hint = "this folder is a mod: give its game's folder, and this folder with --mod"
        raise SpecError(missing, None, hint) from None
    except files.FileRefused as refused:
        raise SpecError(f"this file {refused.reason}", files.whole_file(str(shown)), refused.hint) from None
    return real, _read_raw(real, str(shown), roots, budget)


def _flatten(error: RulelangError) -> list[RulelangError]:
    return list(error.errors) if isinstance(error, ErrorList) else [error]
