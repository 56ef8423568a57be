"""Card kinds as values: `me chooses k in [gem, rock]`, then `c is k`.

A kind (a card id, a tag or a slot) used as a value is its name, a plain string: it is saved, logged and
offered as an option by that name. The checker gives it the type "class" (rulelang/check/checker.py).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rulelang.engine.game import Game

Fn = Callable[[Any, dict], Any]


def kind_tables(game: Game, sym: Any) -> dict[str, list[bool]]:
    """For each kind name of the game, one bool per card instance: does the card answer to it?"""
    tables: dict[str, list[bool]] = {}
    for name in sym.cards:
        tables[name] = [ctype.id == name for ctype in game.card_type]
    for name in sym.tags:
        tables.setdefault(name, [name in ctype.tags for ctype in game.card_type])
    for name in sym.slots:
        tables.setdefault(name, [ctype.slot == name for ctype in game.card_type])
    return tables


def kind_test(game: Game, sym: Any, card: Fn, local: str) -> Fn:
    """`c is k` for a local k holding a kind (or none, which no card is)."""
    tables = kind_tables(game, sym)

    return lambda st, L: kind_is(tables, card(st, L), L[local])


def kind_is(tables: dict[str, list[bool]], card: int | None, kind: str | None) -> bool:
    """Whether ``card`` answers to the kind named ``kind`` (none is no card, and no kind: False)."""
    return card is not None and kind is not None and tables[kind][card]
