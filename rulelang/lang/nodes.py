"""The DSL's syntax tree: small dataclasses, each with the span it came from.

The parser builds them, the checker annotates them (``type``, and ``ref``: refs.py),
and the compiler turns them into Python closures.

A node's syntax fields are its positional ones: what the rule text wrote. Its
keyword-only fields (``span``, ``type``, ``ref``, ``name_span``...) are where it
sits and what the checker found, never a child. ``children()`` and ``walk`` go
over the syntax fields only, through a field list computed once per class;
``visitors.py`` finds the method for a node's class (the ``Visitor``, the compiler's tables).
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, ClassVar

from rulelang.errors import Span
from rulelang.lang.refs import Ref

#: A node class: a dataclass compared by identity, with ``Node``'s one repr. Every ``@dataclass`` method is
#: Python source that is compiled as its module is imported: 385 of them took 61 ms of a cold `rulelang
#: validate`'s imports, a repr per node class 8 ms of that.
if TYPE_CHECKING:                   # the same decorator, under the name type checkers know it by
    from dataclasses import dataclass as node
else:
    node = dataclass(eq=False, repr=False)


@node
class Node:
    span: Span = field(repr=False, kw_only=True)
    #: The names of the fields the rule text gave, in order (set for every class at the end of this module).
    SYNTAX_FIELDS: ClassVar[tuple[str, ...]] = ()
    #: The fields that name a local this node binds (a name, or a ``Name`` target): ``bound_names`` reads them.
    #: A statement that binds a local must list its field here, or the compiler would keep reading an
    #: older value of the local from a Python variable (source_stmt.py).
    BINDS: ClassVar[tuple[str, ...]] = ()

    def __repr__(self) -> str:
        """As a dataclass's repr (its keyword-only fields are left out of that too): the syntax fields."""
        shown = ", ".join(f"{name}={value!r}" for name, value in self.syntax_items())
        return f"{type(self).__qualname__}({shown})"

    def syntax_items(self) -> Iterator[tuple[str, Any]]:
        """(field name, value) of each syntax field, in order: values, names, child nodes and lists of them."""
        for name in self.SYNTAX_FIELDS:
            yield name, getattr(self, name)

    def children(self) -> Iterator[Node]:
        """The nodes directly under this one, in the order the text wrote them (lists and pairs looked into)."""
        for name in self.SYNTAX_FIELDS:
            yield from nodes_in(getattr(self, name))


# --- expressions ---------------------------------------------------------

@node
class Expr(Node):
    #: Set by the checker: the expression's type (see ``check.Type``).
    type: Any = field(default=None, repr=False, kw_only=True)


@node
class Num(Expr):
    value: int


@node
class Text(Expr):
    value: str


@node
class Bool(Expr):
    value: bool


@node
class NoneLit(Expr):
    pass


@node
class Name(Expr):
    id: str
    #: Set by the checker: what the name resolved to, e.g. Ref(RefKind.LOCAL, "x").
    ref: Ref | None = field(default=None, repr=False, kw_only=True)


@node
class ListLit(Expr):
    items: list[Expr]


@node
class TupleLit(Expr):
    """`(a, b)`: a fixed number of values together, read back by position (`t[0]`)."""
    items: list[Expr]


@node
class ListComp(Expr):
    """`[VALUE for x in A for y in B where COND]`: VALUE for every combination, the last loop turning fastest."""
    value: Expr
    loops: list[tuple[str, Expr]]
    cond: Expr | None = None


@node
class Attr(Expr):
    obj: Expr
    name: str
    ref: Ref | None = field(default=None, repr=False, kw_only=True)


@node
class Index(Expr):
    obj: Expr
    key: Expr


@node
class Arg(Node):
    """A call argument: a plain value, a filtered list or a generator."""

    value: Expr
    var: str | None = None          # bound name of a comprehension
    source: Expr | None = None      # the list it ranges over
    cond: Expr | None = None        # its filter


@node
class Call(Expr):
    func: str
    args: list[Arg]
    ref: Ref | None = field(default=None, repr=False, kw_only=True)


@node
class BinOp(Expr):
    op: str
    left: Expr
    right: Expr


@node
class Compare(Expr):
    op: str
    left: Expr
    right: Expr


