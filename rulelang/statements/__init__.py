"""Statements kept in one home: one module a statement, its node, check and code side by side.

A module here is named for its grammar rule (``skip.py`` for ``skip: postfix "skips" "turn"``) and
holds one ``nodes.Stmt`` class marked ``@statement``, named for the rule in CamelCase (``Skip``; the
rule is the class name in snake_case, as ``lark.ast_utils`` names rules, with ``_stmt`` after a Python
keyword: ``if_stmt.py`` holds ``If``). Its fields are the rule's values in the order the text writes
them: ``to_nodes`` builds it from the rule with no method of its own. A rule whose values are not the
fields one for one (a part written again and again, as an `if`'s `elif` clauses) says how they make
the node with a classmethod ``from_rule(cls, *values, span)``, which the transformer calls instead of
the class; a clause's own rule (``elif_clause``) still gives its value as ``to_nodes`` builds it.
A NAME is given as its text. The class carries, as methods taking the checker or compiler first:

- ``check(self, ck, scope)``: the checker's work (``check.Checker``: ``expect``, ``decider``, ``error``...);
- one or both of two ways to run:
  - ``closure(self, sc) -> f(state, locals)``: a statement that never waits, jumps or ends the turn,
    so it joins a run of such statements fused into one instruction; optionally with
    ``python(self, ss, out)``, the same work as lines of generated Python (``compiler.source_stmt``;
    return False to be called as the closure instead);
  - ``instruction(self, sc, b)``: a statement emitted as instructions of its own (``b.emit(op, span)``,
    ``op(state, frame)``): it may end the turn, jump or push a frame. One that asks a decision also
    names its site (``sc.sites.add(b.sites, pc, ...)``, as ``compiler/choices.py`` does), so that
    ``decisions.py`` knows it. Optionally with ``in_place(self, dc, out)``, the same work as lines of a
    step played in place (``compiler.direct``; ``dc.unwound`` stops play where the turn ended); without
    it, the instruction runs there as one.
  - both, for a statement that waits only in some games or with some parts (a roll with `before roll`
    triggers, a value that calls a procedure, a branch holding a choice): it then says which way this
    occurrence runs, ``straight(self, sc) -> bool`` (True: its closure).
- ``words(self, w)``: its sentence in the rulebook (``rulebook.words``), which starts it with a capital.

What a statement calls on the compiler, the code generator and the rulebook is named in ``roles.py``
as structural types: those stages import this package, so a statement never imports them.

The checker and the compiler find these through ``visitors.Visitor.OWN`` and ``visitors.Dispatch``, exactly
where they find their own methods for the other statements, so errors, budgets, generated code,
mutants and decision sites treat both alike. Every module of this package is imported here, in name
order, so adding a statement is adding its module (and its grammar rule).
"""
from __future__ import annotations

import importlib
import keyword
import pkgutil

from lark.ast_utils import camel_to_snake

from rulelang.lang import nodes as n

#: Each home statement's node class by the grammar rule it is built from: the syntax layer's own table,
#: which the parser reads (``lang`` never imports this package; importing it fills the table).
BY_RULE: dict[str, type[n.Stmt]] = n.HOME_STATEMENTS


def statement(cls: type) -> type[n.Stmt]:
    """Make ``cls`` a node dataclass and register it under its rule (the class name in snake_case)."""
    if not issubclass(cls, n.Stmt):
        raise TypeError(f"{cls.__name__}: a statement's node is a nodes.Stmt")
    node = n.node(cls)
    n.set_syntax_fields(node)
    runs = {way for way in ("closure", "instruction") if callable(getattr(node, way, None))}
    if not callable(getattr(node, "check", None)) or not runs:
        raise TypeError(f"{cls.__name__}: a statement has a check and a closure, an instruction or both")
    if len(runs) == 2 and not callable(getattr(node, "straight", None)):
        raise TypeError(f"{cls.__name__}: a statement with a closure and an instruction says which runs (straight)")
    if callable(getattr(node, "python", None)) and "closure" not in runs:
        raise TypeError(f"{cls.__name__}: only a statement run as a closure has generated Python")
    if callable(getattr(node, "in_place", None)) and "instruction" not in runs:
        raise TypeError(f"{cls.__name__}: only a statement run as an instruction has lines played in place")
    rule = rule_of(cls)
    if rule in BY_RULE:
        raise TypeError(f"two statements are built from the rule '{rule}'")
    BY_RULE[rule] = node
    _HOMES.add(node)
    return node


def rule_of(cls: type) -> str:
    """The grammar rule a statement class is built from: its name in snake_case, ``_stmt`` after a keyword
    (a module cannot be named ``if``)."""
    rule = camel_to_snake(cls.__name__)
    return f"{rule}_stmt" if keyword.iskeyword(rule) else rule


def is_home(node_class: type) -> bool:
    """True for a statement kept in one home (this package)."""
    return node_class in _HOMES


def runs_straight(s: n.Stmt, sc: object) -> bool:
    """Whether this home statement runs as its closure here: it has only a closure, or it has both ways and
    its ``straight`` says so (it never waits, jumps or ends the turn in this game, with these parts)."""
    node_class = type(s)
    if not callable(getattr(node_class, "closure", None)):
        return False
    if callable(getattr(node_class, "instruction", None)):
        return bool(s.straight(sc))  # type: ignore[attr-defined]
    return True


_HOMES: set[type] = set()


for _module in sorted(info.name for info in pkgutil.iter_modules(__path__)):
    importlib.import_module(f"{__name__}.{_module}")
