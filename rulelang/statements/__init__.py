"""Statements kept in one home: one module a statement, its node, check and code side by side.

A module here is named for its grammar rule (``skip.py`` for ``skip: postfix "skips" "turn"``) and
holds one ``nodes.Stmt`` class marked ``@statement``, named for the rule in CamelCase (``Skip``; the
rule is the class name in snake_case, as ``lark.ast_utils`` names rules, with ``_stmt`` after a Python
keyword: ``if_stmt.py`` holds ``If``). Its fields are the rule's values in the order the text writes
them: ``to_nodes`` builds it from the rule with no method of its own (a NAME arrives as its text; a
keyword field ``<field>_span`` gets that NAME's place, for errors). Three more shapes of rule need no
method either:

- other alternatives: a rule whose alternatives write different parts names each other alternative with
  an alias (``| "reveal" expr "to" "all" -> reveal_all``), and the class says which fields each alias
  writes, in the order written: ``FORMS = {"reveal_all": ("cards",)}``; the fields one leaves out keep
  their defaults;
- optional words: a field typed ``bool`` is True when the text writes its part, a terminal named in
  brackets (``postfix [PUBLICLY] "chooses" ...``) or a rule of words (``[else_discard]``);
- a list of parts: a rule with no method of its own (``branches: branch+``) gives the list of its values.

A rule whose values are not the fields one for one (a part written again and again, as an `if`'s `elif`
clauses) says how they make the node with a classmethod ``from_rule(cls, *values, span)``, which the
transformer calls instead of the class; a clause's own rule (``elif_clause``) still gives its value as
``to_nodes`` builds it.

The class carries, as methods taking the checker or compiler first:

- ``check(self, ck, scope)``: the checker's work (``check.Checker``: ``expect``, ``decider``, ``error``...);
- one or both of two ways to run:
  - ``closure(self, sc) -> f(state, locals)``: a statement that never waits, jumps or ends the turn,
    so it joins a run of such statements fused into one instruction; with ``python(self, ss, out)``,
    the same work as lines of generated Python (``compiler.source_stmt``), the one form a game runs
    (the closure is the reference it is tested against, and what runs with generated code off). Every
    such statement has both; a body too big for its lines goes in an engine function both call, one of
    ``compiler.codegen.HELPERS`` (``_reveal_cards``, ``_change_face``);
  - ``instruction(self, sc, b)``: a statement emitted as instructions of its own (``b.emit(op, span)``,
    ``op(state, frame)``): it may end the turn, jump or push a frame. One that asks a decision also
    names its site (``sc.sites.add(b.sites, pc, ...)``, as ``compiler/choices.py`` does), so that
    ``decisions.py`` knows it; the decision machinery several choices share stays in the compiler,
    reached through ``roles.Decisions`` (``choose_in.py``). Optionally with ``in_place(self, dc, out)``,
    the same work as lines of a step played in place (``compiler.direct``; ``dc.unwound`` stops play
    where the turn ended); without it, the instruction runs there as one.
  - both, for a statement that waits only in some games or with some parts (a roll with `before roll`
    triggers, a value that calls a procedure, a branch holding a choice): it then says which way this
    occurrence runs, ``straight(self, sc) -> bool`` (True: its closure).
- ``words(self, w)``: its sentence in the rulebook (``rulebook.words``), which starts it with a capital.

A statement that may end the game (``check end``) says so with ``MAY_END_GAME = True``: its closure returns
True when the game is over. It then ends the run it joins (what follows starts a run of its own, after the
run loop has seen the game end), it is never straight itself (a branch or loop holding it runs as
instructions), a block ending with it still runs as one function when the rest is straight, and its
``in_place`` lines stop a step played in place when it says so. The warnings (``check.unused``) count it as
a rule that asks the end conditions.

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
    if callable(getattr(node, "in_place", None)) and "instruction" not in runs and not may_end_game(node):
        raise TypeError(f"{cls.__name__}: only a statement run as an instruction, or one that may end the game, "
                        "has lines played in place")
    if may_end_game(node) and runs != {"closure"}:
        raise TypeError(f"{cls.__name__}: a statement that may end the game runs as a closure only")
    rule = rule_of(cls)
    if rule in BY_RULE:
        raise TypeError(f"two statements are built from the rule '{rule}'")
    forms = {alias: tuple(names) for alias, names in getattr(node, "FORMS", {}).items()}
    for alias, names in forms.items():
        if alias in BY_RULE or alias in n.HOME_FORMS or alias == rule or not set(names) <= set(node.SYNTAX_FIELDS):
            raise TypeError(f"{cls.__name__}: the form '{alias}' is taken, or writes fields it does not have")
    BY_RULE[rule] = node
    n.HOME_FORMS.update((alias, (node, names)) for alias, names in forms.items())
    return node


def rule_of(cls: type) -> str:
    """The grammar rule a statement class is built from: its name in snake_case, ``_stmt`` after a keyword
    (a module cannot be named ``if``)."""
    rule = camel_to_snake(cls.__name__)
    return f"{rule}_stmt" if keyword.iskeyword(rule) else rule


def is_home(node_class: type) -> bool:
    """True for a statement kept in one home (this package)."""
    return node_class in BY_RULE.values()


def may_end_game(node_class: type) -> bool:
    """True for a statement whose closure may end the game (``MAY_END_GAME``): the last of its run."""
    return bool(getattr(node_class, "MAY_END_GAME", False))


def runs_straight(s: n.Stmt, sc: object) -> bool:
    """Whether this home statement runs as its closure here, in a run that goes on after it: it has only a
    closure, or it has both ways and its ``straight`` says so (it never waits, jumps or ends the turn in this
    game, with these parts); and it does not end the game (that one closes its run)."""
    node_class = type(s)
    if not callable(getattr(node_class, "closure", None)) or may_end_game(node_class):
        return False
    if callable(getattr(node_class, "instruction", None)):
        return bool(s.straight(sc))  # type: ignore[attr-defined]
    return True


for _module in sorted(info.name for info in pkgutil.iter_modules(__path__)):
    importlib.import_module(f"{__name__}.{_module}")