@node
class BoolOp(Expr):
    op: str                  # "and" / "or"
    left: Expr
    right: Expr


@node
class CondExpr(Expr):
    """`then if cond else orelse`: one of two values, the other not computed."""
    cond: Expr
    then: Expr
    orelse: Expr


@node
class Not(Expr):
    operand: Expr


@node
class Neg(Expr):
    operand: Expr


@node
class Member(Expr):
    item: Expr
    container: Expr
    negated: bool = False


@node
class IsTest(Expr):
    obj: Expr
    name: str
    negated: bool = False
    name_span: Span | None = field(default=None, repr=False, kw_only=True)
    ref: Ref | None = field(default=None, repr=False, kw_only=True)


@node
class HasTest(Expr):
    zone: Expr
    name: str
    name_span: Span | None = field(default=None, repr=False, kw_only=True)
    ref: Ref | None = field(default=None, repr=False, kw_only=True)


# --- statements ----------------------------------------------------------

@node
class Stmt(Node):
    """A statement. Those kept in one home (node, check and code in one module) are in ``rulelang/statements/``."""


@node


@node
class Branch(Node):
    """A labelled branch of `P chooses one:` (``rulelang/statements/choose_one.py``), its `if` and its body."""

    label: str
    cond: Expr | None
    body: list[Stmt]
    id: str | None = None           # `"label" as ID`: an option id that survives rewording the label


@node
class EachBranch(Node):
    """`for x in LIST where C:` among the branches of `chooses one`: one option per item, its body run with x."""

    BINDS = ('var',)
    var: str
    source: Expr
    cond: Expr | None
    body: list[Stmt]


# --- walking a tree --------------------------------------------------------

def nodes_in(value: Any) -> Iterator[Node]:
    """The nodes a field's value holds: itself, or those in a list or tuple (an `if`'s branches are pairs)."""
    if isinstance(value, Node):
        yield value
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from nodes_in(item)


def walk(root: Node | Iterable[Any]) -> Iterator[Node]:
    """Every node of a tree or a block, parents before children, in text order; no recursion, so depth is free."""
    stack = list(nodes_in(root if isinstance(root, Node) else list(root)))
    stack.reverse()
    while stack:
        node = stack.pop()
        yield node
        under = list(node.children())
        under.reverse()
        stack.extend(under)


def bound_names(root: Node | Iterable[Any]) -> set[str]:
    """The locals a statement or a block may bind anywhere inside it (``Node.BINDS``)."""
    names = set()
    for node in walk(root):
        for name in node.BINDS:
            value = getattr(node, name)
            if isinstance(value, str):
                names.add(value)
            elif isinstance(value, Name):
                names.add(value.id)
    return names


#: The node class of each statement kept in one home (``rulelang/statements/``), by the grammar rule it is
#: built from. Those modules fill it as they are imported and the parser reads it: so the syntax layer
#: never imports them (they reach into the checker, the compiler and the engine). Whoever parses, the
#: compiler, imports ``rulelang.statements`` first.
HOME_STATEMENTS: dict[str, type[Stmt]] = {}
#: The other alternatives of a home statement's rule, by their alias (``-> reveal_all``): the node class and
#: the fields that alternative writes, in the order it writes them (the fields it leaves out keep their defaults).
HOME_FORMS: dict[str, tuple[type[Stmt], tuple[str, ...]]] = {}


def node_classes() -> Iterator[type[Node]]:
    """Every node class, those defined outside this module (``rulelang/statements/``) included."""
    todo = [Node]
    while todo:
        cls = todo.pop()
        yield cls
        todo.extend(cls.__subclasses__())


def leaf_classes(base: type[Node]) -> list[type[Node]]:
    """The node classes under ``base`` that nothing derives from: the ones a tree holds, in a fixed order."""
    return sorted((c for c in node_classes() if issubclass(c, base) and not c.__subclasses__()),
                  key=lambda c: (c.__module__, c.__qualname__))


def set_syntax_fields(cls: type[Node]) -> None:
    """A dataclass node's positional fields, in order: what its rule text writes (``SYNTAX_FIELDS``)."""
    cls.SYNTAX_FIELDS = tuple(f.name for f in fields(cls) if not f.kw_only)


for _class in node_classes():
    set_syntax_fields(_class)
