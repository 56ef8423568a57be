"""Mutants of a game spec: the slips a designer's keyboard could make, each one located.

A mutant changes one thing, either in the loaded spec data (a number, a zone,
a tag, the order of two steps or end conditions, a duration) or in the syntax
tree of one rule text (an operator, a literal, a name, a deleted statement).
Mutants are numbered in a fixed order, so any process can rebuild mutant k
from the spec alone: ``mutants(doc)`` lists them, ``build(doc, mutant)``
compiles one into a ``Game`` (raising ``SpecError`` when it no longer
validates).
"""
from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from rulelang.check.game import GameChecker
from rulelang.compiler import GameCompiler
from rulelang.engine.game import Game
from rulelang.errors import Span
from rulelang.lang import nodes as n
from rulelang.spec.document import Document, value_at
from rulelang.spec.schema import validate_document
from rulelang.statements.aug_assign import AugAssign
from rulelang.statements.choose_in import ChooseIn
from rulelang.statements.for_each import ForEach
from rulelang.statements.pass_stmt import PassStmt
from rulelang.statements.play import Play
from rulelang.statements.roll import Roll
from rulelang.statements.secret_choose import SecretChoose
from rulelang.testing.mutate_data import apply_data_mutation, changed_paths, data_mutations, group_of

__all__ = ["Mutant", "mutants", "build"]


@dataclass(frozen=True)
class Mutant:
    """One located change. ``where`` is a data path, or a rule text's path plus a node number."""

    index: int
    kind: str
    file: str
    line: int
    change: str
    group: str
    where: tuple
    variant: int
    in_text: bool

    @property
    def location(self) -> str:
        return f"{self.file}:{self.line}"


# --- rule-text trees ------------------------------------------------------------------

_COMPARISONS = ["=", "!=", "<", "<=", ">", ">="]     # a comparison becomes each of the others
_ARITH = {"+": ["-"], "-": ["+"], "*": ["//"], "//": ["*"]}
_AUG = {"+=": "-=", "-=": "+="}
_BOOL = {"and": "or", "or": "and"}
_FUNCS = {"next": "previous", "previous": "next", "any": "all", "all": "any", "min": "max", "max": "min",
          "first": "last", "last": "first", "count": "sum"}
_PEOPLE = ["me", "target", "owner"]


def walk(obj: Any, path: tuple = ()) -> Iterator[tuple[tuple, Any]]:
    """Every node and every list of a tree with its path from the root, in a fixed order."""
    yield path, obj
    if isinstance(obj, (list, tuple)):
        items: Any = enumerate(obj)
    elif isinstance(obj, n.Node):
        items = obj.syntax_items()
    else:
        return
    for key, value in items:
        if isinstance(value, (n.Node, list, tuple)):
            yield from walk(value, path + (key,))


def _get(root: Any, path: tuple) -> Any:
    for key in path:
        root = root[key] if isinstance(root, (list, tuple)) else getattr(root, key)
    return root


def replace(root: Any, path: tuple, new: Any) -> Any:
    """The root after putting ``new`` at ``path`` (tuples on the way are rebuilt)."""
    if not path:
        return new
    parent, key = _get(root, path[:-1]), path[-1]
    if isinstance(parent, tuple):
        return replace(root, path[:-1], parent[:key] + (new,) + parent[key + 1:])
    if isinstance(parent, list):
        parent[key] = new
    else:
        setattr(parent, key, new)
    return root


