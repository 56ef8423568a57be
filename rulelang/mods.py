"""Mods: a modder's own file laid over a game that stays as written.

A mod is a YAML file (or a folder with ``mod.yaml``, its includes and its
``scenarios/``) that names the game it applies to and says what it changes:
``add``, ``replace``, ``remove``, ``set``, ``insert_steps`` and ``wrap``
(docs/mods.md). Mods are applied, in the order given, to the game's loaded
data before the schema, the checker and the compiler see it, and every value a
mod brings keeps its own position: an error in it is reported in the mod file.

Mod files are read like game files (``rulelang.loader.load_tree``): confined to
the mod's own folder, and counted against the same whole-spec limits as the
game they change. Two mods that change the same thing are an error naming
both, unless the later one lists the earlier under ``overrides:``.

This module loads mods and lays them over a game; what a mod is made of is in
``mods_model.py``, applying one in ``mods_apply.py`` and ``mods_reshape.py``.
"""
from __future__ import annotations

from pathlib import Path

from .document import Document
from .errors import ErrorList, RulelangError, SpecError, raise_all
from .mods_apply import Applier
from .mods_model import KIND_WORDS, LIST_KINDS, MAPPING_KINDS, MOD_FILE, ORIGINAL_PREFIX, Change, Layering, Mod
from .yamlfile import Budget

__all__ = ["KIND_WORDS", "LIST_KINDS", "MAPPING_KINDS", "MOD_FILE", "ORIGINAL_PREFIX", "Change", "Layering", "Mod",
           "apply_mods", "layer", "load_mod"]


# --- loading ------------------------------------------------------------------------------

def load_mod(path: str | Path, budget: Budget) -> Mod:
    """A mod file (or folder), with its includes, read inside its own folder and checked against the mod schema."""
    from .loader import _is_folder, load_tree
    from .schema import validate_document

    try:
        doc = load_tree(path, MOD_FILE, budget)
    except RulelangError as error:
        raise _in_mod_words(error) from None
    validate_document(doc, "mod")
    folder = Path(path) if _is_folder(Path(path)) else None
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
    """The game's document with the mods at ``paths`` applied in order; every problem raised at once."""
    layering = layer(doc, paths, budget)
    raise_all(layering.errors)
    return layering.doc


def layer(doc: Document, paths: list[str | Path], budget: Budget) -> Layering:
    """Apply mods in order, collecting (not raising) conflicts and mistakes, for reports."""
    result = Layering(doc.copy())
    for path in paths:
        try:
            mod = load_mod(path, budget)
        except RulelangError as error:
            result.errors.extend(error.errors if isinstance(error, ErrorList) else [error])
            continue
        before = len(result.errors)
        _check_header(result, mod)
        if len(result.errors) == before:
            Applier(result, mod).apply()
        result.mods.append(mod)
    return result


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
