"""Finding the method for a node's class: the ``Visitor`` (the checker is one) and the compiler's tables.

A visitor names its methods for node classes (``visit_Name``, ``stmt_<Class>``, ``c_BinOp``); a statement kept in
one home (``rulelang/statements/``) carries its own instead, found through the visitor's ``OWN`` name.
The checker looks a method up the first time it meets a class; the compilers build a ``Dispatch`` table
for every class when they are imported, so a class with no way to compile fails there (``require``).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from rulelang.lang.nodes import Node, leaf_classes


class Visitor:
    """Calls the method named for a node's class: ``visit(node, *args)`` runs ``visit_If(node, *args)``.

    A class with no such method gets the node's own method named ``OWN``, if the visitor names one and
    the node class has it (a statement kept in one home, ``rulelang/statements/``), called as
    ``node.OWN(visitor, *args)``; else ``generic_visit``, which visits the node's children. The method
    for each node class is looked up once per visitor class; a visitor that names its methods another
    way overrides ``method_name``.
    """

    _handlers: ClassVar[dict[type, Callable[..., Any]]] = {}
    #: The name of the method a node class may carry for this visitor itself (None: the visitor's only).
    OWN: ClassVar[str | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._handlers = {}

    @classmethod
    def method_name(cls, node_class: type) -> str:
        return "visit_" + node_class.__name__

    @classmethod
    def handler(cls, node_class: type) -> Callable[..., Any] | None:
        """This visitor's method for a node class (or the node's own), None when it has neither."""
        return handler_for(cls, node_class, cls.method_name(node_class), cls.OWN)

    def visit(self, node: Node, *args: Any) -> Any:
        handler = self._handlers.get(type(node))
        if handler is None:
            handler = self.handler(type(node)) or type(self).generic_visit
            self._handlers[type(node)] = handler
        return handler(self, node, *args)

    def generic_visit(self, node: Node, *args: Any) -> Any:
        for child in node.children():
            self.visit(child, *args)
        return None


def handler_for(visitor_class: type, node_class: type, name: str, own: str | None = None) -> Callable[..., Any] | None:
    """The visitor's method ``name``, else the node class's own method ``own`` (given the visitor), else None."""
    method = getattr(visitor_class, name, None)
    if method is None and own is not None and callable(getattr(node_class, own, None)):
        def method(visitor: Any, node: Node, *args: Any) -> Any:
            return getattr(node, own)(visitor, *args)
    return method


class Dispatch:
    """A visitor's methods by node class, looked up once: ``Dispatch(ExprCompiler, "c_", Expr)``.

    For each concrete class under ``base`` (those of ``rulelang/statements/`` too: import them first),
    the visitor's method ``prefix`` + the class's name, else the node's own method ``own``. Built when
    the visitor's module is imported, so a class with no method shows there (``require``), not in play.
    """

    def __init__(self, visitor_class: type, prefix: str, base: type[Node], own: str | None = None) -> None:
        self.prefix = prefix
        self.classes = leaf_classes(base)
        self.methods: dict[type, Callable[..., Any]] = {}
        for node_class in self.classes:
            method = handler_for(visitor_class, node_class, prefix + node_class.__name__, own)
            if method is not None:
                self.methods[node_class] = method

    def get(self, node_class: type) -> Callable[..., Any] | None:
        return self.methods.get(node_class)

    def __call__(self, visitor: Any, node: Node, *args: Any) -> Any:
        return self.methods[type(node)](visitor, node, *args)

    def missing(self) -> list[str]:
        """The names of the node classes this table has no method for."""
        return [c.__name__ for c in self.classes if c not in self.methods]


def require(what: str, *tables: Dispatch) -> None:
    """Fail now, naming them, if some node class has a method in none of ``tables``."""
    missing = set.intersection(*(set(table.missing()) for table in tables))
    if missing:
        prefixes = " or ".join(f"{table.prefix}<Class>" for table in tables)
        raise TypeError(f"{what} has no {prefixes} for {', '.join(sorted(missing))}")
