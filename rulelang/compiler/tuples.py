"""Tuples and lists built with `for`: closures, folding into constants, and option ids.

A tuple `(a, b)` is a Python list at run time, so that a saved game, a log and a view hold it
exactly as the rules do (JSON has no tuples: a value read back from a save must compare equal
to one the rules build). Lists compare element by element, as the language orders tuples.

A list built with `for` (`[(q, f) for q in range(1, 3) for f in range(1, 7)]`) whose loops
range over constants is folded into a constant when the game is compiled, so a decision that
chooses from it lists every option it can offer (``Game.decisions``, the adapters' action
numbers). The folding evaluates a small, closed set of node types with the loop names bound;
anything else (a counter, a card, a procedure) leaves the list to be built while playing.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rulelang.engine.limits import MAX_OPTIONS, spend
from rulelang.lang import nodes as n
from rulelang.lang.refs import RefKind
from rulelang.lang.types import tuple_items
from rulelang.lang.visitors import Dispatch

if TYPE_CHECKING:
    from rulelang.engine.state import State

Fn = Callable[[Any, dict], Any]
_MISSING = object()

#: How many items folding a list built with `for` may look at before leaving it to run time.
FOLD_LIMIT = MAX_OPTIONS
#: How many values folding one list may compute (its items' values and filters) before leaving it to run time.
FOLD_WORK = 1_000_000


class _Unknown(Exception):
    """Folding met something whose value is only known while playing."""


# -- closures ------------------------------------------------------------------------------------

def tuple_closure(items: list[Fn]) -> Fn:
    """`(a, b)`: its elements computed left to right into a new list."""
    return lambda st, L: [f(st, L) for f in items]


def element_closure(obj: Fn, position: int) -> Fn:
    """`t[k]`: the element at a position the checker knows lies in the tuple."""
    return lambda st, L: obj(st, L)[position]


def comprehension_closure(loops: list[tuple[str, Fn]], cond: Fn | None, value: Fn) -> Fn:
    """`[VALUE for x in A for y in B where C]`: every combination in order, each item looked at charged as work.

    The loop names are bound in the locals while it runs, and restored (or removed) after, as an
    aggregate's name is.
    """
    names = [var for var, _ in loops]

    def build(st: State, L: dict) -> list:
        saved = [L.get(var, _MISSING) for var in names]
        out: list = []
        try:
            _fill(st, L, loops, 0, cond, value, out)
        finally:
            for var, old in zip(names, saved):
                if old is _MISSING:
                    L.pop(var, None)
                else:
                    L[var] = old
        return out
    return build


def _fill(st: Any, L: dict, loops: list[tuple[str, Fn]], depth: int, cond: Fn | None, value: Fn, out: list) -> None:
    var, source = loops[depth]
    xs = source(st, L)
    spend(st, len(xs))
    last = depth == len(loops) - 1
    for x in xs:
        L[var] = x
        if not last:
            _fill(st, L, loops, depth + 1, cond, value, out)
        elif cond is None or cond(st, L):
            out.append(value(st, L))


# -- folding -------------------------------------------------------------------------------------

#: What the expression compiler knows of a node when the game is compiled: (known, value).
Constant = Callable[[n.Expr], tuple[bool, Any]]


def fold_comprehension(constant: Constant, number_limit: int, e: n.ListComp) -> tuple[bool, Any]:
    """The list's value when the game is compiled, if its loops and filter need nothing of a game in play.

    ``constant`` is the expression compiler's own folding of a node, ``number_limit`` the game's: passed
    down by the compiler, not imported up from it.
    """
    try:
        return True, _Folder(constant, number_limit).comprehension(e, {})
    except _Unknown:
        return False, None


class _Folder:
    """Evaluates the few node types a constant list is built from, with the loops' names in ``env``."""

    def __init__(self, constant: Constant, number_limit: int):
        self.constant = constant
        self.number_limit = number_limit
        self.looked = 0
        self.work = 0
        self.mentions: dict[int, bool] = {}       # node id -> does it read a loop's name (the same at every item)

    def value(self, e: n.Expr, env: dict[str, Any]) -> Any:
        self.work += 1
        if self.work > FOLD_WORK:
            raise _Unknown
        if isinstance(e, n.Name) and e.ref and e.ref.kind == RefKind.LOCAL:
            if e.ref.name not in env:
                raise _Unknown
            return env[e.ref.name]
        mentions = self.mentions.get(id(e))
        if mentions is None:
            mentions = self.mentions[id(e)] = _mentions(e, env)
        if not mentions:
            known, value = self.constant(e)
            if known:
                return value
        method = _FOLDS.get(type(e))
        if method is None:
            raise _Unknown
        return method(self, e, env)

    def comprehension(self, e: n.ListComp, env: dict[str, Any]) -> list:
        out: list = []
        self._loops(e, 0, dict(env), out)
        return out

    def _loops(self, e: n.ListComp, depth: int, env: dict[str, Any], out: list) -> None:
        var, source = e.loops[depth]
        xs = self.value(source, env)
        self.looked += len(xs)
        if self.looked > FOLD_LIMIT:
            raise _Unknown
        for x in xs:
            env[var] = x
            if depth < len(e.loops) - 1:
                self._loops(e, depth + 1, env, out)
            elif e.cond is None or self.value(e.cond, env):
                out.append(self.value(e.value, env))

    def f_ListComp(self, e: n.ListComp, env: dict) -> list:
        return self.comprehension(e, env)

    def f_TupleLit(self, e: n.TupleLit, env: dict) -> list:
        return [self.value(x, env) for x in e.items]

    def f_ListLit(self, e: n.ListLit, env: dict) -> list:
        return [self.value(x, env) for x in e.items]

    def f_Index(self, e: n.Index, env: dict) -> Any:
        if tuple_items(e.obj.type) is None:
            raise _Unknown
        return self.value(e.obj, env)[e.key.value]

    def f_BinOp(self, e: n.BinOp, env: dict) -> int:
        a, b = self.value(e.left, env), self.value(e.right, env)
        if isinstance(a, list) or isinstance(b, list):
            raise _Unknown              # lists joined: left to the game, which charges the work
        if e.op == "//":
            if b == 0:
                raise _Unknown          # the error is the game's to report, where it happens
            return a // b
        v = a + b if e.op == "+" else a - b if e.op == "-" else a * b
        if not -self.number_limit <= v <= self.number_limit:
            raise _Unknown
        return v

    def f_Neg(self, e: n.Neg, env: dict) -> int:
        return -self.value(e.operand, env)

    def f_Compare(self, e: n.Compare, env: dict) -> bool:
        a, b = self.value(e.left, env), self.value(e.right, env)
        if e.op == "=":
            return a == b
        if e.op == "!=":
            return a != b
        return _order(e.op, a, b)

    def f_BoolOp(self, e: n.BoolOp, env: dict) -> bool:
        a = self.value(e.left, env)
        if e.op == "and":
            return a and self.value(e.right, env)
        return a or self.value(e.right, env)

    def f_Not(self, e: n.Not, env: dict) -> bool:
        return not self.value(e.operand, env)

    def f_CondExpr(self, e: n.CondExpr, env: dict) -> Any:
        return self.value(e.then, env) if self.value(e.cond, env) else self.value(e.orelse, env)

    def f_Call(self, e: n.Call, env: dict) -> list:
        if e.ref != ("builtin", "range"):
            raise _Unknown
        low, high = self.value(e.args[0].value, env), self.value(e.args[1].value, env)
        if high - low > FOLD_LIMIT:
            raise _Unknown
        return list(range(low, high))