@dataclass
class Names:
    """The spec's names a mutant may swap one for another, each list in declaration order."""

    table_zones: list[str]
    player_zones: list[str]
    tags: list[str]
    cards: list[str]
    dice: list[str]
    counters: list[str]
    locations: list[str]
    props: list[str]
    outcomes: list[list[str]]       # each die's outcomes

    @classmethod
    def of(cls, data: dict) -> Names:
        zones = data.get("zones") or {}
        cards = [c.get("id") for c in data.get("cards") or [] if isinstance(c, dict)]
        tags = list(data.get("tags") or dict.fromkeys(t for c in data.get("cards") or [] for t in c.get("tags") or []))
        return cls([z for z, d in zones.items() if (d or {}).get("owner", "table") == "table"],
                   [z for z, d in zones.items() if (d or {}).get("owner") == "player"],
                   tags, cards, list(data.get("dice") or {}), list(data.get("counters") or {}),
                   list(data.get("locations") or {}), list(data.get("card_props") or {}),
                   [list((d or {}).get("outcomes") or {}) for d in (data.get("dice") or {}).values()])

    def other(self, name: str) -> tuple[str, str] | None:
        """(kind, the next name of the same sort) for a name the spec declares."""
        found = self.others(name)
        return None if found is None else (found[0], found[1][0])

    def others(self, name: str) -> tuple[str, list[str]] | None:
        """(kind, the names it may become): every other zone of its sort or outcome of its die, else the next name.

        A zone or an outcome is easily confused with any other one (discard pile
        for deck, a miss for a break), so every one is tried; the longer lists
        (cards, tags) take only their next name, which keeps the count practical.
        """
        for kind, group in (("zone", self.table_zones), ("zone", self.player_zones), ("tag", self.tags),
                            ("card", self.cards), ("counter", self.counters), ("location", self.locations),
                            ("prop", self.props), ("die", self.dice)):
            if name in group and len(group) > 1:
                i = group.index(name)
                rest = group[i + 1:] + group[:i]
                return kind, rest if kind == "zone" else rest[:1]
        return None

    def other_outcomes(self, name: str) -> list[str]:
        """Every other outcome of each die that has an outcome ``name`` (a roll's `r.break` -> `r.miss`)."""
        return [o for group in self.outcomes if name in group for o in group if o != name]


Change = tuple[str, str, Span, Callable[[Any], Any]]     # kind, description, where, new node from old


def _text(span: Span) -> str:
    """The source text of a one-line span, for a readable description."""
    line = span.text
    if line is None or span.end_line != span.line or span.end_col is None:
        return line.strip() if line else "?"
    return line[span.col - 1:span.end_col - 1].strip()


def _set(**values: Any) -> Callable[[Any], Any]:
    def change(node: Any) -> Any:
        for key, value in values.items():
            setattr(node, key, value)
        return node
    return change


def _statement_changes(block: list) -> list[Change]:
    """Delete each statement of a block (an emptied block keeps a `pass`)."""
    out = []
    for i, stmt in enumerate(block):
        def delete(old: list, i: int = i) -> list:
            rest = old[:i] + old[i + 1:]
            return rest or [PassStmt(span=old[i].span)]
        out.append(("statement", f"deleted `{_text(stmt.span)}`", stmt.span, delete))
    for i in range(len(block) - 1):
        def swap(old: list, i: int = i) -> list:
            return old[:i] + [old[i + 1], old[i]] + old[i + 2:]
        out.append(("swap", f"swapped `{_text(block[i].span)}` and `{_text(block[i + 1].span)}`", block[i].span,
                    swap))
    return out


def _operator_changes(node: Any) -> list[Change]:
    span = node.span
    if isinstance(node, n.Compare):
        others = [op for op in _COMPARISONS if op != node.op] if node.op in _COMPARISONS else []
        return [("comparison", f"`{node.op}` -> `{op}`", span, _set(op=op)) for op in others]
    if isinstance(node, n.BinOp):
        return [("arithmetic", f"`{node.op}` -> `{op}`", span, _set(op=op)) for op in _ARITH.get(node.op, [])]
    if isinstance(node, AugAssign) and node.op in _AUG:
        return [("arithmetic", f"`{node.op}` -> `{_AUG[node.op]}`", span, _set(op=_AUG[node.op]))]
    if isinstance(node, n.BoolOp):
        return [("boolean", f"`{node.op}` -> `{_BOOL[node.op]}`", span, _set(op=_BOOL[node.op]))] + _dropped_operands(node)
    if isinstance(node, n.Not):
        return [("boolean", f"removed `not` from `{_text(span)}`", span, lambda old: old.operand)]
    if isinstance(node, (n.IsTest, n.Member)):
        flip = "removed `not`" if node.negated else "added `not`"
        return [("boolean", f"{flip} in `{_text(span)}`", span, _set(negated=not node.negated))]
    return []


