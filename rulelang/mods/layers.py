"""Mods: a modder's own file laid over a game that stays as written.

A mod is a YAML file (or a folder with ``mod.yaml``, its includes and its
``scenarios/``) that names the game it applies to and says what it changes:
``add``, ``replace``, ``remove``, ``set``, ``patch``, ``insert_steps`` and ``wrap``
(docs/mods.md). Mods are applied, in the order given, to the game's loaded
data before the schema, the checker and the compiler see it, and every value a
mod brings keeps its own position: an error in it is reported in the mod file.

Mod files are read like game files (``rulelang.spec.loader.load_tree``): confined to
the mod's own folder, and counted against the same whole-spec limits as the
game they change. Mods stack where they can (wrappers of one procedure chain,
steps next to one step run in load order); two mods that change the same thing
otherwise are an error naming both, unless the later one lists the earlier
under ``overrides:``. ``after:`` and ``before:`` fix the order of two mods
whatever the command line's.

This module loads mods and lays them over a game; what a mod is made of is in
``mods_model.py``, applying one in ``mods_apply.py`` and ``mods_reshape.py``.
"""
from __future__ import annotations

from pathlib import Path

from rulelang.errors import ErrorList, RulelangError, SpecError, raise_all
from rulelang.mods.apply import Applier
from rulelang.mods.model import KIND_WORDS, LIST_KINDS, MAPPING_KINDS, MOD_FILE, ORIGINAL_PREFIX, Change, Layering, Mod
from rulelang.spec.budget import Budget
from rulelang.spec.document import Document
from rulelang.spec.loader import is_folder, load_tree
from rulelang.spec.schema import validate_document

__all__ = ["KIND_WORDS", "LIST_KINDS", "MAPPING_KINDS", "MOD_FILE", "ORIGINAL_PREFIX", "Change", "Layering", "Mod",
           "apply_mods", "layer", "load_mod"]


# --- loading ------------------------------------------------------------------------------

def load_mod(path: str | Path, budget: Budget) -> Mod:
    """A mod file (or folder), with its includes, read inside its own folder and checked against the mod schema."""
    try:
        doc = load_tree(path, MOD_FILE, budget)
    except RulelangError as error:
        raise _in_mod_words(error) from None
    validate_document(doc, "mod")
    folder = Path(path) if is_folder(Path(path)) else None
    return Mod(str(doc.data["mod"]), doc, folder)


def _in_mod_words(error: RulelangError) -> RulelangError:
    """The loader speaks of a game's folder; for a mod's files, say the mod's."""
    for each in error.errors if isinstance(error, ErrorList) else [error]:
        each.message = each.message.replace("the game's folder", "the mod's folder")
        if each.hint:
            each.hint = each.hint.replace("a game's files", "a mod's files").replace("the game's folder",
                                                                                    "the mod's folder")
    return error


def apply_mods(doc: Document, paths: list[str | Path], budget: Budget) -> Document:
    """The game's document with the mods at ``paths`` applied in order; every problem raised at once.
    Its ``origin`` names the game's files and each mod's by their SHA-256, for the logs of its games."""
    spec = doc.digest()                 # the game alone, before any mod is laid over it
    layering = layer(doc, paths, budget)
    raise_all(layering.errors)
    layering.doc.origin = {"spec": spec, "mods": [{"name": mod.name, "sha256": mod.doc.digest()}
                                                  for mod in layering.mods]}
    return layering.doc


def layer(doc: Document, paths: list[str | Path], budget: Budget) -> Layering:
    """Apply mods in order, collecting (not raising) conflicts and mistakes, for reports.

    The order is the order given, except where a mod asks to come ``after:`` or ``before:`` another
    loaded mod: then it moves as little as it must (``load_order``).
    """
    result = Layering(doc.copy())
    loaded: list[Mod] = []
    for path in paths:
        try:
            loaded.append(load_mod(path, budget))
        except RulelangError as error:
            result.errors.extend(error.errors if isinstance(error, ErrorList) else [error])
    for mod in load_order(loaded, result.errors):
        before = len(result.errors)
        _check_header(result, mod)
        if len(result.errors) == before:
            Applier(result, mod).apply()
        result.mods.append(mod)
    return result


def load_order(mods: list[Mod], errors: list[RulelangError]) -> list[Mod]:
    """The mods in the order given, moved only as their ``after:`` and ``before:`` lists require.

    Each time, the first mod given whose ``after:`` mods (and the mods naming it under ``before:``) are
    placed already comes next. A name under either that is not loaded is no constraint (that is what
    ``needs:`` is for); a cycle is an error at the entry that closes it, and the mods stay as given.
    """
    by_name = {mod.name: mod for mod in mods}
    must_follow: dict[int, list[tuple[Mod, tuple[str, int, Mod]]]] = {id(mod): [] for mod in mods}
    for mod in mods:
        for key in ("after", "before"):
            for i, other in enumerate(mod.doc.data.get(key) or []):
                found = by_name.get(other)
                if found is None or found is mod:
                    continue
                first, then = (found, mod) if key == "after" else (mod, found)
                must_follow[id(then)].append((first, (key, i, mod)))
    placed: list[Mod] = []
    waiting = list(mods)
    while waiting:
        ready = next((m for m in waiting if all(f in placed for f, _ in must_follow[id(m)])), None)
        if ready is None:
            _, (key, i, mod) = next(entry for m in waiting for entry in must_follow[id(m)] if entry[0] not in placed)
            errors.append(SpecError("these mods ask to come after each other in a circle", mod.span(key, i),
                                    "order: " + ", ".join(f"'{m.name}'" for m in waiting) +
                                    "; drop one `after:` or `before:` entry"))
            return placed + waiting
        placed.append(ready)
        waiting.remove(ready)
    return placed


def _check_header(result: Layering, mod: Mod) -> None:
    """The mod is for this game, is not loaded twice, and the mods it needs are loaded before it."""
    game = result.doc.data.get("game")
    if mod.doc.data["game"] != game:
        result.errors.append(SpecError(f"this mod is for the game '{mod.doc.data['game']}', not '{game}'",
                                       mod.span("game"), f"the game loaded is '{game}' (its `game:` name)"))
    earlier = {m.name: m for m in result.mods}
    if mod.name in earlier:
        result.errors.append(SpecError(f"the mod '{mod.name}' is loaded twice", mod.span("mod"),
                                       f"it is loaded first from {earlier[mod.name].file}"))
    for i, needed in enumerate(mod.doc.data.get("needs") or []):
        if needed not in earlier:
            known = ", ".join(earlier) or "none"
            result.errors.append(SpecError(f"this mod needs the mod '{needed}', which is not loaded before it",
                                           mod.span("needs", i),
                                           f"give `--mod FILE` of '{needed}' before this one (loaded before "
                                           f"it: {known})"))
