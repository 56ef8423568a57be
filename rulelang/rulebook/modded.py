"""What each mod changes in the rulebook: the book before and after each mod, compared item by item.

Mods are laid over the game one at a time, in the order given, so each change is put down to the mod that
made it; the items it adds or changes are marked in the final book, and the book opens with the list.
"""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from rulelang.mods.layers import load_mod
from rulelang.spec.loader import new_budget

from .book import Book, Item, make_book
from .checked import load_checked


def modded_book(game: str | Path, mods: Sequence[str | Path]) -> Book:
    """The book of the game with every mod laid over it, each mod's changes marked and listed."""
    before = make_book(load_checked(game))
    changes: list[tuple[str, list[str]]] = []
    marks: dict[tuple, list[str]] = {}
    for count in range(1, len(mods) + 1):
        after = make_book(load_checked(game, mods[:count]))
        name = load_mod(mods[count - 1], new_budget()).name
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
    said = _intro_changes(before, after)
    for key, item in new.items():
        if key not in old:
            said.append(f"adds {_thing(item)}")
            marks.setdefault(key, []).append(f"added by mod {mod}")
        elif old[key].words() != item.words():
            said.append(f"changes {_thing(item)}")
            marks.setdefault(key, []).append(f"changed by mod {mod}")
    said += [f"removes {_thing(item)}" for key, item in old.items() if key not in new]
    for name in after.rulings.keys() - before.rulings.keys():
        said.append(f"adds ruling {name}")
    return said


#: An item's kind in the list of changes, where its key's word would not read well.
_KIND_WORDS = {"end": "end condition", "param": "setting", "variable": "variable"}


def _thing(item: Item) -> str:
    """An item named in the list of changes: "card Whetstone", "setup with 7 players"."""
    if item.key[0] == "players":
        return f"setup {item.title[:1].lower()}{item.title[1:]}"
    return f"{_KIND_WORDS.get(item.key[0], item.key[0])} {item.title}"


def _intro_changes(before: Book, after: Book) -> list[str]:
    """The opening lines of a section that the mod changed (the number of players, a deck's cards)."""
    old = {section.title: set(section.intro) for section in before.sections}
    return [f"{section.title}: {line.rstrip('.')}" for section in after.sections for line in section.intro
            if line not in old.get(section.title, set())]