#: The node classes folding can evaluate (``f_<Class>``), looked up once; any other is left to run time.
_FOLDS = Dispatch(_Folder, "f_", n.Expr)


def _order(op: str, a: Any, b: Any) -> bool:
    if op == "<":
        return a < b
    if op == "<=":
        return a <= b
    if op == ">":
        return a > b
    return a >= b


def _mentions(e: n.Expr, env: dict) -> bool:
    """Does ``e`` read a name bound by a loop being folded?"""
    return any(isinstance(x, n.Name) and x.ref and x.ref.kind == RefKind.LOCAL and x.ref.name in env for x in n.walk(e))


# -- options -------------------------------------------------------------------------------------

def tuple_option_text(parts: list[Callable[[Any, Any], tuple[str, str]]]) -> Callable[[Any, Any], tuple[str, str]]:
    """A tuple's option id and label from its elements': ids joined by ``-`` (``3-5``, ``P2-gem``) and labels by ``, ``.

    An element's id never holds a ``-`` but for a negative number's sign, so the id tells the
    tuple: ``-1-2`` is (-1, 2) and ``1--2`` is (1, -2).
    """
    def text(st: Any, value: list) -> tuple[str, str]:
        pairs = [("none", "none") if v is None else part(st, v) for part, v in zip(parts, value)]
        return "-".join(i for i, _ in pairs), "(" + ", ".join(label for _, label in pairs) + ")"
    return text
