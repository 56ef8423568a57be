"""`rulelang explain PATH NAME`: all that is known of one name of a game, from the checked spec.

A NAME is a card (its id or its name), a step, a procedure, a function, a trigger, an end condition, a
zone, a counter, a die, a variable, a location, a param or a ruling. What is said: where the spec writes
it, its rule in words (the rulebook's item), the rulings it follows, the scenarios that name it, which
rules read it and which change it (found in the checked trees through the checker's ``ref``s), and how
to ask coverage about its lines. An unknown NAME is a usage error with the closest names.
"""
from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from shlex import quote
from typing import Any

from rulelang.errors import UsageError
from rulelang.lang import nodes as n
from rulelang.lang.refs import NAMED_BY
from rulelang.printable import counted
from rulelang.spec import files
from rulelang.statements.create import Create
from rulelang.statements.discard import Discard
from rulelang.statements.draw import Draw
from rulelang.statements.move_cards import MoveCards
from rulelang.statements.roll import Roll
from rulelang.testing.scenario_load import scenario_files_of

from ..errors import closest
from ..statements.assign import Assign
from ..statements.aug_assign import AugAssign
from ..statements.check_end import CheckEnd
from ..statements.move_counter import MoveCounter
from .book import Book, Item, make_book
from .checked import Checked, load_checked

#: The most bytes of one scenario file read to find a name in it.
SCENARIO_LIMIT = 4_000_000
#: A scenario's first line (in a list of them, or the one scenario of a file), and its title.
_SCENARIO = re.compile(r"\s*(?:-\s*)?scenario:\s*(.*)")
#: The most scenario files looked through.
SCENARIO_FILES = 500

#: How the uses of a name are headed, for the kinds whose uses are not reads and writes.
_USE_LABELS = {"procedure": (("Called by:", False),), "function": (("Called by:", False),),
               "card": (("Named by:", False),), "die": (("Rolled by:", True),),
               "end": (("Checked by (check end):", False),), "step": (), "trigger": (), "ruling": ()}


@dataclass
class Use:
    """One place a rule text uses the name: whose rule it is, where, and whether it changes the thing."""

    owner: str
    where: str
    writes: bool


def explain(game: str, name: str, mods: Sequence[str] = (), coverage: bool = False) -> list[str]:
    """The lines `rulelang explain` prints for ``name`` (a usage error if the game has no such name).

    With ``coverage``, the mutants of its entry are judged against the game's scenarios (seconds to a
    minute: each mutant plays the scenarios); without, the answer says how to ask.
    """
    checked = load_checked(game, mods)
    book = make_book(checked)
    found = find_items(book, name)
    if not found:
        if name in book.rulings:
            return explain_ruling(book, name, game, mods)
        raise UsageError(unknown_name(book, name))
    out = explain_item(checked, book, found[0], game, mods, coverage)
    others = [f"{item.key[0]} '{item.key[1]}' (ask for {item.key[0]}:{item.key[1]})" for item in found[1:]]
    return out + (["", f"Also named so: {', '.join(others)}"] if others else [])


def find_items(book: Book, name: str) -> list[Item]:
    """The items a name may mean, the likeliest first: those it is the id of, then those it is the title
    or the words of (any case)."""
    items = [item for item in book.items() if item.key[0] not in ("players", "setup")]
    kind, _, rest = name.partition(":")
    if rest and any(item.key[0] == kind for item in items):        # `card:NAME`: one kind only
        items, name = [item for item in items if item.key[0] == kind], rest
    by_id = [item for item in items if item.key[1] == name]
    folded = name.casefold()
    by_words = [item for item in items if item not in by_id and folded in (
        item.title.casefold(), item.key[1].replace("_", " ").casefold(), item.title.strip("\u201c\u201d").casefold())]
    return by_id + by_words


def unknown_name(book: Book, name: str) -> str:
    names = [item.key[1] for item in book.items() if item.key[0] not in ("players", "setup")]
    names += [item.title for item in book.items() if item.key[0] == "card"] + list(book.rulings)
    close = closest(name, names)
    near = sorted({candidate for candidate in names if name.casefold() in candidate.casefold()})[:5]
    shown = ([close] if close else []) + [c for c in near if c != close]
    hint = f"; did you mean {' or '.join(repr(c) for c in shown)}?" if shown else \
        "; a card, step, procedure, function, trigger, end condition, zone, counter, die, variable or ruling"
    return f"the game has nothing named '{name}'{hint}"


