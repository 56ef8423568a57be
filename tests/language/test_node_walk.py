"""The nodes' child walk and visitor: every node of a tree is reached exactly once, in text order."""
from __future__ import annotations

import dataclasses
import functools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulelang import load_game
from rulelang.check.checker import Checker
from rulelang.check.types import Symbols
from rulelang.errors import Span
from rulelang.lang import nodes as n
from rulelang.lang import parser
from rulelang.lang.visitors import Visitor
from rulelang.statements.if_stmt import If

from golden import record
from helpers.examples import examples


def here(line, col, end_line=None, end_col=None) -> Span:
    return Span("rule", line, col, end_line, end_col)


def reachable(root) -> list[n.Node]:
    """Every node reachable from root through any field at all (the checker's too), by reflection, each once."""
    found: dict[int, n.Node] = {}
    todo = [root]
    while todo:
        value = todo.pop()
        if isinstance(value, n.Node):
            if id(value) in found:
                continue
            found[id(value)] = value
            todo.extend(getattr(value, f.name) for f in dataclasses.fields(value))
        elif isinstance(value, (list, tuple)):
            todo.extend(value)
    return list(found.values())


@functools.cache
def checked_trees(name: str) -> list:
    """The trees of every rule text of one game, as the loader parsed and checked them (once for the tests
    here, which only read them)."""
    trees: list = []
    real = parser._parse

    def keep(text, start, locate):
        tree = real(text, start, locate)
        trees.append(tree)
        return tree
    folder, mods = record.GAMES[name]
    parser._parse = keep
    try:
        load_game(record.ROOT / folder, mods=[record.ROOT / m for m in mods])
    finally:
        parser._parse = real
    return trees


class Counter(Visitor):
    """Visits with the generic walk only, counting each node it is handed."""

    def __init__(self):
        self.seen: list[n.Node] = []

    def generic_visit(self, node, *args):
        self.seen.append(node)
        return super().generic_visit(node, *args)


@pytest.mark.parametrize("name", sorted(record.GAMES))
def test_walk_reaches_every_node_of_a_games_checked_trees_exactly_once(name: str) -> None:
    trees = checked_trees(name)
    assert trees
    walked = list(n.walk(trees))
    expected = reachable(trees)
    assert len(walked) == len({id(x) for x in walked}), "a node was walked twice"
    assert {id(x) for x in walked} == {id(x) for x in expected}
    counter = Counter()
    for tree in trees:
        for top in n.nodes_in(tree):
            counter.visit(top)
    assert [id(x) for x in counter.seen] == [id(x) for x in walked]


def test_walk_goes_in_text_order_parents_first() -> None:
    stmt, = parser.parse_block("if a:\n    b = c + d\nelif e:\n    f(g)\nelse:\n    pass\n", here)
    order = [x.id if isinstance(x, n.Name) else type(x).__name__ for x in n.walk(stmt)]
    assert order == ["If", "a", "Assign", "b", "BinOp", "c", "d", "e", "CallStmt", "Call", "Arg", "g", "PassStmt"]


def test_children_skip_the_checkers_fields_and_spans() -> None:
    expr = parser.parse_expression("x.y", here)
    expr.ref = n.Name("planted", span=here(1, 1))
    expr.type = n.Num(1, span=here(1, 1))
    assert [type(c).__name__ for c in expr.children()] == ["Name"]
    assert n.Attr.SYNTAX_FIELDS == ("obj", "name")
    assert If.SYNTAX_FIELDS == ("branches", "orelse")


def test_a_visitor_runs_the_method_named_for_the_class_and_walks_the_rest() -> None:
    class Names(Visitor):
        def __init__(self):
            self.names: list[str] = []

        def visit_Name(self, node, prefix):
            self.names.append(prefix + node.id)

    visitor = Names()
    for stmt in parser.parse_block("for each c in me.hand where c is tool:\n    x = count(d in y where d > z)\n", here):
        visitor.visit(stmt, "$")
    assert visitor.names == ["$me", "$c", "$x", "$d", "$y", "$d", "$z"]


def test_the_checker_is_a_visitor_with_a_check_for_every_statement_and_expression() -> None:
    """Its own `stmt_`/`expr_` method, or a home statement's `check` (rulelang/statements/)."""
    for cls in n.node_classes():
        if cls.__subclasses__() or cls in (n.Arg, n.Branch, n.EachBranch):    # parts their statement checks
            continue
        assert Checker.handler(cls) is not None, cls.__name__

    class Strange(n.Expr):
        pass
    with pytest.raises(TypeError, match="no check for Strange"):
        Checker(Symbols()).expr(Strange(span=here(1, 1)), None)


# --- random expressions ---------------------------------------------------------------------

_leaf = st.sampled_from(["a", "b", "me", "1", "42", "true", "none", '"x"', "all(c in a where c)"])


def _combine(inner):
    two = st.tuples(inner, inner)
    return st.one_of(
        two.map(lambda p: f"({p[0]} + {p[1]})"), two.map(lambda p: f"({p[0]} * {p[1]})"),
        two.map(lambda p: f"({p[0]} = {p[1]})"), two.map(lambda p: f"({p[0]} and {p[1]})"),
        inner.map(lambda x: f"(not {x})"), inner.map(lambda x: f"(-{x})"), inner.map(lambda x: f"{x}.y"),
        two.map(lambda p: f"{p[0]}[{p[1]}]"), st.lists(inner, max_size=3).map(lambda xs: f"[{', '.join(xs)}]"),
        st.lists(inner, max_size=3).map(lambda xs: f"f({', '.join(xs)})"),
        st.tuples(inner, inner, inner).map(lambda p: f"({p[0]} if {p[1]} else {p[2]})"),
        two.map(lambda p: f"count(c in {p[0]} where {p[1]})"),
        two.map(lambda p: f"sum({p[0]} for c in {p[1]})"),
    )


@examples(150)
@given(st.recursive(_leaf, _combine, max_leaves=25))
def test_walk_and_reflection_agree_on_random_expressions(text: str) -> None:
    tree = parser.parse_expression(text, here)
    walked = list(n.walk(tree))
    assert len(walked) == len({id(x) for x in walked})
    assert {id(x) for x in walked} == {id(x) for x in reachable(tree)}


def dataclass_repr(value) -> str:
    """What ``@dataclass`` would write for a node, its fields with ``repr`` on, nested nodes likewise."""
    if isinstance(value, n.Node):
        shown = ", ".join(f"{f.name}={dataclass_repr(getattr(value, f.name))}"
                          for f in dataclasses.fields(value) if f.repr)
        return f"{type(value).__qualname__}({shown})"
    if isinstance(value, list):
        return "[" + ", ".join(dataclass_repr(item) for item in value) + "]"
    if isinstance(value, tuple):
        inner = ", ".join(dataclass_repr(item) for item in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    return repr(value)


@pytest.mark.parametrize("name", sorted(record.GAMES))
def test_a_nodes_repr_is_the_one_a_dataclass_would_write(name: str) -> None:
    """``Node.__repr__`` stands in for each node class's generated one (nodes.node): the same text."""
    tops = [top for tree in checked_trees(name) for top in n.nodes_in(tree)]
    assert tops
    kinds = set()
    for top in tops:
        assert repr(top) == dataclass_repr(top)
        kinds.update(type(x) for x in n.walk([top]))
    assert len(kinds) > 5
