"""Load-time bounds on a spec: the numbers it writes, its cards and its functions.

What the engine counts while playing (see ``rulelang.limits``) is cheap only
when the spec itself stays in proportion: numbers in its YAML within the game's
``number_limit``, a card count a computer can lay out, and functions whose
calls form a shallow tree (a function is a value: it may not loop, and a
chain of hundreds of them would overflow Python's stack while playing).
"""
from __future__ import annotations

from typing import Any, Iterator

from .. import nodes as n
from ..limits import FUNCTION_DEPTH

MAX_CARDS = 10_000      # card instances in one game, all kinds together


def _is_number(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def numbers_in_play(data: dict) -> Iterator[tuple[tuple, int]]:
    """Every whole number of the YAML that a rule can read: (its path, the value)."""
    for name, value in (data.get("card_props") or {}).items():
        yield ("card_props", name), value
    for i, card in enumerate(data.get("cards") or []):
        for key, value in ((card or {}).get("props") or {}).items():
            yield ("cards", i, "props", key), value
    for name, decl in (data.get("vars") or {}).items():
        yield ("vars", name, "initial"), (decl or {}).get("initial")
    for group in ("locations", "counters"):
        for name, decl in (data.get(group) or {}).items():
            for key, value in (decl or {}).items():
                yield (group, name, key), value
    for name, table in (data.get("tables") or {}).items():
        for key, row in ((table or {}).get("rows") or {}).items():
            for j, value in enumerate(row if isinstance(row, list) else []):
                yield ("tables", name, "rows", key, j), value


def numbers_out_of_range(data: dict, limit: int) -> list[tuple[tuple, int]]:
    """The numbers of ``numbers_in_play`` that lie outside [-limit, limit]."""
    return [(path, value) for path, value in numbers_in_play(data)
            if _is_number(value) and not -limit <= value <= limit]


def card_total(data: dict) -> int:
    return sum(card.get("count", 1) for card in data.get("cards") or [] if isinstance(card, dict)
               and _is_number(card.get("count", 1)))


def function_order(calls: dict[str, list[n.Call]]) -> tuple[list[str], list[tuple[str, n.Call]]]:
    """The functions with every callee before its callers, and the calls that close a loop.

    A loop is reported once, as (a function on it, its call that leads back round
    to it). Iterative, so a long chain of functions cannot overflow the stack.
    """
    order: list[str] = []
    state: dict[str, int] = {}          # 1: on the current path, 2: done
    loops: list[tuple[str, n.Call]] = []
    for root in calls:
        if state.get(root):
            continue
        state[root] = 1
        path: list[list] = [[root, 0]]  # [function, how many of its calls are explored]
        while path:
            step = path[-1]
            made = calls.get(step[0], [])
            if step[1] == len(made):
                path.pop()
                state[step[0]] = 2
                order.append(step[0])
                continue
            callee = made[step[1]].func
            step[1] += 1
            if state.get(callee) == 1:  # back on the path: a loop starting at callee
                name, explored = next(s for s in path if s[0] == callee)
                loops.append((name, calls[name][explored - 1]))
            elif not state.get(callee):
                state[callee] = 1
                path.append([callee, 0])
    return order, loops


def too_deep_functions(order: list[str], calls: dict[str, list[n.Call]]) -> list[tuple[str, n.Call]]:
    """Functions that reach more than FUNCTION_DEPTH functions deep: each with its call that goes deepest."""
    depth: dict[str, int] = {}
    found = []
    for name in order:                  # callees first
        deepest, via = 0, None
        for call in calls.get(name, []):
            d = depth.get(call.func, 0)
            if d > deepest:
                deepest, via = d, call
        depth[name] = deepest + 1
        if depth[name] > FUNCTION_DEPTH and deepest == FUNCTION_DEPTH:    # report where the limit is crossed
            found.append((name, via))
    return found