# -- the answer ---------------------------------------------------------------------------------

def explain_item(checked: Checked, book: Book, item: Item, game: str, mods: Sequence[str],
                 coverage: bool = False) -> list[str]:
    out = [f"{item.key[0]} '{item.key[1]}': {item.title}"]
    out += ["", "Written at:"] + [f"  {where}" for where in spec_lines(checked, item)]
    out += ["", "In words:"]
    for part in item.parts:
        if part.label:
            out.append(f"  {part.label}:")
        out += [f"  {'  ' * (depth + (1 if part.label else 0))}- {text}" for depth, text in part.lines]
    out += ["", "Rulings it follows:"]
    out += [f"  {name}: {book.rulings.get(name, ('', ''))[0]}" for name in item.rulings] or ["  none"]
    uses = list(uses_of(checked, book, item))
    for label, writes in _USE_LABELS.get(item.key[0], (("Changed by:", True), ("Read by:", False))):
        out += ["", label]
        out += [f"  {use.owner} ({use.where})" for use in _unique(uses) if use.writes is writes] or ["  no rule"]
    out += ["", "Scenarios that name it:"]
    names = [item.key[1]] + ([item.title] if item.key[0] == "card" else [])
    out += [f"  {line}" for line in scenarios_naming(game, mods, names)] or ["  none"]
    out += ["", "Coverage:"] + [f"  {line}" for line in (coverage_of(game, mods, item) if coverage else [
        f"rulelang explain {quote(game)} {quote(item.key[1])} --coverage{''.join(f' --mod {quote(m)}' for m in mods)} "
        "judges "
        "this entry's mutants against the scenarios (it takes a while);",
        "rulelang test --coverage does it for the whole game."])]
    return out


def coverage_of(game: str, mods: Sequence[str], item: Item) -> list[str]:
    """Each mutant of the entry (its values and rule texts) judged by the scenarios, and the tally."""
    from rulelang.testing.coverage import ready_subject

    subject, failing = ready_subject(game, 0, mods)
    subject.leave_out(failing)
    mine = [m for m in subject.mutants if item.path and m.where[:len(item.path)] == item.path]
    if not mine:
        return ["no mutant of rulelang's changes this entry" + (" in the mods' own files" if mods else "")]
    verdicts = [(m, subject.judge(m.index)) for m in mine]
    tally: dict[str, int] = {}
    for _, verdict in verdicts:
        tally[verdict.status] = tally.get(verdict.status, 0) + 1
    out = [", ".join(f"{count} {status}" for status, count in sorted(tally.items()))
           + f" of {counted(len(mine), 'mutant')}"]
    out += [f"not pinned: {m.location} {m.change}" for m, verdict in verdicts if verdict.status == "survived"]
    return out


def explain_ruling(book: Book, name: str, game: str, mods: Sequence[str]) -> list[str]:
    text, section = book.rulings[name]
    out = [f"ruling '{name}': {text}"]
    if section:
        out.append(f"  the rulebook's section: {section}")
    out += ["", "Applied in:"]
    out += [f"  {item.key[0]} {item.title} ({item.span})" if item.span else f"  {item.key[0]} {item.title}"
            for item in book.items() if name in item.rulings] or ["  nothing names it with `rule:`"]
    out += ["", "Scenarios that name it:"]
    out += [f"  {line}" for line in scenarios_naming(game, mods, [name])] or ["  none"]
    return out


def spec_lines(checked: Checked, item: Item) -> list[str]:
    """The entry's place, and the place of each of its rule texts."""
    out = [f"{item.span}" if item.span is not None else f"{checked.spec.path}"]
    texts = [path for path in checked.trees if item.path and path[:len(item.path)] == item.path]
    for path in sorted(texts, key=lambda path: (checked.doc.span(path).line, str(path))):
        out.append(f"{checked.doc.span(path)}  ({'.'.join(str(p) for p in path[len(item.path):]) or 'rule'})")
    return out


