"""What each mod changes in the rulebook: the book before and after each mod, compared item by item.

Mods are laid over the game one at a time, in the order given, so each change is put down to the mod that
made it; the items it adds or changes are marked in the final book, and the book opens with the list.
"""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

from ..loader import _new_budget
from ..mods import load_mod
from .book import Book, Item, make_book
from .checked import load_checked


def modded_book(game: str | Path, mods: Sequence[str | Path]) -> Book:
    """The book of the game with every mod laid over it, each mod's changes marked and listed."""
    before = make_book(load_checked(game))
    changes: list[tuple[str, list[str]]] = []
    marks: dict[tuple, list[str]] = {}
    for count in range(1, len(mods) + 1):
        after = make_book(load_checked(game, mods[:count]))
        name = load_mod(mods[count - 1], _new_budget()).name
        changes.append((name, _compare(before, after, name, marks)))
        before = after
    for item in before.items():
        item.marks = marks.get(item.key, [])
    before.changes = changes
    return before


def _compare(before: Book, after: Book, mod: str, marks: dict[tuple, list[str]]) -> list[str]:
    """What ``after`` says that ``before`` did not, in words; marks the items ``mod`` adds or changes."""
    old: dict[tuple, Item] = {item.key: item for item in before.items()}
    new: dict[tuple, Item] = {item.key: item for item in after.items()}
    said = []
    for key, item in new.items():
        if key not in old:
            said.append(f"adds {key[0]} {item.title}")
            marks.setdefault(key, []).append(f"added by mod {mod}")
        elif old[key].words() != item.words():
            said.append(f"changes {key[0]} {item.title}")
            marks.setdefault(key, []).append(f"changed by mod {mod}")
    said += [f"removes {key[0]} {item.title}" for key, item in old.items() if key not in new]
    for name in after.rulings.keys() - before.rulings.keys():
        said.append(f"adds ruling {name}")
    return said