def _dropped_operands(node: Any) -> list[Change]:
    """`a and b` becomes `a`, and `b`: the condition forgets one of its parts (or, for `or`, one way to hold)."""
    return [("conjunct", f"`{_text(node.span)}` -> `{_text(kept.span)}`", node.span, _side_of(side))
            for side, kept in (("left", node.left), ("right", node.right))]


def _side_of(side: str) -> Callable[[Any], Any]:
    """The edit that keeps one operand of a binary node in its place."""
    return lambda old: getattr(old, side)


def _literal_changes(node: Any) -> list[Change]:
    if isinstance(node, n.Bool):
        return [("boolean", f"`{str(node.value).lower()}` -> `{str(not node.value).lower()}`", node.span,
                 _set(value=not node.value))]
    if isinstance(node, n.Num):
        values = [node.value + 1] + ([node.value - 1] if node.value > 0 else [])
        return [("number", f"{node.value} -> {v}", node.span, _set(value=v)) for v in values]
    return []


def _name_changes(node: Any, names: Names) -> list[Change]:
    out: list[Change] = []
    if isinstance(node, n.Name):
        if node.id in _PEOPLE:
            out += [("target", f"`{node.id}` -> `{other}`", node.span, _set(id=other))
                    for other in _PEOPLE if other != node.id]
        elif node.id in ("players", "others"):
            other = "others" if node.id == "players" else "players"
            out.append(("target", f"`{node.id}` -> `{other}`", node.span, _set(id=other)))
        elif (found := names.others(node.id)) is not None:
            out += [(found[0], f"{found[0]} {node.id} -> {other}", node.span, _set(id=other)) for other in found[1]]
    elif isinstance(node, n.Attr):
        if (found := names.others(node.name)) is not None:
            out += [(found[0], f"{found[0]} {node.name} -> {other}", node.span, _set(name=other))
                    for other in found[1]]
        out += [("outcome", f"outcome {node.name} -> {other}", node.span, _set(name=other))
                for other in names.other_outcomes(node.name)]
    elif isinstance(node, (n.IsTest, n.HasTest)) and (tag := names.other(node.name)) is not None:
        out.append(("tag", f"`{node.name}` -> `{tag[1]}` in `{_text(node.span)}`", node.span,
                     _set(name=tag[1])))
    elif isinstance(node, n.Call) and node.func in _FUNCS:
        other = _FUNCS[node.func]
        out.append(("function", f"`{node.func}(...)` -> `{other}(...)`", node.span, _set(func=other)))
    elif isinstance(node, Roll) and (die := names.other(node.die)) is not None:
        out.append(("die", f"die {node.die} -> {die[1]}", node.span, _set(die=die[1])))
    return out


def _condition_changes(node: Any) -> list[Change]:
    """A `where` filter or a branch's `if` dropped: the rule forgets a condition."""
    if isinstance(node, (ForEach, ChooseIn, n.Arg, n.Branch, SecretChoose)) and node.cond is not None:
        return [("condition", f"removed the condition `{_text(node.cond.span)}`", node.cond.span,
                 _set(cond=None))]
    if isinstance(node, Play):
        what = "removed `else discard`" if node.else_discard else "added `else discard`"
        return [("statement", what, node.span, _set(else_discard=not node.else_discard))]
    return []


def tree_changes(obj: Any, names: Names) -> list[Change]:
    """Every way to change this node (or statement list) of a rule text."""
    if isinstance(obj, list):
        return _statement_changes(obj) if obj and all(isinstance(s, n.Stmt) for s in obj) else []
    if not isinstance(obj, n.Node):
        return []
    return _operator_changes(obj) + _literal_changes(obj) + _name_changes(obj, names) + _condition_changes(obj)


def _rule_texts(doc: Document) -> dict[tuple, Any]:
    """The parsed tree of every rule text of the spec, by its path."""
    checker = GameChecker(doc)
    jobs = checker.jobs()
    for job in jobs.values():
        checker.parse(job)
    return {path: job.tree for path, job in jobs.items() if job.tree is not None}