# -- who reads and writes it ---------------------------------------------------------------------

def uses_of(checked: Checked, book: Book, item: Item) -> Iterator[Use]:
    """Every node of every checked rule text that names the item, as a read or a write."""
    owners = sorted(((i.path, i) for i in book.items() if i.path), key=lambda pair: -len(pair[0]))
    for path, tree in checked.trees.items():
        if tree is None:
            continue
        written = _written_nodes(tree)
        owner = next((i for p, i in owners if path[:len(p)] == p), None)
        label = f"{owner.key[0]} {owner.title}" if owner is not None else ".".join(map(str, path))
        for node in n.walk(tree):
            if _names(node, item):
                yield Use(label, str(node.span), id(node) in written)


def _names(node: n.Node, item: Item) -> bool:
    kind, name = item.key
    if kind == "die":
        return isinstance(node, Roll) and node.die == name
    if kind == "step":
        return False
    if kind == "end":
        return isinstance(node, CheckEnd)
    if kind == "card" and isinstance(node, (n.IsTest, n.HasTest, Create)):
        return (node.card if isinstance(node, Create) else node.name) == name
    ref = getattr(node, "ref", None)
    if ref is None or ref.kind not in NAMED_BY.get(kind, ()):
        return False
    own = getattr(node, "id", None) or getattr(node, "name", None) or getattr(node, "func", None)
    return (ref.name or own) == name or own == name


def _written_nodes(tree: Any) -> set[int]:
    """The ids of the nodes a rule text changes: assigned, moved, drawn, discarded, shuffled, created into."""
    out: set[int] = set()
    for node in n.walk(tree):
        for target in _targets(node):
            out.update(id(inner) for inner in n.walk(target))
        if isinstance(node, Roll):
            out.add(id(node))
    return out


def _targets(node: n.Node) -> list[Any]:
    if isinstance(node, (Assign, AugAssign)):
        return [node.target]
    if isinstance(node, MoveCards):
        return [node.cards, node.dest]
    if isinstance(node, Draw):
        return [node.source, node.dest]
    if isinstance(node, Discard):
        return [node.cards]
    if isinstance(node, MoveCounter):
        return [node.counter, node.source, node.dest]
    if isinstance(node, Create):
        return [node, node.dest]
    zone = getattr(node, "zone", None)
    return [zone] if isinstance(node, n.Stmt) and isinstance(zone, n.Expr) else []


def _unique(uses: list[Use]) -> list[Use]:
    seen, out = set(), []
    for use in uses:
        key = (use.owner, use.where, use.writes)
        if key not in seen:
            seen.add(key)
            out.append(use)
    return out


# -- scenarios -----------------------------------------------------------------------------------------

def scenarios_naming(game: str, mods: Sequence[str], names: list[str]) -> list[str]:
    """"title (file:line)" of each scenario whose text names one of ``names`` as a whole word."""
    pattern = re.compile("|".join(rf"(?<![\w-]){re.escape(name)}(?![\w-])" for name in names if name))
    found: list[str] = []
    for folder in [game, *mods]:
        try:
            paths, _ = scenario_files_of(folder)
        except Exception:  # noqa: BLE001 - a mod given as a file, a path that went away: no scenarios to look in
            continue
        roots = [Path(folder).absolute() if Path(folder).is_dir() else Path(folder).absolute().parent]
        for path in paths[:SCENARIO_FILES]:
            found.extend(_named_in(path, roots, pattern))
    return list(dict.fromkeys(found))


def _named_in(path: Path, roots: list[Path], pattern: re.Pattern) -> Iterator[str]:
    try:
        text = files.read_confined(path, roots, SCENARIO_LIMIT).decode("utf-8", "replace")
    except (files.FileRefused, OSError):
        return
    title, title_line = None, 0
    for number, line in enumerate(text.splitlines(), 1):
        heading = _SCENARIO.match(line)
        if heading:
            title, title_line = heading.group(1).strip().strip("\"'"), number
        if pattern.search(line) and title is not None:
            yield f"{title} ({path}:{title_line})"
