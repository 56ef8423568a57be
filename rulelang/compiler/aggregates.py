"""Aggregates over lists as closures: count, sum, any, all, first, last, empty, max, min, filter, range.

Every item an aggregate looks at is a unit of work (``st.work``), and a sum stays within the
game's number_limit; a comprehension binds its variable and restores it after. Generated
code (``source_expr``) writes the same loops out in Python.
"""
from __future__ import annotations

from typing import Any, Callable

from ..errors import RuleError
from ..limits import MAX_OPTIONS, over_budget, spend, too_big

Fn = Callable[[Any, dict], Any]
_MISSING = object()

def number_range(low: Fn, high: Fn, span) -> Fn:
    """`range(a, b)`: the numbers a to b - 1, each charged as work, at most MAX_OPTIONS of them."""
    def numbers(st: Any, L: dict) -> list:
        lo, hi = low(st, L), high(st, L)
        if hi - lo > MAX_OPTIONS:
            raise RuleError(f"range({lo:,}, {hi:,}) has more than the {MAX_OPTIONS:,} numbers a list of "
                            "numbers may have", span)
        if hi > lo:
            spend(st, hi - lo)
        return list(range(lo, hi))
    return numbers


def metered(items: Fn) -> Fn:
    """The items of an aggregate, each one charged as a unit of work."""
    def read(st: Any, L: dict) -> list:
        xs = items(st, L)
        spend(st, len(xs))
        return xs
    return read


def plain_aggregate(name: str, items: Fn) -> Fn:
    if name == "count":
        return lambda st, L: len(items(st, L))
    if name == "empty":
        return lambda st, L: not items(st, L)
    if name == "any":
        return lambda st, L: any(items(st, L))
    if name == "all":
        return lambda st, L: all(items(st, L))
    if name == "first":
        return lambda st, L: xs[0] if (xs := items(st, L)) else None
    if name == "last":
        return lambda st, L: xs[-1] if (xs := items(st, L)) else None
    if name == "sum":
        return lambda st, L: sum(items(st, L))
    if name == "max":
        return lambda st, L: max(items(st, L), default=0)
    if name == "min":
        return lambda st, L: min(items(st, L), default=0)
    return lambda st, L: list(items(st, L))     # filter


def comprehension(name: str, var: str, items: Fn, cond: Fn | None, value: Fn, limit: int, span: Any) -> Fn:
    """An aggregate over `var in items where cond`; `var` is bound, then restored.

    Expressions never change the state, so the items are read in place; the
    common aggregates run as one loop without building a list. Each item is a
    unit of work.
    """
    keep = cond if cond is not None else (lambda st, L: True)

    def restore(L: dict, saved: Any) -> None:
        if saved is _MISSING:
            del L[var]
        else:
            L[var] = saved

    def selected(st: Any, L: dict) -> list:
        saved, out = L.get(var, _MISSING), []
        xs = items(st, L)
        st.work -= len(xs)
        if st.work < 0:
            raise over_budget(st)
        for x in xs:
            L[var] = x
            if keep(st, L):
                out.append(value(st, L))
        if var in L:
            restore(L, saved)
        return out

    def first_match(st: Any, L: dict) -> Any:
        saved, found = L.get(var, _MISSING), None
        xs = items(st, L)
        st.work -= len(xs)
        if st.work < 0:
            raise over_budget(st)
        for x in xs:
            L[var] = x
            if keep(st, L):
                found = x
                break
        if var in L:
            restore(L, saved)
        return found

    def count(st: Any, L: dict) -> int:
        saved, total = L.get(var, _MISSING), 0
        xs = items(st, L)
        st.work -= len(xs)
        if st.work < 0:
            raise over_budget(st)
        for x in xs:
            L[var] = x
            if keep(st, L):
                total += 1
        if var in L:
            restore(L, saved)
        return total

    def add_up(st: Any, L: dict) -> int:
        saved, total = L.get(var, _MISSING), 0
        xs = items(st, L)
        st.work -= len(xs)
        if st.work < 0:
            raise over_budget(st)
        for x in xs:
            L[var] = x
            if keep(st, L):
                total += value(st, L)
        if var in L:
            restore(L, saved)
        if -limit <= total <= limit:
            return total
        raise too_big(total, limit, span)

    def every(st: Any, L: dict) -> bool:
        saved, result = L.get(var, _MISSING), True
        xs = items(st, L)
        st.work -= len(xs)
        if st.work < 0:
            raise over_budget(st)
        for x in xs:
            L[var] = x
            if not keep(st, L):
                result = False
                break
        if var in L:
            restore(L, saved)
        return result

    if name == "any":
        return lambda st, L: first_match(st, L) is not None
    if name == "first":
        return first_match
    if name == "all":
        return every
    if name == "count":
        return count
    if name == "empty":
        return lambda st, L: first_match(st, L) is None
    if name == "last":
        return lambda st, L: xs[-1] if (xs := selected(st, L)) else None
    if name == "sum":
        return add_up
    if name == "max":
        return lambda st, L: max(selected(st, L), default=0)
    if name == "min":
        return lambda st, L: min(selected(st, L), default=0)
    return selected     # filter

