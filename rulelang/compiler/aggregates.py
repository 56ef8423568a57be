"""Aggregates over lists as closures: count, sum, any, all, first, last, empty, max, min, filter, range.

Every item an aggregate looks at is a unit of work (``st.work``), and a sum stays within the
game's number_limit; a comprehension binds its variable and restores it after. Generated
code (``source_expr``) writes the same loops out in Python.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rulelang.engine.limits import MAX_OPTIONS, over_budget, spend, too_big

from ..errors import RuleError

Fn = Callable[[Any, dict], Any]
_MISSING = object()

def number_range(low: Fn, high: Fn, span) -> Fn:
    """`range(a, b)`: the numbers a to b - 1, each charged as work, at most MAX_OPTIONS of them."""
    return lambda st, L: numbers_between(st, low(st, L), high(st, L), span)


def numbers_between(st: Any, lo: int, hi: int, span) -> list[int]:
    """`range(lo, hi)` once its ends are known (generated code calls it as ``_numbers_between``)."""
    if hi - lo > MAX_OPTIONS:
        raise RuleError(f"range({lo:,}, {hi:,}) has more than the {MAX_OPTIONS:,} numbers a list of "
                        "numbers may have", span)
    if hi > lo:
        spend(st, hi - lo)
    return list(range(lo, hi))


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


def any_of_kind(st: Any, cards: list, table: list[bool]) -> bool:
    """`has`: is any of the cards of the kind (``table``: one bool per card instance)? Each card looked at is work."""
    st.work -= len(cards)       # spend(), written out: this runs for most card-play targets
    if st.work < 0:
        raise over_budget(st)
    for c in cards:
        if table[c]:
            return True
    return False


def comprehension(name: str, var: str, items: Fn, cond: Fn | None, value: Fn, limit: int, span: Any) -> Fn:
    """An aggregate over `var in items where cond`; `var` is bound, then restored.

    Expressions never change the state, so the items are read in place. Each
    item is a unit of work. `any`, `first`, `empty` stop at the first item that
    passes and `all` at the first that fails; the others take the values of every
    item that passes. (Generated code, ``source_expr``, writes the same loops out.)
    """
    keep = cond if cond is not None else (lambda st, L: True)

    def walk(st: Any, L: dict, collect: bool, stop_on: bool | None) -> tuple[list, Any]:
        """(the items that passed, or their values; the item it stopped at, or _MISSING)."""
        saved, out, stopped = L.get(var, _MISSING), [], _MISSING
        xs = items(st, L)
        spend(st, len(xs))
        for x in xs:
            L[var] = x
            passed = keep(st, L)
            if stop_on is not None and bool(passed) is stop_on:
                stopped = x
                break
            if passed:
                out.append(value(st, L) if collect else x)
        if var in L:
            if saved is _MISSING:
                del L[var]
            else:
                L[var] = saved
        return out, stopped

    def first_match(st: Any, L: dict) -> Any:
        found = walk(st, L, False, True)[1]
        return None if found is _MISSING else found

    def add_up(st: Any, L: dict) -> int:
        total = sum(walk(st, L, True, None)[0])
        if -limit <= total <= limit:
            return total
        raise too_big(total, limit, span)

    def values(st: Any, L: dict) -> list:
        return walk(st, L, True, None)[0]

    simple = {"any": lambda st, L: first_match(st, L) is not None,
              "first": first_match,
              "empty": lambda st, L: first_match(st, L) is None,
              "all": lambda st, L: walk(st, L, False, False)[1] is _MISSING,
              "count": lambda st, L: len(walk(st, L, False, None)[0]),
              "sum": add_up,
              "last": lambda st, L: xs[-1] if (xs := values(st, L)) else None,
              "max": lambda st, L: max(values(st, L), default=0),
              "min": lambda st, L: min(values(st, L), default=0)}
    return simple.get(name, values)     # filter: the values themselves