# --- the list, and building one ------------------------------------------------------------

def mutants(doc: Document, within: Callable[[str], bool] | None = None) -> list[Mutant]:
    """Every mutant of the spec, in a fixed order.

    With ``within`` (a test on a file name), only the mutants whose change lies
    in a file it accepts, numbered from 0: a mod's own files, so that
    `rulelang test GAME --coverage --mod M` mutates the mod and not its game.
    A data change counts when the value it changes came from such a file (for
    two swapped items, either one, and the mutant is located at that one); a
    change inside a rule text counts when the whole text came from such a file.
    """
    data, out = doc.data, []
    for kind, change, path, variant in data_mutations(data):
        place = _located(doc, changed_paths(kind, path), within)
        if place is not None:
            span, shown = place
            out.append(Mutant(len(out), kind, span.file, span.line, change, group_of(data, shown), path, variant,
                              False))
    names = Names.of(data)
    for path, tree in _rule_texts(doc).items():
        if within is not None and not within(_text_file(doc, path) or ""):
            continue
        for number, (_, node) in enumerate(walk(tree)):
            for variant, (kind, change, span, _) in enumerate(tree_changes(node, names)):
                out.append(Mutant(len(out), kind, span.file, span.line, change, group_of(data, path),
                                  path + (number,), variant, True))
    return out


def _located(doc: Document, paths: list[tuple], within: Callable[[str], bool] | None) -> tuple[Span, tuple] | None:
    """Where a data mutant is shown (its span and path): its first changed value in an accepted file, if any."""
    places = [(doc.span(path), path) for path in paths]
    if within is None:
        return places[0]
    return next((place for place in places if within(place[0].file)), None)


def _text_file(doc: Document, path: tuple) -> str | None:
    """The file a rule text was read from as a whole.

    None for a text of the game in which a mod `set` one number: its positions
    now all point at the mod's `set` line, so its mutants could not be told
    apart from the game's; such a text is left to the game's own coverage.
    """
    text = doc._scalars.get(path)           # where the loader keeps a text's own position
    if text is not None:
        return text.file
    return None if isinstance(value_at(doc.data, path), str) else doc.span(path).file


class _MutantChecker(GameChecker):
    """Checks the spec, with one rule text's tree changed right after it is parsed (if ``mutant``).

    Parsing is most of a compile, and a mutant changes at most one rule text:
    the other trees come from ``trees``, a cache of parsed trees by path and
    text (copied, because the checker writes types into a tree).
    """

    def __init__(self, doc: Document, mutant: Mutant | None, trees: dict | None, params: dict | None = None):
        super().__init__(doc, params)
        self.mutant = mutant
        self.names = Names.of(doc.data)
        self.trees = trees

    def parse(self, job) -> None:
        key = (job.path, job.block, value_at(self.doc.data, job.path))
        if self.trees is not None and key in self.trees:
            job.tree = copy.deepcopy(self.trees[key])
        else:
            super().parse(job)
            if self.trees is not None and job.tree is not None:
                self.trees[key] = copy.deepcopy(job.tree)
        where = self.mutant.where if self.mutant is not None and self.mutant.in_text else None
        if where is None or job.path != where[:-1] or job.tree is None:
            return
        path, node = next(item for k, item in enumerate(walk(job.tree)) if k == where[-1])
        _, _, _, change = tree_changes(node, self.names)[self.mutant.variant]
        job.tree = replace(job.tree, path, change(node))


def build(doc: Document, mutant: Mutant, trees: dict | None = None, params: dict | None = None) -> Game:
    """The game with this mutant's change (``SpecError`` if it no longer validates), for these param values.

    ``trees``, a dict kept between calls on one spec, caches parsed rule texts.
    """
    if mutant.in_text:
        return GameCompiler(_MutantChecker(doc, mutant, trees, params).run()).compile()
    changed = doc.copy()
    apply_data_mutation(changed, mutant.where, mutant.variant)
    validate_document(changed)
    return GameCompiler(_MutantChecker(changed, None, trees, params).run()).compile()
