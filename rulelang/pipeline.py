"""The way a game goes from its folder to a ``Game``, one stage a line.

read (``spec.loader``: the game's files, safely, with includes, card groups laid out) -> mods (``mods``: mod
files laid over the data) -> schema (``spec.schema``: structure, rulings) -> model, parse, check
(``check.game``: the typed ``Spec``, the rule texts as trees, names and types, warnings) -> compile
(``compiler``: the game's tables and code).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rulelang.check.game import check_game
from rulelang.compiler import compile_checked
from rulelang.engine.game import Game
from rulelang.engine.speedups import ALL_ON, Speedups
from rulelang.mods.layers import apply_mods
from rulelang.spec.document import Document
from rulelang.spec.groups import expand_card_groups
from rulelang.spec.loader import load_document, new_budget
from rulelang.spec.schema import validate_document


def read_spec(path: str | Path, mods: Sequence[str | Path] = ()) -> Document:
    """A game's files (includes merged) with mod files laid over them in order, all under one budget.

    The game's card groups are laid into its cards as it is read; the cards the mods add (or replace) that
    name a group are laid out after the mods, the same way.
    """
    budget = new_budget()
    doc = load_document(path, budget=budget)
    if not mods:
        return doc
    modded = apply_mods(doc, list(mods), budget)
    expand_card_groups(modded, budget)
    return modded


def load_game(path: str | Path, mods: Sequence[str | Path] = (), params: Mapping[str, Any] | None = None,
              speedups: Speedups = ALL_ON) -> Game:
    """Load, check and compile the game in a folder (or a game.yaml), with mod files laid over it in order.

    ``params`` sets the game's declared params for this instance (the rest keep their defaults); a value
    the game refuses raises ``ParamError`` (a ValueError) naming the param and its bounds. ``speedups``
    turns speed-ups off for this game (rulelang/engine/speedups.py; all on by default): the same game.
    """
    doc = read_spec(path, mods)
    validate_document(doc, remember=True)
    checked = check_game(doc, params)
    game = compile_checked(checked, speedups=speedups)
    game.mod_paths = [str(mod) for mod in mods]
    return game
